# Sourced by scripts/bench/eval/*.sh: one ycsb_vlsm invocation on one
# system, its files named after the run, and reading a report back.
# The caller sets: ycsb (the binary), out (results directory), common
# (array: eval_common_props) and sources systems.sh.
# shellcheck source=../machine.sh
source "$VLSM_ROOT/scripts/bench/machine.sh"

# eval_ycsb PHASE NAME SYSTEM DB [ycsb properties...]: runs PHASE (load or
# run) of SYSTEM on the DB directory DB; writes <out>/NAME.{json,csv,out,err}
# and <out>/NAME.machine.json (machine.sh), and prints one line. Later -p
# win, so the caller's properties override the system's and the shared ones.
eval_ycsb() {
  local phase=$1 name=$2 system=$3 dbdir=$4; shift 4
  local -a sys
  mapfile -t sys < <(eval_system_props "$system")
  local t0; t0=$(date +%s)
  machine_begin
  if ! "$ycsb" "$phase" "${common[@]}" "${sys[@]}" -p rocksdb.dir="$dbdir" \
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

eval_achieved() {  # REPORT -> its average achieved ops/s, whole number
  python3 -c 'import json,sys; print(int(json.load(open(sys.argv[1]))["achieved_ops_per_s"]))' "$1"
}

eval_settings_lines() {  # the shared settings and the machine, for config.txt
  echo "regions=${VLSM_EVAL_REGIONS:-4} bg_jobs=${VLSM_EVAL_BG_JOBS:-2} lower_cpu=${VLSM_EVAL_LOWER_CPU:-0} bloom_bits=${VLSM_EVAL_BLOOM_BITS:-0} subcompactions=${VLSM_EVAL_SUBCOMPACTIONS:-1} rate_limit=${VLSM_EVAL_RATE_LIMIT:-0} floor_seconds=${VLSM_EVAL_FLOOR_SECONDS:-10}"
  echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB; $(uname -r)"
  echo "library: $(git -C "$VLSM_ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)"
}
