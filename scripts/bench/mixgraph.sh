#!/usr/bin/env bash
# Meta's production-like workload (db_bench mixgraph, Cao et al., FAST '20),
# RocksDB vs vLSM side by side: a fillrandom load, then mixgraph on the loaded
# DB with the published "prefix_dist" parameters: key ranges and keys drawn
# from the fitted power/exponential models (a skewed, Pareto-like key
# popularity) and value sizes from the fitted generalized Pareto
# (value_k 0.2615, value_sigma 25.45, at most 1024 bytes); 85% gets, 14%
# puts, 1% seeks. The sine-shaped rate of the original recipe is left out:
# the run is closed-loop, so it measures I/O amplification and compaction
# shape, not latency under a given load.
#
# usage: mixgraph.sh [SETTINGS.env] [KEY=VALUE...]   (scripts/bench/README.md)
#   KEYS     keys loaded by fillrandom (default 10000000)
#   OPS      mixgraph operations (default 10000000)
#   MIX      production (default: 85% gets, 14% puts, 1% seeks) or puts
#            (100% puts: the writes that cost I/O; the paper's Fig. 13c)
#   KEY_DIST prefix (default: the fitted key-range and key popularity
#            models) or uniform (every key equally likely: db_bench's
#            random modeling, key_dist_a=0)
#   SYSTEMS  default "rocksdb vlsm";  OUT  default build/bench/mixgraph
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/checks.sh
source "$VLSM_ROOT/scripts/lib/checks.sh"
# shellcheck source=settings.sh
source "$VLSM_ROOT/scripts/bench/settings.sh"
declare -A S=([KEYS]=10000000 [OPS]=10000000 [MIX]=production [KEY_DIST]=prefix
              [SYSTEMS]="rocksdb vlsm" [OUT]=build/bench/mixgraph)
settings_read "$@"
keys=${S[KEYS]} ops=${S[OPS]} out=${S[OUT]}
out=$(settings_dir OUT "$out") || exit 2
require_positive_int KEYS "$keys"
require_positive_int OPS "$ops"
case "${S[MIX]}" in
  production) mix=(--mix_get_ratio=0.85 --mix_put_ratio=0.14 --mix_seek_ratio=0.01) ;;
  puts) mix=(--mix_get_ratio=0 --mix_put_ratio=1 --mix_seek_ratio=0) ;;
  *) echo "error: MIX must be production or puts, got '${S[MIX]}'" >&2; exit 2 ;;
esac
case "${S[KEY_DIST]}" in
  prefix) keydist=(--key_dist_a=0.002312 --key_dist_b=0.3467 --keyrange_num=30
            --keyrange_dist_a=14.18 --keyrange_dist_b=-2.917 --keyrange_dist_c=0.0164
            --keyrange_dist_d=-0.08082) ;;
  # All of them 0: db_bench draws every key uniformly (its random modeling).
  uniform) keydist=(--key_dist_a=0 --key_dist_b=0 --keyrange_dist_a=0 --keyrange_dist_b=0
             --keyrange_dist_c=0 --keyrange_dist_d=0) ;;
  *) echo "error: KEY_DIST must be prefix or uniform, got '${S[KEY_DIST]}'" >&2; exit 2 ;;
esac
for system in ${S[SYSTEMS]}; do python3 "$VLSM_ROOT/scripts/bench/systems.py" options "$system" >/dev/null || exit 2; done
. "$VLSM_ROOT/scripts/lib/deps.sh"
. "$VLSM_ROOT/scripts/bench/lib.sh"
mixgraph=(--benchmarks=mixgraph,waitforcompaction --use_existing_db=1 --num="$keys" --reads="$ops"
  "${keydist[@]}" --value_k=0.2615 --value_sigma=25.45
  --mix_max_value_size=1024 --iter_k=2.517 --iter_sigma=14.236 "${mix[@]}")

vlsm_install_packages "${VLSM_BUILD_PACKAGES[@]}" python3 time
vlsm_bench_build
runs=()
for system in ${S[SYSTEMS]}; do
  db="$out/$system-db"
  rm -rf "$db"
  vlsm_bench_run "$out" "$system-load" "$system" --benchmarks=fillrandom,waitforcompaction \
    --num="$keys" --value_size=200 --db="$db"
  vlsm_bench_run "$out" "$system-mixgraph" "$system" "${mixgraph[@]}" --db="$db"
  rm -rf "$db"
  runs+=("$system-mixgraph=$out/$system-mixgraph.json")
done
echo
echo "== mixgraph (${S[MIX]} mix, ${S[KEY_DIST]} keys, Pareto values), $ops operations on $keys keys"
python3 "$VLSM_ROOT/scripts/bench/eval/report_db_bench.py" --json "$out/summary.json" "${runs[@]}"
