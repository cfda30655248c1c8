#!/usr/bin/env bash
# YCSB Load A open loop, stock vs vLSM side by side at one offered rate:
# the paper's tail-latency experiment at one point of its load axis.
# VLSM_YCSB_ROUNDS rounds alternate stock and vLSM (default 3); the table
# gives each figure's median over the rounds.
#
#   stock  ycsb_vlsm's baseline sizing: 64 MiB SSTs and memtables, L1 256
#          MiB, f 8 (ycsb/README.md)
#   vlsm   -p vlsm=true: S_M 8 MiB, f 8, Phi 32
# Both: 200-byte values, 4 client threads, direct I/O, no compression,
# 2 background jobs, one region.
#
# Environment: VLSM_YCSB_RATE (offered inserts/s, default 40000),
# VLSM_YCSB_RECORDS (default 6000000: 150 s at 40 K/s), VLSM_YCSB_ROUNDS,
# VLSM_BENCH_DIR (default build/bench/ycsb-load-a; not tmpfs: direct I/O).
# Output: <dir>/<system>-<round>.{json,csv,out,err} and the table.
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/checks.sh
source "$VLSM_ROOT/scripts/lib/checks.sh"
rate=${VLSM_YCSB_RATE:-40000}
records=${VLSM_YCSB_RECORDS:-6000000}
rounds=${VLSM_YCSB_ROUNDS:-3}
out=${VLSM_BENCH_DIR:-$VLSM_ROOT/build/bench/ycsb-load-a}
require_positive_int VLSM_YCSB_RATE "$rate"
require_positive_int VLSM_YCSB_RECORDS "$records"
require_positive_int VLSM_YCSB_ROUNDS "$rounds"
cmake --build "$VLSM_ROOT/build" -j "${VLSM_JOBS:-2}" --target ycsb_vlsm | tail -1
mkdir -p "$out"
common=(-P "$VLSM_ROOT/ycsb/workloads/workloada" -p fieldcount=1 -p fieldlength=200
        -p recordcount="$records" -p threads=4 -p direct_io=true -p target="$rate")
reports=()
for ((round = 1; round <= rounds; round++)); do
  for system in stock vlsm; do
    extra=()
    [ "$system" = vlsm ] && extra=(-p vlsm=true)
    name="$system-$round"
    echo "== $name: Load A, $records inserts at $rate/s"
    rm -rf "$out/$system-db"
    if ! "$VLSM_ROOT/build/ycsb_vlsm" load "${common[@]}" "${extra[@]}" \
        -p rocksdb.dir="$out/$system-db" -p report="$out/$name.json" \
        > "$out/$name.out" 2> "$out/$name.err"; then
      echo "error: ycsb_vlsm failed for $name; see $out/$name.err" >&2
      exit 1
    fi
    rm -rf "$out/$system-db"
    reports+=("$system=$out/$name.json")
  done
done
python3 "$VLSM_ROOT/scripts/bench/summarize_ycsb.py" "${reports[@]}"
