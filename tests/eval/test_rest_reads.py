"""scripts/bench/rest_reads.sh (issues 40 and 54: reads at rest against
RocksDB) end to end at a tiny scale on this tree's binaries: bad input exits
2 before anything runs, a ranged tree of another size is refused, and with
--trees naming all five, rocksdb-sm among them, they are loaded or reused, read with every benchmark and
tabulated, the ranged trees' rates also over rocksdb-sm's; the read-paid
tree is the drained one read read-write, with the drain on, for
--read-paid-seconds before it settles. The figures
themselves come from the full runs (docs/results/rest-reads-*)."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BENCH = os.path.join(ROOT, "scripts", "bench")
RECORDS = "30000"
TREES = ["rocksdb", "rocksdb-sm", "ranged-drained", "ranged-read-paid", "ranged-undrained"]
DEFAULT_TREES = ["rocksdb", "ranged-drained", "ranged-undrained"]
BENCHMARKS = ["multireadrandom", "readrandom", "seekrandom"]


def run(script, *args):
    return subprocess.run(["bash", os.path.join(BENCH, script), *args],
                          capture_output=True, text=True, timeout=600, cwd=ROOT)


class RestReadsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        base = os.environ.get("TEST_TMPDIR") or tempfile.gettempdir()
        os.makedirs(base, exist_ok=True)
        cls.tmp = tempfile.mkdtemp(dir=base)
        # The ranged tree rest_reads.sh reads: l0_read_paths.sh loads it.
        cls.ranged = os.path.join(cls.tmp, "ranged")
        r = run("l0_read_paths.sh", "--records", RECORDS, "--seconds", "1", "--reps", "1",
                "--warmup-seconds", "0", "--keep-db", "--db", cls.ranged,
                "--out", os.path.join(cls.tmp, "load"))
        assert r.returncode == 0, r.stdout + r.stderr

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def rest_reads(self, out, *args):
        return run("rest_reads.sh", "--out", os.path.join(self.tmp, out),
                   "--ranged-db", self.ranged,
                   "--rocksdb-db", os.path.join(self.tmp, "rocksdb"),
                   "--rocksdb-sm-db", os.path.join(self.tmp, "rocksdb-sm"), *args)

    def test_bad_input_exits_2_and_says_why(self):
        for args, says in [(["--bogus"], "unknown argument"),
                           (["--records", "0"], "--records"),
                           (["--records", "12x"], "--records"),
                           (["--seconds"], "needs a value"),
                           (["--rocksdb-sm-db="], "has no value"),
                           (["--load-rate", "fast"], "--load-rate must be"),
                           (["--read-paid-seconds", "0"], "--read-paid-seconds"),
                           (["--trees", "rocksdb,bogus"], "unknown tree 'bogus'"),
                           (["--trees", "rocksdb-sm,ranged-drained"], "must include rocksdb"),
                           # The ranged tree was loaded unthrottled.
                           (["--records", RECORDS, "--load-rate", "8"], "load_rate=8MiB/s"),
                           # The ranged tree holds 30000 records, not 40000.
                           (["--records", "40000"], "holds no 'records=40000")]:
            r = self.rest_reads("bad", "--rocksdb-db", os.path.join(self.tmp, "bad-rocksdb"),
                                *args)
            self.assertEqual(r.returncode, 2, (args, r.stdout, r.stderr))
            self.assertIn(says, r.stderr, args)
            self.assertFalse(os.path.exists(os.path.join(self.tmp, "bad", "results.json")), args)
            self.assertFalse(os.path.exists(os.path.join(self.tmp, "bad-rocksdb")), args)

    def test_five_trees_are_read_and_the_ranged_ones_compared_with_rocksdb_sm(self):
        # (Tiny trees: all five fit the page cache, which the script checks.)
        r = self.rest_reads("out", "--records", RECORDS, "--trees", ",".join(TREES), "--seconds", "1",
                            "--reps", "1", "--warmup-seconds", "0", "--read-paid-seconds", "2")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(os.path.join(self.tmp, "out", "results.json")) as f:
            res = json.load(f)
        self.assertEqual(list(res["trees"]), TREES)
        self.assertEqual(sorted((x["tree"], x["benchmark"]) for x in res["runs"]),
                         sorted((t, b) for t in TREES for b in BENCHMARKS))
        for x in res["runs"]:
            self.assertGreater(x["ops_per_s"], 0, x["name"])
        # rocksdb-sm is RocksDB with 8 MiB files: the one flag that differs.
        loads = {}
        for t in ("rocksdb", "rocksdb-sm"):
            with open(os.path.join(self.tmp, "out", f"load-{t}.cmd")) as f:
                loads[t] = f.read()
        self.assertIn("--target_file_size_base=67108864", loads["rocksdb"])
        self.assertIn("--target_file_size_base=8388608", loads["rocksdb-sm"])
        # The read-paid tree: the three benchmarks for 2 s each on a
        # read-write open with the drain on, then the settle; its steps are
        # reported.
        with open(os.path.join(self.tmp, "out", "read-paid.cmd")) as f:
            read_paid = f.read()
        for flag in ("--benchmarks=seekrandom,readrandom,multireadrandom,waitforcompaction,"
                     "levelstats", "--duration=2",
                     "--vlsm_drain_at_rest=true", "--use_existing_db=1"):
            self.assertIn(flag, read_paid)
        self.assertNotIn("--readonly", read_paid)
        self.assertIsNotNone(res["read_paid"])
        self.assertIn("read-paid tree's drain steps", r.stdout)
        for bench in BENCHMARKS:
            s = res["summary"][bench]
            for t in ("ranged-drained", "ranged-read-paid", "ranged-undrained"):
                self.assertIn("over_rocksdb_sm", s[t], (bench, t))
                self.assertIn("over_rocksdb", s[t], (bench, t))
            self.assertNotIn("over_rocksdb_sm", s["rocksdb-sm"], bench)
            self.assertIn("over_rocksdb", s["rocksdb-sm"], bench)
        self.assertIn("÷ rocksdb-sm per rep", r.stdout)
        # Each run's tree was read into the page cache first; what it
        # lacked before that and after the run is recorded.
        with open(os.path.join(self.tmp, "out", "cache.tsv")) as f:
            rows = [line.split("\t") for line in f.read().splitlines()]
        self.assertEqual(rows[0], ["run", "missing_before_reread", "missing_after_run"])
        self.assertEqual(sorted(r[0] for r in rows[1:]),
                         sorted(x["name"] for x in res["runs"]))
        for name, before, after in rows[1:]:
            self.assertGreaterEqual(int(before), 0, name)
            self.assertGreaterEqual(int(after), 0, name)

        # Run again with the default trees: the stock tree is reused (loaded
        # once) and the table has three trees.
        r = self.rest_reads("again", "--records", RECORDS, "--seconds", "1",
                            "--reps", "1", "--warmup-seconds", "0")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("rocksdb's tree: reusing", r.stdout)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "again", "load-rocksdb.cmd")))
        with open(os.path.join(self.tmp, "again", "results.json")) as f:
            self.assertEqual(list(json.load(f)["trees"]), DEFAULT_TREES)
        self.assertNotIn("rocksdb-sm", r.stdout)


if __name__ == "__main__":
    unittest.main()
