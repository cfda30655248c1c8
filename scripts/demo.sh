#!/usr/bin/env bash
# The main job: the same db_bench fill on stock leveled RocksDB and on vLSM,
# side by side, in one run on this machine, then one table of figures.
#
#   stock  paper sizing: 64 MiB SSTs and memtables (2), L1 256 MiB, f 8,
#          5 levels, dynamic level bytes off, kMinOverlappingRatio
#   vlsm   ConfigureVlsm defaults: S_M 8 MiB (SSTs and memtables, 2), f 8,
#          Phi 32 (L1 64 MiB, L2 2 GiB), L0 trigger 1, compaction_pri kVlsm
# Both: 16-byte keys, 200-byte values, uniform random inserts, one writer,
# no compression, direct I/O for flush and compaction, 2 background jobs,
# WAL on without sync. vLSM's memtables take 16 MiB, stock's 128 MiB.
#
# Environment: VLSM_DEMO_KEYS (default 10000000, ~2.2 GB of user data),
# VLSM_DEMO_DIR (default build/demo; needs O_DIRECT, so not tmpfs),
# VLSM_JOBS (build jobs, default 2).
# Output: the table on stdout; build/demo/summary.json; per-run db_bench
# output, LOG and tree report under build/demo/<system>/.
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$VLSM_ROOT"
. scripts/lib/deps.sh

keys=${VLSM_DEMO_KEYS:-10000000}
out=${VLSM_DEMO_DIR:-$VLSM_ROOT/build/demo}
case "$keys" in ''|*[!0-9]*) echo "error: VLSM_DEMO_KEYS must be a whole number, got '$keys'" >&2; exit 2;; esac
[ "$keys" -ge 100000 ] || { echo "error: VLSM_DEMO_KEYS must be at least 100000 to fill more than L0" >&2; exit 2; }

vlsm_install_packages "${VLSM_BUILD_PACKAGES[@]}" python3 time
echo "== building db_bench and vlsm_tree_report (Release)"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "${VLSM_JOBS:-2}" --target db_bench vlsm_tree_report | tail -1

common=(--benchmarks=fillrandom,stats --num="$keys" --key_size=16 --value_size=200
        --compression_type=none --use_direct_io_for_flush_and_compaction=true
        --max_background_jobs=2 --threads=1 --statistics=1 --histogram=1
        --num_levels=5 --level_compaction_dynamic_level_bytes=false
        --max_write_buffer_number=2 --max_bytes_for_level_multiplier=8
        --seed=1 --stats_per_interval=0)
stock=(--compaction_pri=3 --write_buffer_size=$((64 << 20))
       --target_file_size_base=$((64 << 20)) --max_bytes_for_level_base=$((256 << 20))
       --level0_file_num_compaction_trigger=4)
# The values ConfigureVlsm() (include/rocksdb/vlsm.h) sets for (8 MiB, 8, 32).
vlsm=(--compaction_pri=5 --write_buffer_size=$((8 << 20))
      --target_file_size_base=$((8 << 20)) --max_bytes_for_level_base=$((64 << 20))
      --max_bytes_for_level_multiplier_additional=1,4,1,1,1
      --level0_file_num_compaction_trigger=1 --max_compaction_bytes=$((80 << 20)))

run() {  # name, flags...
  local name=$1; shift
  local dir="$out/$name"
  rm -rf "$dir"; mkdir -p "$dir"
  echo "== $name: fillrandom of $keys keys into $dir/db"
  local t0; t0=$(date +%s)
  /usr/bin/time -f '%U %S' -o "$dir/time.txt" \
    build/db_bench "${common[@]}" "$@" --db="$dir/db" > "$dir/db_bench.out" 2> "$dir/db_bench.err" || {
      echo "error: db_bench failed for $name; see $dir/db_bench.err:" >&2; tail -5 "$dir/db_bench.err" >&2; exit 1; }
  grep -E '^fillrandom' "$dir/db_bench.out" || true
  echo "   $(( $(date +%s) - t0 )) s"
  cp "$dir/db/LOG" "$dir/LOG"
  build/vlsm_tree_report "$dir/db" > "$dir/tree.json"
}

run stock "${stock[@]}"
run vlsm "${vlsm[@]}"
rm -rf "$out/stock/db" "$out/vlsm/db"  # keep the reports, not GBs of SSTs

echo
echo "== stock leveled RocksDB vs vLSM, $keys random inserts (16 B keys, 200 B values)"
python3 scripts/bench/summarize_fill.py --json "$out/summary.json" stock="$out/stock" vlsm="$out/vlsm"
