#!/usr/bin/env bash
# The evaluation on the final library (issue 41, docs/results/final-*):
# each part is a list of load_a.sh runs from one settings file, resumable
# (RESUME=1: a finished run is kept, scripts/bench/eval/run_status.py's
# rule; an interrupted one or one with errors is run again), so an experiment longer
# than a sitting goes on where it stopped.
#
# usage: final_eval.sh PART [ROOT]
#   ROOT: where the runs go (default build/eval/final); one directory per
#   experiment under it, one per run under that.
# Run 1 (settings/final-1region-12M.env, ROOT/1region), in order:
#   samples  five closed-loop samples of every system (t1..t5; the paper's
#            layout in t1 only: it takes three times as long);
#   at80     five open-loop runs at 80% of RocksDB's median closed-loop
#            rate (the median of the five samples, fixed in
#            ROOT/1region/base_rate the first time it is needed);
#   curve    the load curve at 10, 25, 50, 65, 90 and 95% of that rate,
#            all four systems, each point min(RECORDS, 240 s of load)
#            (curve1), and two more runs at 90 and 95% (curve2, curve3).
#   Then: python3 scripts/bench/eval/final_report.py ROOT/1region
# Run 2 (settings/final-4region-48M.env, ROOT/4region):
#   4region  three samples (t1..t3), three runs at 80% of RocksDB's median
#            (t1..t3) and one at 95% (curve1). Then final_report.py.
# Run 3 (ROOT/orders):
#   orders   ordered Load A (insertorder=ordered) at 80% of RocksDB's
#            ordered rate, sampled in the same run (ordered/); Run A with
#            Zipfian keys after a load (zipfian-run-a/, run_abcd.sh with
#            settings/run-final-1region-12M.env).
# Run 4 (settings/run-final-1region-12M.env, ROOT/reads):
#   reads    Runs A-E after Load A, 10-bit Bloom filters, settled trees
#            (the drain at rest on), three runs (r1..r3); then Run A on
#            the load's unpaid debt (during/: the fill does not settle and
#            Run A offers 80% of RocksDB's median Run A rate in r1..r3).
#            Then final_reads.py ROOT/reads (report_runs.py on one run).
# Run 5 (settings/final-device-100m-4region-12M.env, ROOT/device):
#   device   RocksDB-IO's searched rate under a 100 MiB/s limiter
#            (search/), three runs at 80% of it (t1..t3, every system),
#            then the ranged layout's searched rate (search/).
# Then, on the runs committed (packed) under docs/results/final-*:
#   pages    every final-* page's tables, and docs/results.md's first table
#            and figure, written again from the committed runs (one
#            command; tests/eval/test_final_pages.py checks it reproduces
#            what is committed).
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=ycsb_run.sh
source "$VLSM_ROOT/scripts/bench/eval/ycsb_run.sh"  # eval_searched
usage() { echo "usage: $0 samples|at80|curve|4region|orders|reads|device|pages [ROOT]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
part=$1
root=${2:-build/eval/final}
# A relative ROOT is the checkout's, as load_a.sh reads its OUT.
[[ "$root" = /* ]] || root=$VLSM_ROOT/$root
eval_dir=$VLSM_ROOT/scripts/bench/eval
load_a=$eval_dir/load_a.sh
settings=$eval_dir/settings
paper=vlsm  # the paper's layout
systems_of() { sed -n 's/^SYSTEMS="\(.*\)"$/\1/p' "$1"; }

# base_rate DIR N: RocksDB's median closed-loop rate over the samples
# DIR/t1..tN, fixed in DIR/base_rate the first time: every open-loop run
# of the experiment offers a share of this one number, so the runs compare.
# Every sample must be a finished run (run_status.py); a sample rerun since
# makes the number stale, and it is taken again (final_report.py then
# refuses runs made against different base rates).
base_rate() {
  local dir=$1 n=$2 i
  local -a samples=()
  for i in $(seq 1 "$n"); do samples+=("$dir/t$i/sustainable-rocksdb.json"); done
  python3 "$eval_dir/run_status.py" "${samples[@]}" || return 1
  for i in "${samples[@]}"; do
    if [ "$i" -nt "$dir/base_rate" ]; then rm -f "$dir/base_rate"; fi
  done
  if [ ! -s "$dir/base_rate" ]; then
    # In $(...) set -e is off: every failure returns by hand, or an empty
    # base would reach load_a.sh (which would then measure its own).
    python3 - "${samples[@]}" > "$dir/base_rate.tmp" <<'PY' || return 1
import json, statistics, sys
print(int(statistics.median(json.load(open(f))["achieved_ops_per_s"] for f in sys.argv[1:])))
PY
    mv "$dir/base_rate.tmp" "$dir/base_rate" || return 1
  fi
  cat "$dir/base_rate"
}

# reads_done DIR W-DIST: run_abcd.sh finished there: its last open-loop
# report (workload W, distribution DIST, the last system) exists, and every
# report in DIR is a finished run (run_status.py).
reads_done() {
  local last
  last=$(ls "$1"/run*-"$2"-vlsm-ranged-rs32-io.json 2>/dev/null | head -1)
  [ -n "$last" ] || return 1
  local -a reports=()
  mapfile -t reports < <(ls "$1"/*.json | grep -v '\.machine\.json$')
  python3 "$eval_dir/run_status.py" "${reports[@]}"
}

one=$settings/final-1region-12M.env
four=$settings/final-4region-48M.env
runs=$settings/run-final-1region-12M.env
device=$settings/final-device-100m-4region-12M.env
three=$(systems_of "$one")
case "$part" in
  samples)
    for i in 1 2 3 4 5; do
      systems=$three
      [ "$i" = 1 ] && systems="$three $paper"
      "$load_a" "$one" SYSTEMS="$systems" LOADS=none SUSTAINABLE=1 OUT="$root/1region/t$i"
    done ;;
  at80)
    base=$(base_rate "$root/1region" 5)
    for i in 1 2 3 4 5; do
      systems=$three
      [ "$i" = 1 ] && systems="$three $paper"
      "$load_a" "$one" SYSTEMS="$systems" LOADS=80 BASE_RATE="$base" OUT="$root/1region/t$i"
    done ;;
  curve)
    base=$(base_rate "$root/1region" 5)
    "$load_a" "$one" SYSTEMS="$three $paper" LOADS="10 25 50 65 90 95" \
      BASE_RATE="$base" MAX_SECONDS=240 OUT="$root/1region/curve1"
    for i in 2 3; do
      "$load_a" "$one" LOADS="90 95" BASE_RATE="$base" MAX_SECONDS=240 OUT="$root/1region/curve$i"
    done ;;
  4region)
    for i in 1 2 3; do
      "$load_a" "$four" LOADS=none SUSTAINABLE=1 OUT="$root/4region/t$i"
    done
    base=$(base_rate "$root/4region" 3)
    for i in 1 2 3; do
      "$load_a" "$four" LOADS=80 BASE_RATE="$base" OUT="$root/4region/t$i"
    done
    "$load_a" "$four" LOADS=95 BASE_RATE="$base" OUT="$root/4region/curve1" ;;
  orders)
    "$load_a" "$one" INSERT_ORDER=ordered LOADS=80 OUT="$root/orders/ordered"
    reads_done "$root/orders/zipfian-run-a" a-zipfian ||
      "$eval_dir/run_abcd.sh" "$runs" WORKLOADS=a DISTRIBUTIONS=zipfian OUT="$root/orders/zipfian-run-a" ;;
  reads)
    for i in 1 2 3; do
      reads_done "$root/reads/r$i" e-uniform || { rm -rf "$root/reads/r$i"; "$eval_dir/run_abcd.sh" "$runs" OUT="$root/reads/r$i"; }
    done
    run_a=$(python3 - "$root/reads" <<'PY'
import json, statistics, sys
print(int(statistics.median(
    json.load(open(f"{sys.argv[1]}/r{i}/closed-a-uniform-rocksdb.json"))["achieved_ops_per_s"]
    for i in (1, 2, 3))))
PY
    ) || exit 1
    reads_done "$root/reads/during" a-uniform || { rm -rf "$root/reads/during"
      "$eval_dir/run_abcd.sh" "$runs" WORKLOADS=a FILL_SETTLE=0 BASE_RATE="$run_a" \
        OUT="$root/reads/during"; } ;;
  device)
    # The runs need only RocksDB-IO's searched rate, so its search comes
    # first and the ranged layout's (its own rate under the limiter, for
    # the page) last: a run cut short keeps what matters most. Each call
    # sizes its steps by the debt cycle of the systems it names; here both
    # systems' cycles are 1 GiB (ycsb_vlsm mode=describe), so the two
    # searches' steps are the same length, as one call's would be.
    "$load_a" "$device" SYSTEMS="rocksdb-io" LOADS=none SUSTAINABLE=1 OUT="$root/device/search"
    search=$root/device/search/sustainable-rocksdb-io.json
    python3 "$eval_dir/run_status.py" "$search" || exit 1
    base=$(eval_searched "$search") || exit 1
    for i in 1 2 3; do
      "$load_a" "$device" LOADS=80 BASE_RATE="$base" OUT="$root/device/t$i"
    done
    "$load_a" "$device" SYSTEMS="vlsm-ranged-rs32-io" LOADS=none SUSTAINABLE=1 \
      OUT="$root/device/search" ;;
  pages)
    # Every committed page of the evaluation, and the results page's first
    # table and figure, from the committed (packed) runs: here the optional
    # second argument is the docs directory (a copy, for the test).
    docs=$VLSM_ROOT/docs
    [ $# -lt 2 ] || docs=$root
    res=$docs/results
    run1=$res/final-1region-12M
    python3 "$eval_dir/final_report.py" "$run1" --markdown "$run1/README.md" \
      --markdown "$docs/results.md" --figures "$res/figures/final-1region" \
      --json "$run1/summary.json" > /dev/null
    run2=$res/final-4region-48M
    python3 "$eval_dir/final_report.py" "$run2" --markdown "$run2/README.md" \
      --json "$run2/summary.json" > /dev/null
    orders=$res/final-orders-1region-12M
    python3 "$eval_dir/report.py" "$orders/ordered" --markdown "$orders/README.md" \
      --section ordered > /dev/null
    python3 "$eval_dir/report_runs.py" "$orders/zipfian-run-a" --markdown "$orders/README.md" \
      --section zipfian > /dev/null
    reads=$res/final-reads-1region-12M
    python3 "$eval_dir/final_reads.py" "$reads" --markdown "$reads/README.md" \
      --markdown "$docs/results.md" --json "$reads/summary.json" > /dev/null
    run5=$res/final-device-100m-4region-12M
    python3 "$eval_dir/final_report.py" "$run5" --markdown "$run5/README.md" \
      --json "$run5/summary.json" > /dev/null
    python3 "$eval_dir/searched_rates.py" "$run5" --markdown "$run5/README.md" \
      --json "$run5/searched.json" > /dev/null
    echo "== pages written from the committed runs under $res" ;;
  *) usage ;;
esac
