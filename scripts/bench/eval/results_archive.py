"""One compressed archive of raw runs per experiment directory (issue 22).

An experiment directory under docs/results keeps in the open what a reader
or a page needs (config.txt, summary.json, and any README or medians); its
raw runs (each run's report JSON, per-second CSV, db_bench/ycsb output and
machine record) go into raw.tar.xz beside them. The .err progress logs are
dropped: they repeat the CSVs.

  python3 results_archive.py pack DIR...   pack each experiment directory
  unpacked(DIR)                            (for the report scripts) DIR with
                                           its raw runs readable as files
"""
import atexit
import os
import shutil
import sys
import tarfile
import tempfile

ARCHIVE = "raw.tar.xz"
KEPT_OPEN = {"config.txt", "summary.json", "README.md"}


def pack(directory):
    """Moves directory's raw run files into directory/raw.tar.xz; returns
    how many it packed. Reproducible: sorted names, zeroed owners and times."""
    names = sorted(n for n in os.listdir(directory)
                   if os.path.isfile(os.path.join(directory, n))
                   and n not in KEPT_OPEN and n != ARCHIVE)
    raw = [n for n in names if not n.endswith(".err")]
    if not raw:
        return 0

    def clean(info):
        info.uid = info.gid = 0
        info.uname = info.gname = ""
        info.mtime = 0
        return info

    with tarfile.open(os.path.join(directory, ARCHIVE), "w:xz", preset=9) as tar:
        for n in raw:
            tar.add(os.path.join(directory, n), arcname=n, filter=clean)
    for n in names:
        os.remove(os.path.join(directory, n))
    return len(raw)


def unpacked(directory):
    """directory itself if it has no archive; otherwise a temporary copy of
    its open files with the archive extracted beside them (removed at exit)."""
    archive = os.path.join(directory, ARCHIVE)
    if not os.path.exists(archive):
        return directory
    tmp = tempfile.mkdtemp(prefix="results-")
    atexit.register(shutil.rmtree, tmp, True)
    for n in os.listdir(directory):
        if n != ARCHIVE and os.path.isfile(os.path.join(directory, n)):
            shutil.copy(os.path.join(directory, n), tmp)
    with tarfile.open(archive, "r:xz") as tar:
        for member in tar.getmembers():
            if not member.isfile() or os.path.basename(member.name) != member.name:
                sys.exit(f"{archive}: unexpected member {member.name!r}")
        tar.extractall(tmp)
    return tmp


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] != "pack":
        sys.exit(__doc__)
    for d in sys.argv[2:]:
        print(f"{d}: {pack(d)} files packed")
