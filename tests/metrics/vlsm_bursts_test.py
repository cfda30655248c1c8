#!/usr/bin/env python3
"""tools/vlsm_bursts, the write / pause / write tool (issues 40 and 54), end
to end on a small ranged DB: --pause_read_rate reads in every pause (each
read finds a key written before it, or the tool fails), no reads without
it, and bad values exit 2 naming the flag. And scripts/bench/bursts.py's
summary: each configuration's runs only, where one name prefixes another.

usage: vlsm_bursts_test.py VLSM_BURSTS WORK_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import unittest

TOOL = WORK = None
BURSTS_PY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "bench",
                         "bursts.py")
# Small files and memtables, so the preload and bursts flush and compact.
SMALL = ["--vlsm=65536,8,8,ranged",
         "--options=write_buffer_size=262144;max_bytes_for_level_base=1048576",
         "--preload_keys=20000", "--key_space=200000", "--bursts=2",
         "--burst_seconds=1", "--pause_seconds=1", "--rate=5000"]


def run(*extra):
    db = os.path.join(WORK, "db")
    shutil.rmtree(db, ignore_errors=True)
    return subprocess.run([TOOL, f"--db={db}", *SMALL, *extra], capture_output=True, text=True,
                          timeout=300)


def rows(out):
    lines = [json.loads(line) for line in out.splitlines() if line.strip()]
    return [r for r in lines if "burst" in r], next(r for r in lines if r.get("summary"))


class VlsmBurstsTest(unittest.TestCase):
    def test_pauses_read_at_the_rate_asked(self):
        r = run("--pause_read_rate=2000")
        self.assertEqual(r.returncode, 0, r.stderr)
        bursts, summary = rows(r.stdout)
        self.assertEqual([b["burst"] for b in bursts], [1, 2])
        for b in bursts:
            # One second at 2000 a second: every read scheduled in it, or
            # fewer if this machine fell behind, never more.
            self.assertGreater(b["pause_reads"], 200, b)
            self.assertLessEqual(b["pause_reads"], 2000, b)
            self.assertGreater(b["pause_read_p99_us"], 0, b)
        self.assertEqual(summary["pause_read_rate"], 2000)

    def test_no_reads_without_the_flag(self):
        r = run()
        self.assertEqual(r.returncode, 0, r.stderr)
        bursts, summary = rows(r.stdout)
        self.assertEqual([b["pause_reads"] for b in bursts], [0, 0])
        self.assertEqual(summary["pause_read_rate"], 0)

    def test_bad_read_rate_is_refused(self):
        for bad in ("--pause_read_rate=-1", "--pause_read_rate=fast", "--pause_read_rate="):
            r = run(bad)
            self.assertEqual(r.returncode, 2, bad)
            self.assertIn("bad value: " + bad, r.stderr)



class BurstsSummaryTest(unittest.TestCase):
    def test_each_configuration_summarizes_its_own_runs(self):
        out = os.path.join(WORK, "summary")
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)

        def write(name, p99, reads):
            with open(os.path.join(out, name), "w") as fh:
                for b in (1, 2):
                    fh.write(json.dumps({"burst": b, "p99_us": p99, "l0_depth_at_start": 1,
                                         "pause_reads": reads}) + "\n")
                fh.write(json.dumps({"summary": True, "drain_bytes": 1 << 20,
                                     "moved_per_user_byte": 7.0}) + "\n")
        write("ranged-drain-on-1.jsonl", 200, 0)
        write("ranged-drain-on-reads-1.jsonl", 900, 5000)
        write("ranged-drain-on-reads-2.jsonl", 700, 5000)
        r = subprocess.run([sys.executable, BURSTS_PY, "--summary-only", "--out", out],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        with open(os.path.join(out, "results.json")) as fh:
            result = json.load(fh)
        self.assertEqual(result["ranged-drain-on"]["runs"], 1)
        self.assertEqual(result["ranged-drain-on"]["next_burst_p99_us"]["max"], 200)
        self.assertEqual(result["ranged-drain-on-reads"]["runs"], 2)
        self.assertEqual(result["ranged-drain-on-reads"]["pause_reads"]["median"], 10000)


if __name__ == "__main__":
    TOOL, WORK = sys.argv[1], sys.argv[2]
    os.makedirs(WORK, exist_ok=True)
    unittest.main(argv=sys.argv[:1])
