#!/usr/bin/env python3
"""scripts/bench/eval/tree_check.py, issue 56's check of a grown tree, on
made-up regions: a stand-in for vlsm_tree_report prints each region's
shape from a JSON file in the region's directory, so every rule is tried
on a tree that keeps it and on one that breaks it."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECK = os.path.join(ROOT, "scripts", "bench", "eval", "tree_check.py")
# The stand-in: prints DIR/shape.json, or fails as the tool does on a
# directory that holds no DB.
FAKE_REPORT = """#!/usr/bin/env python3
import sys
try:
    print(open(sys.argv[1] + "/shape.json").read())
except OSError as e:
    sys.exit(f"vlsm_tree_report: cannot open {sys.argv[1]}: {e}")
"""


def shape(entries, pending=0, files=(1, 2, 3, 4, 5)):
    """One region: L0 to L4 with FILES files and ENTRIES entries each."""
    return {"pending_compaction_bytes": pending,
            "levels": [{"level": n, "files": f, "bytes": f << 20, "entries": e}
                       for n, (f, e) in enumerate(zip(files, entries))]}


class TreeCheckTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="tree-check-")
        self.tool = os.path.join(self.dir, "report")
        with open(self.tool, "w") as f:
            f.write(FAKE_REPORT)
        os.chmod(self.tool, 0o755)
        self.db = os.path.join(self.dir, "db")

    def tearDown(self):
        subprocess.run(["rm", "-rf", self.dir], check=True)

    def regions(self, *shapes):
        for i, s in enumerate(shapes):
            os.makedirs(os.path.join(self.db, f"region-{i}"), exist_ok=True)
            with open(os.path.join(self.db, f"region-{i}", "shape.json"), "w") as f:
                json.dump(s, f)

    def run_check(self, records, *extra):
        return subprocess.run([sys.executable, CHECK, self.tool, self.db, "--regions", "2",
                               "--records", str(records), *extra],
                              capture_output=True, text=True)

    def test_a_grown_settled_tree_passes_and_sums_its_regions(self):
        self.regions(shape([0, 10, 20, 30, 40]), shape([5, 10, 20, 30, 35]))
        p = self.run_check(200)
        self.assertEqual(p.returncode, 0, p.stderr)
        result = json.loads(p.stdout)
        self.assertEqual(result["records"], 200)
        self.assertEqual(result["levels"][4], {"level": 4, "files": 10, "bytes": 10 << 20,
                                               "entries": 75})

    def test_a_lost_record_fails(self):
        self.regions(shape([0, 10, 20, 30, 40]), shape([5, 10, 20, 30, 34]))
        p = self.run_check(200)
        self.assertEqual(p.returncode, 1)
        self.assertIn("199 entries where 200 records were loaded", p.stderr)

    def test_debt_left_fails(self):
        self.regions(shape([0, 10, 20, 30, 40]), shape([5, 10, 20, 30, 35], pending=4096))
        p = self.run_check(200)
        self.assertEqual(p.returncode, 1)
        self.assertIn("not settled: 4096 bytes of compaction pending", p.stderr)

    def test_an_empty_level_fails_and_an_empty_l0_does_not(self):
        self.regions(shape([0, 10, 20, 30, 40], files=(0, 1, 0, 1, 1)),
                     shape([0, 10, 20, 30, 40], files=(0, 1, 0, 1, 1)))
        p = self.run_check(200)
        self.assertEqual(p.returncode, 1)
        self.assertIn("not grown: L1 to L4 must all hold files (empty: L2)", p.stderr)

    def test_a_tree_without_its_last_level_fails(self):
        three = {"pending_compaction_bytes": 0,
                 "levels": [{"level": n, "files": 1, "bytes": 1, "entries": 10} for n in range(4)]}
        self.regions(three, three)
        p = self.run_check(80)
        self.assertEqual(p.returncode, 1)
        self.assertIn("not grown: L1 to L4 must all hold files (empty: L4)", p.stderr)

    def test_a_tree_that_changed_since_its_check_fails(self):
        self.regions(shape([0, 10, 20, 30, 40]), shape([5, 10, 20, 30, 35]))
        saved = os.path.join(self.dir, "check.json")
        with open(saved, "w") as f:
            f.write(self.run_check(200).stdout)
        self.assertEqual(self.run_check(200, "--expect", saved).returncode, 0)
        # Same records, one file more in L3 (a compaction ran on the tree).
        self.regions(shape([0, 10, 20, 30, 40]), shape([5, 10, 20, 30, 35], files=(1, 2, 4, 4, 5)))
        p = self.run_check(200, "--expect", saved)
        self.assertEqual(p.returncode, 1)
        self.assertIn("the tree differs from its preload's check", p.stderr)

    def test_a_missing_region_fails_naming_the_tree(self):
        self.regions(shape([0, 10, 20, 30, 40]))
        p = self.run_check(100)
        self.assertEqual(p.returncode, 1)
        self.assertIn(f"error: {self.db}: cannot read the tree", p.stderr)


if __name__ == "__main__":
    unittest.main()
