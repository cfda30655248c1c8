#!/usr/bin/env bash
# The ranged layout's two L0 read paths on one settled tree: `files`
# (upstream's: one table iterator per L0 file, Get checks every L0 file)
# against `sublevels` (one LevelIterator per L0 sorted run, newest first;
# Get's FilePicker binary-searches each sublevel). The issue's benchmark:
# on the settled Load A tree (one region, 12 M records, 10-bit Bloom
# filters, no drain), db_bench seekrandom with 10 nexts, readrandom and
# multireadrandom (MultiGet, batches of 32; issue 54),
# three runs per path, medians and spread, sublevels / files (targets: ≥ 2×
# scans, ≥ 1.2× point reads), and the files a scan or a Get touches.
#
#   (a) load: one db_bench_vlsm run of SYSTEM (scripts/bench/systems.py,
#       Bloom 10 bits): filluniquerandom of RECORDS keys (each key once, in
#       random order: Load A's shape; 24-byte keys + 200-byte values, Load
#       A's 224 bytes a record; one writer thread), flush, then
#       waitforcompaction: the tree settles with the drain at rest off
#       (--vlsm_drain_at_rest=false: L0 stays up to its depth trigger, the
#       L0 these read paths are about; scripts/bench/rest_reads.sh reads it
#       drained). Then, read with build/ldb (read-only):
#       rocksdb.num-files-at-level0, rocksdb.vlsm.l0-depth,
#       rocksdb.vlsm.l0-sublevels and the tree's file list.
#       Not ycsb_vlsm's Load A: db_bench's readrandom and seekrandom draw
#       db_bench's keys, which a YCSB-loaded DB does not hold.
#   (b) reads, on that same tree: every run a new db_bench_vlsm process,
#       VLSM_L0_READ_PATH=files or =sublevels, --readonly (no flush or
#       compaction can run; the file list is checked after every run and
#       the script fails if it changed), one thread, --duration SECONDS,
#       seed 1 (every run reads the same key sequence), --perf_level=2
#       (counts only, no timers). Reads are buffered (--use_direct_reads=
#       false, unlike the load): the DB is read into the OS page cache
#       first (cat of every SST; residency measured with fincore before
#       each run), then a warm-up run per benchmark and path, discarded.
#       Measured: rep 1..REPS, for seekrandom, readrandom and
#       multireadrandom, files then sublevels, so the paths alternate.
#       seekrandom opens a new iterator per seek (db_bench's way), so a
#       scan's cost includes building the merging iterator over every L0
#       file (files) or sublevel.
#   (c) OUT/results.json (every run: path, ops/s, per-op PERF_CONTEXT
#       counters, command, machine record), the table (medians, min–max,
#       sublevels / files) on stdout and in OUT/summary.txt, by
#       scripts/bench/l0_read_paths.py. OUT/commands.txt holds every command
#       line exactly as run.
#
# usage: scripts/bench/l0_read_paths.sh [--records N] [--seconds S] [--reps R]
#          [--warmup-seconds W] [--system NAME] [--out DIR] [--db DIR]
#          [--reuse-db] [--keep-db] [--load-rate MIB]
#   --records N         keys loaded (default 12000000; e.g. 200000 for a
#                       quick check of the script, whose tree has little L0)
#   --seconds S         length of each measured run (default 60)
#   --reps R            measured runs per path and benchmark (default 3)
#   --warmup-seconds W  warm-up run per benchmark and path, discarded
#                       (default 10; 0: none; the page-cache read still runs)
#   --system NAME       a ranged system of scripts/bench/systems.py
#                       (default vlsm-ranged-rs32-io: what
#                       VlsmOptions::Ranged() configures, depth 8;
#                       vlsm-ranged-rs: depth 32)
#   --out DIR           results (default build/bench/l0-read-paths-<time>);
#                       must be new or empty
#   --db DIR            the DB (default build/l0-read-paths-db); a DB there
#                       is replaced unless --reuse-db
#   --reuse-db          skip (a): use the DB this script loaded at --db
#                       before (same records and system, checked); kept
#   --keep-db           keep the DB after a successful run (a loaded DB is
#                       always kept after a failure: rerun with --reuse-db)
#   --load-rate MIB     load at most MIB MiB/s of keys and values (db_bench's
#                       --benchmark_write_rate_limit; default 0: as fast as
#                       it goes). A rate compaction keeps up with leaves
#                       RocksDB's L0 at rest holding its last flushes
#                       (rest_reads.sh --load-rate), as an unthrottled
#                       load of this size does not
# Both forms work: --records 200000 and --records=200000. Bad input (an
# unknown flag, a bad number, an unknown or non-ranged system, a missing
# binary, a library without the sublevel read path) exits 2 before
# anything runs. Exit 1: a run failed or the tree changed; exit 3: the runs
# say the read-path switch had no effect.
# Binaries: build/db_bench_vlsm and build/ldb (or VLSM_BUILD_DIR's; see
# scripts/lib/deps.sh). This script builds nothing: a build would share the
# machine's cores with the runs. Build them first.
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../lib/checks.sh
source "$VLSM_ROOT/scripts/lib/checks.sh"
# shellcheck source=settings.sh
source "$VLSM_ROOT/scripts/bench/settings.sh"  # settings_dir
# shellcheck source=../lib/deps.sh
source "$VLSM_ROOT/scripts/lib/deps.sh"  # VLSM_RELEASE_DIR
# shellcheck source=machine.sh
source "$VLSM_ROOT/scripts/bench/machine.sh"
# shellcheck source=read_trees.sh
source "$VLSM_ROOT/scripts/bench/read_trees.sh"  # the records, reads, DB.load

# The names the sublevel read path brings (change them here if they differ).
READ_PATH_ENV=VLSM_L0_READ_PATH
SUBLEVELS_PROPERTY=rocksdb.vlsm.l0-sublevels
DEPTH_PROPERTY=rocksdb.vlsm.l0-depth

summary_py=$VLSM_ROOT/scripts/bench/l0_read_paths.py
script_args=("$0" "$@")  # for config.txt

records=12000000 seconds=60 reps=3 warmup=10 system=vlsm-ranged-rs32-io out='' db=''
load_rate=0
reuse=0 keep=0
while [ $# -gt 0 ]; do
  arg=$1; shift
  case "$arg" in
    -h|--help) usage; exit 0 ;;
    --reuse-db) reuse=1; continue ;;
    --keep-db) keep=1; continue ;;
    --records=*|--seconds=*|--reps=*|--warmup-seconds=*|--system=*|--out=*|--db=*|--load-rate=*)
      name=${arg%%=*} value=${arg#*=} ;;
    --records|--seconds|--reps|--warmup-seconds|--system|--out|--db|--load-rate)
      [ $# -gt 0 ] || die_usage "$arg needs a value"
      name=$arg value=$1; shift ;;
    *) die_usage "unknown argument '$arg'" ;;
  esac
  [ -n "$value" ] || die_usage "$name= has no value"
  case "$name" in
    --records) records=$value ;;
    --seconds) seconds=$value ;;
    --reps) reps=$value ;;
    --warmup-seconds) warmup=$value ;;
    --system) system=$value ;;
    --out) out=$value ;;
    --db) db=$value ;;
    --load-rate) load_rate=$value ;;
  esac
done
require_positive_int --records "$records"
require_positive_int --seconds "$seconds"
require_positive_int --reps "$reps"
[[ "$warmup" =~ ^[0-9]+$ ]] || die_usage "--warmup-seconds must be a whole number of seconds (0: none), got '$warmup'"
warmup=$((10#$warmup))
load_rate=$(load_rate_value "$load_rate") || exit 2

# The system: its db_bench_vlsm flags, Bloom 10 bits; the ranged layout only.
if ! sys_text=$(python3 "$VLSM_ROOT/scripts/bench/systems.py" db_bench "$system" bloom_bits=$BLOOM_BITS 2>&1); then
  die_usage "--system: ${sys_text#error: }"
fi
mapfile -t sys_flags <<< "$sys_text"
is_ranged() { [[ $'\n'"$1"$'\n' == *$'\n--vlsm_l0=ranged\n'* ]]; }  # FLAGS_TEXT
if ! is_ranged "$sys_text"; then
  ranged=
  for s in $(python3 "$VLSM_ROOT/scripts/bench/systems.py" names); do
    is_ranged "$(python3 "$VLSM_ROOT/scripts/bench/systems.py" db_bench "$s")" && ranged+=" $s"
  done
  die_usage "--system $system is not a ranged-layout system (ranged:$ranged)"
fi

# Paths: relative ones are the checkout's; never the checkout itself.
out=$(settings_dir --out "${out:-build/bench/l0-read-paths-$(date +%Y%m%d-%H%M%S)}") || exit 2
db=$(settings_dir --db "${db:-build/l0-read-paths-db}") || exit 2
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  die_usage "--out $out exists and is not empty (the summary reads every run in it)"
fi
marker=$db.load  # what (a) loaded, beside the DB: records, system, sizes
load_id=$(tree_load_id "$records" "$system" "$load_rate")
if [ "$reuse" = 1 ]; then
  [ -f "$db/CURRENT" ] || die_usage "--reuse-db: no DB at $db"
  [ -f "$marker" ] || die_usage "--reuse-db: $marker missing: $db was not loaded by this script"
  [ "$(head -1 "$marker")" = "$load_id" ] ||
    die_usage "--reuse-db: $db holds '$(head -1 "$marker")', not '$load_id'"
elif [ -e "$db" ] && [ -n "$(ls -A "$db" 2>/dev/null)" ] && [ ! -f "$db/CURRENT" ]; then
  die_usage "--db $db exists, is not empty and is not a RocksDB DB: not removing it"
fi

# The binaries, never built here.
bin_dir=$(realpath -m "${VLSM_BUILD_DIR:-$VLSM_RELEASE_DIR}")
bench=$bin_dir/db_bench_vlsm ldb=$bin_dir/ldb
for b in "$bench" "$ldb"; do
  [ -x "$b" ] || die_usage "$b is not built. This script builds nothing (a build would share the cores with the runs): build it first, e.g. cmake --build ${bin_dir#"$VLSM_ROOT"/} --target $(basename "$b")"
done
command -v python3 >/dev/null || die_usage "python3 not found"
# A binary built before the sublevel read path would run the same path
# twice and look like a tie: both names must be in the binaries or the
# librocksdb they load.
library_of() { ldd "$1" 2>/dev/null | awk '/librocksdb\.so/ { print $3; exit }'; }
for b in "$bench" "$ldb"; do
  lib=$(library_of "$b")
  for s in "$READ_PATH_ENV" "$SUBLEVELS_PROPERTY"; do
    grep -qaF -- "$s" "$b" ${lib:+"$lib"} ||
      die_usage "$b ${lib:+(library $lib) }does not know '$s': built before the sublevel read path? Rebuild it."
  done
done
have_fincore=0; command -v fincore >/dev/null && have_fincore=1
# Each command below sets the read path itself; an inherited value is
# dropped (and noted in config.txt).
inherited_path=${!READ_PATH_ENV:-}
unset "$READ_PATH_ENV"

mkdir -p "$out/runs" "$out/warmup"
rev=$(git -C "$VLSM_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$VLSM_ROOT" status --porcelain --untracked-files=no 2>/dev/null | head -1)
{
  echo "l0_read_paths.sh $(date -u +%Y-%m-%dT%H:%MZ): $(shell_words "${script_args[@]}")"
  echo "$load_id seconds=$seconds reps=$reps warmup_seconds=$warmup perf_level=$PERF_LEVEL seek_nexts=$SEEK_NEXTS reuse_db=$reuse"
  echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; $(uname -r)"
  echo "checkout: $rev${dirty:+ (with uncommitted changes)}; binaries: $bench, $ldb; library: $(library_of "$bench")"
  [ -z "$inherited_path" ] || echo "note: $READ_PATH_ENV=$inherited_path was in the environment; ignored (each command sets it)"
  echo "db: $db; page cache: $( [ $have_fincore = 1 ] && echo 'residency by fincore' || echo 'fincore missing: residency not measured')"
} > "$out/config.txt"
: > "$out/commands.txt"
printf 'kind\trep\tbenchmark\tpath\tname\tresident_pct\n' > "$out/runs.tsv"

finished=0
cleanup() {  # (the EXIT trap)
  # shellcheck disable=SC2317
  if [ "$finished" = 1 ] && [ "$keep" = 0 ] && [ "$reuse" = 0 ]; then
    rm -rf "${db:?}" "$marker"
  elif [ -f "$db/CURRENT" ] && [ -f "$marker" ]; then
    echo "== the DB is kept at $db (--reuse-db --db $db reuses it)"
  fi
}
trap cleanup EXIT

# bench_run DIR NAME READ_PATH db_bench-flags...: one db_bench_vlsm process
# with READ_PATH_ENV=READ_PATH; DIR/NAME.{cmd,out,err,json,machine.json}.
bench_run() {
  local dir=$1 name=$2 path=$3; shift 3
  local -a cmd=(env "$READ_PATH_ENV=$path" "$bench" "$@" --vlsm_report="$dir/$name.json")
  local line rc=0
  line=$(shell_words "${cmd[@]}")
  printf '%s\n' "$line" > "$dir/$name.cmd"
  printf '%s: %s\n' "$name" "$line" >> "$out/commands.txt"
  machine_begin
  "${cmd[@]}" > "$dir/$name.out" 2> "$dir/$name.err" || rc=$?
  if [ "$rc" != 0 ]; then
    echo "error: db_bench_vlsm failed for $name (exit status $rc); last lines of $dir/$name.err:" >&2
    tail -5 "$dir/$name.err" >&2
    exit 1
  fi
  machine_end "$dir/$name.machine.json"
}

ldb_property() {  # PROPERTY: its integer value on stdout (read-only open)
  local text value
  if ! text=$("$ldb" --db="$db" get_property "$1" 2>&1); then
    echo "error: ldb get_property $1 failed: $text" >&2; exit 1
  fi
  value=${text##*: }
  [[ "$value" =~ ^[0-9]+$ ]] || { echo "error: ldb get_property $1 said '$text'" >&2; exit 1; }
  printf '%s\n' "$value"
}

tree_listing() {  # FILE: the tree's live SST files by level (read-only open)
  "$ldb" --db="$db" list_live_files_metadata > "$1" 2>&1 ||
    { echo "error: ldb list_live_files_metadata failed:" >&2; tail -5 "$1" >&2; exit 1; }
}

resident_pct() {  # percent of the SSTs' bytes in the page cache
  if [ "$have_fincore" = 0 ]; then echo unknown; return; fi
  fincore -b -n -r -o RES,SIZE "$db"/*.sst |
    awk '{ r += ($1 < $2 ? $1 : $2); s += $2 } END { printf "%.1f\n", s ? 100 * r / s : 0 }'
}

common=(--key_size="$KEY_SIZE" --value_size="$VALUE_SIZE" --num="$records" --threads=1 --seed=1
        --stats_per_interval=0 --db="$db")

# ---- (a) the settled tree
if [ "$reuse" = 0 ]; then
  echo "== (a) load: $system, $records keys (filluniquerandom, flush, waitforcompaction), Bloom $BLOOM_BITS bits; DB $db"
  rm -rf "${db:?}" "$marker"
  t0=$(date +%s)
  bench_run "$out" load auto "${common[@]}" "${sys_flags[@]}" --statistics=1 --histogram=1 \
    --vlsm_drain_at_rest=false "$(load_rate_flag "$load_rate")" \
    --benchmarks=filluniquerandom,flush,waitforcompaction,levelstats,sstables,stats
  load_seconds=$(( $(date +%s) - t0 ))
  grep -q 'waitforcompaction(.*): finished with status (OK)' "$out/load.out" ||
    { echo "error: waitforcompaction did not finish OK (see $out/load.out)" >&2; exit 1; }
  { echo "$load_id"; echo "loaded $(date -u +%Y-%m-%dT%H:%MZ) by $rev in $load_seconds s; output $out"; } > "$marker"
  echo "   $(grep -m1 -E '^filluniquerandom +:' "$out/load.out" | sed 's/ \+/ /g'); whole load with settling: $load_seconds s"
else
  echo "== (a) reusing the DB at $db ($(sed -n 2p "$marker"))"
  load_seconds=
fi
l0_files=$(ldb_property rocksdb.num-files-at-level0)
l0_depth=$(ldb_property "$DEPTH_PROPERTY")
l0_sublevels=$(ldb_property "$SUBLEVELS_PROPERTY")
tree_listing "$out/tree-before.txt"
files_per_level=$(python3 "$summary_py" tree "$out/tree-before.txt")
db_bytes=$(du -sb "$db" | cut -f1)
block_cache=$(printf '%s\n' "${sys_flags[@]}" | sed -n 's/^--cache_size=//p')
cat > "$out/meta.env" <<EOF
system=$system
records=$records
key_size=$KEY_SIZE
value_size=$VALUE_SIZE
bloom_bits=$BLOOM_BITS
seconds=$seconds
reps=$reps
warmup_seconds=$warmup
perf_level=$PERF_LEVEL
seek_nexts=$SEEK_NEXTS
block_cache=$(( block_cache / 1048576 )) MiB
load_seconds=$load_seconds
l0_files=$l0_files
l0_depth=$l0_depth
l0_sublevels=$l0_sublevels
files_per_level=$files_per_level
db_bytes=$db_bytes
checkout=$rev
EOF
echo "   L0: $l0_files files, depth $l0_depth, $l0_sublevels sublevels; files per level $files_per_level; $(( db_bytes / 1048576 )) MiB"

# ---- (b) the two paths on that tree
read_flags=("${common[@]}" "${sys_flags[@]}" --use_direct_reads=false --use_existing_db=1
            --readonly=1 --disable_auto_compactions=1 --statistics=0 --histogram=1
            --perf_level="$PERF_LEVEL")
check_tree() {  # NAME: fail if the tree's file list changed during NAME
  tree_listing "$1.tree.txt"
  if ! cmp -s "$out/tree-before.txt" "$1.tree.txt"; then
    echo "error: the tree changed during $(basename "$1") (its file list differs from $out/tree-before.txt); the runs are not on one tree:" >&2
    diff "$out/tree-before.txt" "$1.tree.txt" | head -20 >&2
    exit 1
  fi
}

per_run=$(( seconds + 8 )) per_warm=$(( warmup > 0 ? warmup + 8 : 0 ))
runs_per_rep=$(( 2 * ${#BENCHMARKS[@]} ))  # two paths
echo "== (b) reads: page cache, then $(( runs_per_rep * (per_warm + reps * per_run) )) s or so of runs" \
     "(${reps} × 2 paths × ${#BENCHMARKS[@]} benchmarks × ${seconds} s, warm-ups ${warmup} s)"
t0=$(date +%s)
cat "$db"/*.sst > /dev/null
echo "   page cache: SSTs read in $(( $(date +%s) - t0 )) s; $(resident_pct)% resident"
if [ "$warmup" != 0 ]; then
  for b in "${BENCHMARKS[@]}"; do
    for p in files sublevels; do
      name=warmup-$b-$p
      mapfile -t bf < <(bench_flags "$b")
      bench_run "$out/warmup" "$name" "$p" "${read_flags[@]}" "${bf[@]}" --duration="$warmup"
      printf 'warmup\t0\t%s\t%s\t%s\t\n' "$b" "$p" "$name" >> "$out/runs.tsv"
      echo "   $name: $(python3 "$summary_py" line "$out/warmup/$name.out" "$b")"
    done
  done
  check_tree "$out/warmup/warmup-readrandom-sublevels"
fi
for rep in $(seq 1 "$reps"); do
  for b in "${BENCHMARKS[@]}"; do
    for p in files sublevels; do
      name=$b-$p-$rep
      mapfile -t bf < <(bench_flags "$b")
      resident=$(resident_pct)
      bench_run "$out/runs" "$name" "$p" "${read_flags[@]}" "${bf[@]}" --duration="$seconds"
      printf 'run\t%s\t%s\t%s\t%s\t%s\n' "$rep" "$b" "$p" "$name" "$resident" >> "$out/runs.tsv"
      echo "   $name: $(python3 "$summary_py" line "$out/runs/$name.out" "$b")"
      check_tree "$out/runs/$name"
    done
  done
done

# ---- (c) results
echo
set +e
python3 "$summary_py" summary "$out" --json "$out/results.json" | tee "$out/summary.txt"
rc=${PIPESTATUS[0]}
set -e
[ "$rc" != 0 ] || finished=1  # the DB is kept unless every step succeeded
if [ "$rc" = 3 ]; then
  echo "error: the path check failed (see above): VLSM_L0_READ_PATH seems to have no effect in $bench" >&2
  exit 3
fi
exit "$rc"
