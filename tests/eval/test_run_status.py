"""run_status.py, the one rule for "this run is finished" that RESUME,
final_eval.sh's base rates and final_report.py ask: a report that is
missing, empty, cut short, interrupted or counted errors is not."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "bench", "eval", "run_status.py")
sys.path.insert(0, os.path.dirname(SCRIPT))
from run_status import file_problem  # noqa: E402


class RunStatusTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_each_kind_of_unfinished_run(self):
        finished = self.write("ok.json", json.dumps({"errors": 0, "interrupted": False}))
        cases = {
            os.path.join(self.dir, "none.json"): "is missing",
            self.write("empty.json", ""): "is missing",
            self.write("cut.json", '{"errors": 0, "lat'): "is not a whole JSON report",
            self.write("stopped.json", json.dumps({"errors": 0, "interrupted": True})):
                "was stopped before it was done",
            self.write("refused.json", json.dumps({"errors": 3})): "counted 3 errors",
        }
        self.assertIsNone(file_problem(finished))
        for path, why in cases.items():
            self.assertEqual(file_problem(path), why, path)
            r = subprocess.run([sys.executable, SCRIPT, finished, path],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 1, path)
            self.assertIn(f"{path} {why}", r.stderr)
        r = subprocess.run([sys.executable, SCRIPT, finished], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)


if __name__ == "__main__":
    unittest.main()
