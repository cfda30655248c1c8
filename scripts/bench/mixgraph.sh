#!/usr/bin/env bash
# Meta's production-like workload (db_bench mixgraph, Cao et al., FAST '20),
# stock vs vLSM side by side: a fillrandom load, then mixgraph on the loaded
# DB with the published "prefix_dist" parameters: key ranges and keys drawn
# from the fitted power/exponential models (a skewed, Pareto-like key
# popularity) and value sizes from the fitted generalized Pareto
# (value_k 0.2615, value_sigma 25.45, at most 1024 bytes); 85% gets, 14%
# puts, 1% seeks. The sine-shaped rate of the original recipe is left out:
# the run is closed-loop, so it measures I/O amplification and compaction
# shape, not latency under a given load.
#
# Environment: VLSM_BENCH_KEYS (default 10000000), VLSM_BENCH_OPS (mixgraph
# operations, default 10000000), VLSM_BENCH_DIR (default
# build/bench/mixgraph), VLSM_BENCH_VLSM_FLAGS, VLSM_JOBS, and for the
# paper's Fig. 13c (I/O amplification, uniform against Pareto-like keys):
#   VLSM_BENCH_MIX       production (default: 85% gets, 14% puts, 1% seeks)
#                        or puts (100% puts: the writes that cost I/O)
#   VLSM_BENCH_KEY_DIST  prefix (default: the fitted key-range and key
#                        popularity models) or uniform (every key equally
#                        likely: db_bench's random modeling, key_dist_a=0)
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/checks.sh
source "$VLSM_ROOT/scripts/lib/checks.sh"
. "$VLSM_ROOT/scripts/lib/deps.sh"
. "$VLSM_ROOT/scripts/bench/lib.sh"

keys=${VLSM_BENCH_KEYS:-10000000}
ops=${VLSM_BENCH_OPS:-10000000}
out=${VLSM_BENCH_DIR:-$VLSM_ROOT/build/bench/mixgraph}
require_positive_int VLSM_BENCH_KEYS "$keys"
require_positive_int VLSM_BENCH_OPS "$ops"
case "${VLSM_BENCH_MIX:-production}" in
  production) mix=(--mix_get_ratio=0.85 --mix_put_ratio=0.14 --mix_seek_ratio=0.01) ;;
  puts) mix=(--mix_get_ratio=0 --mix_put_ratio=1 --mix_seek_ratio=0) ;;
  *) echo "error: VLSM_BENCH_MIX must be production or puts, got '$VLSM_BENCH_MIX'" >&2; exit 2 ;;
esac
case "${VLSM_BENCH_KEY_DIST:-prefix}" in
  prefix) keydist=(--key_dist_a=0.002312 --key_dist_b=0.3467 --keyrange_num=30
            --keyrange_dist_a=14.18 --keyrange_dist_b=-2.917 --keyrange_dist_c=0.0164
            --keyrange_dist_d=-0.08082) ;;
  # All of them 0: db_bench draws every key uniformly (its random modeling).
  uniform) keydist=(--key_dist_a=0 --key_dist_b=0 --keyrange_dist_a=0 --keyrange_dist_b=0
             --keyrange_dist_c=0 --keyrange_dist_d=0) ;;
  *) echo "error: VLSM_BENCH_KEY_DIST must be prefix or uniform, got '$VLSM_BENCH_KEY_DIST'" >&2; exit 2 ;;
esac
mixgraph=(--benchmarks=mixgraph,waitforcompaction --use_existing_db=1 --num="$keys" --reads="$ops"
  "${keydist[@]}" --value_k=0.2615 --value_sigma=25.45
  --mix_max_value_size=1024 --iter_k=2.517 --iter_sigma=14.236 "${mix[@]}")

vlsm_install_packages "${VLSM_BUILD_PACKAGES[@]}" python3 time
vlsm_bench_build
runs=()
for system in stock vlsm; do
  db="$out/$system-db"
  rm -rf "$db"
  vlsm_bench_run "$out" "$system-load" "$system" --benchmarks=fillrandom,waitforcompaction \
    --num="$keys" --value_size=200 --db="$db"
  vlsm_bench_run "$out" "$system-mixgraph" "$system" "${mixgraph[@]}" --db="$db"
  rm -rf "$db"
  runs+=("$system-mixgraph=$out/$system-mixgraph.json")
done
echo
echo "== mixgraph (${VLSM_BENCH_MIX:-production} mix, ${VLSM_BENCH_KEY_DIST:-prefix} keys, Pareto values), $ops operations on $keys keys"
python3 "$VLSM_ROOT/scripts/bench/summarize.py" --json "$out/summary.json" "${runs[@]}"
