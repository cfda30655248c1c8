"""report.py --brief, the demo's one table: a system that completed less
than the offered rate is named under the table as having fallen behind (its
latency is then mostly queueing, and the table alone does not say so), with
the machine's CPU probe, since a slower machine makes the same offered
load heavier; a load every system kept up with gets no such note."""
import os
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench", "eval"))
from report import render_brief  # noqa: E402


def figures(achieved, probe_ms):
    return {"offered_ops_per_s": 85000.0, "achieved_ops_per_s": achieved,
            "elapsed_s": 200.0, "operations": 15000000, "p50_ms": 1.0,
            "p99_ms": 10.0, "p99_9_ms": 20.0, "max_ms": 30.0, "stall_count": 0,
            "stall_s": 0.0, "longest_stall_s": 0.0, "io_amplification": 3.5,
            "cpu_us_per_op": 19.0,
            "levels": {"1": {"max_input_mib": 70.0, "compactions": 3}},
            "machine": {"cpu_probe_ms": probe_ms}}


class BriefTest(unittest.TestCase):
    def test_names_only_the_systems_that_fell_behind(self):
        runs = {("load43", "rocksdb"): figures(84500.0, 650),
                ("load43", "rocksdb-io"): figures(75000.0, 700),
                ("load43", "vlsm"): figures(33000.0, 526)}
        text = render_brief(runs, "")
        note = [line for line in text.splitlines() if line.startswith("Fell behind")]
        self.assertEqual(len(note), 1, text)
        self.assertIn("rocksdb-io (75,000 of 85,000 ops/s)", note[0])
        self.assertIn("vlsm (33,000 of 85,000 ops/s)", note[0])
        self.assertNotIn("rocksdb (", note[0])   # 99.4% of the offered rate
        self.assertIn("526–700 ms", note[0])

    def test_no_note_when_every_system_kept_up(self):
        runs = {("load43", s): figures(84900.0, 320) for s in ("rocksdb", "vlsm")}
        self.assertNotIn("Fell behind", render_brief(runs, ""))


if __name__ == "__main__":
    unittest.main()
