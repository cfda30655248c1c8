#!/usr/bin/env bash
# One drop-in check, run by ctest (tests/dropin/CMakeLists.txt sets the
# environment: CXX, CC, BUILD_DIR, PREFIX, WORK, SRC, PRISTINE_INCLUDE, FORK_INCLUDE
# (the patched upstream headers), VLSM_INCLUDE (ours), README, CMAKE,
# GENERATOR).
#   find_package     consumer project with find_package(RocksDB CONFIG),
#                    shared and static, against the installed fork
#   pkg_config       consumer built with `pkg-config rocksdb` flags
#   layout           option structs identical to pristine 9.10.0 headers
#   pristine_binary  a program built against pristine headers runs on our .so
#   no_allocator     librocksdb.so.9 needs no allocator library (jemalloc,
#                    tcmalloc): one would interpose on the user's process
#   c_api            a C program (gcc, installed headers via pkg-config) turns
#                    vLSM on through rocksdb/vlsm_c.h and an options string
#   c_dlopen         the same program loading the library with dlopen
#   python_ctypes    /usr/bin/python3 loads the library with ctypes
set -euo pipefail
# The library must load as users load it: no allocator preloaded.
unset LD_PRELOAD
case_name=$1
work="$WORK/$case_name"
rm -rf "$work"; mkdir -p "$work"
cxxflags=(-std=c++17 -O1 -Wall -Werror -Wno-invalid-offsetof)

fail() { echo "FAIL($case_name): $*" >&2; exit 1; }

case "$case_name" in
find_package)
  "$CMAKE" -S "$SRC/consumer" -B "$work/build" -G "$GENERATOR" \
    -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_CXX_COMPILER="$CXX" \
    -DCMAKE_BUILD_RPATH="$PREFIX/lib" -DCMAKE_BUILD_TYPE=Release
  "$CMAKE" --build "$work/build" -j2
  "$work/build/consumer_shared" "$work/db_shared"
  "$work/build/consumer_static" "$work/db_static"
  # The shared consumer must have loaded the installed fork, not a system copy.
  ldd "$work/build/consumer_shared" > "$work/ldd.txt"
  grep -q "$PREFIX/.*librocksdb.so.9" "$work/ldd.txt" ||
    fail "consumer_shared does not load the installed librocksdb.so.9: $(grep rocksdb "$work/ldd.txt")"
  ;;
pkg_config)
  pc_dir=$(dirname "$(find "$PREFIX" -name rocksdb.pc | head -1)")
  [ -n "$pc_dir" ] || fail "rocksdb.pc is not installed under $PREFIX"
  export PKG_CONFIG_PATH="$pc_dir"
  # The .pc holds the configured prefix (/usr), not this test's one.
  pc() { pkg-config --define-variable=prefix="$PREFIX" "$@" rocksdb; }
  [ "$(pc --modversion)" = "9.10.0" ] || fail "pkg-config version is $(pc --modversion)"
  # shellcheck disable=SC2046
  "$CXX" "${cxxflags[@]}" "$SRC/consumer.cc" -o "$work/consumer" $(pc --cflags) \
    $(pc --libs) -Wl,-rpath,"$(pc --variable=libdir)"
  "$work/consumer" "$work/db"
  ;;
layout)
  command -v gdb >/dev/null || fail "gdb is needed to compare member layouts (apt-get install gdb)"
  for side in pristine fork; do
    if [ $side = pristine ]; then inc="$PRISTINE_INCLUDE"; else inc="$FORK_INCLUDE"; fi
    "$CXX" "${cxxflags[@]}" -g -O0 -fno-eliminate-unused-debug-types -I"$inc" \
      "$SRC/layout_probe.cc" -o "$work/probe_$side" "$BUILD_DIR/librocksdb.so.9" \
      -Wl,-rpath,"$BUILD_DIR"
    "$work/probe_$side" > "$work/sizes_$side.txt"
    for t in Options DBOptions ColumnFamilyOptions AdvancedColumnFamilyOptions \
             ReadOptions WriteOptions BlockBasedTableOptions; do
      echo "== rocksdb::$t"
      gdb -batch -nx -ex "ptype /o rocksdb::$t" "$work/probe_$side" 2>&1
    done > "$work/layout_$side.txt"
  done
  grep -q 'offset' "$work/layout_pristine.txt" || fail "gdb printed no layout: $(head -5 "$work/layout_pristine.txt")"
  diff -u "$work/sizes_pristine.txt" "$work/sizes_fork.txt" || fail "struct sizes differ from upstream 9.10.0"
  diff -u "$work/layout_pristine.txt" "$work/layout_fork.txt" || fail "member layouts differ from upstream 9.10.0"
  cat "$work/sizes_fork.txt"
  echo "member layouts identical: $(grep -c '/\*' "$work/layout_fork.txt") lines of gdb ptype /o compared"
  ;;
pristine_binary)
  lib="$BUILD_DIR/librocksdb.so.9"
  [ -e "$lib" ] || fail "$lib is missing"
  soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\].*/\1/p')
  [ "$soname" = "librocksdb.so.9" ] || fail "SONAME is '$soname', expected librocksdb.so.9"
  # Only the pristine headers: nothing of ours is visible to this program.
  "$CXX" "${cxxflags[@]}" -I"$PRISTINE_INCLUDE" "$SRC/consumer.cc" -o "$work/consumer" \
    "$lib" -Wl,-rpath,"$BUILD_DIR"
  ldd "$work/consumer" > "$work/ldd.txt"
  grep -q "$BUILD_DIR/librocksdb.so.9" "$work/ldd.txt" || fail "consumer does not load $lib"
  "$work/consumer" "$work/db"
  # (to a file: grep -q on a pipe would SIGPIPE nm under pipefail)
  nm -D --defined-only "$lib" > "$work/symbols.txt"
  grep -q GetVlsmForkVersionAsString "$work/symbols.txt" ||
    fail "$lib is not the fork (no GetVlsmForkVersionAsString)"
  ;;
no_allocator)
  readelf -d "$BUILD_DIR/librocksdb.so.9" > "$work/dynamic.txt"
  if grep -E 'NEEDED.*(jemalloc|tcmalloc|mimalloc)' "$work/dynamic.txt"; then
    fail "librocksdb.so.9 links an allocator: C programs, cgo and dlopen users would mix allocators"
  fi
  grep NEEDED "$work/dynamic.txt"
  ;;
c_api)
  pc_dir=$(dirname "$(find "$PREFIX" -name rocksdb.pc | head -1)")
  export PKG_CONFIG_PATH="$pc_dir"
  pc() { pkg-config --define-variable=prefix="$PREFIX" "$@" rocksdb; }
  # shellcheck disable=SC2046
  "$CC" -std=c11 -D_GNU_SOURCE -O1 -Wall -Werror "$SRC/c_consumer.c" -o "$work/c_consumer" \
    $(pc --cflags) $(pc --libs) -Wl,-rpath,"$(pc --variable=libdir)"
  ldd "$work/c_consumer" > "$work/ldd.txt"
  grep -q "$PREFIX/.*librocksdb.so.9" "$work/ldd.txt" || fail "c_consumer does not load the installed library"
  # The README's options strings for bindings (one line each, in a code
  # block): the paper's layout and the ranged one.
  VLSM_README_OPTIONS=$(grep -m1 '^compaction_style=kCompactionStyleLevel;compaction_pri=kVlsm;' "$README")
  [ -n "$VLSM_README_OPTIONS" ] || fail "no vLSM options string in $README"
  VLSM_README_RANGED_OPTIONS=$(grep -m1 '^compaction_style=kCompactionStyleLevel;compaction_pri=kVlsmRanged;' "$README")
  [ -n "$VLSM_README_RANGED_OPTIONS" ] || fail "no ranged vLSM options string in $README"
  export VLSM_README_OPTIONS VLSM_README_RANGED_OPTIONS
  "$work/c_consumer" "$work"
  ;;
c_dlopen)
  "$CC" -std=c11 -D_GNU_SOURCE -DVLSM_DLOPEN -O1 -Wall -Werror -I"$VLSM_INCLUDE" -I"$FORK_INCLUDE" \
    "$SRC/c_consumer.c" -o "$work/c_consumer" -ldl
  if ldd "$work/c_consumer" | grep -q rocksdb; then fail "c_dlopen links librocksdb"; fi
  "$work/c_consumer" "$work" "$BUILD_DIR/librocksdb.so.9"
  ;;
python_ctypes)
  /usr/bin/python3 "$SRC/python_ctypes.py" "$BUILD_DIR/librocksdb.so.9" "$work"
  ;;
*) fail "unknown case" ;;
esac
echo "PASS($case_name)"
