"""write_dips.py (issue 55: the one-second dips and what the writes spent
their time on in them) on a made-up load_a.sh directory."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WRITE_DIPS = os.path.join(ROOT, "scripts", "bench", "eval", "write_dips.py")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_json import run_with_json  # noqa: E402
PARTS = ("wal", "wal_file_write", "wal_prepare_write", "wal_range_sync",
         "wal_fsync", "memtable", "delay", "pre_post", "scheduling",
         "mutex_lock", "condition_wait", "write_thread_wait")


def intervals_csv(p99s):
    lines = ["time_s,completed,achieved_ops_per_s,offered_ops_per_s,queue_depth,"
             "outstanding,read_p99_us,update_p99_us,insert_p99_us,scan_p99_us,"
             "read_modify_write_p99_us,all_p99_us,write_stalled,disk_bytes,"
             "compaction_debt_bytes"]
    for i, p in enumerate(p99s):
        lines.append("%.3f,1000,1000.0,1000.0,0,0,0,0,%.1f,0,0,%.1f,0,0,0"
                     % (i + 1, p, p))
    return "\n".join(lines) + "\n"


def writes_csv(rows):
    """rows: per second, per region, (writes, total_us, {part: us}, sealed)."""
    lines = ["time_s,region,writes,total_us," + ",".join(p + "_us" for p in PARTS) +
             ",memtables_sealed,tables_created,table_bytes"]
    for i, regions in enumerate(rows):
        for r, (n, total, parts, sealed) in enumerate(regions):
            lines.append("%.3f,%d,%d,%d,%s,%d,%d,0" % (
                i + 1, r, n, total, ",".join(str(parts.get(p, 0)) for p in PARTS),
                sealed, sealed))
    return "\n".join(lines) + "\n"


QUIET = (500, 10000, {"wal": 4000, "memtable": 3000, "pre_post": 2500}, 0)
SLOW = (500, 40000, {"wal": 4000, "memtable": 3000, "pre_post": 2500,
                     "delay": 20000, "condition_wait": 19000}, 1)


def report_json(running):
    """A run's report with one region's per-second compactions running."""
    return json.dumps({"lsm_metrics": [{"samples": [
        {"time_s": i + 1.0, "running_compactions": n} for i, n in enumerate(running)]}]})


class WriteDipsTest(unittest.TestCase):
    def run_on(self, files, *args):
        return run_with_json(WRITE_DIPS, files, args)

    def test_dips_and_their_breakdown(self):
        # Five seconds at 1 ms and one at 50 ms: one dip over 10x the median.
        files = {
            "load80-ranged.csv": intervals_csv([1000, 1000, 50000, 1000, 1000, 1000]),
            "load80-ranged.writes.csv": writes_csv(
                [[QUIET, QUIET], [QUIET, QUIET], [SLOW, SLOW],
                 [QUIET, QUIET], [QUIET, QUIET], [QUIET, QUIET]]),
            # No breakdown: dips only.
            "load80-rocksdb.csv": intervals_csv([1000, 20000, 30000, 1000, 1000]),
        }
        p, j = self.run_on(files, "--seconds")
        self.assertEqual(p.returncode, 0, p.stderr)
        runs = {r["system"]: r for r in j}
        ranged = runs["ranged"]
        self.assertEqual(ranged["dips"], 1)
        self.assertEqual(ranged["dip_seconds"], [3.0])
        self.assertAlmostEqual(ranged["median_second_p99_ms"], 1.0)
        dip = ranged["in_dips"]
        self.assertEqual(dip["writes"], 1000)
        self.assertAlmostEqual(dip["total"], 80.0)      # 2 x 40 ms / 1000 writes
        self.assertAlmostEqual(dip["delay"], 40.0)
        self.assertAlmostEqual(dip["condition_wait"], 38.0)
        self.assertAlmostEqual(dip["unseen"], 80.0 - (8 + 6 + 40 + 5))
        self.assertAlmostEqual(dip["memtables_sealed_per_s"], 2.0)
        quiet = ranged["elsewhere"]
        self.assertAlmostEqual(quiet["total"], 20.0)
        self.assertAlmostEqual(quiet["delay"], 0.0)
        self.assertEqual(runs["rocksdb"]["dips"], 2)
        self.assertIsNone(runs["rocksdb"]["in_dips"])
        self.assertIn("delay 40.0", p.stdout)
        # No report: nothing said of compactions.
        self.assertIsNone(ranged["compacting"])

    def test_dips_beside_compactions(self):
        # Dips at seconds 2 and 5: a compaction runs in second 1 (the one
        # before the first dip) and in second 4 (the one before the second);
        # 4 of 6 seconds have one running in them or the second before.
        files = {"load60-rocksdb.csv": intervals_csv([1000, 30000, 1000, 1000, 30000, 1000]),
                 "load60-rocksdb.json": report_json([1, 0, 0, 2, 0, 0])}
        p, j = self.run_on(files)
        self.assertEqual(p.returncode, 0, p.stderr)
        c = j[0]["compacting"]
        self.assertEqual(c, {"dips": 2, "dips_compacting": 2, "seconds": 6,
                             "seconds_compacting": 4})
        files["load60-rocksdb.json"] = report_json([0, 0, 1, 0, 0, 0])
        p, j = self.run_on(files)
        self.assertEqual(j[0]["compacting"]["dips_compacting"], 0)
        self.assertIn("0 of 2 dips in or just after a second with a compaction running", p.stdout)

    def test_packed_experiment(self):
        # A run packed in its experiment's archive (docs/results) is read there.
        with tempfile.TemporaryDirectory() as d:
            run = os.path.join(d, "exp", "q1")
            os.makedirs(run)
            with open(os.path.join(run, "load60-ranged.csv"), "w") as f:
                f.write(intervals_csv([1000, 1000, 50000, 1000]))
            sys.path.insert(0, os.path.join(ROOT, "scripts", "bench", "eval"))
            import results_archive
            results_archive.pack(os.path.join(d, "exp"))
            self.assertFalse(os.path.exists(run))
            p = subprocess.run([sys.executable, WRITE_DIPS, run], capture_output=True, text=True)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn("1 dips", p.stdout)

    def test_bad_input(self):
        p, _ = self.run_on({"notes.txt": "x"})
        self.assertEqual(p.returncode, 2)
        self.assertIn("no open-loop run", p.stderr)
        p, _ = self.run_on({"load80-a.csv": intervals_csv([1])}, "--factor", "1")
        self.assertEqual(p.returncode, 2)


if __name__ == "__main__":
    unittest.main()
