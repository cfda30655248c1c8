#!/usr/bin/env bash
# Stock RocksDB 9.10 reads a ranged DB after the way back (docs/vlsm.md,
# "The way back to stock RocksDB"), with the ldb of a pristine build: the
# upstream tarball the fork is built from, without the fork's patches.
#
# 1. vlsm_way_back (the fork) writes KEYS keys into two ranged DBs; the
#    first is only closed, the second takes the documented way back (its
#    L0 at rest must hold split flushes, several files, for the way back to
#    compact away).
# 2. The pristine ldb opens each with its OPTIONS file, strictly
#    (--try_load_options, unknown options not ignored):
#    - the ranged DB must be refused, naming compaction_pri (stock cannot
#      parse kVlsmRanged): the check can fail;
#    - the DB after the way back must open, scan exactly KEYS keys, and
#      give back a sample of keys with their values.
#
# usage: scripts/stock_reads_way_back.sh [KEY=VALUE...]
#   KEYS=1000000                    (L0 at rest then holds split flushes)
#   FORK_TOOLS=build/check          where vlsm_way_back is
#   PRISTINE_LDB=                   a pristine 9.10 ldb; empty: build one in
#   PRISTINE_BUILD=build/pristine-ldb  (once; about 10 minutes at -j2, -O0)
#   WORK=/tmp/stock-reads-way-back  the two DBs (made afresh)
# Relative paths are the checkout's. PRISTINE_BUILD and WORK are deleted
# and made again, so each must be new or a directory this script made.
# Exits 0 if both checks hold, 1 if one does not, 2 on bad input.
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$VLSM_ROOT"
keys=1000000 fork_tools=build/check pristine_ldb="" pristine_build=build/pristine-ldb
work=/tmp/stock-reads-way-back
for arg in "$@"; do
  case "$arg" in
    KEYS=*) keys=${arg#*=} ;;
    FORK_TOOLS=*) fork_tools=${arg#*=} ;;
    PRISTINE_LDB=*) pristine_ldb=${arg#*=} ;;
    PRISTINE_BUILD=*) pristine_build=${arg#*=} ;;
    WORK=*) work=${arg#*=} ;;
    *) echo "error: unknown setting '$arg' (see the usage at the top)" >&2; exit 2 ;;
  esac
done
[[ "$keys" =~ ^[1-9][0-9]*$ ]] || { echo "error: KEYS='$keys' is not a positive number" >&2; exit 2; }
way_back_tool=$fork_tools/vlsm_way_back
marker=.stock-reads-way-back
# fresh_dir DIR: DIR emptied and marked as this script's; refused if it
# holds anything this script did not make (a typo must not delete a tree).
fresh_dir() {
  if [ -n "$(ls -A "$1" 2>/dev/null)" ] && [ ! -e "$1/$marker" ]; then
    echo "error: $1 exists and was not made by this script: name a new directory" >&2
    exit 2
  fi
  rm -rf "$1" && mkdir -p "$1" && touch "$1/$marker"
}
[ -x "$way_back_tool" ] || { echo "error: no $way_back_tool (scripts/test.sh builds build/check)" >&2; exit 2; }

if [ -z "$pristine_ldb" ]; then
  pristine_ldb=$pristine_build/build/tools/ldb
  if [ ! -x "$pristine_ldb" ]; then
    # The pinned tarball, its hash checked (the fork's build keeps it under
    # build/_upstream/download), extracted afresh: no patch is applied.
    tarball=$(scripts/fetch-upstream.sh build/_upstream/download)
    echo "== building a pristine 9.10 ldb in $pristine_build (once; about 10 minutes at -j2)"
    fresh_dir "$pristine_build"
    mkdir -p "$pristine_build/build"
    tar xzf "$tarball" -C "$pristine_build"
    launcher=()
    command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    if ! ( cd "$pristine_build/build" &&
      cmake -G Ninja ../rocksdb-9.10.0 -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_CXX_FLAGS_DEBUG="-O0 -g0" -DCMAKE_C_FLAGS_DEBUG="-O0 -g0" \
        -DWITH_GFLAGS=1 -DWITH_TESTS=OFF -DWITH_BENCHMARK_TOOLS=OFF \
        -DWITH_CORE_TOOLS=ON -DWITH_SNAPPY=1 -DWITH_LZ4=1 -DWITH_ZSTD=1 \
        -DFAIL_ON_WARNINGS=OFF -DPORTABLE=1 "${launcher[@]}" > build.log 2>&1 &&
      ninja -j2 ldb >> build.log 2>&1 ); then
      echo "error: the pristine build failed; the end of $pristine_build/build/build.log:" >&2
      tail -15 "$pristine_build/build/build.log" >&2
      exit 2
    fi
  fi
fi
[ -x "$pristine_ldb" ] || { echo "error: no pristine ldb at $pristine_ldb" >&2; exit 2; }
# The binary and the library it loads must both be upstream's.
pristine_lib=$(ldd "$pristine_ldb" | awk '/librocksdb/ {print $3}')
for f in "$pristine_ldb" $pristine_lib; do
  if grep -aq kVlsmRanged "$f"; then
    echo "error: $f knows kVlsmRanged: it is the fork's, not a pristine build" >&2
    exit 2
  fi
done

fresh_dir "$work"
# Strict: without --ignore_unknown_options (in 9.10 a presence flag: any
# value given turns it on), an option stock does not know fails the open.
ldb() { "$pristine_ldb" --db="$1" --try_load_options "${@:2}"; }
failed=0

echo "== a ranged DB, closed as it is"
"$way_back_tool" --db="$work/ranged" --keys="$keys" --way_back=0
if out=$(ldb "$work/ranged" scan --max_keys=1 2>&1); then
  echo "FAIL: stock ldb opened a DB whose OPTIONS file names kVlsmRanged"
  failed=1
elif grep -q compaction_pri <<< "$out"; then
  echo "ok: refused, naming compaction_pri: $(head -c 300 <<< "$out")"
else
  echo "FAIL: refused without naming compaction_pri: $out"
  failed=1
fi

echo "== a ranged DB after the way back"
made=$("$way_back_tool" --db="$work/way-back" --keys="$keys" --way_back=1)
echo "$made"
field() { python3 -c 'import json,sys; print(json.load(sys.stdin)[sys.argv[1]])' "$1" <<< "$made"; }
# The premise: L0 held split flushes, and the way back compacted them away.
if [ "$(field l0_files_at_rest)" -lt 2 ] || [ "$(field l0_files_at_close)" -ne 0 ]; then
  echo "FAIL: L0 held $(field l0_files_at_rest) file(s) at rest and $(field l0_files_at_close) at close (several, then none): raise KEYS"
  failed=1
fi
options_file=$(field options_file)
echo "   its OPTIONS file ($options_file): $(grep -E 'compaction_pri|table_properties_collectors' \
  "$work/way-back/$options_file" | tr -s ' ' | tr '\n' ' ')"
if ! scanned=$(ldb "$work/way-back" scan 2> "$work/scan.err" | wc -l) || [ -s "$work/scan.err" ]; then
  echo "FAIL: stock ldb did not read the DB: $(head -c 600 "$work/scan.err")"
  failed=1
elif [ "$scanned" -ne "$keys" ]; then
  echo "FAIL: stock ldb scanned $scanned keys, $keys written"
  failed=1
else
  echo "ok: stock ldb scanned all $scanned keys"
fi
for i in 0 $((keys / 3)) $((keys / 2)) $((keys - 1)); do
  key=$(printf 'key%08d' "$i")
  got=$(ldb "$work/way-back" get "$key" 2>&1 || true)
  if [ "$got" = "value-$key" ]; then
    echo "ok: get $key = $got"
  else
    echo "FAIL: get $key gave '$got'"
    failed=1
  fi
done
[ "$failed" -eq 0 ] && echo "PASS" || echo "FAIL"
exit "$failed"
