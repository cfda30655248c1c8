# Sourced by the scripts that take numbers from the environment: one check,
# one message, so every script rejects bad input the same way.

# require_positive_int NAME VALUE: exits 2, with one line naming NAME, unless
# VALUE is a positive whole number.
require_positive_int() {
  case "$2" in
    ''|*[!0-9]*|0) echo "error: $1 must be a positive whole number, got '$2'" >&2; exit 2 ;;
  esac
}

# require_flag NAME VALUE: exits 2, with one line naming NAME, unless VALUE
# is 0 or 1.
require_flag() {
  case "$2" in
    0|1) ;;
    *) echo "error: $1 must be 0 or 1, got '$2'" >&2; exit 2 ;;
  esac
}

# A benchmark script's usage and errors (l0_read_paths.sh, rest_reads.sh).
usage() {  # the header above, without the leading "# "
  awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
}
die_usage() { echo "error: $*" >&2; echo "(see $0 --help)" >&2; exit 2; }
shell_words() {  # ARGS...: one line a shell reads back as ARGS (quoted only where needed)
  local a line=
  for a in "$@"; do
    if [[ "$a" =~ ^[A-Za-z0-9_./=:,@%+-]+$ ]]; then line+=" $a"; else line+=" $(printf '%q' "$a")"; fi
  done
  printf '%s\n' "${line# }"
}
