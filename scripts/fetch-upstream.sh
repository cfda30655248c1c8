#!/usr/bin/env bash
# Fetch and verify the pinned upstream source: RocksDB 9.10.0 orig.tar.gz.
#
# Usage: scripts/fetch-upstream.sh DEST_DIR
#   Prints the path of the verified tarball on stdout; everything else goes
#   to stderr. Sources, in order:
#     1. $ROCKSDB_TARBALL: a local tarball the user gives (no network used);
#     2. DEST_DIR/rocksdb_9.10.0.orig.tar.gz from an earlier run;
#     3. $ROCKSDB_UPSTREAM_URL, if set;
#     4. the Debian archive this machine's apt already uses: the pool path of
#        the source package, then `apt-get source --print-uris` against a
#        private `deb-src trixie` list (the host is read from apt's sources,
#        never written here).
#   Every candidate is checked against the pinned SHA-256 before it is used.
set -euo pipefail

readonly VERSION=9.10.0
readonly FILE="rocksdb_${VERSION}.orig.tar.gz"
readonly SHA256=fdccab16133c9d927a183c2648bcea8d956fb41eb1df2aacaa73eb0b95e43724

die() { printf 'fetch-upstream: error: %s\n' "$*" >&2; exit 1; }
note() { printf 'fetch-upstream: %s\n' "$*" >&2; }

[ $# -eq 1 ] || die "usage: $0 DEST_DIR"
dest=$1
mkdir -p "$dest" || die "cannot create $dest"
target="$dest/$FILE"

sha_of() { sha256sum "$1" | cut -d' ' -f1; }

# A local tarball is the user's explicit choice: a wrong one is an error,
# never silently replaced by a download.
if [ -n "${ROCKSDB_TARBALL:-}" ]; then
  [ -f "$ROCKSDB_TARBALL" ] || die "ROCKSDB_TARBALL=$ROCKSDB_TARBALL does not exist; point it at $FILE (SHA-256 $SHA256) or unset it to download."
  got=$(sha_of "$ROCKSDB_TARBALL")
  [ "$got" = "$SHA256" ] || die "ROCKSDB_TARBALL=$ROCKSDB_TARBALL has SHA-256 $got, expected $SHA256 (RocksDB $VERSION $FILE). Give the right file or unset ROCKSDB_TARBALL to download it."
  note "using local tarball $ROCKSDB_TARBALL"
  printf '%s\n' "$(readlink -f "$ROCKSDB_TARBALL")"
  exit 0
fi

if [ -f "$target" ] && [ "$(sha_of "$target")" = "$SHA256" ]; then
  printf '%s\n' "$target"
  exit 0
fi

download() {  # URL -> $target.part, verified, then renamed
  local url=$1
  note "downloading $url"
  rm -f "$target.part"
  if command -v curl >/dev/null; then
    curl -fsSL --retry 3 --connect-timeout 20 -o "$target.part" "$url" || return 1
  elif command -v wget >/dev/null; then
    wget -q -O "$target.part" "$url" || return 1
  else
    die "neither curl nor wget is installed: install one (apt-get install curl) or set ROCKSDB_TARBALL."
  fi
  local got
  got=$(sha_of "$target.part")
  if [ "$got" != "$SHA256" ]; then
    rm -f "$target.part"
    note "checksum mismatch for $url: got $got, expected $SHA256"
    return 1
  fi
  mv "$target.part" "$target"
}

# The Debian mirrors this machine's apt is configured with (deb822 and
# one-line formats), main archive only (not -security).
debian_uris() {
  {
    cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*//p' | tr ' ' '\n'
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
      awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }'
  } | grep -E '/debian/?$' | sed 's:/*$::' | awk '!seen[$0]++'
}

# Debian's own recipe: a private deb-src list for trixie, so the machine's
# apt configuration is left untouched.
apt_source_url() {
  local uri=$1 tmp
  command -v apt-get >/dev/null || return 1
  tmp=$(mktemp -d)
  mkdir -p "$tmp/lists/partial" "$tmp/cache/archives/partial"
  printf 'deb-src [trusted=yes] %s trixie main\n' "$uri" > "$tmp/sources.list"
  local opts=(-o "Dir::Etc::SourceList=$tmp/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
              -o "Dir::State::Lists=$tmp/lists" -o "Dir::Cache=$tmp/cache" -o "Debug::NoLocking=1")
  if apt-get "${opts[@]}" -qq update >&2 2>/dev/null; then
    # Run where no copy lies, or apt prints "already downloaded" instead of the URL.
    (cd "$tmp" && apt-get "${opts[@]}" source --print-uris "rocksdb=${VERSION}-1" 2>/dev/null) |
      grep -o "'[^']*${FILE}'" | tr -d "'" | head -1
  fi
  rm -rf "$tmp"
}

tried=()
if [ -n "${ROCKSDB_UPSTREAM_URL:-}" ]; then
  download "$ROCKSDB_UPSTREAM_URL" && { printf '%s\n' "$target"; exit 0; }
  tried+=("$ROCKSDB_UPSTREAM_URL")
fi
for uri in $(debian_uris); do
  url="$uri/pool/main/r/rocksdb/$FILE"
  download "$url" && { printf '%s\n' "$target"; exit 0; }
  tried+=("$url")
  url=$(apt_source_url "$uri" || true)
  if [ -n "$url" ]; then
    download "$url" && { printf '%s\n' "$target"; exit 0; }
    tried+=("$url")
  fi
done

die "could not obtain $FILE (SHA-256 $SHA256). Tried: ${tried[*]:-no Debian mirror found in /etc/apt/sources*}. Download it by hand and set ROCKSDB_TARBALL=/path/to/$FILE (or -DROCKSDB_UPSTREAM_TARBALL=... for cmake), or set ROCKSDB_UPSTREAM_URL to a mirror."
