# Sourced by scripts/demo.sh and scripts/bench/*.sh: the systems compared
# and one function that runs db_bench_vlsm for one of them.
#
#   stock  the paper's RocksDB sizing scaled to this machine: 64 MiB SSTs and
#          memtables (2), L1 256 MiB, f 8, dynamic level bytes off,
#          kMinOverlappingRatio, L0 trigger 4
#   vlsm   --vlsm: ConfigureVlsm() defaults, S_M 8 MiB (SSTs and memtables,
#          2), f 8, Phi 32 (L1 64 MiB, L2 2 GiB), L0 trigger 1, kVlsm;
#          VLSM_BENCH_VLSM_FLAGS adds to it (e.g. --vlsm_sst_size=4194304)
# Both: no compression, direct I/O for flush and compaction, 2 background
# jobs, 5 levels, one writer thread, WAL on without sync, statistics and
# latency histograms on. Every run ends with db_bench's waitforcompaction,
# so the report counts all the compaction work the writes caused (a run
# that stopped with a backlog would look cheaper than it is). Memtables: stock 2 x 64 MiB, vLSM 2 x 8 MiB (vLSM's
# own sizing; give --max_write_buffer_number=16 in VLSM_BENCH_VLSM_FLAGS
# for equal memtable bytes).
VLSM_BENCH_COMMON=(--key_size=16 --compression_type=none
  --use_direct_io_for_flush_and_compaction=true --max_background_jobs=2
  --num_levels=5 --level_compaction_dynamic_level_bytes=false
  --max_bytes_for_level_multiplier=8 --threads=1 --seed=1
  --statistics=1 --histogram=1 --stats_per_interval=0)
VLSM_BENCH_STOCK=(--compaction_pri=3 --max_write_buffer_number=2
  --write_buffer_size=$((64 << 20)) --target_file_size_base=$((64 << 20))
  --max_bytes_for_level_base=$((256 << 20)) --level0_file_num_compaction_trigger=4)
# shellcheck disable=SC2206  # word splitting of the user's extra flags is wanted
VLSM_BENCH_VLSM=(--vlsm ${VLSM_BENCH_VLSM_FLAGS:-})
# What the machine did during each run (NAME.machine.json), as the eval runs.
# shellcheck source=machine.sh
source "$VLSM_ROOT/scripts/bench/machine.sh"

vlsm_bench_flags() {  # system -> the flags of that system, one per line
  case "$1" in
    stock) printf '%s\n' "${VLSM_BENCH_STOCK[@]}" ;;
    vlsm) printf '%s\n' "${VLSM_BENCH_VLSM[@]}" ;;
    *) echo "error: unknown system '$1' (stock or vlsm)" >&2; return 2 ;;
  esac
}

# vlsm_bench_run OUT_DIR NAME SYSTEM db_bench-flags...
# Runs build/db_bench_vlsm with the common and SYSTEM's flags plus the given
# ones; writes OUT_DIR/NAME.json (the metrics report), NAME.out (db_bench's
# output), NAME.err, NAME.time ("user sys" CPU seconds) and NAME.machine.json
# (machine.sh: CPU probe, other processes' cores, I/O wait, steal).
vlsm_bench_run() {
  local out=$1 name=$2 system=$3; shift 3
  local -a sys_flags
  # Not `mapfile < <(...)`: a process substitution's exit status is lost, so an
  # unknown system would run with no system flags instead of failing.
  local flags_text
  flags_text=$(vlsm_bench_flags "$system") || return 2
  mapfile -t sys_flags <<< "$flags_text"
  mkdir -p "$out"
  local t0; t0=$(date +%s)
  echo "== $name ($system): db_bench_vlsm $*"
  machine_begin
  if ! /usr/bin/time -f '%U %S' -o "$out/$name.time" \
      "$VLSM_ROOT/build/db_bench_vlsm" "${VLSM_BENCH_COMMON[@]}" "${sys_flags[@]}" \
      "$@" --vlsm_report="$out/$name.json" > "$out/$name.out" 2> "$out/$name.err"; then
    echo "error: db_bench_vlsm failed for $name; last lines of $out/$name.err:" >&2
    tail -5 "$out/$name.err" >&2
    return 1
  fi
  machine_end "$out/$name.machine.json"
  grep -E '^[a-z]+ +: .* ops/sec' "$out/$name.out" | sed 's/^/   /' || true
  echo "   $(( $(date +%s) - t0 )) s"
}

vlsm_bench_build() {  # the binaries the benchmarks use, Release
  cmake -S "$VLSM_ROOT" -B "$VLSM_ROOT/build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$VLSM_ROOT/build" -j "${VLSM_JOBS:-2}" --target db_bench_vlsm | tail -1
}
