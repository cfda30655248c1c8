#!/usr/bin/env bash
# The one test command: installs what is missing (Debian), fetches RocksDB
# 9.10.0, builds one tree and runs every test there through ctest:
#
#   build/check/  Check (-O2 without NDEBUG: assertions and upstream's sync
#                 points on): the library, the tools, the fork's own tests
#                 and upstream's compaction and flush tests (tests/upstream)
#
# The Release tree, build/, is not built here: the benchmark, demo and tool
# scripts build what they run there when it is missing (scripts/lib/deps.sh,
# vlsm_release_tree).
#
# Environment: VLSM_JOBS (default 2) build and ctest jobs; CTEST_ARGS extra
# ctest arguments (e.g. "-L dropin"); VLSM_UPSTREAM_TESTS=OFF leaves
# upstream's tests out of the tree (not built, not run).
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$VLSM_ROOT"
. scripts/lib/deps.sh
start=$(date +%s)
tree=build/check

vlsm_install_packages "${VLSM_BUILD_PACKAGES[@]}" "${VLSM_TEST_PACKAGES[@]}"
command -v ccache >/dev/null && ccache --zero-stats >/dev/null

echo "== building $tree/ (Check)"
vlsm_build "$tree" -DCMAKE_BUILD_TYPE=Check -DVLSM_BUILD_TESTS=ON \
  -DVLSM_UPSTREAM_TESTS="${VLSM_UPSTREAM_TESTS:-ON}"
built=$(date +%s)
command -v ccache >/dev/null && ccache --show-stats | grep -E 'Hits|Misses' | head -3 || true

# shellcheck disable=SC2206
extra=(${CTEST_ARGS:-})
echo "== ctest in $tree"
status=0
if ctest --test-dir "$tree" --output-on-failure -j "${VLSM_JOBS:-2}" "${extra[@]}" | tee "$tree/ctest.log"; then
  result="$tree: $(grep -E 'tests passed' "$tree/ctest.log" | tail -1 || true)"
else
  status=1
  result="$tree: $(grep -E 'tests passed|tests failed' "$tree/ctest.log" | tail -1 || true) -- FAILED"
fi
end=$(date +%s)

echo
echo "== summary (build $((built - start)) s, tests $((end - built)) s)"
echo "$result"
exit $status
