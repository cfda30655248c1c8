"""debt_profile.py on made-up per-second samples: how often and how much
RocksDB's estimate of pending compaction bytes owed, and how often it stood
at a limit, per system and run."""
import os
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench", "eval"))
import debt_profile  # noqa: E402

MIB = 1 << 20


def sample(owed_mib, l0_mib, stalled=False):
    return {"pending_compaction_bytes": owed_mib * MIB, "l0_bytes": l0_mib * MIB,
            "stalled": stalled}


def report(regions):
    """A ycsb_vlsm report: one collector per region, each with its samples
    and its stall total."""
    return {"lsm_metrics": [{"samples": s, "stalls": {"total_s": t}} for s, t in regions]}


class DebtProfileTest(unittest.TestCase):
    def test_owed_seconds_and_medians_over_them(self):
        # Four seconds, owed in three: the medians are over those three
        # (L0 100, 110, 120 -> 110; estimate 800, 900, 1100 -> 900), and
        # one of them is at the 1 GiB limit.
        rep = report([([sample(0, 50), sample(800, 100), sample(900, 110),
                        sample(1100, 120, stalled=True)], 1.5)])
        p = debt_profile.profile(rep, limit=1 << 30)
        self.assertEqual(p["seconds"], 4)
        self.assertAlmostEqual(p["owed_share"], 0.75)
        self.assertAlmostEqual(p["l0_mib_when_owed"], 110)
        self.assertAlmostEqual(p["owed_mib_when_owed"], 900)
        self.assertEqual(p["seconds_at_limit"], 1)
        self.assertEqual(p["stall_s"], 1.5)

    def test_never_owed_gives_no_median(self):
        p = debt_profile.profile(report([([sample(0, 10), sample(0, 20)], 0.0)]), limit=1 << 30)
        self.assertEqual(p["owed_share"], 0.0)
        self.assertIsNone(p["l0_mib_when_owed"])
        self.assertEqual(p["seconds_at_limit"], 0)

    def test_regions_are_pooled_second_by_second(self):
        # Two regions, two seconds each: four region-seconds, two owed;
        # stall time is the regions' sum (an upper bound on their union).
        rep = report([([sample(0, 1), sample(600, 100)], 1.0),
                      ([sample(1200, 200), sample(0, 1)], 2.0)])
        p = debt_profile.profile(rep, limit=1 << 30)
        self.assertEqual(p["seconds"], 4)
        self.assertAlmostEqual(p["owed_share"], 0.5)
        self.assertEqual(p["seconds_at_limit"], 1)
        self.assertEqual(p["stall_s"], 3.0)

    def test_a_report_without_samples_is_refused(self):
        with self.assertRaises(ValueError):
            debt_profile.profile({"lsm_metrics": [{"samples": [], "stalls": {"total_s": 0}}]},
                                 limit=1 << 30)
        with self.assertRaises(ValueError):
            debt_profile.profile({}, limit=1 << 30)


if __name__ == "__main__":
    unittest.main()
