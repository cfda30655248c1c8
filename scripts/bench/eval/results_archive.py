"""One compressed archive of raw runs per experiment directory (issue 22).

An experiment directory under docs/results keeps in the open what a reader
or a page needs (its config.txt, summary.json, README and the .diff its
library was built with); its raw runs (each run's report JSON, per-second
CSV, db_bench/ycsb output and machine record) go into raw.tar.xz beside
them. The .err progress logs are dropped: they repeat the CSVs. An
experiment of several runs keeps each run in a subdirectory, and the whole
run, its config.txt and summary.json too, goes into the experiment's one
archive, as <run>/<file>: the page carries the runs' figures and medians,
and a directory of 20 runs would otherwise keep 40 files open.

  python3 results_archive.py pack DIR...   pack each experiment directory
  python3 results_archive.py repack DIR... rewrite each archive as pack
                                           writes it now (same members); a
                                           DIR without one is left alone
  unpacked(DIR)                            (for the report scripts) DIR with
                                           its raw runs readable as files
"""
import atexit
import io
import lzma
import os
import shutil
import sys
import tarfile
import tempfile

ARCHIVE = "raw.tar.xz"
KEPT_OPEN = {"config.txt", "summary.json", "README.md"}
# A patch an experiment's library was built with (git apply): how to rerun
# it, kept beside the page, not raw output.
KEPT_OPEN_SUFFIXES = (".diff",)


# The members are text (JSON, CSV, logs): lc=4, pb=0 model bytes rather
# than 4-byte words, which packs these archives about 10% smaller than
# xz's preset 9; members sorted by kind first put the like files together
# in the compressor's window.
_XZ_FILTERS = [{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME,
                "lc": 4, "lp": 0, "pb": 0}]


def _member_order(name):
    return (os.path.splitext(name)[1], name)


def _kept_open(name):
    return name in KEPT_OPEN or name.endswith(KEPT_OPEN_SUFFIXES)


def _loose_files(directory):
    """directory's files that are not kept open, and every file of its
    subdirectories (as sub/name), sorted."""
    names = []
    for n in sorted(os.listdir(directory)):
        path = os.path.join(directory, n)
        if os.path.isdir(path):
            names += [n + "/" + m for m in sorted(os.listdir(path))
                      if os.path.isfile(os.path.join(path, m))]
        elif not _kept_open(n) and n != ARCHIVE:
            names.append(n)
    return names


def pack(directory, repack=False):
    """Moves directory's raw run files (its subdirectories' too) into
    directory/raw.tar.xz; returns how many it packed. Runs packed before
    stay in the archive (a loose file of the same name replaces its packed
    copy), so a run added to a committed experiment joins it. With repack,
    the archive is rewritten even when nothing is loose (to apply this
    file's compression to an archive packed before), and a directory
    without one is refused (ValueError). Reproducible: members
    in a fixed order, zeroed owners and times."""
    archive = os.path.join(directory, ARCHIVE)
    if repack and not os.path.exists(archive):
        # Not an experiment packed before (docs/results/figures, say):
        # repacking must not sweep its files into a new archive.
        raise ValueError(f"{directory}: no {ARCHIVE} to repack")
    names = _loose_files(directory)
    raw = [n for n in names if not n.endswith(".err")]
    if not raw and not repack:
        return 0

    def clean(info):
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        info.mtime = 0
        return info

    packed_before = {}  # name -> content, of the runs already in the archive
    if os.path.exists(archive):
        with tarfile.open(archive, "r:xz") as old:
            for member in old.getmembers():
                if member.isfile() and member.name not in raw:
                    with old.extractfile(member) as f:
                        packed_before[member.name] = f.read()
    with lzma.open(archive + ".new", "wb", format=lzma.FORMAT_XZ,
                   filters=_XZ_FILTERS) as xz, \
            tarfile.open(fileobj=xz, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for n in sorted(set(raw) | set(packed_before), key=_member_order):
            if n in packed_before:
                info = clean(tarfile.TarInfo(n))
                info.size = len(packed_before[n])
                tar.addfile(info, io.BytesIO(packed_before[n]))
            else:
                tar.add(os.path.join(directory, n), arcname=n, filter=clean)
    os.replace(archive + ".new", archive)
    for n in names:
        os.remove(os.path.join(directory, n))
    for n in {n.split("/")[0] for n in names if "/" in n}:
        if not os.listdir(os.path.join(directory, n)):
            os.rmdir(os.path.join(directory, n))
    return len(raw)


def unpacked(directory):
    """directory itself if neither it nor its parent has an archive;
    otherwise a temporary copy of its open files with its raw files
    extracted beside them (removed at exit). A run in a subdirectory of a
    packed experiment finds its files in the parent's archive."""
    directory = os.path.normpath(directory)
    archive = os.path.join(directory, ARCHIVE)
    prefix = ""
    if not os.path.exists(archive):
        parent_archive = os.path.join(os.path.dirname(directory), ARCHIVE)
        if not os.path.exists(parent_archive):
            return directory
        archive, prefix = parent_archive, os.path.basename(directory) + "/"
    tmp = tempfile.mkdtemp(prefix="results-")
    atexit.register(shutil.rmtree, tmp, True)
    # A packed run has no directory left: all of it is in the archive.
    for n in os.listdir(directory) if os.path.isdir(directory) else []:
        if n != ARCHIVE and os.path.isfile(os.path.join(directory, n)):
            shutil.copy(os.path.join(directory, n), tmp)
    with tarfile.open(archive, "r:xz") as tar:
        for member in tar.getmembers():
            parts = member.name.split("/")
            if (not member.isfile() or len(parts) > 2
                    or any(p in ("", ".", "..") for p in parts)):
                sys.exit(f"{archive}: unexpected member {member.name!r}")
            if member.name.startswith(prefix) and "/" not in member.name[len(prefix):]:
                with tar.extractfile(member) as src, \
                        open(os.path.join(tmp, parts[-1]), "wb") as dst:
                    shutil.copyfileobj(src, dst)
    return tmp


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] not in ("pack", "repack"):
        sys.exit(__doc__)
    for d in sys.argv[2:]:
        if sys.argv[1] == "repack":
            if not os.path.exists(os.path.join(d, ARCHIVE)):
                print(f"{d}: no {ARCHIVE}, left as it is")
                continue
            print(f"{d}: repacked, {pack(d, repack=True)} loose files added")
        else:
            print(f"{d}: {pack(d)} files packed")
