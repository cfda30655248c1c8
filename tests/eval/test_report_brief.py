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
from report import in_words, render_brief  # noqa: E402


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


def system(p99_ms, achieved=85000.0, stall_s=0.0, widest_mib=30.0):
    f = figures(achieved, 400)
    f.update(p99_ms=p99_ms, stall_s=stall_s, longest_stall_s=stall_s / 2,
             stall_count=int(stall_s > 0))
    f["levels"] = {"1": {"max_input_mib": widest_mib, "compactions": 3}}
    return f


class InWordsTest(unittest.TestCase):
    """The demo's table said in sentences: the ranged layout against each
    RocksDB, and "nothing differs" only when nothing does."""

    def lines(self, rows):
        return "\n".join(in_words(rows))

    def test_a_lower_tail_a_stall_and_a_system_behind_are_said(self):
        text = self.lines([("rocksdb", system(2200.0, achieved=80000.0, widest_mib=487.0)),
                           ("rocksdb-io", system(1000.0, stall_s=9.9, widest_mib=488.0)),
                           ("vlsm-ranged-rs32-io", system(200.0))])
        self.assertIn("RocksDB fell behind the offered rate and the ranged layout kept up", text)
        self.assertIn("5.0× lower than RocksDB-IO's (200.0 against 1,000.0 ms)", text)
        self.assertIn("RocksDB-IO stalled writes for 9.9 s", text)
        self.assertIn("the ranged layout 30.0 MiB; RocksDB 487.0, RocksDB-IO 488.0 MiB", text)
        self.assertNotIn("Nothing differs", text)

    def test_tails_within_the_noise_are_called_the_same(self):
        text = self.lines([("rocksdb", system(30.0)), ("rocksdb-io", system(45.0)),
                           ("vlsm-ranged-rs32-io", system(25.0))])
        self.assertIn("about RocksDB's (25.0 against 30.0 ms", text)
        self.assertIn("about RocksDB-IO's", text)
        self.assertIn("Nothing differs at this load", text)

    def test_a_higher_ranged_tail_is_said_too(self):
        text = self.lines([("rocksdb", system(20.0)), ("vlsm-ranged-rs32-io", system(90.0))])
        self.assertIn("4.5× higher than RocksDB's", text)
        self.assertNotIn("Nothing differs", text)

    def test_everyone_behind_is_not_nothing_differs(self):
        text = self.lines([("rocksdb", system(9000.0, achieved=60000.0)),
                           ("vlsm-ranged-rs32-io", system(8000.0, achieved=61000.0))])
        self.assertIn("Both the ranged layout and RocksDB fell behind", text)
        self.assertNotIn("Nothing differs", text)

    def test_no_ranged_system_no_words(self):
        self.assertEqual(in_words([("rocksdb", system(20.0)), ("vlsm", system(90.0))]), [])


if __name__ == "__main__":
    unittest.main()
