#!/usr/bin/env bash
# The paper's db_bench write workloads, RocksDB vs vLSM side by side:
# fillrandom (uniform random inserts into an empty DB), then overwrite
# (uniform random updates of those keys) on the filled DB. Each phase is its
# own db_bench_vlsm run with its own metrics report. Closed loop: it
# measures I/O amplification and compaction shape, not latency under load.
#
# usage: fill.sh [SETTINGS.env] [KEY=VALUE...]   (scripts/bench/README.md)
#   KEYS     keys of 16 + 200 bytes (default 10000000)
#   SYSTEMS  default "rocksdb vlsm" (scripts/bench/systems.py)
#   OUT      default build/bench/fill (not tmpfs: direct I/O)
# Output: <OUT>/<system>-<phase>.{json,out,err,time,machine.json}, the table
# on stdout and <OUT>/summary.json.
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/checks.sh
source "$VLSM_ROOT/scripts/lib/checks.sh"
# shellcheck source=settings.sh
source "$VLSM_ROOT/scripts/bench/settings.sh"
declare -A S=([KEYS]=10000000 [SYSTEMS]="rocksdb vlsm" [OUT]=build/bench/fill)
settings_read "$@"
require_positive_int KEYS "${S[KEYS]}"
keys=${S[KEYS]} out=${S[OUT]}
out=$(settings_dir OUT "$out") || exit 2
for system in ${S[SYSTEMS]}; do python3 "$VLSM_ROOT/scripts/bench/systems.py" options "$system" >/dev/null || exit 2; done
. "$VLSM_ROOT/scripts/lib/deps.sh"
. "$VLSM_ROOT/scripts/bench/lib.sh"

vlsm_install_packages "${VLSM_BUILD_PACKAGES[@]}" python3 time
vlsm_bench_build
runs=()
for system in ${S[SYSTEMS]}; do
  db="$out/$system-db"
  rm -rf "$db"
  vlsm_bench_run "$out" "$system-fillrandom" "$system" --benchmarks=fillrandom,waitforcompaction \
    --num="$keys" --value_size=200 --db="$db"
  vlsm_bench_run "$out" "$system-overwrite" "$system" --benchmarks=overwrite,waitforcompaction \
    --num="$keys" --value_size=200 --db="$db" --use_existing_db=1
  rm -rf "$db"
  runs+=("$system-fillrandom=$out/$system-fillrandom.json"
         "$system-overwrite=$out/$system-overwrite.json")
done
echo
echo "== fillrandom then overwrite, $keys keys (16 B keys, 200 B values), uniform"
python3 "$VLSM_ROOT/scripts/bench/eval/report_db_bench.py" --json "$out/summary.json" "${runs[@]}"
