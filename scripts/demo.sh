#!/usr/bin/env bash
# The main job: what the product is for, a lower write tail under load, in
# one short run on this machine. Builds what it needs (Release), measures
# RocksDB's closed-loop Load A rate here today, then runs one open-loop
# YCSB Load A per system (RocksDB, RocksDB-IO and the ranged layout as
# users turn it on; scripts/bench/systems.py) at a share of that rate
# through the one Load A script. Prints one table (write latency
# P50/P99/P99.9/max, stalls, the widest compaction step, I/O amplification,
# CPU per operation), what it shows in words, the paper's layout from its
# committed figures, and one PNG of latency over time.
#
# usage: scripts/demo.sh [SETTINGS.env] [KEY=VALUE...]
# Default settings: scripts/bench/eval/settings/demo.env (one region, 12 M
# records, 90% of RocksDB's rate: about 10 minutes here, plus the build);
# why that load is there. Any load_a.sh setting changes it, e.g.
#   scripts/demo.sh LOADS=80            a lighter load
#   scripts/demo.sh BASE_RATE=140000    skip the closed-loop sample
# (scripts/bench/README.md, "Settings"). OUT=DIR puts the output elsewhere
# than build/demo; VLSM_JOBS sets the build's jobs (default 2).
# Output: the table on stdout; <out>/summary.json (every figure);
# <out>/timeline.png; the runs' reports (load_a.sh's files).
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/.." && pwd)
settings=$VLSM_ROOT/scripts/bench/eval/settings/demo.env
# A settings file given by the user is theirs, relative to where they are.
if [ $# -gt 0 ] && [[ "$1" != *=* ]]; then settings=$(realpath -m "$1"); shift; fi
cd "$VLSM_ROOT"
. scripts/lib/deps.sh
# shellcheck source=bench/settings.sh
. scripts/bench/settings.sh
# shellcheck source=bench/eval/ycsb_run.sh
. scripts/bench/eval/ycsb_run.sh  # eval_achieved

# The output directory is deleted below: never the checkout (settings_dir).
out=build/demo
base_rate=$(sed -n 's/^BASE_RATE=//p' "$settings" 2>/dev/null | tail -1)
for arg in "$@"; do
  case "$arg" in OUT=*) out=${arg#OUT=} ;; BASE_RATE=*) base_rate=${arg#BASE_RATE=} ;; esac
done
out=$(settings_dir OUT "$out") || exit 2

vlsm_install_packages "${VLSM_BUILD_PACKAGES[@]}" python3 python3-matplotlib time
vlsm_release_tree --update ycsb_vlsm

# A fresh output directory: load_a.sh adds to an existing one.
rm -rf "$out"
t0=$(date +%s)
if [ -z "$base_rate" ]; then
  # The share is of this machine's rate today, not the published one: the
  # same offered rate is heavier on a slower machine.
  echo "== RocksDB's closed-loop rate on this machine today (one load of the whole dataset)"
  scripts/bench/eval/load_a.sh "$settings" "$@" SYSTEMS=rocksdb LOADS=none OUT="$out"
  base_rate=$(eval_achieved "$out/sustainable-rocksdb.json")
fi
scripts/bench/eval/load_a.sh "$settings" "$@" BASE_RATE="$base_rate" OUT="$out"
minutes=$(( ($(date +%s) - t0 + 30) / 60 ))

echo
python3 scripts/bench/eval/report.py "$out" --brief --json "$out/summary.json"
# The paper's layout is judged from its committed evaluation, not rerun:
# at this load it falls far behind, and its run would take as long as the
# other three together.
python3 - docs/results/final-1region-12M/summary.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
a, curve = d["answer"], d["curve"]
behind = sorted((int(p) for p, c in curve.items() if not c["vlsm"]["kept_up"]))
print(f"The paper's layout (kVlsm), not run here: in the committed evaluation on this "
      f"project's 2-core VM it sustained "
      f"{a['vlsm']['closed-loop rate (K/s)'] / a['rocksdb']['closed-loop rate (K/s)']:.2f}x "
      f"RocksDB's closed-loop rate, fell behind from {behind[0]}% of RocksDB's rate on, and at "
      f"80% its write P99 was {a['vlsm']['write P99 at 80% (ms)'] / 1000:,.1f} s "
      f"(docs/results/final-1region-12M).")
PY
# One figure: throughput and P99 per second, every system (in the
# definition's order), stalls shaded; of the first load if there are more.
pct=$(ls "$out" | sed -n 's/^load\([0-9]*\)-.*\.csv$/\1/p' | sort -n | head -1)
reports=() labels=()
for s in $(python3 scripts/bench/systems.py names); do
  [ -f "$out/load$pct-$s.json" ] || continue
  reports+=("$out/load$pct-$s.json"); labels+=("$s")
done
if scripts/plot.py timeseries "${reports[@]}" --op insert \
    --labels "$(IFS=,; echo "${labels[*]}")" -o "$out/timeline.png"; then
  echo "Latency over time: $out/timeline.png"
else
  echo "note: no figure drawn (python3-matplotlib); the per-second figures are in $out/load*.csv" >&2
fi
echo "This is one run per system ($minutes minutes in all) on this machine, and single"
echo "runs of the same load differ 2-8x in their tails here. The measured results,"
echo "repeated runs and what they mean: docs/results.md."
