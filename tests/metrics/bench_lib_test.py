#!/usr/bin/env python3
"""scripts/bench/lib.sh and eval/report_db_bench.py end to end at a tiny scale: every
db_bench run writes a machine record (what else the machine did) whose CPU
covers the run's own, a failed run leaves none, and report_db_bench.py prints the
records and puts them in its JSON, with "-" for a run that has none; an
unknown system exits 2 before anything runs.

usage: bench_lib_test.py REPO_ROOT WORK_DIR  (lib.sh runs $VLSM_BUILD_DIR's
db_bench_vlsm, ctest's tree; without it, REPO_ROOT/build's)
"""
import json
import os
import shutil
import subprocess
import sys
import unittest

ROOT = None
WORK = None
MACHINE_KEYS = {"cpu_probe_ms", "seconds", "run_cores", "machine_cores",
                "other_cores", "iowait_cores", "steal_cores"}


def bench_run(name, system, *flags):
    """vlsm_bench_run OUT NAME SYSTEM FLAGS... in a fresh bash, as fill.sh."""
    script = ('VLSM_ROOT="$1"; shift; source "$VLSM_ROOT/scripts/bench/lib.sh"; '
              'vlsm_bench_run "$@"')
    return subprocess.run(
        ["bash", "-c", script, "bash", ROOT, WORK, name, system, *flags],
        capture_output=True, text=True, timeout=600)


def fill_flags(name):
    return ["--benchmarks=fillrandom,waitforcompaction", "--num=30000",
            "--value_size=200", "--db=" + os.path.join(WORK, name + "-db")]


class BenchLibMachineRecords(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        tree = os.environ.get("VLSM_BUILD_DIR") or os.path.join(ROOT, "build")
        binary = os.path.join(tree, "db_bench_vlsm")
        # lib.sh runs that tree's binary; a missing one fails here.
        assert os.access(binary, os.X_OK), "not built: " + binary
        shutil.rmtree(WORK, ignore_errors=True)
        os.makedirs(WORK)
        cls.runs = {}
        for system in ("rocksdb", "vlsm"):
            name = system + "-fill"
            cls.runs[name] = bench_run(name, system, *fill_flags(name))

    def path(self, name, suffix):
        return os.path.join(WORK, name + suffix)

    def test_every_run_has_a_machine_record_covering_its_own_cpu(self):
        for name, p in self.runs.items():
            self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
            with open(self.path(name, ".machine.json")) as f:
                record = json.load(f)
            self.assertEqual(set(record), MACHINE_KEYS, name)
            self.assertGreater(record["cpu_probe_ms"], 0, name)
            self.assertGreater(record["seconds"], 0, name)
            # /usr/bin/time measured db_bench's CPU from inside the same
            # shell; the record's run_cores, seen from outside, must cover it.
            with open(self.path(name, ".time")) as f:
                user, system = (float(v) for v in f.read().split())
            seen = record["run_cores"] * record["seconds"]
            self.assertGreaterEqual(seen, (user + system) * 0.95 - 0.02,
                                    "%s: %r against %s" % (name, record, user + system))

    def test_a_failed_run_leaves_no_machine_record(self):
        p = bench_run("bad", "rocksdb", "--benchmarks=fillrandom", "--no_such_flag=1",
                      "--db=" + os.path.join(WORK, "bad-db"))
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        self.assertIn("db_bench_vlsm failed for bad", p.stderr)
        self.assertFalse(os.path.exists(self.path("bad", ".machine.json")))

    def test_an_unknown_system_exits_2_and_runs_nothing(self):
        # Before the fix an unknown system ran db_bench with no system flags.
        p = bench_run("nosys", "stokc", *fill_flags("nosys"))
        self.assertEqual(p.returncode, 2, p.stdout + p.stderr)
        # Every system systems.py defines, read from it rather than copied
        # (a copy broke when rocksdb-sm joined the list).
        sys.path.insert(0, os.path.join(ROOT, "scripts", "bench"))
        import systems
        self.assertNotIn("stokc", systems.SYSTEMS)  # the premise: unknown
        self.assertIn(f"unknown system 'stokc' (one of: {' '.join(systems.SYSTEMS)})",
                      p.stderr)
        self.assertFalse(os.path.exists(self.path("nosys", ".json")))
        self.assertFalse(os.path.exists(os.path.join(WORK, "nosys-db")))

    def test_report_prints_the_records_and_dashes_without_one(self):
        # A copy of the vlsm run without its record stands for a run made
        # before lib.sh wrote them.
        for suffix in (".json", ".out"):
            shutil.copy(self.path("vlsm-fill", suffix), self.path("old-fill", suffix))
        summary = os.path.join(WORK, "summary.json")
        p = subprocess.run(
            [sys.executable, os.path.join(ROOT, "scripts/bench/eval/report_db_bench.py"),
             "--json", summary] +
            ["%s=%s" % (n, self.path(n, ".json")) for n in ("rocksdb-fill", "vlsm-fill", "old-fill")],
            capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        probe_row = [l for l in p.stdout.splitlines() if l.startswith("machine: CPU probe")]
        self.assertEqual(len(probe_row), 1, p.stdout)
        cells = probe_row[0].split()[-3:]
        with open(summary) as f:
            rows = {r["name"]: r for r in json.load(f)}
        for i, name in enumerate(("rocksdb-fill", "vlsm-fill")):
            with open(self.path(name, ".machine.json")) as f:
                record = json.load(f)
            self.assertEqual(cells[i], str(record["cpu_probe_ms"]), p.stdout)
            self.assertEqual(rows[name]["other_cores"], record["other_cores"])
            self.assertEqual(rows[name]["iowait_cores"], record["iowait_cores"])
        self.assertEqual(cells[2], "-", p.stdout)
        self.assertIsNone(rows["old-fill"]["cpu_probe_ms"])


if __name__ == "__main__":
    ROOT, WORK = sys.argv[1], sys.argv[2]
    unittest.main(argv=sys.argv[:1], verbosity=2)
