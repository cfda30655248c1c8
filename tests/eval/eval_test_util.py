"""What the evaluation smoke tests share: the repository root (ctest runs
them there) and running a command in it with extra environment."""
import os
import subprocess

ROOT = os.getcwd()
SYSTEMS = ["rocksdb", "rocksdb-io", "vlsm"]


def run(cmd, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(cmd, cwd=ROOT, env=e, capture_output=True, text=True)
