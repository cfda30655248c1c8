"""report_runs.py's figures on made-up ycsb_vlsm reports: Run E's read
side is its scans, every run carries the L0 depth its lookups met at the
start (and the L0 files a scan merges), and the ranged layout's read target (issue 20: read and scan P99
not above RocksDB's) is judged per run."""
import os
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench", "eval"))
import report_runs  # noqa: E402


def latency(p99_ms):
    return {"p50": 100.0, "p99": p99_ms * 1e3, "p99.9": 2 * p99_ms * 1e3,
            "max": 3 * p99_ms * 1e3}


def region(*depths):
    """A region whose collector sampled L0 at these depths, once a second."""
    return {"samples": [{"time_s": i + 1.0, "l0_depth": d, "l0_files": 4 * d}
                        for i, d in enumerate(depths)]}


def report(ops, regions=(region(3),)):
    return {"latency_us": ops, "not_found": 0, "lsm_metrics": list(regions)}


def figures(read_p99_ms):
    return {"read": {"p50": 0.1, "p99": read_p99_ms, "p99.9": 1.0, "max": 2.0},
            "write": None}


class SideFiguresTest(unittest.TestCase):
    def test_run_e_reads_by_scanning(self):
        f = report_runs.side_figures(report({"scan": latency(7), "insert": latency(2)}))
        self.assertEqual(f["read"]["p99"], 7)
        self.assertEqual(f["write"]["p99"], 2)

    def test_point_reads_are_the_read_side_where_there_are_any(self):
        f = report_runs.side_figures(report({"read": latency(4), "update": latency(9)}))
        self.assertEqual(f["read"]["p99"], 4)
        self.assertEqual(f["write"]["p99"], 9)

    def test_a_read_only_run_has_no_write_side(self):
        f = report_runs.side_figures(report({"read": latency(4)}))
        self.assertIsNone(f["write"])

    def test_l0_depth_at_start_is_the_deepest_region_when_the_run_began(self):
        # The tree settles before every run (run_abcd.sh waits for its
        # compactions), so the first sample is L0 at rest; later samples
        # include what the run's own writes flushed.
        f = report_runs.side_figures(report({"read": latency(4)},
                                            [region(5, 40), region(31, 2)]))
        self.assertEqual(f["l0_depth_at_start"], 31)
        # A scan merges every L0 file of its region: the most in one region.
        self.assertEqual(f["l0_files_at_start"], 4 * 31)

    def test_l0_sublevels_at_start_where_recorded(self):
        # Collectors record the sublevel count beside the depth; the most in
        # one region when the run began, as for the depth.
        regions = [region(5, 40), region(31, 2)]
        for r, n in zip(regions, (9, 33)):
            r["samples"][0]["l0_sublevels"] = n
            r["samples"][1]["l0_sublevels"] = 99
        f = report_runs.side_figures(report({"read": latency(4)}, regions))
        self.assertEqual(f["l0_sublevels_at_start"], 33)
        # Runs recorded before the count existed: none, not a zero.
        f = report_runs.side_figures(report({"read": latency(4)}, [region(5)]))
        self.assertIsNone(f["l0_sublevels_at_start"])

    def test_a_run_too_short_to_be_sampled_has_no_l0_depth(self):
        f = report_runs.side_figures(report({"read": latency(4)}, [region()]))
        self.assertIsNone(f["l0_depth_at_start"])
        self.assertIsNone(f["l0_files_at_start"])


class RangedReadTargetTest(unittest.TestCase):
    def test_each_ranged_system_is_judged_against_rocksdb_run_by_run(self):
        runs = {("run80", "a", "uniform", "rocksdb"): figures(10.0),
                ("run80", "a", "uniform", "vlsm-ranged-rs"): figures(8.0),
                ("run80", "e", "uniform", "rocksdb"): figures(20.0),
                ("run80", "e", "uniform", "vlsm-ranged-rs"): figures(25.0),
                ("run80", "a", "uniform", "vlsm"): figures(50.0)}
        text = "\n".join(report_runs.render_ranged_read_target(runs, "run80"))
        rows = {r.split("|")[1].strip() + "/" + r.split("|")[2].strip(): r
                for r in text.splitlines() if r.startswith("| Run")}
        self.assertEqual(set(rows), {"Run A uniform/vlsm-ranged-rs",
                                     "Run E uniform/vlsm-ranged-rs"})
        self.assertIn("| 10.00 / 8.00 ms | 0.80× | met |", rows["Run A uniform/vlsm-ranged-rs"])
        self.assertIn("| 20.00 / 25.00 ms | 1.25× | **missed** |",
                      rows["Run E uniform/vlsm-ranged-rs"])

    def test_no_ranged_system_no_table(self):
        runs = {("run80", "a", "uniform", "rocksdb"): figures(10.0),
                ("run80", "a", "uniform", "vlsm"): figures(8.0)}
        self.assertEqual(report_runs.render_ranged_read_target(runs, "run80"), [])


if __name__ == "__main__":
    unittest.main()
