#!/usr/bin/env bash
# Reads at rest (issue 40): a settled ranged tree, drained, against
# RocksDB's tree loaded the same way. Targets: scans (db_bench seekrandom,
# 10 nexts) >= 0.9x RocksDB's rate, point reads (readrandom) >= 0.95x, and
# MultiGet (multireadrandom, batches of 32; issue 54) >= 0.95x.
#
#   (a) the trees, one region, N records (--records) of 24-byte keys and
#       200-byte values, 10-bit Bloom filters, loaded by db_bench_vlsm as
#       scripts/bench/l0_read_paths.sh loads (filluniquerandom, one writer,
#       flush, waitforcompaction):
#         ranged-undrained  vlsm-ranged-rs32-io with the drain off: the
#                           tree l0_read_paths.sh loaded with the drain
#                           off and kept (L0 up to its depth trigger)
#         ranged-drained    a copy of it, opened read-write with the drain
#                           on and settled (waitforcompaction: the drain
#                           runs there); its report (drain.json) gives the
#                           drain's steps and bytes
#         ranged-read-paid  (if in --trees) a copy of the drained tree read
#                           at rest: opened read-write with the drain on,
#                           read by the three measured benchmarks in turn
#                           (one thread, every SST cached), each for
#                           --read-paid-seconds, then settled: the drain
#                           moves the L0 files whose reads paid for their
#                           step into L1 (db/compaction/vlsm_read_paid_l0.h);
#                           its report is read-paid.json
#         rocksdb           system rocksdb, loaded here if --rocksdb-db
#                           holds no tree this script loaded
#         rocksdb-sm        system rocksdb-sm, RocksDB with the ranged
#                           layout's 8 MiB files and nothing else
#                           changed, loaded likewise (if in --trees): the
#                           control that splits the gap into the file
#                           size's part and the rest of the layout's
#   (b) reads on the trees, as l0_read_paths.sh reads: every run a new
#       db_bench_vlsm process, --readonly (file lists checked unchanged),
#       one thread, seed 1, buffered reads with every SST in the page
#       cache, a warm-up per benchmark and tree, then rep 1..REPS of
#       seekrandom, readrandom and multireadrandom, the trees alternating.
#       Every SST read must be in the page cache: before every run its
#       tree is read in again and checked (fincore; over 0.1% of its
#       bytes missing fails the run, exit 1). OUT/cache.tsv has, per run,
#       the bytes missing before the re-read and after the run. This VM
#       drops pages a while unread even with memory free: trees idle for
#       a few minutes had lost 3-7% of their pages.
#   (c) OUT/results.json and the table (medians, min-max, ratio to RocksDB
#       per rep) by scripts/bench/rest_reads.py.
#
# usage: scripts/bench/rest_reads.sh [--records N] [--seconds S] [--reps R]
#          [--warmup-seconds W] [--out DIR] [--ranged-db DIR]
#          [--rocksdb-db DIR] [--rocksdb-sm-db DIR] [--trees LIST]
#          [--load-rate MIB] [--read-paid-seconds S]
#   --records N         the trees' size (default 12000000); the ranged tree
#                       must have been loaded with as many
#   --seconds S         each measured run (default 60)
#   --reps R            measured runs per tree and benchmark (default 3)
#   --warmup-seconds W  warm-up per tree and benchmark (default 10)
#   --out DIR           results (default build/bench/rest-reads-<time>)
#   --ranged-db DIR     the ranged tree (default build/l0-read-paths-db:
#                       scripts/bench/l0_read_paths.sh --keep-db leaves it
#                       there, loaded with the drain off)
#   --rocksdb-db DIR    RocksDB's tree (default build/rest-reads-rocksdb-db;
#                       loaded if it holds none of N records; kept)
#   --trees LIST        the trees read, comma-separated, rocksdb among
#                       them (default rocksdb,ranged-drained,ranged-undrained;
#                       e.g. rocksdb,rocksdb-sm,ranged-drained)
#   --rocksdb-sm-db DIR rocksdb-sm's tree (default build/rest-reads-rocksdb-sm-db;
#                       loaded if it holds none of N records; kept)
#   --load-rate MIB     the trees were (ranged: l0_read_paths.sh --load-rate)
#                       or are loaded at most at MIB MiB/s (default 0:
#                       unthrottled). At 12 M records unthrottled, RocksDB's
#                       last compaction takes every L0 file (its L0 falls
#                       behind during the load) and its L0 at rest is empty;
#                       at a rate its compaction keeps up with, L0 at rest
#                       holds the flushes since its last L0 compaction
#   --read-paid-seconds S  how long each benchmark reads the ranged-read-paid
#                       tree before it settles (default 60)
# Exit 2: bad input or a missing tree or binary (nothing ran); exit 1: a
# run failed or a tree changed under the reads. Builds nothing.
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

RANGED=vlsm-ranged-rs32-io ROCKSDB=rocksdb ROCKSDB_SM=rocksdb-sm
ALL_TREES=(rocksdb rocksdb-sm ranged-drained ranged-read-paid ranged-undrained)
summary_py=$VLSM_ROOT/scripts/bench/rest_reads.py
script_args=("$0" "$@")

RECORDS=12000000 seconds=60 reps=3 warmup=10 out='' ranged_db='' rocksdb_db=''
trees=rocksdb,ranged-drained,ranged-undrained rocksdb_sm_db='' load_rate=0
read_paid_seconds=60
while [ $# -gt 0 ]; do
  arg=$1; shift
  case "$arg" in
    -h|--help) usage; exit 0 ;;
    --records=*|--seconds=*|--reps=*|--warmup-seconds=*|--out=*|--ranged-db=*|--rocksdb-db=*|--rocksdb-sm-db=*|--load-rate=*|--trees=*|--read-paid-seconds=*)
      name=${arg%%=*} value=${arg#*=} ;;
    --records|--seconds|--reps|--warmup-seconds|--out|--ranged-db|--rocksdb-db|--rocksdb-sm-db|--load-rate|--trees|--read-paid-seconds)
      [ $# -gt 0 ] || die_usage "$arg needs a value"
      name=$arg value=$1; shift ;;
    *) die_usage "unknown argument '$arg'" ;;
  esac
  [ -n "$value" ] || die_usage "$name= has no value"
  case "$name" in
    --records) RECORDS=$value ;;
    --seconds) seconds=$value ;;
    --reps) reps=$value ;;
    --warmup-seconds) warmup=$value ;;
    --out) out=$value ;;
    --ranged-db) ranged_db=$value ;;
    --rocksdb-db) rocksdb_db=$value ;;
    --rocksdb-sm-db) rocksdb_sm_db=$value ;;
    --load-rate) load_rate=$value ;;
    --trees) trees=$value ;;
    --read-paid-seconds) read_paid_seconds=$value ;;
  esac
done
require_positive_int --records "$RECORDS"
require_positive_int --seconds "$seconds"
require_positive_int --reps "$reps"
require_positive_int --read-paid-seconds "$read_paid_seconds"
[[ "$warmup" =~ ^[0-9]+$ ]] || die_usage "--warmup-seconds must be a whole number, got '$warmup'"
load_rate=$(load_rate_value "$load_rate") || exit 2

out=$(settings_dir --out "${out:-build/bench/rest-reads-$(date +%Y%m%d-%H%M%S)}") || exit 2
ranged_db=$(settings_dir --ranged-db "${ranged_db:-build/l0-read-paths-db}") || exit 2
rocksdb_db=$(settings_dir --rocksdb-db "${rocksdb_db:-build/rest-reads-rocksdb-db}") || exit 2
rocksdb_sm_db=$(settings_dir --rocksdb-sm-db "${rocksdb_sm_db:-build/rest-reads-rocksdb-sm-db}") || exit 2
# The trees read, in ALL_TREES' order (the table's).
TREES=()
IFS=, read -r -a asked <<< "$trees"
for a in "${asked[@]}"; do
  [[ " ${ALL_TREES[*]} " == *" $a "* ]] || die_usage "--trees: unknown tree '$a' (trees: ${ALL_TREES[*]})"
done
for t in "${ALL_TREES[@]}"; do
  [[ ",$trees," == *",$t,"* ]] && TREES+=("$t")
done
[[ " ${TREES[*]} " == *" rocksdb "* ]] || die_usage "--trees must include rocksdb (the rates are over its), got '$trees'"
reads_tree() { [[ " ${TREES[*]} " == *" $1 "* ]]; }  # TREE
drained_db=$ranged_db-drained read_paid_db=$ranged_db-read-paid
if [ -e "$out" ] && [ -n "$(ls -A "$out" 2>/dev/null)" ]; then
  die_usage "--out $out exists and is not empty"
fi
load_id() { tree_load_id "$RECORDS" "$1" "$load_rate"; }  # SYSTEM
{ ! reads_tree ranged-drained && ! reads_tree ranged-read-paid && ! reads_tree ranged-undrained; } ||
  { [ -f "$ranged_db/CURRENT" ] && [ "$(head -1 "$ranged_db.load" 2>/dev/null)" = "$(load_id $RANGED)" ]; } ||
  die_usage "--ranged-db $ranged_db holds no '$(load_id $RANGED)' tree: load it with scripts/bench/l0_read_paths.sh --keep-db --db $ranged_db --records $RECORDS --load-rate $load_rate"

bin_dir=$(realpath -m "${VLSM_BUILD_DIR:-$VLSM_RELEASE_DIR}")
bench=$bin_dir/db_bench_vlsm ldb=$bin_dir/ldb
for b in "$bench" "$ldb"; do
  [ -x "$b" ] || die_usage "$b is not built (this script builds nothing)"
done
grep -qaF -- vlsm_drain_at_rest "$bench" ||
  die_usage "$bench has no --vlsm_drain_at_rest: built before the drain? Rebuild it."
sys_flags() {  # SYSTEM: its db_bench flags, one per line
  python3 "$VLSM_ROOT/scripts/bench/systems.py" db_bench "$1" bloom_bits=$BLOOM_BITS
}
mapfile -t ranged_flags < <(sys_flags $RANGED)
mapfile -t rocksdb_flags < <(sys_flags $ROCKSDB)
mapfile -t rocksdb_sm_flags < <(sys_flags $ROCKSDB_SM)
db_of() {
  case "$1" in
    rocksdb) echo "$rocksdb_db" ;; rocksdb-sm) echo "$rocksdb_sm_db" ;;
    ranged-drained) echo "$drained_db" ;; ranged-undrained) echo "$ranged_db" ;;
    ranged-read-paid) echo "$read_paid_db" ;;
  esac
}
flags_of() {
  case "$1" in
    rocksdb) printf '%s\n' "${rocksdb_flags[@]}" ;;
    rocksdb-sm) printf '%s\n' "${rocksdb_sm_flags[@]}" ;;
    *) printf '%s\n' "${ranged_flags[@]}" ;;
  esac
}

mkdir -p "$out/runs" "$out/warmup"
rev=$(git -C "$VLSM_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$VLSM_ROOT" status --porcelain --untracked-files=no 2>/dev/null | head -1)
{
  echo "rest_reads.sh $(date -u +%Y-%m-%dT%H:%MZ): $(shell_words "${script_args[@]}")"
  echo "records=$RECORDS load_rate_mib=$load_rate seconds=$seconds reps=$reps warmup_seconds=$warmup seek_nexts=$SEEK_NEXTS perf_level=$PERF_LEVEL read_paid_seconds=$read_paid_seconds"
  echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; $(uname -r)"
  echo "checkout: $rev${dirty:+ (with uncommitted changes)}; binaries: $bench, $ldb"
  for t in "${TREES[@]}"; do echo "tree $t: $(db_of "$t")"; done
  echo "ranged tree as loaded: $(sed -n 2p "$ranged_db.load")"
} > "$out/config.txt"
: > "$out/commands.txt"
printf 'kind\trep\tbenchmark\ttree\tname\n' > "$out/runs.tsv"

bench_run() {  # DIR NAME db_bench-flags...
  local dir=$1 name=$2; shift 2
  local -a cmd=("$bench" "$@" --vlsm_report="$dir/$name.json")
  local rc=0
  shell_words "${cmd[@]}" > "$dir/$name.cmd"
  printf '%s: %s\n' "$name" "$(cat "$dir/$name.cmd")" >> "$out/commands.txt"
  machine_begin
  "${cmd[@]}" > "$dir/$name.out" 2> "$dir/$name.err" || rc=$?
  if [ "$rc" != 0 ]; then
    echo "error: db_bench_vlsm failed for $name (exit $rc):" >&2; tail -5 "$dir/$name.err" >&2; exit 1
  fi
  machine_end "$dir/$name.machine.json"
}
ldb_property() {  # DB PROPERTY
  local text
  text=$("$ldb" --db="$1" get_property "$2" 2>&1) || { echo "error: ldb get_property $2 on $1: $text" >&2; exit 1; }
  printf '%s\n' "${text##*: }"
}
listing() { "$ldb" --db="$1" list_live_files_metadata > "$2" 2>&1 || { echo "error: ldb list_live_files_metadata $1" >&2; exit 1; }; }
common=(--key_size="$KEY_SIZE" --value_size="$VALUE_SIZE" --num="$RECORDS" --threads=1 --seed=1 --stats_per_interval=0)

# ---- (a) the trees
load_stock_tree() {  # TREE SYSTEM: loads the stock tree unless its DB holds this load
  local tree=$1 system=$2 db
  db=$(db_of "$tree")
  if [ -f "$db/CURRENT" ] && [ "$(head -1 "$db.load" 2>/dev/null)" = "$(load_id "$system")" ]; then
    echo "== (a) $tree's tree: reusing $db ($(sed -n 2p "$db.load"))"
    return
  fi
  echo "== (a) $tree's tree: loading $RECORDS keys into $db"
  rm -rf "${db:?}" "$db.load"
  local t0
  t0=$(date +%s)
  mapfile -t f < <(flags_of "$tree")
  bench_run "$out" "load-$tree" "${common[@]}" "${f[@]}" --db="$db" --statistics=1 \
    "$(load_rate_flag "$load_rate")" \
    --benchmarks=filluniquerandom,flush,waitforcompaction,levelstats
  { load_id "$system"; echo "loaded $(date -u +%Y-%m-%dT%H:%MZ) by $rev in $(( $(date +%s) - t0 )) s; output $out"; } > "$db.load"
}
load_stock_tree rocksdb $ROCKSDB
if reads_tree rocksdb-sm; then load_stock_tree rocksdb-sm $ROCKSDB_SM; fi
if reads_tree ranged-drained || reads_tree ranged-read-paid; then
  echo "== (a) the drained tree: copy of $ranged_db, settled with the drain on"
  rm -rf "${drained_db:?}"
  cp -a "$ranged_db" "$drained_db"
  t0=$(date +%s)
  bench_run "$out" drain "${common[@]}" "${ranged_flags[@]}" --db="$drained_db" --use_existing_db=1 \
    --vlsm_drain_at_rest=true --statistics=1 --benchmarks=waitforcompaction,levelstats
  echo "drain_seconds=$(( $(date +%s) - t0 ))" > "$out/drain.env"
fi
if reads_tree ranged-read-paid; then
  echo "== (a) the read-paid tree: copy of the drained tree, read 3 x ${read_paid_seconds} s at rest, settled"
  rm -rf "${read_paid_db:?}"
  cp -a "$drained_db" "$read_paid_db"
  cat "$read_paid_db"/*.sst > /dev/null  # Gets from the page cache, as the measured ones
  t0=$(date +%s)
  bench_run "$out" read-paid "${common[@]}" "${ranged_flags[@]}" --db="$read_paid_db" --use_existing_db=1 \
    --use_direct_reads=false --vlsm_drain_at_rest=true --statistics=1 --duration="$read_paid_seconds" \
    --seek_nexts=$SEEK_NEXTS --batch_size=$MULTIGET_BATCH \
    --benchmarks="$(IFS=,; echo "${BENCHMARKS[*]}"),waitforcompaction,levelstats"
  echo "drain_seconds=$(( $(date +%s) - t0 ))" > "$out/read-paid.env"
fi
for t in "${TREES[@]}"; do
  d=$(db_of "$t")
  listing "$d" "$out/tree-$t.txt"
  { echo "tree=$t"
    echo "l0_files=$(ldb_property "$d" rocksdb.num-files-at-level0)"
    echo "l0_depth=$(ldb_property "$d" rocksdb.vlsm.l0-depth)"
    echo "l0_sublevels=$(ldb_property "$d" rocksdb.vlsm.l0-sublevels)"
    echo "files_per_level=$(python3 "$VLSM_ROOT/scripts/bench/l0_read_paths.py" tree "$out/tree-$t.txt")"
    echo "db_bytes=$(du -sb "$d" | cut -f1)"
  } > "$out/tree-$t.env"
  echo "   $t: $(tr '\n' ' ' < "$out/tree-$t.env")"
done

# ---- (b) reads
read_flags() {  # TREE
  mapfile -t f < <(flags_of "$1")
  printf '%s\n' "${common[@]}" "${f[@]}" --db="$(db_of "$1")" --use_direct_reads=false --use_existing_db=1 \
    --readonly=1 --disable_auto_compactions=1 --statistics=0 --histogram=1 --perf_level="$PERF_LEVEL"
}
uncached_bytes() {  # DIR: bytes of its SSTs not in the page cache
  # fincore counts whole pages: a cached file's RES passes its SIZE.
  fincore --bytes --noheadings --output RES,SIZE "$1"/*.sst |
    awk '{ if ($2 > $1) u += $2 - $1 } END { printf "%d\n", u }'
}
cached_enough() {  # DIR: whether at most 0.1% of its bytes are not cached
  [ "$(uncached_bytes "$1")" -le $(( $(du -sb "$1" | cut -f1) / 1000 )) ]
}
check_cached() {  # TREE WHEN: exits 1 unless its SSTs are cached
  local d u
  d=$(db_of "$1")
  if ! cached_enough "$d"; then
    u=$(uncached_bytes "$d")
    echo "error: $(( u >> 20 )) MiB of tree $1's SSTs are not in the page cache $2: the trees read ($(du -sch "${tree_dirs[@]}" | tail -1 | cut -f1)) do not fit this machine's page cache; read fewer (--trees) or smaller trees (--records)" >&2
    exit 1
  fi
}
cached_run() {  # TREE DIR NAME db_bench-flags...: bench_run NAME on TREE,
  # read into the page cache first; cache.tsv gets what it lacked before
  # that and after the run.
  local tree=$1 dir=$2 name=$3 d before
  shift 3
  d=$(db_of "$tree")
  before=$(uncached_bytes "$d")
  # Up to three reads: this VM drops pages even while a tree is read in
  # (5-8 MiB of a 2.8 GB tree gone right after one read, with 15 GB free).
  local try
  for try in 1 2 3; do
    cat "$d"/*.sst > /dev/null
    if cached_enough "$d"; then break; fi
  done
  check_cached "$tree" "before $name"
  bench_run "$dir" "$name" "$@"
  printf '%s\t%s\t%s\n' "$name" "$before" "$(uncached_bytes "$d")" >> "$out/cache.tsv"
}
check_tree() {  # TREE NAME
  listing "$(db_of "$1")" "$2.tree.txt"
  cmp -s "$out/tree-$1.txt" "$2.tree.txt" || { echo "error: tree $1 changed during $(basename "$2")" >&2; exit 1; }
}
tree_dirs=()
for t in "${TREES[@]}"; do tree_dirs+=("$(db_of "$t")"); done
printf 'run\tmissing_before_reread\tmissing_after_run\n' > "$out/cache.tsv"
echo "== (b) reads: ${reps} reps x ${#TREES[@]} trees x ${#BENCHMARKS[@]} benchmarks x ${seconds} s, warm-ups ${warmup} s"
if [ "$warmup" != 0 ]; then
  for b in "${BENCHMARKS[@]}"; do
    for t in "${TREES[@]}"; do
      mapfile -t rf < <(read_flags "$t"); mapfile -t bf < <(bench_flags "$b")
      cached_run "$t" "$out/warmup" "warmup-$b-$t" "${rf[@]}" "${bf[@]}" --duration="$warmup"
      printf 'warmup\t0\t%s\t%s\twarmup-%s-%s\n' "$b" "$t" "$b" "$t" >> "$out/runs.tsv"
    done
  done
fi
for rep in $(seq 1 "$reps"); do
  for b in "${BENCHMARKS[@]}"; do
    for t in "${TREES[@]}"; do
      name=$b-$t-$rep
      mapfile -t rf < <(read_flags "$t"); mapfile -t bf < <(bench_flags "$b")
      cached_run "$t" "$out/runs" "$name" "${rf[@]}" "${bf[@]}" --duration="$seconds"
      printf 'run\t%s\t%s\t%s\t%s\n' "$rep" "$b" "$t" "$name" >> "$out/runs.tsv"
      echo "   $name: $(python3 "$VLSM_ROOT/scripts/bench/l0_read_paths.py" line "$out/runs/$name.out" "$b")"
      check_tree "$t" "$out/runs/$name"
    done
  done
done

# ---- (c) results
echo
python3 "$summary_py" "$out" --json "$out/results.json" | tee "$out/summary.txt"
