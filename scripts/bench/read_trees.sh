# Sourced by l0_read_paths.sh and rest_reads.sh: what the two read
# benchmarks share, so that a tree one loads is the tree the other
# accepts, and both read it the same way. Needs checks.sh (die_usage).

# The trees' records and filters, and the reads' settings.
BLOOM_BITS=10 KEY_SIZE=24 VALUE_SIZE=200 SEEK_NEXTS=10 PERF_LEVEL=2
MULTIGET_BATCH=32  # issue 54's MultiGet batches
BENCHMARKS=(seekrandom readrandom multireadrandom)

# tree_load_id RECORDS SYSTEM LOAD_RATE: the first line of DB.load, the
# marker beside a loaded tree; a tree is reused only if it matches. A
# throttled load is another tree (an unthrottled one keeps the marker
# trees had before --load-rate).
tree_load_id() {
  local id="records=$1 system=$2 key_size=$KEY_SIZE value_size=$VALUE_SIZE bloom_bits=$BLOOM_BITS"
  [ "$3" = 0 ] || id+=" load_rate=${3}MiB/s"
  echo "$id"
}

# load_rate_value VALUE: --load-rate's value as a number (MiB/s, 0:
# unthrottled); exits 2 on anything but a whole number.
load_rate_value() {
  [[ "$1" =~ ^[0-9]+$ ]] || die_usage "--load-rate must be a whole number of MiB/s (0: unthrottled), got '$1'"
  echo $((10#$1))
}

# load_rate_flag MIB: db_bench's flag that throttles a load's writes.
load_rate_flag() { echo "--benchmark_write_rate_limit=$(( $1 << 20 ))"; }

# bench_flags BENCHMARK: its own db_bench flags, one per line.
bench_flags() {
  case "$1" in
    seekrandom) printf '%s\n' --benchmarks=seekrandom --seek_nexts=$SEEK_NEXTS ;;
    readrandom) printf '%s\n' --benchmarks=readrandom ;;
    multireadrandom) printf '%s\n' --benchmarks=multireadrandom --batch_size=$MULTIGET_BATCH ;;
  esac
}
