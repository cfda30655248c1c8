#!/usr/bin/env bash
# YCSB Load A, side by side: the one way to run it (experiments 1, 2 and 5
# of docs/results.md, and scripts/demo.sh).
#   1. each system's sustainable Load A rate: a closed-loop load of the
#      whole dataset (4 client threads), its average throughput; or with
#      SEARCH=find-sustainable, ycsb_vlsm's search on an empty DB, every
#      system's steps at least two debt cycles of the longest cycle among
#      the systems' configurations (ycsb/sustainable_rate_search.h), so the searched
#      rates compare;
#   2. open-loop Load A at LOADS percent of BASE_SYSTEM's rate (step 1's,
#      or BASE_RATE), every system at the same offered rates, alternating
#      systems at each load.
# RESUME=1 keeps every run whose report is already in OUT, not marked
# interrupted and without errors: a session that stopped mid-experiment
# goes on where it stopped.
# Each run starts from an empty DB and loads RECORDS records.
# scripts/bench/eval/report.py turns the output into tables and figures.
#
# usage: load_a.sh SETTINGS.env [KEY=VALUE...]
#   e.g. load_a.sh scripts/bench/eval/settings/load-a-4region-48M.env LOADS=80
# The settings (scripts/bench/README.md, "Settings"): SYSTEMS, RECORDS,
# LOADS, BASE_RATE, BASE_SYSTEM, SUSTAINABLE, SEARCH, SEARCH_START,
# MAX_SECONDS, SETTLE, RESUME, OUT, DB and the shared ones
# (REGIONS, BG_JOBS, SUBCOMPACTIONS, BLOOM_BITS, LOWER_CPU, RATE_LIMIT,
# FLOOR_SECONDS). Bad settings exit 2 before anything runs.
# Output: <OUT>/config.txt, sustainable-<system>.{json,machine.json,csv,out,err},
#         load<pct>-<system>.{json,machine.json,csv,out,err}.
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
S[LOADS]="50 70 80 90 95" S[BASE_RATE]= S[SUSTAINABLE]=0 S[MAX_SECONDS]=1200 S[SETTLE]=1
S[BASE_SYSTEM]=rocksdb S[SEARCH]=closed S[SEARCH_START]=10000 S[RESUME]=0
settings_read "$@"
eval_check_settings
require_positive_int MAX_SECONDS "${S[MAX_SECONDS]}"
[ -z "${S[BASE_RATE]}" ] || require_positive_int BASE_RATE "${S[BASE_RATE]}"
require_flag SUSTAINABLE "${S[SUSTAINABLE]}"
require_flag SETTLE "${S[SETTLE]}"
require_flag RESUME "${S[RESUME]}"
require_positive_int SEARCH_START "${S[SEARCH_START]}"
case "${S[SEARCH]}" in closed|find-sustainable) ;; *)
  echo "error: SEARCH must be closed or find-sustainable (got '${S[SEARCH]}')" >&2; exit 2;; esac
base_system=${S[BASE_SYSTEM]}
loads=${S[LOADS]}
if [ "$loads" = none ]; then
  # Step 1 alone: with a given base rate it would be skipped, and nothing run.
  [ -z "${S[BASE_RATE]}" ] || [ "${S[SUSTAINABLE]}" = 1 ] || {
    echo "error: LOADS=none with BASE_RATE runs nothing: set SUSTAINABLE=1 to measure the sustainable rates" >&2; exit 2; }
  loads=
else
  for pct in $loads; do require_positive_int LOADS "$pct"; done
fi
measure_sustainable=0
if [ -z "${S[BASE_RATE]}" ] || [ "${S[SUSTAINABLE]}" = 1 ]; then measure_sustainable=1; fi
if [ -n "$loads" ] && [ -z "${S[BASE_RATE]}" ]; then
  case " ${S[SYSTEMS]} " in *" $base_system "*) ;; *)
    echo "error: the LOADS are percentages of BASE_SYSTEM's rate: put $base_system in SYSTEMS or set BASE_RATE" >&2; exit 2;; esac
fi
# The Release tree's harness, built if missing (or VLSM_BUILD_DIR's: ctest's).
vlsm_binary ycsb ycsb_vlsm
out=${S[OUT]:-$VLSM_ROOT/build/eval/$(date +%Y%m%d-%H%M%S)}
db=${S[DB]}
records=${S[RECORDS]}
mkdir -p "$out"
eval_config_paragraph load_a.sh >> "$out/config.txt"
echo "== Load A: $records records, ${S[REGIONS]} region(s), systems: ${S[SYSTEMS]}; output $out"

# Each load ends by paying its compaction debt (SETTLE=1): the report's
# "settle" holds what that cost, apart from the load's own figures, so
# report.py can count I/O and CPU to the end of compaction. A closed-loop
# rate that leaves debt behind has not paid for its writes.
settle=false
[ "${S[SETTLE]}" = 1 ] && settle=true

# run NAME SYSTEM [ycsb properties...]: one load on an empty DB (kept
# as it is under RESUME=1 if it finished: a report not marked interrupted).
run() {
  local name=$1 system=$2; shift 2
  if [ "${S[RESUME]}" = 1 ] && eval_finished "$out/$name.json"; then
    echo "   $name: kept (RESUME=1)"; return 0
  fi
  rm -rf "$db"
  eval_ycsb load "$name" "$system" "$db" -p recordcount="$records" \
    -p rocksdb.wait_for_compaction=$settle "$@" \
    || { rm -rf "$db"; return 1; }
  rm -rf "$db"
}

# The bytes of the longest debt cycle among SYSTEMS (ycsb_vlsm
# mode=describe): every search's steps are sized by it, not by each
# system's own, so the searched rates compare.
longest_cycle() {
  local s best=0 cycle
  for s in ${S[SYSTEMS]}; do
    cycle=$(eval_describe "$s" debt_cycle_bytes) || return 1
    [ "$cycle" -le "$best" ] || best=$cycle
  done
  echo "$best"
}

if [ "$measure_sustainable" = 1 ]; then
  if [ "${S[SEARCH]}" = closed ]; then
    echo "== 1. sustainable Load A rate (closed loop, whole dataset)"
    for s in ${S[SYSTEMS]}; do run "sustainable-$s" "$s"; done
  else
    cycle=$(longest_cycle) || exit 1
    echo "== 1. sustainable Load A rate (find-sustainable from ${S[SEARCH_START]} ops/s; steps of at least two $((cycle >> 20)) MiB debt cycles)"
    echo "search_cycle_bytes=$cycle" >> "$out/config.txt"
    for s in ${S[SYSTEMS]}; do
      run "sustainable-$s" "$s" -p mode=find-sustainable -p recordcount=1000000000 \
        -p sustainable.start="${S[SEARCH_START]}" -p sustainable.cycle_bytes="$cycle" \
        -p rocksdb.wait_for_compaction=false
    done
  fi
fi
if [ -z "$loads" ]; then
  echo "== done (no open-loop loads): python3 scripts/bench/eval/report.py $out"
  exit 0
fi
if [ -n "${S[BASE_RATE]}" ]; then
  base=${S[BASE_RATE]}
  echo "== $base_system's rate given: $base ops/s"
elif [ "${S[SEARCH]}" = closed ]; then
  base=$(eval_achieved "$out/sustainable-$base_system.json")
else
  base=$(eval_searched "$out/sustainable-$base_system.json") || exit 1
fi
echo "base_rate=$base" >> "$out/config.txt"

echo "== 2. open-loop Load A at $loads % of $base_system's $base ops/s (each run at most ${S[MAX_SECONDS]} s)"
for pct in $loads; do
  rate=$(( base * pct / 100 ))
  for s in ${S[SYSTEMS]}; do
    run "load$pct-$s" "$s" -p target="$rate" -p maxexecutiontime="${S[MAX_SECONDS]}"
  done
done
echo "== done: python3 scripts/bench/eval/report.py $out"
