"""scripts/bench/l0_read_paths.sh (issue 39's benchmark) end to end at a
tiny scale on this tree's binaries: bad input exits 2 before anything runs,
and a small load is read both ways, each run recorded with its path, rate
and per-operation counters in results.json. The figures themselves come
from the full run (docs/results/l0-read-paths-1region-12M)."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "bench", "l0_read_paths.sh")


class L0ReadPathsTest(unittest.TestCase):
    def setUp(self):
        base = os.environ.get("TEST_TMPDIR") or tempfile.gettempdir()
        os.makedirs(base, exist_ok=True)
        self.tmp = tempfile.mkdtemp(dir=base)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run_script(self, *args):
        return subprocess.run(["bash", SCRIPT, *args], capture_output=True,
                              text=True, timeout=600, cwd=ROOT)

    def test_bad_input_exits_2_and_says_why(self):
        out = os.path.join(self.tmp, "out")
        for args, says in [(["--bogus"], "unknown argument"),
                           (["--records", "0"], "--records"),
                           (["--system", "rocksdb"], "not a ranged-layout system"),
                           (["--seconds"], "needs a value")]:
            r = self.run_script("--out", out, *args)
            self.assertEqual(r.returncode, 2, (args, r.stdout, r.stderr))
            self.assertIn(says, r.stderr, args)
            self.assertFalse(os.path.exists(os.path.join(out, "results.json")), args)

    def test_a_small_tree_is_read_both_ways(self):
        out = os.path.join(self.tmp, "out")
        db = os.path.join(self.tmp, "db")
        r = self.run_script("--records", "30000", "--seconds", "1", "--reps", "1",
                            "--warmup-seconds", "0", "--out", out, "--db", db)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(os.path.join(out, "results.json")) as f:
            res = json.load(f)
        runs = res["runs"]
        self.assertEqual(sorted((x["benchmark"], x["path"]) for x in runs),
                         [("multireadrandom", "files"),
                          ("multireadrandom", "sublevels"),
                          ("readrandom", "files"), ("readrandom", "sublevels"),
                          ("seekrandom", "files"), ("seekrandom", "sublevels")])
        for x in runs:
            if x["benchmark"] != "seekrandom":
                self.assertEqual(x["found"], x["looked_up"], x["name"])
        for x in runs:
            self.assertGreater(x["ops_per_s"], 0, x["name"])
            self.assertIn("VLSM_L0_READ_PATH=" + x["path"], x["command"])
        self.assertIn("sublevels / files", r.stdout)


if __name__ == "__main__":
    unittest.main()
