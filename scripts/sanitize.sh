#!/usr/bin/env bash
# The fork's own tests under AddressSanitizer + UndefinedBehaviorSanitizer:
# configures build/asan (Debug, upstream's WITH_ASAN and WITH_UBSAN; jemalloc
# off, as upstream requires for sanitizers), builds the library and the test
# binaries of the `vlsm` and `reliability` labels, and runs them with ctest.
# Any ASan report or UBSan "runtime error" fails the run.
#
# Not part of scripts/test.sh: the sanitized library is a full second build
# (about 15-20 minutes on 2 cores with a cold ccache), too much for CI's
# budget. Excluded from the run, because they need a program the sanitized
# tree does not build or cannot load:
#   vlsm.db_stress, reliability.crashtest_blackbox  (db_stress, a large tool;
#     scripts/stress.sh runs them on the Debug tree)
#   reliability.stock_headers_options  (an unsanitized program cannot load an
#     ASan-instrumented librocksdb.so)
#
# Environment: VLSM_JOBS (default 2), VLSM_ASAN_DIR (default build/asan),
# CTEST_ARGS extra ctest arguments. With VLSM_BUILD_LOCK=FILE every build
# step runs under `flock FILE` (for machines where several builds share cores).
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$VLSM_ROOT"
. scripts/lib/deps.sh
dir=${VLSM_ASAN_DIR:-$VLSM_ROOT/build/asan}
lock=()
[ -n "${VLSM_BUILD_LOCK:-}" ] && lock=(flock "$VLSM_BUILD_LOCK")

vlsm_install_packages "${VLSM_BUILD_PACKAGES[@]}" python3
echo "== configuring $dir (Debug, ASan + UBSan)"
"${lock[@]}" cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DWITH_ASAN=ON -DWITH_UBSAN=ON -DWITH_JEMALLOC=OFF -DVLSM_TOOLS_JEMALLOC=OFF \
  -DVLSM_BUILD_TESTS=ON -DVLSM_UPSTREAM_TESTS=OFF >/dev/null
targets=(vsst_cut_policy_test vlsm_picker_test vlsm_db_test vlsm_l0_order_test vlsm_concurrency_test
         crash_writer disk_full_test io_error_test bad_options_test)
echo "== building ${targets[*]}"
"${lock[@]}" cmake --build "$dir" -j "${VLSM_JOBS:-2}" --target "${targets[@]}" | tail -2

# halt_on_error: the first UBSan report aborts the test (the checks are
# compiled recoverable); ASan aborts on its first report by itself.
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
# shellcheck disable=SC2206
extra=(${CTEST_ARGS:-})
echo "== ctest -L 'vlsm|reliability' in $dir"
status=0
ctest --test-dir "$dir" --output-on-failure -L 'vlsm|reliability' \
  -E 'db_stress|crashtest_blackbox|stock_headers_options' "${extra[@]}" |
  tee "$dir/sanitize.log" || status=1
if grep -qE 'runtime error:|ERROR: AddressSanitizer|ERROR: LeakSanitizer' "$dir/sanitize.log"; then
  echo "sanitizer reports in $dir/sanitize.log" >&2
  status=1
fi
echo "== sanitize: $(grep -E 'tests passed' "$dir/sanitize.log" | tail -1)"
exit $status
