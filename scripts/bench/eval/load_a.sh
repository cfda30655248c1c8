#!/usr/bin/env bash
# Experiments 1, 2 and 5 of docs/results.md: YCSB Load A, side by side.
#   1. each system's sustainable Load A rate: a closed-loop load of the
#      whole dataset (4 client threads), its average throughput;
#   2. open-loop Load A at VLSM_EVAL_LOADS percent of RocksDB's rate
#      (step 1's, or VLSM_EVAL_BASE_RATE), every system at the same
#      offered rates, alternating systems at each load;
#   5. the same on vlsm-sst4/16 and vlsm-phi16/64 (VLSM_EVAL_SYSTEMS).
# Each run starts from an empty DB and loads VLSM_EVAL_RECORDS records.
# scripts/bench/eval/report.py turns the output into tables and figures.
#
# Environment (systems and shared settings: systems.sh):
#   VLSM_EVAL_SYSTEMS   default "rocksdb rocksdb-io vlsm"
#   VLSM_EVAL_LOADS     default "50 70 80 90 95" (percent); "none" runs
#                       step 1 only (e.g. another sample of the sustainable
#                       rates into a new directory)
#   VLSM_EVAL_RECORDS   default 48000000 (10.4 GB: with 4 regions each tree
#                       has L3 partly full, the paper's shape)
#   VLSM_EVAL_BASE_RATE take this as RocksDB's rate; step 1 is then skipped
#                       unless VLSM_EVAL_SUSTAINABLE=1 (e.g. step 1 on
#                       the sensitivity systems alone)
#   VLSM_EVAL_MAX_SECONDS  open-loop runs stop generating after this long
#                       (default 1200; an overloaded system then drains its
#                       queue); step 1 always loads the whole dataset
#   VLSM_EVAL_OUT       results (default build/eval/<timestamp>)
#   VLSM_EVAL_DB        DB directory (default build/eval-db; not tmpfs:
#                       direct I/O)
# Output: <out>/config.txt, sustainable-<system>.{json,machine.json,csv,out,err},
#         load<pct>-<system>.{json,machine.json,csv,out,err}.
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=../../lib/checks.sh
source "$VLSM_ROOT/scripts/lib/checks.sh"
# shellcheck source=systems.sh
source "$VLSM_ROOT/scripts/bench/eval/systems.sh"
# shellcheck source=ycsb_run.sh
source "$VLSM_ROOT/scripts/bench/eval/ycsb_run.sh"
eval_check_settings
systems=${VLSM_EVAL_SYSTEMS:-rocksdb rocksdb-io vlsm}
loads=${VLSM_EVAL_LOADS:-50 70 80 90 95}
records=${VLSM_EVAL_RECORDS:-48000000}
max_seconds=${VLSM_EVAL_MAX_SECONDS:-1200}
out=${VLSM_EVAL_OUT:-$VLSM_ROOT/build/eval/$(date +%Y%m%d-%H%M%S)}
db=${VLSM_EVAL_DB:-$VLSM_ROOT/build/eval-db}
ycsb=$VLSM_ROOT/build/ycsb_vlsm
require_positive_int VLSM_EVAL_RECORDS "$records"
require_positive_int VLSM_EVAL_MAX_SECONDS "$max_seconds"
[ -z "${VLSM_EVAL_BASE_RATE:-}" ] || require_positive_int VLSM_EVAL_BASE_RATE "$VLSM_EVAL_BASE_RATE"
require_flag VLSM_EVAL_SUSTAINABLE "${VLSM_EVAL_SUSTAINABLE:-0}"
if [ "$loads" = none ]; then
  # Step 1 alone: with a given base rate it would be skipped, and nothing run.
  [ -z "${VLSM_EVAL_BASE_RATE:-}" ] || [ "${VLSM_EVAL_SUSTAINABLE:-0}" = 1 ] || {
    echo "error: VLSM_EVAL_LOADS=none with VLSM_EVAL_BASE_RATE runs nothing: set VLSM_EVAL_SUSTAINABLE=1 to measure the sustainable rates" >&2; exit 2; }
  loads=
else
  for pct in $loads; do require_positive_int VLSM_EVAL_LOADS "$pct"; done
fi
for s in $systems; do eval_system_props "$s" > /dev/null; done
[ -x "$ycsb" ] || { echo "error: $ycsb not built (cmake --build build --target ycsb_vlsm)" >&2; exit 2; }
mkdir -p "$out"
mapfile -t common < <(eval_common_props)
# config.txt gets one paragraph per invocation, so runs added to an output
# directory later (VLSM_EVAL_BASE_RATE and more loads) say how they ran.
{
  echo "run $(date -u +%Y-%m-%dT%H:%MZ): records=$records loads=${loads:-none} systems=$systems max_seconds=$max_seconds"
  eval_settings_lines
} >> "$out/config.txt"
echo "== evaluation: $records records, systems: $systems; output $out"

# run NAME SYSTEM [ycsb properties...]: one load on an empty DB.
run() {
  local name=$1 system=$2; shift 2
  rm -rf "$db"
  eval_ycsb load "$name" "$system" "$db" -p recordcount="$records" "$@" \
    || { rm -rf "$db"; return 1; }
  rm -rf "$db"
}

if [ -z "${VLSM_EVAL_BASE_RATE:-}" ] || [ "${VLSM_EVAL_SUSTAINABLE:-0}" = 1 ]; then
  echo "== 1. sustainable Load A rate (closed loop, whole dataset)"
  for s in $systems; do run "sustainable-$s" "$s"; done
fi
if [ -z "$loads" ]; then
  echo "== done (no open-loop loads): python3 scripts/bench/eval/report.py $out"
  exit 0
fi
if [ -n "${VLSM_EVAL_BASE_RATE:-}" ]; then
  base=$VLSM_EVAL_BASE_RATE
  echo "== RocksDB's rate given: $base ops/s"
else
  [ -f "$out/sustainable-rocksdb.json" ] || { echo "error: the load percentages are of RocksDB's rate: put rocksdb in VLSM_EVAL_SYSTEMS or set VLSM_EVAL_BASE_RATE" >&2; exit 2; }
  base=$(eval_achieved "$out/sustainable-rocksdb.json")
fi
echo "base_rate=$base" >> "$out/config.txt"

echo "== 2. open-loop Load A at $loads % of $base ops/s"
for pct in $loads; do
  rate=$(( base * pct / 100 ))
  for s in $systems; do
    run "load$pct-$s" "$s" -p target="$rate" -p maxexecutiontime="$max_seconds"
  done
done
echo "== done: python3 scripts/bench/eval/report.py $out"
