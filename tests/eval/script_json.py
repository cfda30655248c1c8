"""Runs an evaluation script on made-up inputs and reads back the JSON it
writes: what the tests of scripts taking DIR-or-FILE plus --json share."""
import json
import os
import subprocess
import sys
import tempfile


def run_with_json(script, files, args=(), target=None):
    """(CompletedProcess, the JSON written or None) of
    `python3 SCRIPT INPUT --json OUT ARGS...`: FILES ({name: text}) are
    written into a temporary directory, and INPUT is that directory, or the
    file TARGET in it."""
    with tempfile.TemporaryDirectory() as d:
        for name, text in files.items():
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
        out = os.path.join(d, "out.json")
        given = os.path.join(d, target) if target else d
        p = subprocess.run([sys.executable, script, given, "--json", out] + list(args),
                           capture_output=True, text=True)
        j = None
        if p.returncode == 0:
            with open(out) as f:
                j = json.load(f)
        return p, j
