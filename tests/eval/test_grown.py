#!/usr/bin/env python3
"""scripts/bench/eval/grown.sh (issue 56) refuses what it cannot run, with
the reason, before a run is spent: a bad part or setting (exit 2), a run
before the search that sets its rate, a check before the preload, and a
preload that did not grow the tree (a tiny one: 4,000 records cannot fill
L1 to L4), whose tree is then not kept as grown. The grown runs themselves
take hours (docs/results/grown-q4-4region-96M)."""
import os
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
GROWN = os.path.join(ROOT, "scripts", "bench", "eval", "grown.sh")


class GrownTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))
        self.paths = [f"TREES={self.tmp}/trees", f"OUT={self.tmp}/out", f"DB={self.tmp}/db"]

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def grown(self, *args, timeout=300):
        return subprocess.run(["bash", GROWN, *args, *self.paths], capture_output=True,
                              text=True, timeout=timeout)

    def test_a_bad_part_or_setting_exits_2(self):
        for args, says in [(("bogus",), "usage:"), (("at80", "RUNS=0"), "RUNS must be"),
                           (("search", "SYSTEMS=rocksdb-q4"), "SYSTEMS must include rocksdb-io-q4"),
                           (("search", "SYSTEMS=rocksdb-io-q4 nosuch"), "unknown system 'nosuch'")]:
            r = self.grown(*args)
            self.assertEqual(r.returncode, 2, (args, r.stdout, r.stderr))
            self.assertIn(says, r.stderr, args)

    def test_runs_before_the_search_and_a_check_before_the_preload_fail_saying_so(self):
        r = self.grown("at80")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("no finished search of rocksdb-io-q4: run grown.sh search", r.stderr)
        r = self.grown("check")
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("has no check: run grown.sh preload", r.stderr)

    def test_a_preload_that_did_not_grow_the_tree_fails_and_keeps_no_check(self):
        args = ("preload", "SYSTEMS=rocksdb-io-q4", "RECORDS=4000", "FLOOR_SECONDS=0")
        r = self.grown(*args)
        self.assertEqual(r.returncode, 1, (r.stdout, r.stderr))
        self.assertIn("not grown: L1 to L4 must all hold files", r.stderr)
        self.assertIn("the preload of rocksdb-q4 did not make a grown, settled tree", r.stderr)
        self.assertFalse(os.path.exists(f"{self.tmp}/trees/rocksdb-q4.check.json"))
        # So the next preload loads it again rather than keep it.
        r = self.grown(*args)
        self.assertIn("== preload rocksdb-q4: 4000 records", r.stdout)
        self.assertNotIn("tree kept", r.stdout)


if __name__ == "__main__":
    unittest.main()
