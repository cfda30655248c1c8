# Sourced by scripts/bench/eval/load_a.sh and run_abcd.sh: the settings every
# system shares in an experiment, one ycsb_vlsm invocation on one system
# (rendered by scripts/bench/systems.py, the one definition of the
# systems), its files named after the run, and reading a report back.
# The caller sources ../settings.sh, calls eval_shared_defaults, fills S
# with its own keys, settings_read "$@", eval_check_settings, and sets
# ycsb (the binary: vlsm_binary ycsb ycsb_vlsm) and out (the results
# directory).
# shellcheck source=../machine.sh
source "$VLSM_ROOT/scripts/bench/machine.sh"
# shellcheck source=../../lib/checks.sh
source "$VLSM_ROOT/scripts/lib/checks.sh"
# shellcheck source=../../lib/deps.sh
source "$VLSM_ROOT/scripts/lib/deps.sh"  # vlsm_binary: the harness

eval_shared_defaults() {  # the shared keys of S and their defaults
  S[REGIONS]=4 S[BG_JOBS]=2 S[SUBCOMPACTIONS]=1 S[BLOOM_BITS]=0 S[LOWER_CPU]=0
  S[RATE_LIMIT]=0 S[FLOOR_SECONDS]=10 S[INSERT_ORDER]=hashed
  S[SYSTEMS]="rocksdb rocksdb-io vlsm" S[RECORDS]=48000000
  S[OUT]= S[DB]=build/eval-db S[LIBRARY]=
}

eval_check_settings() {  # exits 2 naming the first bad setting
  [ -n "${S[SYSTEMS]}" ] || { echo "error: SYSTEMS is empty" >&2; exit 2; }
  local s msg
  for s in ${S[SYSTEMS]}; do
    msg=$(python3 "$VLSM_ROOT/scripts/bench/systems.py" options "$s" 2>&1 >/dev/null) ||
      { echo "error: SYSTEMS: ${msg#error: }" >&2; exit 2; }
  done
  require_positive_int REGIONS "${S[REGIONS]}"
  require_positive_int BG_JOBS "${S[BG_JOBS]}"
  require_positive_int SUBCOMPACTIONS "${S[SUBCOMPACTIONS]}"
  require_flag LOWER_CPU "${S[LOWER_CPU]}"
  [ "${S[BLOOM_BITS]}" = 0 ] || require_positive_int BLOOM_BITS "${S[BLOOM_BITS]}"
  [[ "${S[RATE_LIMIT]}" =~ ^[0-9]+[kKmMgG]?$ ]] || {
    echo "error: RATE_LIMIT must be bytes per second, e.g. 200m or 0 (got '${S[RATE_LIMIT]}')" >&2; exit 2; }
  [ "${S[FLOOR_SECONDS]}" = 0 ] || require_positive_int FLOOR_SECONDS "${S[FLOOR_SECONDS]}"
  case "${S[INSERT_ORDER]}" in hashed|ordered) ;; *)
    echo "error: INSERT_ORDER must be hashed or ordered (got '${S[INSERT_ORDER]}')" >&2; exit 2;; esac
  require_positive_int RECORDS "${S[RECORDS]}"
  # Relative paths are the checkout's, wherever the script is run from;
  # never the checkout itself (settings_dir). OUT empty: a new dated one.
  S[DB]=$(settings_dir DB "${S[DB]}") || exit 2
  if [ -n "${S[LIBRARY]}" ]; then
    [[ "${S[LIBRARY]}" = /* ]] || S[LIBRARY]=$VLSM_ROOT/${S[LIBRARY]}
    [ -e "${S[LIBRARY]}/librocksdb.so.9" ] || {
      echo "error: LIBRARY=${S[LIBRARY]} holds no librocksdb.so.9 (a directory with another build's library)" >&2; exit 2; }
  fi
  if [ -n "${S[OUT]}" ]; then S[OUT]=$(settings_dir OUT "${S[OUT]}") || exit 2; fi
}

eval_common_props() {  # the properties of the run, not of a system, one per line
  local lower=false
  [ "${S[LOWER_CPU]}" = 1 ] && lower=true
  printf '%s\n' -P "$VLSM_ROOT/ycsb/workloads/workloada" -p fieldcount=1 \
    -p fieldlength=200 -p threads=4 -p regions="${S[REGIONS]}" \
    -p lower_cpu_priority=$lower -p rocksdb.rate_limit="${S[RATE_LIMIT]}" \
    -p floor.seconds="${S[FLOOR_SECONDS]}" -p insertorder="${S[INSERT_ORDER]}"
}

eval_system_props() {  # SYSTEM -> its properties (systems.py), one per line
  python3 "$VLSM_ROOT/scripts/bench/systems.py" ycsb "$1" \
    max_background_jobs="${S[BG_JOBS]}" max_subcompactions="${S[SUBCOMPACTIONS]}" \
    bloom_bits="${S[BLOOM_BITS]}"
}

# eval_ycsb PHASE NAME SYSTEM DB [ycsb properties...]: runs PHASE (load or
# run) of SYSTEM on the DB directory DB; writes <out>/NAME.{json,csv,out,err}
# and <out>/NAME.machine.json (machine.sh), and prints one line. Later -p
# win, so the caller's properties override the system's and the shared ones.
eval_ycsb() {
  local phase=$1 name=$2 system=$3 dbdir=$4; shift 4
  local -a common sys
  local text
  text=$(eval_system_props "$system") || return 2  # a lost status would run no system
  mapfile -t sys <<< "$text"
  mapfile -t common < <(eval_common_props)
  local t0; t0=$(date +%s)
  # LIBRARY: ycsb_vlsm loads librocksdb.so.9 from there (its RUNPATH is
  # the build tree; LD_LIBRARY_PATH comes first), so two builds of the
  # library run side by side with one harness.
  local -a with_library=()
  [ -z "${S[LIBRARY]}" ] || with_library=(env "LD_LIBRARY_PATH=${S[LIBRARY]}")
  # A report left from an earlier run of NAME would outlive this one if it
  # stopped before writing its own, and RESUME would keep it.
  rm -f "$out/$name.json"
  machine_begin
  if ! "${with_library[@]}" "$ycsb" "$phase" "${common[@]}" "${sys[@]}" -p rocksdb.dir="$dbdir" \
      "$@" -p report="$out/$name.json" > "$out/$name.out" 2> "$out/$name.err"; then
    echo "error: ycsb_vlsm failed for $name; last lines of $out/$name.err:" >&2
    tail -3 "$out/$name.err" >&2
    return 1
  fi
  machine_end "$out/$name.machine.json"
  # The whole summary line: cutting it at a width once cut "max queue
  # 270074" to "max queue 27".
  echo "   $name: $(grep -m1 -o 'operations .*' "$out/$name.out") ($(( $(date +%s) - t0 )) s)"
}

# eval_describe SYSTEM FIELD: one whole-number field of what ycsb_vlsm
# mode=describe says of SYSTEM under these settings: debt_cycle_bytes (bytes
# written from a flush to the L0 compaction it makes due, over every
# region), which sizes search steps and run lengths, or write_bytes_per_op.
eval_describe() {
  local text
  local -a sys common with_library=()
  [ -z "${S[LIBRARY]}" ] || with_library=(env "LD_LIBRARY_PATH=${S[LIBRARY]}")
  mapfile -t common < <(eval_common_props)
  text=$(eval_system_props "$1") || return 2
  mapfile -t sys <<< "$text"
  "${with_library[@]}" "$ycsb" load "${common[@]}" "${sys[@]}" -p mode=describe |
    python3 -c 'import json,sys; print(int(json.load(sys.stdin)[sys.argv[1]]))' "$2"
}

eval_finished() {  # REPORT: a finished run (scripts/bench/eval/run_status.py's rule)
  python3 "$VLSM_ROOT/scripts/bench/eval/run_status.py" "$1" 2>/dev/null
}

eval_achieved() {  # REPORT -> its average achieved ops/s, whole number
  python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["achieved_ops_per_s"]))' "$1"
}

eval_searched() {  # REPORT -> the rate find-sustainable found, whole number; fails if none
  local rate
  rate=$(python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["sustainable"]["sustainable_ops_per_s"]))' "$1") || return 1
  [ "$rate" -gt 0 ] || { echo "error: $1: find-sustainable found no sustainable rate: lower SEARCH_START" >&2; return 1; }
  echo "$rate"
}

# config.txt: one paragraph per invocation, so runs added to an output
# directory later say how they ran: the settings file, every setting, the
# machine and the library.
eval_config_paragraph() {  # WHAT
  echo "$1 $(date -u +%Y-%m-%dT%H:%MZ): settings ${settings_file:-(none)}"
  settings_lines | grep -vE '^(OUT|DB)=' | tr '\n' ' ' | sed 's/ $/\n/'
  echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; $(uname -r)"
  local rev; rev=$(git -C "$VLSM_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
  if [ -n "${S[LIBRARY]}" ]; then
    echo "library: ${S[LIBRARY]}/librocksdb.so.9 (LIBRARY), with the harness of $rev"
  else
    echo "library: $rev"
  fi
}
