#!/usr/bin/env python3
"""scripts/bench/eval/run_abcd.sh and report_runs.py at a tiny scale.

Fills one DB per system with 20 000 records, runs Run A and Run D (Zipfian)
closed loop and then open loop at 80% of RocksDB's closed-loop rate, and
checks what report_runs.py makes of it: every run present, each offered
rate 80% of RocksDB's for that workload, reads and writes reported apart
(Run D's writes are inserts), the DBs removed at the end, and the Markdown
section replaced. Bad settings stop with exit 2 before anything is created.
"""
import json
import os
import shutil
import subprocess
import sys
import unittest

from eval_test_util import SYSTEMS, run, run_with_settings

TMP = os.path.join(os.environ.get("TEST_TMPDIR", "/tmp"), "eval_runs")


class EvalRuns(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        shutil.rmtree(TMP, ignore_errors=True)
        os.makedirs(TMP)
        cls.out = os.path.join(TMP, "out")
        cls.db = os.path.join(TMP, "db")
        cls.runs = run_with_settings("scripts/bench/eval/run_abcd.sh",
                                     os.path.join(TMP, "runs.env"), {
            "RECORDS": "20000", "REGIONS": "1", "WORKLOADS": "a d",
            "DISTRIBUTIONS": "zipfian", "RUN_SECONDS": "2", "OUT": cls.out,
            "DB": cls.db})

    def test_pipeline(self):
        self.assertEqual(self.runs.returncode, 0, self.runs.stderr)
        for s in SYSTEMS:
            self.assertFalse(os.path.exists(os.path.join(self.db, s)), s)
        doc = os.path.join(TMP, "results.md")
        with open(doc, "w") as f:
            f.write("before\n<!-- eval-runs:begin -->\nold\n<!-- eval-runs:end -->\nafter\n")
        summary = os.path.join(TMP, "runs.json")
        rep = run([sys.executable, "scripts/bench/eval/report_runs.py", self.out,
                   "--markdown", doc, "--json", summary])
        self.assertEqual(rep.returncode, 0, rep.stderr)
        with open(summary) as f:
            runs = json.load(f)
        expected = {f"{k}/{w}/zipfian/{s}" for k in ("closed", "run80")
                    for w in "ad" for s in SYSTEMS}
        self.assertEqual(set(runs), expected)
        for name, r in runs.items():
            k, w, d, s = name.split("/")
            with open(os.path.join(self.out, f"{k}-{w}-{d}-{s}.err")) as f:
                self.assertIn("compactions finished after", f.read(), name)
            self.assertEqual(r["errors"], 0, name)
            self.assertGreater(r["operations"], 0, name)
            self.assertIsNotNone(r["read"], name)
            self.assertIsNotNone(r["write"], name)  # A updates, D inserts
            self.assertLessEqual(r["read"]["p50"], r["read"]["p99"], name)
            # Every run has its machine record, also under the run's name
            # in the table (the fills are not in the tables).
            self.assertGreater(r["machine"]["seconds"], 0, name)
        for w in "ad":
            base = runs[f"closed/{w}/zipfian/rocksdb"]["achieved_ops_per_s"]
            for s in SYSTEMS:
                offered = runs[f"run80/{w}/zipfian/{s}"]["offered_ops_per_s"]
                self.assertAlmostEqual(offered, 0.8 * base, delta=0.05 * base, msg=(w, s))
        with open(doc) as f:
            text = f.read()
        self.assertTrue(text.startswith("before\n<!-- eval-runs:begin -->\n"))
        self.assertTrue(text.endswith("<!-- eval-runs:end -->\nafter\n"))
        self.assertNotIn("\nold\n", text)
        self.assertIn("Run A read P99 at least 12", text)
        self.assertIn("| Run D zipfian | vlsm |", text)
        self.assertIn("| run80-d-zipfian-vlsm |", text)
        self.assertTrue(os.path.exists(os.path.join(self.out, "fill-vlsm.machine.json")))

    def test_figures(self):
        has_matplotlib = subprocess.run(["/usr/bin/python3", "-c", "import matplotlib"],
                                        capture_output=True).returncode == 0
        if not has_matplotlib:
            self.skipTest("python3-matplotlib is not installed")
        self.assertEqual(self.runs.returncode, 0, self.runs.stderr)
        figs = os.path.join(TMP, "figures")
        rep = run([sys.executable, "scripts/bench/eval/report_runs.py", self.out,
                   "--figures", figs])
        self.assertEqual(rep.returncode, 0, rep.stderr)
        with open(os.path.join(figs, "run_p99_80.png"), "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        with open(os.path.join(figs, "run_p99_80.csv")) as f:
            rows = f.read().splitlines()
        self.assertEqual(rows[0], "group,series,read P99 (ms),write P99 (ms)")
        self.assertEqual(len(rows), 1 + 2 * len(SYSTEMS))  # Run A and D, each system

    def test_a_run_on_the_fills_unpaid_debt(self):
        # FILL_SETTLE=0 with RocksDB's rate given: the fill does not wait
        # for its compactions, no closed-loop sample pays them first, and
        # the open-loop run offers RUN_LOAD% of BASE_RATE.
        out = os.path.join(TMP, "unsettled")
        r = run(["bash", "scripts/bench/eval/run_abcd.sh", os.path.join(TMP, "runs.env"),
                 "SYSTEMS=rocksdb", "WORKLOADS=a", "DISTRIBUTIONS=uniform", "FILL_SETTLE=0",
                 "BASE_RATE=2000", f"OUT={out}"])
        self.assertEqual(r.returncode, 0, r.stderr)
        names = sorted(f for f in os.listdir(out) if f.endswith(".json")
                       and not f.endswith(".machine.json"))
        self.assertEqual(names, ["fill-rocksdb.json", "run80-a-uniform-rocksdb.json"])
        with open(os.path.join(out, "fill-rocksdb.json")) as f:
            self.assertIsNone(json.load(f).get("settle"))
        with open(os.path.join(out, "run80-a-uniform-rocksdb.json")) as f:
            self.assertEqual(json.load(f)["target_ops_per_s"], 1600)
        # The rate is named as given, and the table's title says the run
        # began on the fill's debt, not on a settled tree.
        with open(os.path.join(out, "config.txt")) as f:
            self.assertIn("run-a-uniform given_rate=2000 offered=1600", f.read())
        r = run([sys.executable, "scripts/bench/eval/report_runs.py", out])
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("open loop at 80% of a given rate (BASE_RATE)", r.stdout)
        self.assertIn("on the fill's unpaid debt", r.stdout)
        self.assertNotIn("on the settled tree", r.stdout)

    def test_bad_settings_stop_before_anything_is_created(self):
        for overrides, says in [(["SYSTEMS=vlsm rocksdb-io"], "must include rocksdb"),
                                (["WORKLOADS=a z"], "'z'"),
                                (["DISTRIBUTIONS=pareto"], "pareto"),
                                (["RUN_LOAD=0"], "RUN_LOAD"),
                                (["RUN_SECONDS=1m"], "RUN_SECONDS"),
                                (["LOADS=50"], "unknown setting 'LOADS'"),
                                (["FILL_SETTLE=0"], "FILL_SETTLE=0 needs BASE_RATE"),
                                (["FILL_SETTLE=no", "BASE_RATE=100"], "FILL_SETTLE"),
                                (["BASE_RATE=fast"], "BASE_RATE"),
                                (["BASE_RATE=100"], "BASE_RATE is one workload's rate")]:
            out = os.path.join(TMP, "bad")
            shutil.rmtree(out, ignore_errors=True)
            r = run(["bash", "scripts/bench/eval/run_abcd.sh",
                     "scripts/bench/eval/settings/run-abcd-1region-12M.env", *overrides,
                     f"OUT={out}"])
            self.assertEqual(r.returncode, 2, (overrides, r.stderr))
            self.assertIn(says, r.stderr)
            self.assertFalse(os.path.exists(out), overrides)

if __name__ == "__main__":
    unittest.main()
