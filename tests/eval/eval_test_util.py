"""What the evaluation smoke tests share: the repository root (ctest runs
them there), running a command in it with extra environment, and running
an experiment script on a settings file written from a dict."""
import os
import subprocess

ROOT = os.getcwd()
SYSTEMS = ["rocksdb", "rocksdb-io", "vlsm"]


def run(cmd, env=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(cmd, cwd=ROOT, env=e, capture_output=True, text=True)


def run_with_settings(script, path, settings, *overrides):
    """Writes SETTINGS (a dict) to PATH as a settings file, values quoted,
    and runs `bash SCRIPT PATH OVERRIDES...`."""
    with open(path, "w") as f:
        f.write("# written by the test\n\n")
        f.writelines(f'{k}="{v}"\n' for k, v in settings.items())
    return run(["bash", script, path, *overrides])
