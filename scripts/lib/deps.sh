# Sourced by scripts/test.sh, demo.sh and the scripts that run the fork's
# binaries: installs, on a Debian machine, whatever the build needs and is
# missing (other systems: install the packages listed here by hand, then run
# the scripts), and builds a tree. Needs VLSM_ROOT, the checkout.
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

# The two trees:
#   build/check  Check (-O2, assertions and sync points on): every test,
#                the fork's and upstream's; scripts/test.sh builds it
#   build/       Release: the library, tools and benchmarks the benchmark,
#                demo and tool scripts run (build/db_bench_vlsm,
#                build/ycsb_vlsm, ...), built on demand by vlsm_release_tree
# VLSM_BUILD_DIR=DIR makes the scripts run DIR's binaries instead of build/'s
# and build nothing: ctest sets it to its own tree (build/check) for the
# scripts its tests run.
VLSM_RELEASE_DIR=$VLSM_ROOT/build

# vlsm_release_tree [--update] TARGET...: the Release tree's TARGETs. Configures
# build/ as Release (without the tests) if it is not, then builds the TARGETs
# whose binary is missing; with --update, every TARGET (brought up to date).
vlsm_release_tree() {
  local update=0 t
  if [ "${1:-}" = --update ]; then update=1; shift; fi
  local -a targets=()
  for t in "$@"; do
    if [ "$update" = 1 ] || [ ! -x "$VLSM_RELEASE_DIR/$t" ]; then targets+=("$t"); fi
  done
  [ ${#targets[@]} -gt 0 ] || return 0
  if ! grep -qx 'CMAKE_BUILD_TYPE:STRING=Release' "$VLSM_RELEASE_DIR/CMakeCache.txt" 2>/dev/null; then
    local -a fresh=()
    [ -f "$VLSM_RELEASE_DIR/CMakeCache.txt" ] || fresh=(-DVLSM_BUILD_TESTS=OFF)
    echo "== configuring build/ (Release)"
    cmake -S "$VLSM_ROOT" -B "$VLSM_RELEASE_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      "${fresh[@]}" >/dev/null || return 1
  fi
  echo "== building ${targets[*]} in build/ (Release)"
  local log=$VLSM_RELEASE_DIR/release-build.log
  if ! cmake --build "$VLSM_RELEASE_DIR" -j "${VLSM_JOBS:-2}" --target "${targets[@]}" > "$log" 2>&1; then
    tail -30 "$log" >&2
    echo "error: building ${targets[*]} in build/ failed (whole log: $log)" >&2
    return 1
  fi
  tail -1 "$log"
}

# vlsm_binary VAR TARGET: sets VAR to the binary TARGET a script runs:
# $VLSM_BUILD_DIR/TARGET if VLSM_BUILD_DIR is set (exits 2 if it is not
# there), else build/TARGET, built if missing (vlsm_release_tree; exits 1
# if that fails).
vlsm_binary() {
  local -n _bin=$1
  if [ -n "${VLSM_BUILD_DIR:-}" ]; then
    _bin=$(realpath -m "$VLSM_BUILD_DIR")/$2
    [ -x "$_bin" ] || { echo "error: $_bin not built (VLSM_BUILD_DIR=$VLSM_BUILD_DIR)" >&2; exit 2; }
  else
    vlsm_release_tree "$2" || exit 1
    _bin=$VLSM_RELEASE_DIR/$2
  fi
}
