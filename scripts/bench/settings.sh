# Sourced by every experiment script (eval/load_a.sh, eval/run_abcd.sh,
# fill.sh, mixgraph.sh, fig13c.sh, allocator.sh, collector_overhead.sh,
# scripts/under_load.sh; scripts/demo.sh for settings_dir): an
# experiment's settings come from one file, passed by path,
# plus KEY=VALUE overrides on the command line, so a published experiment
# is its committed file (scripts/bench/eval/settings/) and nothing in the
# environment changes it unseen. Every key is documented in
# scripts/bench/README.md, "Settings".
#
# The caller fills the associative array S with its known keys and their
# defaults, then calls settings_read "$@". File syntax: KEY=VALUE per line,
# VALUE optionally in double or single quotes (no expansion of any kind),
# blank lines and # comments ignored.

# settings_read [FILE] [KEY=VALUE...]: sets S[KEY] from FILE, then from the
# overrides; exits 2 naming an unknown key, a missing file or a bad line.
# Sets settings_file to FILE (empty without one).
settings_read() {
  settings_file=
  if [ $# -gt 0 ] && [[ "$1" != *=* ]]; then
    settings_file=$1; shift
    [ -f "$settings_file" ] || { echo "error: no settings file '$settings_file'" >&2; exit 2; }
    local line n=0
    while IFS= read -r line || [ -n "$line" ]; do
      n=$((n + 1))
      line=${line#"${line%%[![:space:]]*}"}  # leading blanks
      [ -z "$line" ] || [ "${line:0:1}" = "#" ] && continue
      settings_set "$settings_file:$n" "$line"
    done < "$settings_file"
  fi
  local arg
  for arg in "$@"; do settings_set "command line" "$arg"; done
  settings_refuse_old_environment
}

settings_set() {  # WHERE KEY=VALUE
  local where=$1 item=$2 key value
  [[ "$item" =~ ^([A-Z][A-Z0-9_]*)=(.*)$ ]] ||
    { echo "error: $where: '$item' is not KEY=VALUE" >&2; exit 2; }
  key=${BASH_REMATCH[1]} value=${BASH_REMATCH[2]}
  [ -n "${S[$key]+set}" ] || {
    echo "error: $where: unknown setting '$key' (known: $(printf '%s\n' "${!S[@]}" | sort | tr '\n' ' '| sed 's/ $//'))" >&2
    exit 2; }
  if [[ "$value" =~ ^\"(.*)\"$ ]] || [[ "$value" =~ ^\'(.*)\'$ ]]; then
    value=${BASH_REMATCH[1]}
  fi
  # KEY= is a mistake (an unset shell variable, say), not a request for the
  # default: for a path it would name the checkout itself.
  [ -n "$value" ] || {
    echo "error: $where: $key= has no value (leave $key out for its default)" >&2; exit 2; }
  S[$key]=$value
}

# settings_dir KEY VALUE: VALUE as an absolute path (a relative one is the
# checkout's), or exit 2 if it is the checkout or a directory above it.
# The scripts delete their DB and output directories before a run, so
# DB=. or OUT=.. would delete the checkout. Use as
#   out=$(settings_dir OUT "${S[OUT]}") || exit 2
settings_dir() {
  local key=$1 path=$2
  [ -n "$path" ] || { echo "error: $key= has no value" >&2; exit 2; }
  [[ "$path" = /* ]] || path=$VLSM_ROOT/$path
  path=$(realpath -m "$path")
  if [[ "$(realpath -m "$VLSM_ROOT")/" == "${path%/}/"* ]]; then
    echo "error: $key=$2 is the checkout or a directory above it, which the scripts would delete before the run" >&2
    exit 2
  fi
  printf '%s\n' "$path"
}

# Before issue 22 these scripts read VLSM_EVAL_*, VLSM_DEMO_*, VLSM_BENCH_*,
# VLSM_YCSB_*, VLSM_ALLOC_*, VLSM_OVERHEAD_* and VLSM_UNDERLOAD_* variables.
# A command from an old page would now run the defaults silently: refuse it.
settings_refuse_old_environment() {
  local v
  for v in $(compgen -e | grep -E '^VLSM_(EVAL|DEMO|BENCH|YCSB|ALLOC|OVERHEAD|UNDERLOAD)_' || true); do
    echo "error: $v is no longer read: settings are KEY=VALUE lines of a settings file or KEY=VALUE arguments after it (scripts/bench/README.md, \"Settings\")" >&2
    exit 2
  done
}

settings_lines() {  # every setting, KEY=VALUE sorted, for config.txt
  local k
  for k in $(printf '%s\n' "${!S[@]}" | sort); do printf '%s=%s\n' "$k" "${S[$k]}"; done
}
