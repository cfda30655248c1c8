#!/usr/bin/env python3
"""db_bench_vlsm end to end: bad flags stop with a one-line error naming the
flag; a small fillrandom with and without --vlsm prints the metrics block and
writes a JSON report whose config and figures are the ones asked for; and
vlsm_tree_report, run on the DB the fill left, describes the same tree as
the report (levels, L1 good/poor vSSTs).

usage: db_bench_vlsm_run_test.py DB_BENCH_VLSM VLSM_TREE_REPORT WORK_DIR
"""
import json
import os
import re
import shutil
import subprocess
import sys
import unittest

BINARY = None
TREE_REPORT = None
WORK = None


def run(*flags):
    return subprocess.run([BINARY, *flags], capture_output=True, text=True,
                          timeout=600)


class BadFlags(unittest.TestCase):
    def assert_rejected(self, flags, message):
        p = run(*flags, "--benchmarks=fillrandom", "--db=" + WORK + "/bad")
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        lines = p.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, p.stderr)
        self.assertIn(message, lines[0])
        # Nothing ran: no DB was created.
        self.assertFalse(os.path.exists(WORK + "/bad"))

    def test_phi_not_a_multiple_of_f(self):
        self.assert_rejected(["--vlsm", "--vlsm_phi=30"],
                             "--vlsm_phi (Phi) must be a positive multiple "
                             "of --vlsm_growth (f)")

    def test_growth_below_two(self):
        self.assert_rejected(["--vlsm", "--vlsm_growth=1"],
                             "--vlsm_growth (f) must be >= 2")

    def test_zero_sst_size(self):
        self.assert_rejected(["--vlsm", "--vlsm_sst_size=0"],
                             "--vlsm_sst_size (S_M) must be > 0")

    def test_too_few_levels(self):
        self.assert_rejected(["--vlsm", "--num_levels=2"], "--num_levels >= 3")

    def test_vlsm_parameter_without_vlsm(self):
        self.assert_rejected(["--vlsm_sst_size=4194304"],
                             "--vlsm_sst_size has no effect without --vlsm")

    def test_unwritable_report(self):
        self.assert_rejected(["--vlsm_report=/nonexistent/dir/r.json"],
                             "cannot open for writing")


METRIC_FIELDS = [
    "elapsed_s", "user_bytes", "user_keys", "flush_bytes",
    "compaction_read_bytes", "compaction_write_bytes", "io_amplification",
    "levels", "stalls", "samples", "l1_vssts", "tree", "cpu"]


class Runs(unittest.TestCase):
    def fill(self, name, *flags):
        db = os.path.join(WORK, name)
        shutil.rmtree(db, ignore_errors=True)
        report = os.path.join(WORK, name + ".json")
        # waitforcompaction: db_bench prints its tickers before it closes the
        # DB, so no compaction may still be running when it does.
        p = run("--benchmarks=fillrandom,waitforcompaction", "--num=200000",
                "--value_size=100",
                "--compression_type=none", "--db=" + db, "--statistics",
                "--vlsm_report=" + report, *flags)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.tickers = {
            name: int(count) for name, count in re.findall(
                r"^rocksdb\.([a-z.]+) COUNT : (\d+)$", p.stdout, re.M)}
        for heading in ("LSM metrics over", "I/O amplification",
                        "write stalls", "compaction width", "L1 vSSTs", "CPU"):
            self.assertIn(heading, p.stdout)
        with open(report) as f:
            return json.load(f)

    def check_metrics(self, m, num):
        for field in METRIC_FIELDS:
            self.assertIn(field, m)
        self.assertEqual(m["user_keys"], num)
        # db_bench opens the DB twice for fillrandom (once to start, once
        # fresh); the report covers both without counting anything twice.
        self.assertEqual(m["user_bytes"], self.tickers["bytes.written"])
        self.assertAlmostEqual(m["flush_bytes"] / self.tickers["flush.write.bytes"],
                               1, delta=0.02)
        if self.tickers["compact.write.bytes"]:
            self.assertAlmostEqual(
                m["compaction_write_bytes"] / self.tickers["compact.write.bytes"],
                1, delta=0.02)
        self.assertGreater(m["flush_bytes"], 0)
        total = (m["flush_bytes"] + m["compaction_read_bytes"]
                 + m["compaction_write_bytes"]) / m["user_bytes"]
        self.assertAlmostEqual(m["io_amplification"], total, places=6)
        self.assertEqual(m["levels"][0]["written_bytes"], m["flush_bytes"])
        for field in ("count", "stop_count", "total_s", "longest_s",
                      "writer_stall_s", "episodes"):
            self.assertIn(field, m["stalls"])
        for field in ("good", "poor", "good_share", "size_log2_histogram",
                      "overlap_tenths_histogram", "overlap_bound"):
            self.assertIn(field, m["l1_vssts"])
        self.assertGreater(m["cpu"]["cpu_s"], 0)
        self.assertGreaterEqual(len(m["samples"]), 1)

    def test_vlsm_run(self):
        r = self.fill("vlsm", "--vlsm", "--vlsm_sst_size=1048576",
                      "--vlsm_growth=4", "--vlsm_phi=16")
        self.assertEqual(r["tool"], "db_bench_vlsm")
        c = r["config"]
        self.assertTrue(c["vlsm"])
        self.assertEqual(c["compaction_pri"], "kVlsm")
        self.assertEqual(c["sst_size"], 1048576)
        self.assertEqual(c["write_buffer_size"], 1048576)
        self.assertEqual(c["max_bytes_for_level_base"], 4 * 1048576)
        self.assertEqual(c["growth"], 4)
        self.assertEqual(c["phi"], 16)
        self.assertEqual(c["max_bytes_for_level_multiplier_additional"][1], 4)
        self.assertEqual(c["level0_file_num_compaction_trigger"], 1)
        self.assertFalse(c["level_compaction_dynamic_level_bytes"])
        self.check_metrics(r["metrics"], 200000)
        # One L0 file per L0->L1 compaction: its input is at most
        # (f + 2) * S_M (the L1 files it overlaps, cut at up to S_M each).
        into_l1 = r["metrics"]["levels"][1]["input_bytes_per_compaction"]
        self.assertGreater(into_l1["count"], 0)
        self.assertLessEqual(into_l1["max"], (4 + 2) * 1048576 * 1.1)
        self.check_tree_report("vlsm", r["metrics"])

    def check_tree_report(self, name, m):
        """The closed DB, read by vlsm_tree_report, is the tree the metrics
        report saw at its end (taken after waitforcompaction)."""
        p = subprocess.run([TREE_REPORT, os.path.join(WORK, name)],
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        t = json.loads(p.stdout)
        files = [lv["files"] for lv in t["levels"]]
        size = [lv["bytes"] for lv in t["levels"]]
        n = len(m["tree"]["level_files"])
        self.assertEqual(files[:n], m["tree"]["level_files"])
        self.assertEqual(size[:n], m["tree"]["level_bytes"])
        self.assertTrue(all(f == 0 for f in files[n:]))
        self.assertGreater(files[1], 0)  # an L1 to classify
        self.assertEqual(t["overlap_bound"], m["l1_vssts"]["overlap_bound"])
        self.assertEqual(t["l1_good_vssts"], m["l1_vssts"]["good"])
        self.assertEqual(t["l1_poor_vssts"], m["l1_vssts"]["poor"])
        self.assertEqual(len(t["l1_file_sizes"]), files[1])
        self.assertEqual(sum(t["l1_file_sizes"]), size[1])

    def test_stock_run(self):
        r = self.fill("stock", "--write_buffer_size=1048576",
                      "--target_file_size_base=1048576",
                      "--max_bytes_for_level_base=4194304")
        c = r["config"]
        self.assertFalse(c["vlsm"])
        self.assertNotEqual(c["compaction_pri"], "kVlsm")
        self.assertEqual(c["write_buffer_size"], 1048576)
        self.check_metrics(r["metrics"], 200000)


if __name__ == "__main__":
    BINARY, TREE_REPORT, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(WORK, exist_ok=True)
    unittest.main(argv=sys.argv[:1], verbosity=2)
