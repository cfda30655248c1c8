#!/usr/bin/env bash
# The main job: the same db_bench fill on stock leveled RocksDB and on vLSM,
# side by side, in one run on this machine, then one table of figures.
# The systems and their flags are in scripts/bench/lib.sh (stock: the paper's
# sizing, 64 MiB SSTs/memtables, L1 256 MiB, f 8; vLSM: S_M 8 MiB, f 8,
# Phi 32). Both: 16-byte keys, 200-byte values, uniform random inserts, one
# writer, no compression, direct I/O for flush and compaction, 2 background
# jobs. The figures come from db_bench_vlsm's metrics report.
#
# Environment: VLSM_DEMO_KEYS (default 10000000, ~2.2 GB of user data),
# VLSM_DEMO_DIR (default build/demo; needs O_DIRECT, so not tmpfs),
# VLSM_JOBS (build jobs, default 2).
# Output: the table on stdout; build/demo/summary.json; per system
# <system>.json (metrics report), .out (db_bench output), .err, .time,
# .machine.json (what else the machine did: scripts/bench/machine.sh).
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$VLSM_ROOT"
. scripts/lib/deps.sh
. scripts/bench/lib.sh

keys=${VLSM_DEMO_KEYS:-10000000}
out=${VLSM_DEMO_DIR:-$VLSM_ROOT/build/demo}
case "$keys" in ''|*[!0-9]*) echo "error: VLSM_DEMO_KEYS must be a whole number, got '$keys'" >&2; exit 2;; esac
[ "$keys" -ge 100000 ] || { echo "error: VLSM_DEMO_KEYS must be at least 100000 to fill more than L0" >&2; exit 2; }

vlsm_install_packages "${VLSM_BUILD_PACKAGES[@]}" python3 time
echo "== building db_bench_vlsm (Release)"
vlsm_bench_build

for system in stock vlsm; do
  rm -rf "$out/$system-db"
  vlsm_bench_run "$out" "$system" "$system" --benchmarks=fillrandom,waitforcompaction \
    --num="$keys" --value_size=200 --db="$out/$system-db"
  rm -rf "$out/$system-db"  # keep the reports, not GBs of SSTs
done

echo
echo "== stock leveled RocksDB vs vLSM, $keys random inserts (16 B keys, 200 B values)"
python3 scripts/bench/summarize.py --json "$out/summary.json" \
  stock="$out/stock.json" vlsm="$out/vlsm.json"
