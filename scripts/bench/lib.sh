# Sourced by the db_bench scripts (scripts/bench/*.sh): one function that
# runs db_bench_vlsm for one system. The systems and their flags come from
# scripts/bench/systems.py, the one definition every tool renders (for
# db_bench_vlsm: `systems.py db_bench SYSTEM`).
#
# What db_bench adds to every system: 16-byte keys, one writer thread,
# seed 1, WAL on without sync, statistics and latency histograms on. Every
# run of the scripts ends with db_bench's waitforcompaction, so the report
# counts all the compaction work the writes caused (a run that stopped with
# a backlog would look cheaper than it is).
bench_common=(--key_size=16 --threads=1 --seed=1
  --statistics=1 --histogram=1 --stats_per_interval=0)
# What the machine did during each run (NAME.machine.json), as the eval runs.
# shellcheck source=machine.sh
source "$VLSM_ROOT/scripts/bench/machine.sh"
# shellcheck source=../lib/deps.sh
source "$VLSM_ROOT/scripts/lib/deps.sh"  # the Release tree (vlsm_release_tree)

# vlsm_bench_run OUT_DIR NAME SYSTEM db_bench-flags...
# Runs build/db_bench_vlsm (or VLSM_BUILD_DIR's: ctest's tree) with the
# common and SYSTEM's flags plus the given ones; writes OUT_DIR/NAME.json
# (the metrics report), NAME.out (db_bench's output), NAME.err, NAME.time
# ("user sys" CPU seconds) and NAME.machine.json (machine.sh: CPU probe,
# other processes' cores, I/O wait, steal).
# An unknown SYSTEM returns 2 before anything runs.
vlsm_bench_run() {
  local out=$1 name=$2 system=$3; shift 3
  local -a sys_flags
  # Not `mapfile < <(...)`: a process substitution's exit status is lost, so an
  # unknown system would run with no system flags instead of failing.
  local flags_text
  flags_text=$(python3 "$VLSM_ROOT/scripts/bench/systems.py" db_bench "$system") || return 2
  mapfile -t sys_flags <<< "$flags_text"
  mkdir -p "$out"
  local t0; t0=$(date +%s)
  echo "== $name ($system): db_bench_vlsm $*"
  machine_begin
  if ! /usr/bin/time -f '%U %S' -o "$out/$name.time" \
      "${VLSM_BUILD_DIR:-$VLSM_RELEASE_DIR}/db_bench_vlsm" "${bench_common[@]}" "${sys_flags[@]}" \
      "$@" --vlsm_report="$out/$name.json" > "$out/$name.out" 2> "$out/$name.err"; then
    echo "error: db_bench_vlsm failed for $name; last lines of $out/$name.err:" >&2
    tail -5 "$out/$name.err" >&2
    return 1
  fi
  machine_end "$out/$name.machine.json"
  grep -E '^[a-z]+ +: .* ops/sec' "$out/$name.out" | sed 's/^/   /' || true
  echo "   $(( $(date +%s) - t0 )) s"
}

vlsm_bench_build() {  # the binaries the benchmarks use, Release, up to date
  [ -n "${VLSM_BUILD_DIR:-}" ] || vlsm_release_tree --update db_bench_vlsm
}
