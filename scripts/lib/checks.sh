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
