#!/usr/bin/env bash
# Experiments 1 (second half) and 3 of docs/results.md: YCSB Run A, B, C
# and D after Load A, uniform and Zipfian, side by side.
#   0. each system gets one DB, filled by a closed-loop Load A of
#      VLSM_EVAL_RECORDS records; the runs below all use that DB;
#      every phase (fill and run) ends by waiting for its flushes and
#      compactions (rocksdb.wait_for_compaction, not counted in its time),
#      so each run starts from a settled tree, not from the debt a
#      closed-loop fill or the run before it left, and its bytes and CPU
#      include the compaction its own writes caused;
#   1. for each workload and distribution, each system's closed-loop rate
#      (VLSM_EVAL_RUN_SECONDS/2 seconds, 4 client threads);
#   3. then an open-loop run of VLSM_EVAL_RUN_SECONDS at VLSM_EVAL_RUN_LOAD
#      percent of RocksDB's closed-loop rate for that same workload and
#      distribution, every system at the same offered rate.
# Systems alternate at every step, so a slow minute of the machine does
# not fall on one system only. Workload D's own distribution is "latest";
# here it runs uniform and Zipfian like the others, as the issue asks.
# scripts/bench/eval/report.py turns the output into tables.
#
# Environment (systems and shared settings: systems.sh):
#   VLSM_EVAL_SYSTEMS      default "rocksdb rocksdb-io vlsm"; must include
#                          rocksdb (its rates set the offered loads)
#   VLSM_EVAL_WORKLOADS    default "a b c d"
#   VLSM_EVAL_DISTRIBUTIONS default "uniform zipfian"
#   VLSM_EVAL_RECORDS      default 48000000 (as load_a.sh)
#   VLSM_EVAL_RUN_SECONDS  open-loop run length, default 120
#   VLSM_EVAL_RUN_LOAD     percent of RocksDB's rate offered, default 80
#   VLSM_EVAL_OUT          results (default build/eval/<timestamp>)
#   VLSM_EVAL_DB           DB directories' parent (default build/eval-db;
#                          one <system> directory each, removed at the end)
# Output: <out>/config.txt, fill-<system>.*, closed-<w>-<dist>-<system>.*,
#         run<pct>-<w>-<dist>-<system>.{json,machine.json,csv,out,err}.
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
workloads=${VLSM_EVAL_WORKLOADS:-a b c d}
distributions=${VLSM_EVAL_DISTRIBUTIONS:-uniform zipfian}
records=${VLSM_EVAL_RECORDS:-48000000}
seconds=${VLSM_EVAL_RUN_SECONDS:-120}
pct=${VLSM_EVAL_RUN_LOAD:-80}
out=${VLSM_EVAL_OUT:-$VLSM_ROOT/build/eval/$(date +%Y%m%d-%H%M%S)}
dbs=${VLSM_EVAL_DB:-$VLSM_ROOT/build/eval-db}
ycsb=$VLSM_ROOT/build/ycsb_vlsm
require_positive_int VLSM_EVAL_RECORDS "$records"
require_positive_int VLSM_EVAL_RUN_SECONDS "$seconds"
require_positive_int VLSM_EVAL_RUN_LOAD "$pct"
for s in $systems; do eval_system_props "$s" > /dev/null; done
case " $systems " in *" rocksdb "*) ;; *) echo "error: VLSM_EVAL_SYSTEMS must include rocksdb: its rates set the offered loads" >&2; exit 2;; esac
for w in $workloads; do
  [ -f "$VLSM_ROOT/ycsb/workloads/workload$w" ] || { echo "error: VLSM_EVAL_WORKLOADS: no workload '$w' (a b c d e f)" >&2; exit 2; }
done
for d in $distributions; do
  case "$d" in uniform|zipfian|latest) ;; *) echo "error: VLSM_EVAL_DISTRIBUTIONS: '$d' is not uniform, zipfian or latest" >&2; exit 2;; esac
done
[ -x "$ycsb" ] || { echo "error: $ycsb not built (cmake --build build --target ycsb_vlsm)" >&2; exit 2; }
mkdir -p "$out"
mapfile -t common < <(eval_common_props)
{
  echo "run-abcd $(date -u +%Y-%m-%dT%H:%MZ): records=$records workloads=$workloads distributions=$distributions systems=$systems run_seconds=$seconds run_load=$pct"
  eval_settings_lines
} >> "$out/config.txt"
cleanup() { for s in $systems; do rm -rf "${dbs:?}/$s"; done; }
trap cleanup EXIT
echo "== Run A-D: $records records, systems: $systems; output $out"

echo "== 0. fill each system's DB (closed-loop Load A)"
for s in $systems; do
  rm -rf "${dbs:?}/$s" && mkdir -p "$dbs/$s"
  eval_ycsb load "fill-$s" "$s" "$dbs/$s" -p recordcount="$records" \
    -p rocksdb.wait_for_compaction=true
done

# The run phase's properties: workload W's file (read after workloada, so
# it wins), the distribution, and a length in seconds, not operations.
run_props() {  # W DIST SECONDS
  printf '%s\n' -P "$VLSM_ROOT/ycsb/workloads/workload$1" \
    -p requestdistribution="$2" -p recordcount="$records" \
    -p operationcount=0 -p maxexecutiontime="$3" -p rocksdb.wait_for_compaction=true
}

for w in $workloads; do
  for d in $distributions; do
    mapfile -t props < <(run_props "$w" "$d" "$(( (seconds + 1) / 2 ))")
    echo "== 1. Run ${w^^} $d: closed-loop rate"
    for s in $systems; do
      eval_ycsb run "closed-$w-$d-$s" "$s" "$dbs/$s" "${props[@]}"
    done
    closed=$(eval_achieved "$out/closed-$w-$d-rocksdb.json")
    rate=$(( closed * pct / 100 ))
    echo "run-$w-$d rocksdb_closed_loop=$closed offered=$rate" >> "$out/config.txt"
    mapfile -t props < <(run_props "$w" "$d" "$seconds")
    echo "== 3. Run ${w^^} $d: open loop at $pct% of RocksDB's rate, $rate ops/s"
    for s in $systems; do
      eval_ycsb run "run$pct-$w-$d-$s" "$s" "$dbs/$s" "${props[@]}" -p target="$rate"
    done
  done
done
echo "== done: python3 scripts/bench/eval/report_runs.py $out"
