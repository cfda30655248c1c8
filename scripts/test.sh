#!/usr/bin/env bash
# The one test command: installs what is missing (Debian), fetches RocksDB
# 9.10.0, builds the fork and runs every test through ctest.
#
#   build/        Release tree: the library, the tools, the fork's own tests
#   build/debug/  Debug tree: upstream's compaction tests (they need sync
#                 points, which Release builds compile out)
#
# Environment: VLSM_JOBS (default 2) build jobs; CTEST_ARGS extra ctest
# arguments (e.g. "-L dropin"); VLSM_SKIP_UPSTREAM_TESTS=1 skips the Debug tree.
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$VLSM_ROOT"
. scripts/lib/deps.sh
start=$(date +%s)

vlsm_install_packages "${VLSM_BUILD_PACKAGES[@]}" "${VLSM_TEST_PACKAGES[@]}"
command -v ccache >/dev/null && ccache --zero-stats >/dev/null

echo "== building build/ (Release)"
vlsm_build build -DCMAKE_BUILD_TYPE=Release -DVLSM_BUILD_TESTS=ON
if [ "${VLSM_SKIP_UPSTREAM_TESTS:-0}" != 1 ]; then
  echo "== building build/debug/ (Debug, upstream tests)"
  vlsm_build build/debug -DCMAKE_BUILD_TYPE=Debug -DVLSM_BUILD_TESTS=OFF -DVLSM_UPSTREAM_TESTS=ON
fi
built=$(date +%s)
command -v ccache >/dev/null && ccache --show-stats | grep -E 'Hits|Misses' | head -3 || true

# shellcheck disable=SC2206
extra=(${CTEST_ARGS:-})
results=()
status=0
run_ctest() {  # $1 = tree
  echo "== ctest in $1"
  if ctest --test-dir "$1" --output-on-failure -j "${VLSM_JOBS:-2}" "${extra[@]}" | tee "$1/ctest.log"; then
    results+=("$1: $(grep -E 'tests passed' "$1/ctest.log" | tail -1)")
  else
    status=1
    results+=("$1: $(grep -E 'tests passed|tests failed' "$1/ctest.log" | tail -1) -- FAILED")
  fi
}
run_ctest build
[ "${VLSM_SKIP_UPSTREAM_TESTS:-0}" = 1 ] || run_ctest build/debug
end=$(date +%s)

echo
echo "== summary (build $((built - start)) s, tests $((end - built)) s)"
printf '%s\n' "${results[@]}"
exit $status
