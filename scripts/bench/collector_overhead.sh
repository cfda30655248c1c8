#!/usr/bin/env bash
# What the LSM metrics collector costs: the same fillrandom with upstream's
# db_bench (no collector) and with db_bench_vlsm (collector attached, vLSM
# off), alternating, ROUNDS times (default 5); prints each
# run's ops/s and the median ratio. Two cases: memtable only (no flush, the
# write path alone) and with flushes and compactions (callbacks firing).
#
# usage: collector_overhead.sh [SETTINGS.env] [KEY=VALUE...]: KEYS (default
# 2000000), ROUNDS, OUT (default build/bench/overhead).
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/checks.sh
source "$VLSM_ROOT/scripts/lib/checks.sh"
# shellcheck source=settings.sh
source "$VLSM_ROOT/scripts/bench/settings.sh"
# shellcheck source=../lib/deps.sh
source "$VLSM_ROOT/scripts/lib/deps.sh"
declare -A S=([KEYS]=2000000 [ROUNDS]=5 [OUT]=build/bench/overhead)
settings_read "$@"
keys=${S[KEYS]} rounds=${S[ROUNDS]} out=${S[OUT]}
out=$(settings_dir OUT "$out") || exit 2
require_positive_int KEYS "$keys"
require_positive_int ROUNDS "$rounds"
vlsm_release_tree --update db_bench db_bench_vlsm
mkdir -p "$out"

ops() {  # binary, flags... -> ops/s of the fillrandom line
  "$@" --db="$out/db" --benchmarks=fillrandom --num="$keys" --value_size=200 \
    --compression_type=none --seed=1 2>/dev/null |
    awk '/^fillrandom/ { for (i = 1; i < NF; i++) if ($(i+1) == "ops/sec") print $i }'
}

measure() {  # label, db_bench flags...
  local label=$1; shift
  local -a plain=() with=()
  for ((r = 1; r <= rounds; r++)); do
    rm -rf "$out/db"; plain+=("$(ops "$VLSM_ROOT/build/db_bench" "$@")")
    rm -rf "$out/db"; with+=("$(ops "$VLSM_ROOT/build/db_bench_vlsm" "$@")")
  done
  rm -rf "$out/db"
  python3 - "$label" "${plain[*]}" "${with[*]}" <<'PY'
import statistics, sys
label, plain, with_ = sys.argv[1], list(map(int, sys.argv[2].split())), list(map(int, sys.argv[3].split()))
p, w = statistics.median(plain), statistics.median(with_)
print("%-34s db_bench %s | with collector %s | median ratio %.3f"
      % (label, " ".join(map(str, plain)), " ".join(map(str, with_)), w / p))
PY
}

measure "memtable only (1 GiB memtable)" --write_buffer_size=$((1 << 30))
measure "flushes + compactions (4 MiB SSTs)" --write_buffer_size=$((4 << 20)) \
  --target_file_size_base=$((4 << 20)) --max_bytes_for_level_base=$((16 << 20))
