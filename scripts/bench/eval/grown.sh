#!/usr/bin/env bash
# Issue 56: the paper's regime at the paper's shape (docs/results/
# grown-q4-4region-96M). Grown trees made once and reused, one device limit
# shared by the four regions, open-loop Load A on the grown trees.
#
# usage: grown.sh PART [SETTINGS.env] [KEY=VALUE...]
#   (settings: SETTINGS.env, by default
#   scripts/bench/eval/settings/grown-q4-4region-96M.env, then the
#   KEY=VALUE overrides; OUT, default build/eval/grown, holds the runs)
# Parts, in order; each resumes (a finished run is kept: run_status.py's
# rule; a tree with its check is kept):
#   preload  each tree: a closed-loop Load A of RECORDS records with no
#            device limit, settled (every compaction paid), checked
#            (tree_check.py: the record count, L1 to L4 in use, no debt)
#            and kept as TREES/<system> with TREES/<system>.check.json.
#            One tree per shape: RocksDB-IO runs on RocksDB's tree (the
#            two differ only in the debt limits, which do not shape a
#            settled tree).
#   check    every tree checked against its preload's check.
#   search   RocksDB-IO's sustainable rate on its grown tree under the
#            device limit (ycsb_vlsm mode=find-sustainable from
#            SEARCH_START, every step at least two debt cycles of the
#            longest cycle among SYSTEMS), into OUT/search; it fixes the
#            offered rates of every run below.
#   at80     RUNS runs (t1..tN) at 80% of that rate, every system, each
#            followed by Run A on the same clone (run80-a-uniform-<system>)
#   curve    one run at 50% and one at 90% (curve1), every system.
#   searches every other system's searched rate (OUT/search), for the
#            page's capacity ratio.
# An open-loop run lasts long enough for CYCLES of RocksDB-IO's L0 -> L1
# cycles at its rate (debt_cycle_bytes / (rate x bytes per insert)), at
# least MIN_SECONDS; it inserts new keys (insertstart=RECORDS) and pays its
# debt at the end (settle, as load_a.sh's). Run A reads and updates the
# preloaded records for RUN_A_SECONDS at the load's rate.
# Every run below opens a clone of its system's tree (hard links to its
# SST files, which RocksDB never changes, and copies of the rest), so every
# run starts from the tree the preload made and leaves it as it was.
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=../settings.sh
source "$VLSM_ROOT/scripts/bench/settings.sh"
# shellcheck source=ycsb_run.sh
source "$VLSM_ROOT/scripts/bench/eval/ycsb_run.sh"

# The whole script is read before it runs (main is called on the last
# line): its runs last hours, and bash reads a script as it goes, so an
# edit made meanwhile would otherwise run half of each version.
main() {
  [ $# -ge 1 ] || usage
  local part=$1; shift
  declare -gA S
  eval_shared_defaults
  S[TREES]=build/grown S[OUT]=build/eval/grown S[SEARCH_START]=8000 S[RUNS]=3
  S[CYCLES]=2 S[MIN_SECONDS]=240 S[RUN_A_SECONDS]=240
  local file=$VLSM_ROOT/scripts/bench/eval/settings/grown-q4-4region-96M.env
  if [ $# -gt 0 ] && [[ "$1" != *=* ]]; then file=$1; shift; fi
  settings_read "$file" "$@"
  eval_check_settings
  local key
  for key in SEARCH_START RUNS CYCLES MIN_SECONDS RUN_A_SECONDS; do
    require_positive_int "$key" "${S[$key]}"
  done
  case " ${S[SYSTEMS]} " in *" $base_system "*) ;; *)
    echo "error: SYSTEMS must include $base_system: its searched rate sets the offered loads" >&2; exit 2;; esac
  trees=$(settings_dir TREES "${S[TREES]}") || exit 2
  out=$(settings_dir OUT "${S[OUT]}") || exit 2
  clone=${S[DB]}/grown-clone
  vlsm_binary ycsb ycsb_vlsm
  vlsm_binary tree_report vlsm_tree_report
  mkdir -p "$trees" "$out"
  case "$part" in
    preload) preload ;;
    check) for t in $(tree_systems); do check_tree "$t"; done ;;
    search) search "$base_system" ;;
    at80)
      local i base; base=$(base_rate) || exit 1
      for i in $(seq 1 "${S[RUNS]}"); do
        for s in ${S[SYSTEMS]}; do load_run "$out/t$i" 80 "$s" "$base" --run-a; done
      done ;;
    curve)
      local pct base; base=$(base_rate) || exit 1
      for pct in 50 90; do
        for s in ${S[SYSTEMS]}; do load_run "$out/curve1" "$pct" "$s" "$base"; done
      done ;;
    searches) for s in ${S[SYSTEMS]}; do [ "$s" = "$base_system" ] || search "$s"; done ;;
    *) usage ;;
  esac
}

usage() { echo "usage: $0 preload|check|search|at80|curve|searches [SETTINGS.env] [KEY=VALUE...]" >&2; exit 2; }

base_system=rocksdb-io-q4  # the yardstick: its searched rate sets the loads

# The system whose tree SYSTEM runs on: RocksDB-IO's is RocksDB's.
tree_of() { echo "${1/rocksdb-io-/rocksdb-}"; }

tree_systems() {  # the trees SYSTEMS need, each once
  local s
  for s in ${S[SYSTEMS]}; do tree_of "$s"; done | awk '!seen[$0]++'
}

# check_tree SYSTEM [--write]: tree_check.py on TREES/SYSTEM, which must
# equal the check its preload saved; with --write, the preload's check is
# made and saved (only if the tree passes). Called in a || list, where set -e
# is off: every step returns by hand.
check_tree() {
  local tree=$trees/$1
  if [ "${2:-}" = --write ]; then
    python3 "$VLSM_ROOT/scripts/bench/eval/tree_check.py" "$tree_report" "$tree" \
      --regions "${S[REGIONS]}" --records "${S[RECORDS]}" > "$tree.check.json.tmp" || return 1
    mv "$tree.check.json.tmp" "$tree.check.json" || return 1
    return
  fi
  [ -s "$tree.check.json" ] || { echo "error: $tree has no check: run grown.sh preload" >&2; return 1; }
  local shape
  shape=$(python3 "$VLSM_ROOT/scripts/bench/eval/tree_check.py" "$tree_report" "$tree" \
    --regions "${S[REGIONS]}" --records "${S[RECORDS]}" --expect "$tree.check.json" --brief) || return 1
  echo "   $1: tree checked ($shape)"
}

preload() {
  local s tree
  mkdir -p "$out/preload"
  for s in $(tree_systems); do
    tree=$trees/$s
    if [ -s "$tree.check.json" ]; then echo "   $s: tree kept ($tree)"; continue; fi
    echo "== preload $s: ${S[RECORDS]} records, ${S[REGIONS]} regions, closed loop, no device limit"
    rm -rf "$tree"
    out=$out/preload eval_ycsb load "preload-$s" "$s" "$tree" -p recordcount="${S[RECORDS]}" \
      -p rocksdb.wait_for_compaction=true -p rocksdb.rate_limit=0 -p rocksdb.destroy=true || exit 1
    check_tree "$s" --write || { echo "error: the preload of $s did not make a grown, settled tree (above)" >&2; exit 1; }
    check_tree "$s"
  done
}

# clone_tree SYSTEM: the clone (a fresh one) of SYSTEM's tree, checked
# first against its preload's check.
clone_tree() {
  local tree=$trees/$(tree_of "$1") region name
  check_tree "$(tree_of "$1")" || return 1
  rm -rf "$clone" && mkdir -p "$clone" || return 1
  for region in "$tree"/region-*; do
    name=${region##*/}
    mkdir "$clone/$name" || return 1
    find "$region" -maxdepth 1 -type f -name '*.sst' -exec ln -t "$clone/$name" {} + || return 1
    find "$region" -maxdepth 1 -type f ! -name '*.sst' ! -name LOCK -exec cp -t "$clone/$name" {} + || return 1
  done
}

# base_rate: RocksDB-IO's searched rate (grown.sh search first).
base_rate() {
  local report=$out/search/sustainable-$base_system.json
  python3 "$VLSM_ROOT/scripts/bench/eval/run_status.py" "$report" || {
    echo "error: no finished search of $base_system: run grown.sh search" >&2; return 1; }
  eval_searched "$report"
}

# The longest debt cycle among SYSTEMS, in bytes written (ycsb_vlsm
# mode=describe): the search's steps and the runs' lengths are sized by it.
longest_cycle() {
  local s cycle best=0
  for s in ${S[SYSTEMS]}; do
    cycle=$(eval_describe "$s" debt_cycle_bytes) || return 1
    [ "$cycle" -le "$best" ] || best=$cycle
  done
  echo "$best"
}

# search SYSTEM: its find-sustainable search on a clone of its tree.
search() {
  local system=$1 cycle
  local out=$out/search  # eval_ycsb's output directory, for this search
  mkdir -p "$out"
  if eval_finished "$out/sustainable-$system.json"; then echo "   sustainable-$system: kept"; return; fi
  cycle=$(longest_cycle) || exit 1
  eval_config_paragraph "grown.sh search" >> "$out/config.txt"
  echo "search_cycle_bytes=$cycle" >> "$out/config.txt"
  echo "== search $system: find-sustainable from ${S[SEARCH_START]} ops/s on its grown tree, ${S[RATE_LIMIT]}/s device limit, steps of at least two $((cycle >> 20)) MiB cycles"
  clone_tree "$system" || exit 1
  eval_ycsb load "sustainable-$system" "$system" "$clone" -p mode=find-sustainable \
    -p insertstart="${S[RECORDS]}" -p recordcount=1000000000 \
    -p sustainable.start="${S[SEARCH_START]}" -p sustainable.cycle_bytes="$cycle" \
    -p rocksdb.wait_for_compaction=false || exit 1
  rm -rf "$clone"
}

# load_run DIR PCT SYSTEM BASE [--run-a]: an open-loop Load A at PCT% of
# BASE on a clone of SYSTEM's tree, into DIR/load<PCT>-<SYSTEM>; with
# --run-a, Run A on the same clone afterwards.
load_run() {
  local dir=$1 pct=$2 system=$3 base=$4 run_a=${5:-} rate seconds cycle per_op
  local out=$dir  # eval_ycsb's output directory, for this run
  rate=$(( base * pct / 100 ))
  mkdir -p "$out"
  if eval_finished "$out/load$pct-$system.json" &&
     { [ -z "$run_a" ] || eval_finished "$out/run$pct-a-uniform-$system.json"; }; then
    echo "   $dir: load$pct-$system kept"; return
  fi
  cycle=$(eval_describe "$base_system" debt_cycle_bytes) || exit 1
  per_op=$(eval_describe "$base_system" write_bytes_per_op) || exit 1
  seconds=$(( (S[CYCLES] * cycle + rate * per_op - 1) / (rate * per_op) ))
  [ "$seconds" -ge "${S[MIN_SECONDS]}" ] || seconds=${S[MIN_SECONDS]}
  [ -s "$out/config.txt" ] || eval_config_paragraph "grown.sh $pct%" >> "$out/config.txt"
  grep -q "^base_rate=" "$out/config.txt" || echo "base_rate=$base" >> "$out/config.txt"
  clone_tree "$system" || exit 1
  eval_ycsb load "load$pct-$system" "$system" "$clone" -p insertstart="${S[RECORDS]}" \
    -p recordcount=1000000000 -p target="$rate" -p maxexecutiontime="$seconds" \
    -p rocksdb.wait_for_compaction=true || exit 1
  if [ -n "$run_a" ]; then
    eval_ycsb run "run$pct-a-uniform-$system" "$system" "$clone" \
      -P "$VLSM_ROOT/ycsb/workloads/workloada" -p requestdistribution=uniform \
      -p recordcount="${S[RECORDS]}" -p operationcount=0 -p maxexecutiontime="${S[RUN_A_SECONDS]}" \
      -p target="$rate" -p rocksdb.wait_for_compaction=true || exit 1
  fi
  rm -rf "$clone"
}

main "$@"; exit $?
