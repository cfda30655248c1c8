"""step_widths.py on a made-up load_a.sh directory: a closed-loop and an
open-loop report per system, the newer ones carrying the collector's step
list (LsmMetricsReport::input_bytes_per_step, steps_over_bound,
wide_compactions)."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
STEP_WIDTHS = os.path.join(ROOT, "scripts", "bench", "eval", "step_widths.py")
MIB = 1 << 20


def report(ops, l1_widest_mib, steps=None):
    lm = {"io_amplification": 4.5, "stalls": {"total_s": 1.5, "longest_s": 0.5},
          "levels": [{"level": 0, "compactions": 10},
                     {"level": 1, "compactions": 3,
                      "input_bytes_per_compaction": {"mean": 60 * MIB,
                                                     "max": l1_widest_mib * MIB}}]}
    if steps is not None:
        lm["steps"] = steps
    return {"achieved_ops_per_s": ops, "lsm_metrics": [lm],
            "space": {"peak_rss_bytes": 300 * MIB}}


def wide(at, mib, upper_mib):
    return {"time_s": at, "output_level": 1, "input_bytes": mib * MIB,
            "upper_files": 40, "upper_bytes": upper_mib * MIB, "level_files": 9,
            "level_bytes": (mib - upper_mib) * MIB, "reason": "LevelL0FilesNum"}


class StepWidthsTest(unittest.TestCase):
    def run_on(self, files):
        with tempfile.TemporaryDirectory() as d:
            run = os.path.join(d, "r9")
            os.mkdir(run)
            for name, content in files.items():
                with open(os.path.join(run, name), "w") as f:
                    json.dump(content, f)
            out = subprocess.run([sys.executable, STEP_WIDTHS, run],
                                 capture_output=True, text=True, check=True).stdout
        tables = out.strip().split("\n\n")
        return [[[c.strip() for c in line.split("|")[1:-1]] for line in t.splitlines()[2:]]
                for t in tables]

    def test_each_load_is_compared_with_rocksdb_under_the_same_load(self):
        steps = {"input_bytes_per_step": {"count": 400, "p99": 70 * MIB},
                 "width_bound": 80 * MIB, "over_bound": 2,
                 "wide_compactions": [wide(100, 90, 50), wide(30, 300, 250)]}
        tables = self.run_on({
            "sustainable-rocksdb.json": report(80000, 700),
            "sustainable-vlsm-ranged-rs.json": report(100000, 300, steps),
            "load80-rocksdb.json": report(64000, 600),
            "load80-vlsm-ranged-rs.json": report(48000, 90, steps),
            "load80-vlsm-ranged-rs.machine.json": {"not": "a report"},
        })
        rows = {(r[1], r[2]): r for r in tables[0]}
        self.assertEqual(sorted(rows), [("load80", "rocksdb"), ("load80", "vlsm-ranged-rs"),
                                        ("sustainable", "rocksdb"),
                                        ("sustainable", "vlsm-ranged-rs")])
        self.assertEqual(rows[("sustainable", "vlsm-ranged-rs")][4], "1.25")
        self.assertEqual(rows[("load80", "vlsm-ranged-rs")][4], "0.75")
        self.assertEqual(rows[("load80", "vlsm-ranged-rs")][12], "70.0")
        self.assertEqual(rows[("load80", "vlsm-ranged-rs")][13], "2 of 400 (> 80 MiB)")
        self.assertEqual(rows[("load80", "rocksdb")][12], "–", "no step list: not made up")
        # The widest listed compaction, with what it took, per report that has one.
        widest = {(r[1], r[2]): r for r in tables[1]}
        self.assertEqual(sorted(widest), [("load80", "vlsm-ranged-rs"),
                                          ("sustainable", "vlsm-ranged-rs")])
        self.assertEqual(widest[("load80", "vlsm-ranged-rs")][3:8],
                         ["→L1 300.0 MiB", "30", "40, 250.0", "9, 50.0", "LevelL0FilesNum"])

    def test_reopen_steps_runs_are_read_with_their_way_of_ending(self):
        tables = self.run_on({
            "fill-close1-vlsm-ranged-rs.json": report(90000, 30),
            "reopen-close1-vlsm-ranged-rs.json": report(50000, 31),
            "reopen-kill2-rocksdb.json": report(50000, 500),
            "reopen-kill2-rocksdb.machine.json": {"not": "a report"},
        })
        rows = {(r[1], r[2]): r[9] for r in tables[0]}  # widest L0→L1
        self.assertEqual(rows, {("fill-close1", "vlsm-ranged-rs"): "30.0",
                                ("reopen-close1", "vlsm-ranged-rs"): "31.0",
                                ("reopen-kill2", "rocksdb"): "500.0"})

    def test_a_run_of_several_regions_is_refused_not_read_as_its_first(self):
        two = report(64000, 600)
        two["lsm_metrics"] = two["lsm_metrics"] * 2
        with tempfile.TemporaryDirectory() as run:
            with open(os.path.join(run, "load80-rocksdb.json"), "w") as f:
                json.dump(two, f)
            r = subprocess.run([sys.executable, STEP_WIDTHS, run], capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("load80-rocksdb has 2 regions", r.stderr)

    def test_a_missing_directory_is_named_not_a_traceback(self):
        r = subprocess.run([sys.executable, STEP_WIDTHS, "/nonexistent/run"],
                           capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("/nonexistent/run is not a directory", r.stderr)
        self.assertNotIn("Traceback", r.stderr)


if __name__ == "__main__":
    unittest.main()
