#!/usr/bin/env python3
"""Runs upstream's tools/db_crashtest.py with Python's random module seeded,
so that the options it draws (its whole random option space) are the same
for the same seed: a CI run is repeatable, and a long run names the seed of
each of its runs so that a failure can be drawn again.

usage: seeded_crashtest.py SEED DB_CRASHTEST_PY ARGS...

The kills stay timed, as upstream's are: a seed fixes the options, not the
moment of each kill.
"""
import random
import runpy
import sys

if len(sys.argv) < 3:
    sys.exit(__doc__)
seed = int(sys.argv[1])
script = sys.argv[2]
random.seed(seed)  # before the import: default_params draws at module level
sys.argv = [script] + sys.argv[3:]
print(f"seeded_crashtest: seed {seed}", flush=True)
runpy.run_path(script, run_name="__main__")
