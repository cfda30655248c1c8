#!/usr/bin/env bash
# The paper's Fig. 13c: does vLSM's I/O amplification depend on the key
# distribution? Put-only mixgraph (Pareto value sizes) on a DB loaded by
# fillrandom, once with uniform keys and once with the fitted prefix
# models' skewed keys, stock vs vLSM: mixgraph.sh with VLSM_BENCH_MIX=puts,
# run for each distribution. Only the put phase is counted: its report's
# bytes moved per user byte written.
#
# Environment: VLSM_BENCH_KEYS (default 10000000), VLSM_BENCH_OPS (puts,
# default 20000000), VLSM_BENCH_DIR (default build/bench/fig13c), and
# mixgraph.sh's VLSM_BENCH_VLSM_FLAGS, VLSM_JOBS.
# Output: <dir>/<dist>/ (mixgraph.sh's), <dir>/<dist>.txt (its table),
# <dir>/fig13c.csv and, with python3-matplotlib, <dir>/fig13c.png.
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/checks.sh
source "$VLSM_ROOT/scripts/lib/checks.sh"
out=${VLSM_BENCH_DIR:-$VLSM_ROOT/build/bench/fig13c}
export VLSM_BENCH_KEYS=${VLSM_BENCH_KEYS:-10000000}
export VLSM_BENCH_OPS=${VLSM_BENCH_OPS:-20000000}
require_positive_int VLSM_BENCH_KEYS "$VLSM_BENCH_KEYS"
require_positive_int VLSM_BENCH_OPS "$VLSM_BENCH_OPS"
mkdir -p "$out"
for dist in uniform prefix; do
  VLSM_BENCH_MIX=puts VLSM_BENCH_KEY_DIST=$dist VLSM_BENCH_DIR="$out/$dist" \
    "$VLSM_ROOT/scripts/bench/mixgraph.sh" | tee "$out/$dist.txt"
done
# One row per (distribution, system): plot.py bars input.
python3 - "$out" <<'EOF'
import csv, json, os, sys
out = sys.argv[1]
with open(os.path.join(out, "fig13c.csv"), "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["group", "series", "I/O amplification", "puts kops/s", "CPU µs/op"])
    for dist in ("uniform", "prefix"):
        for run in json.load(open(os.path.join(out, dist, "summary.json"))):
            w.writerow([dist, "vlsm" if run["vlsm"] else "stock", run["io_amplification"],
                        run["ops_per_sec"] / 1e3, run["cpu_us_per_op"]])
print(open(os.path.join(out, "fig13c.csv")).read(), end="")
EOF
# plot.py runs under its own interpreter (Debian's, where python3-matplotlib
# is); without matplotlib the CSV is the result and the figure is skipped.
"$VLSM_ROOT/scripts/plot.py" bars "$out/fig13c.csv" -o "$out/fig13c.png" ||
  echo "note: no figure drawn; the figures are in $out/fig13c.csv" >&2
