#!/usr/bin/env bash
# What the allocator costs (issue 23): db_bench_vlsm fillrandom with jemalloc
# linked into the executable (build/db_bench_vlsm, as the fork ships its
# tools) and without it (build/db_bench_vlsm_glibc: glibc malloc, what a
# process that brings no allocator gets, since librocksdb.so.9 links none).
# RocksDB and vLSM (scripts/bench/systems.py), alternating the two
# binaries ROUNDS times (default 3). Prints each run's ops/s, P99
# write latency and peak RSS, and the medians' ratios (glibc / jemalloc);
# writes the same to $out/summary.json.
#
# usage: allocator.sh [SETTINGS.env] [KEY=VALUE...]: KEYS (default 2000000
# records of 200 bytes), ROUNDS, OUT (default build/bench/allocator).
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/checks.sh
source "$VLSM_ROOT/scripts/lib/checks.sh"
# shellcheck source=settings.sh
source "$VLSM_ROOT/scripts/bench/settings.sh"
declare -A S=([KEYS]=2000000 [ROUNDS]=3 [OUT]=build/bench/allocator)
settings_read "$@"
keys=${S[KEYS]} rounds=${S[ROUNDS]} out=${S[OUT]}
out=$(settings_dir OUT "$out") || exit 2
require_positive_int KEYS "$keys"
require_positive_int ROUNDS "$rounds"
# shellcheck source=lib.sh
source "$VLSM_ROOT/scripts/bench/lib.sh"
vlsm_release_tree --update db_bench_vlsm db_bench_vlsm_glibc
mkdir -p "$out"
: > "$out/runs.tsv"

run() {  # system, allocator -> one line in runs.tsv: system allocator ops/s p99_us rss_kib
  local system=$1 alloc=$2 bin=$VLSM_ROOT/build/db_bench_vlsm flags_text
  [ "$alloc" = glibc ] && bin=$VLSM_ROOT/build/db_bench_vlsm_glibc
  flags_text=$(python3 "$VLSM_ROOT/scripts/bench/systems.py" db_bench "$system")
  local -a sys_flags
  mapfile -t sys_flags <<< "$flags_text"
  rm -rf "$out/db"
  /usr/bin/time -f '%M' -o "$out/rss" "$bin" "${bench_common[@]}" "${sys_flags[@]}" \
    --db="$out/db" --benchmarks=fillrandom,waitforcompaction --num="$keys" \
    --value_size=200 > "$out/run.out" 2> "$out/run.err" ||
    { tail -5 "$out/run.err" >&2; exit 1; }
  local ops p99
  ops=$(awk '/^fillrandom/ { for (i = 1; i < NF; i++) if ($(i+1) == "ops/sec") print $i }' "$out/run.out")
  p99=$(awk '/^Percentiles:/ { for (i = 1; i < NF; i++) if ($i == "P99:") { print $(i+1); exit } }' "$out/run.out")
  printf '%s\t%s\t%s\t%s\t%s\n' "$system" "$alloc" "$ops" "$p99" "$(cat "$out/rss")" | tee -a "$out/runs.tsv"
}

echo "system allocator ops/s p99_us peak_rss_kib"
for ((r = 1; r <= rounds; r++)); do
  for system in rocksdb vlsm; do
    run "$system" jemalloc
    run "$system" glibc
  done
done
rm -rf "$out/db"
python3 - "$out" <<'PY'
import json, statistics, sys
out = sys.argv[1]
runs = [line.split("\t") for line in open(f"{out}/runs.tsv").read().split("\n") if line]
summary = {}
for system in ("rocksdb", "vlsm"):
    med = {}
    for alloc in ("jemalloc", "glibc"):
        rows = [r for r in runs if r[0] == system and r[1] == alloc]
        med[alloc] = {"runs": len(rows),
                      "ops_per_sec": statistics.median(float(r[2]) for r in rows),
                      "p99_us": statistics.median(float(r[3]) for r in rows),
                      "peak_rss_mib": statistics.median(float(r[4]) for r in rows) / 1024}
    ratio = {k: med["glibc"][k] / med["jemalloc"][k] for k in ("ops_per_sec", "p99_us", "peak_rss_mib")}
    summary[system] = {"median": med, "glibc_over_jemalloc": ratio}
    print(f"{system:7}: ops/s {med['jemalloc']['ops_per_sec']:.0f} (jemalloc) vs "
          f"{med['glibc']['ops_per_sec']:.0f} (glibc), ratio {ratio['ops_per_sec']:.3f}; "
          f"P99 {med['jemalloc']['p99_us']:.1f} vs {med['glibc']['p99_us']:.1f} us; "
          f"peak RSS {med['jemalloc']['peak_rss_mib']:.0f} vs {med['glibc']['peak_rss_mib']:.0f} MiB")
json.dump(summary, open(f"{out}/summary.json", "w"), indent=1)
print(f"medians of {len(runs) // 4} rounds; {out}/summary.json")
PY
