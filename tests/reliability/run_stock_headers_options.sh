#!/usr/bin/env bash
# Builds stock_headers_options.cc against the pristine upstream headers only
# and runs it on the fork's librocksdb.so.9 (ctest sets CXX, BUILD_DIR,
# PRISTINE_INCLUDE, SRC, WORK).
set -euo pipefail
rm -rf "$WORK"; mkdir -p "$WORK"
if grep -rq kVlsm "$PRISTINE_INCLUDE/rocksdb"; then
  echo "FAIL: $PRISTINE_INCLUDE is not pristine (it names kVlsm)" >&2; exit 1
fi
"$CXX" -std=c++17 -O1 -Wall -Werror -I"$PRISTINE_INCLUDE" "$SRC/stock_headers_options.cc" \
  -o "$WORK/stock_headers_options" "$BUILD_DIR/librocksdb.so.9" -Wl,-rpath,"$BUILD_DIR"
"$WORK/stock_headers_options" "$WORK/db"
