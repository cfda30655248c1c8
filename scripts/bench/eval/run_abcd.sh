#!/usr/bin/env bash
# The Run A-D experiments (docs/results/run-abcd-*; WORKLOADS adds E, scans): YCSB Run A, B, C
# and D after Load A, uniform and Zipfian, side by side.
#   0. each system gets one DB, filled by a closed-loop Load A of
#      RECORDS records; the runs below all use that DB;
#      every phase (fill and run) ends by waiting for its flushes and
#      compactions (rocksdb.wait_for_compaction, not counted in its time),
#      so each run starts from a settled tree, not from the debt a
#      closed-loop fill or the run before it left, and its bytes and CPU
#      include the compaction its own writes caused;
#   1. for each workload and distribution, each system's closed-loop rate
#      (RUN_SECONDS/2 seconds, 4 client threads);
#   3. then an open-loop run of RUN_SECONDS at RUN_LOAD
#      percent of RocksDB's closed-loop rate for that same workload and
#      distribution (or of BASE_RATE, given: step 1 is skipped), every
#      system at the same offered rate.
# FILL_SETTLE=0: the fill does not wait for its compactions, so the first
# run starts on the load's unpaid debt: reads and updates while the load's
# compactions still run (as the paper ran Run A after Load A). It needs
# BASE_RATE: a closed-loop sample would pay that debt first.
# Systems alternate at every step, so a slow minute of the machine does
# not fall on one system only. Workload D's own distribution is "latest";
# here it runs uniform and Zipfian like the others, as the issue asks.
# scripts/bench/eval/report.py turns the output into tables.
#
# usage: run_abcd.sh SETTINGS.env [KEY=VALUE...]
#   e.g. run_abcd.sh scripts/bench/eval/settings/run-abcd-4region-48M.env
# The settings (scripts/bench/README.md, "Settings"): SYSTEMS (must include
# rocksdb: its rates set the offered loads), WORKLOADS, DISTRIBUTIONS,
# RECORDS, RUN_SECONDS (open-loop run length), RUN_LOAD (percent of
# RocksDB's rate offered), BASE_RATE, FILL_SETTLE, OUT, DB (the DB directories' parent: one
# <system> directory each, removed at the end) and the shared ones.
# Output: <OUT>/config.txt, fill-<system>.*, closed-<w>-<dist>-<system>.*,
#         run<pct>-<w>-<dist>-<system>.{json,machine.json,csv,out,err}.
# Runs build/ycsb_vlsm (Release), building it if missing; with VLSM_BUILD_DIR
# set, that tree's ycsb_vlsm (scripts/lib/deps.sh).
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=../settings.sh
source "$VLSM_ROOT/scripts/bench/settings.sh"
# shellcheck source=ycsb_run.sh
source "$VLSM_ROOT/scripts/bench/eval/ycsb_run.sh"
[ $# -gt 0 ] || { echo "usage: $0 SETTINGS.env [KEY=VALUE...] (settings: $VLSM_ROOT/scripts/bench/eval/settings/)" >&2; exit 2; }
declare -A S
eval_shared_defaults
S[WORKLOADS]="a b c d" S[DISTRIBUTIONS]="uniform zipfian" S[RUN_SECONDS]=120 S[RUN_LOAD]=80
S[BASE_RATE]= S[FILL_SETTLE]=1
settings_read "$@"
eval_check_settings
require_flag FILL_SETTLE "${S[FILL_SETTLE]}"
[ -z "${S[BASE_RATE]}" ] || require_positive_int BASE_RATE "${S[BASE_RATE]}"
if [ "${S[FILL_SETTLE]}" = 0 ] && [ -z "${S[BASE_RATE]}" ]; then
  echo "error: FILL_SETTLE=0 needs BASE_RATE: a closed-loop sample would pay the fill's debt before the open-loop run" >&2; exit 2
fi
# A given rate is one workload's: Run A's rate offered to Run C would not
# be "80% of RocksDB's rate" for either.
if [ -n "${S[BASE_RATE]}" ] && { [ "$(wc -w <<< "${S[WORKLOADS]}")" != 1 ] || [ "$(wc -w <<< "${S[DISTRIBUTIONS]}")" != 1 ]; }; then
  echo "error: BASE_RATE is one workload's rate: give one WORKLOADS and one DISTRIBUTIONS (got '${S[WORKLOADS]}', '${S[DISTRIBUTIONS]}')" >&2; exit 2
fi
fill_settle=true
[ "${S[FILL_SETTLE]}" = 1 ] || fill_settle=false
systems=${S[SYSTEMS]} workloads=${S[WORKLOADS]} distributions=${S[DISTRIBUTIONS]}
records=${S[RECORDS]} seconds=${S[RUN_SECONDS]} pct=${S[RUN_LOAD]} dbs=${S[DB]}
require_positive_int RUN_SECONDS "$seconds"
require_positive_int RUN_LOAD "$pct"
case " $systems " in *" rocksdb "*) ;; *) echo "error: SYSTEMS must include rocksdb: its rates set the offered loads" >&2; exit 2;; esac
for w in $workloads; do
  [ -f "$VLSM_ROOT/ycsb/workloads/workload$w" ] || { echo "error: WORKLOADS: no workload '$w' (a b c d e f)" >&2; exit 2; }
done
for d in $distributions; do
  case "$d" in uniform|zipfian|latest) ;; *) echo "error: DISTRIBUTIONS: '$d' is not uniform, zipfian or latest" >&2; exit 2;; esac
done
# The Release tree's harness, built if missing (or VLSM_BUILD_DIR's: ctest's).
vlsm_binary ycsb ycsb_vlsm
out=${S[OUT]:-$VLSM_ROOT/build/eval/$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
eval_config_paragraph run_abcd.sh >> "$out/config.txt"
cleanup() { for s in $systems; do rm -rf "${dbs:?}/$s"; done; }
trap cleanup EXIT
echo "== Run ${workloads^^} (${distributions}): $records records, systems: $systems; output $out"

echo "== 0. fill each system's DB (closed-loop Load A)"
for s in $systems; do
  rm -rf "${dbs:?}/$s" && mkdir -p "$dbs/$s"
  eval_ycsb load "fill-$s" "$s" "$dbs/$s" -p recordcount="$records" \
    -p rocksdb.wait_for_compaction=$fill_settle
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
    if [ -n "${S[BASE_RATE]}" ]; then
      closed=${S[BASE_RATE]} rate_from=given_rate
      echo "== 1. Run ${w^^} $d: RocksDB's rate given, $closed ops/s"
    else
      rate_from=rocksdb_closed_loop
      mapfile -t props < <(run_props "$w" "$d" "$(( (seconds + 1) / 2 ))")
      echo "== 1. Run ${w^^} $d: closed-loop rate"
      for s in $systems; do
        eval_ycsb run "closed-$w-$d-$s" "$s" "$dbs/$s" "${props[@]}"
      done
      closed=$(eval_achieved "$out/closed-$w-$d-rocksdb.json")
    fi
    rate=$(( closed * pct / 100 ))
    echo "run-$w-$d $rate_from=$closed offered=$rate" >> "$out/config.txt"
    mapfile -t props < <(run_props "$w" "$d" "$seconds")
    echo "== 3. Run ${w^^} $d: open loop at $pct% of RocksDB's rate, $rate ops/s"
    for s in $systems; do
      eval_ycsb run "run$pct-$w-$d-$s" "$s" "$dbs/$s" "${props[@]}" -p target="$rate"
    done
  done
done
echo "== done: python3 scripts/bench/eval/report_runs.py $out"
