#!/usr/bin/env bash
# The paper's Fig. 13c: does vLSM's I/O amplification depend on the key
# distribution? Put-only mixgraph (Pareto value sizes) on a DB loaded by
# fillrandom, once with uniform keys and once with the fitted prefix
# models' skewed keys, RocksDB vs vLSM: mixgraph.sh with MIX=puts,
# run for each distribution. Only the put phase is counted: its report's
# bytes moved per user byte written.
#
# usage: fig13c.sh [SETTINGS.env] [KEY=VALUE...]   (scripts/bench/README.md)
#   KEYS (default 10000000), OPS (puts, default 20000000), SYSTEMS
#   (default "rocksdb vlsm"), OUT (default build/bench/fig13c)
# Output: <OUT>/<dist>/ (mixgraph.sh's), <OUT>/<dist>.txt (its table),
# <OUT>/fig13c.csv and, with python3-matplotlib, <OUT>/fig13c.png.
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/checks.sh
source "$VLSM_ROOT/scripts/lib/checks.sh"
# shellcheck source=settings.sh
source "$VLSM_ROOT/scripts/bench/settings.sh"
declare -A S=([KEYS]=10000000 [OPS]=20000000 [SYSTEMS]="rocksdb vlsm" [OUT]=build/bench/fig13c)
settings_read "$@"
require_positive_int KEYS "${S[KEYS]}"
require_positive_int OPS "${S[OPS]}"
out=${S[OUT]}
out=$(settings_dir OUT "$out") || exit 2
mkdir -p "$out"
for dist in uniform prefix; do
  "$VLSM_ROOT/scripts/bench/mixgraph.sh" MIX=puts KEY_DIST=$dist KEYS="${S[KEYS]}" \
    OPS="${S[OPS]}" SYSTEMS="${S[SYSTEMS]}" OUT="$out/$dist" | tee "$out/$dist.txt"
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
            w.writerow([dist, run["name"].rsplit("-mixgraph", 1)[0], run["io_amplification"],
                        run["ops_per_sec"] / 1e3, run["cpu_us_per_op"]])
print(open(os.path.join(out, "fig13c.csv")).read(), end="")
EOF
# plot.py runs under its own interpreter (Debian's, where python3-matplotlib
# is); without matplotlib the CSV is the result and the figure is skipped.
"$VLSM_ROOT/scripts/plot.py" bars "$out/fig13c.csv" -o "$out/fig13c.png" ||
  echo "note: no figure drawn; the figures are in $out/fig13c.csv" >&2
