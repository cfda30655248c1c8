#!/usr/bin/env bash
# The main job: what vLSM is for, lower tail latency under load, in one
# short run on this machine. Builds what it needs (Release), then runs one
# open-loop YCSB Load A per system (RocksDB, RocksDB-IO, vLSM and vLSM's
# ranged L0 layout: defined in scripts/bench/systems.py) at a fixed
# offered rate through the one Load A script, and prints one table: write
# latency P50/P99/P99.9/max, stalls, the widest compaction step, I/O
# amplification and CPU per operation, plus one PNG of latency over time
# for all systems.
#
# usage: scripts/demo.sh [SETTINGS.env] [KEY=VALUE...]
# Default settings: scripts/bench/eval/settings/demo.env (4 regions, 85 K
# inserts/s, 3 minutes per system: about 15 minutes here, plus the build);
# why that load is there. Any load_a.sh setting scales it, e.g.
#   scripts/demo.sh RECORDS=48000000 MAX_SECONDS=1200
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

# The output directory is deleted below: never the checkout (settings_dir).
out=build/demo
for arg in "$@"; do [[ "$arg" != OUT=* ]] || out=${arg#OUT=}; done
out=$(settings_dir OUT "$out") || exit 2

vlsm_install_packages "${VLSM_BUILD_PACKAGES[@]}" python3 python3-matplotlib time
vlsm_release_tree --update ycsb_vlsm

# A fresh output directory: load_a.sh adds to an existing one.
rm -rf "$out"
t0=$(date +%s)
scripts/bench/eval/load_a.sh "$settings" "$@" OUT="$out"
minutes=$(( ($(date +%s) - t0 + 30) / 60 ))

echo
python3 scripts/bench/eval/report.py "$out" --brief --json "$out/summary.json"
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
echo "This is one short run ($minutes minutes in all) on this machine, and single runs"
echo "of the same load differ several-fold in their tails here. The offered rate is"
echo "fixed from the published runs' machine; where a system fell behind above, a lower"
echo "load (e.g. scripts/demo.sh LOADS=30) fits a slower one. The measured results,"
echo "repeated runs and what they mean: docs/results.md."
