# Sourced by scripts/test.sh and scripts/demo.sh: installs, on a Debian
# machine, whatever the build needs and is missing. Other systems: install the
# packages listed here by hand, then run the scripts.
VLSM_BUILD_PACKAGES=(
  build-essential cmake ninja-build ccache patch curl ca-certificates pkg-config
  libgflags-dev libsnappy-dev liblz4-dev libzstd-dev zlib1g-dev liburing-dev
  libjemalloc-dev
)
VLSM_TEST_PACKAGES=(gdb binutils python3 python3-matplotlib time)

vlsm_install_packages() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if ! command -v apt-get >/dev/null; then
    echo "error: missing packages ${missing[*]} and no apt-get here: install them by hand." >&2
    return 1
  fi
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  echo "== installing ${missing[*]}"
  "${sudo[@]}" apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# ccache: hash paths relative to the checkout, so a fresh clone elsewhere
# still hits the cache of an earlier build.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$VLSM_ROOT}"
# Debug objects (-g) would otherwise hash the working directory and never
# hit across clones; the debug info then names the first clone's path.
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"

# Configures (if needed) and builds one tree. $1 = build dir, rest = cmake -D args.
vlsm_build() {
  local dir=$1; shift
  cmake -S "$VLSM_ROOT" -B "$dir" -G Ninja "$@" >/dev/null
  cmake --build "$dir" -j "${VLSM_JOBS:-2}"
}
