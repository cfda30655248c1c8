"""ranged_targets.py on made-up figures: issue 20's Load A targets judged
on the median of per-run ratios (each taken between systems that ran side
by side), with runs that cannot give a figure left out, not made up."""
import math
import os
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench", "eval"))
import ranged_targets  # noqa: E402


def fig(io=7.0, cpu=10.0, ops=100000.0, p99=100.0, stall=0.0, longest=0.0, step_p99=None):
    f = {"io_amplification": io, "cpu_us_per_op": cpu, "achieved_ops_per_s": ops,
         "p99_ms": p99, "stall_s": stall, "longest_stall_s": longest}
    if step_p99 is not None:
        f.update(step_p99_mib=step_p99, width_bound_mib=80.0)
    return f


def run(ours, rocksdb, rocksdb_io, system="vlsm-ranged-rs32"):
    """One load_a.sh directory: the same figures closed loop and at 80%."""
    runs = {}
    for experiment in ("sustainable", "load80"):
        for s, f in ((system, ours), ("rocksdb", rocksdb), ("rocksdb-io", rocksdb_io)):
            if f is not None:
                runs[(experiment, s)] = f
    return runs


def rows_of(named_runs, system="vlsm-ranged-rs32"):
    return {name: (values, median, verdict)
            for name, _, _, values, median, verdict in ranged_targets.judge(named_runs, system)}


class RangedTargetsTest(unittest.TestCase):
    def test_ratios_are_taken_in_each_run_then_the_median(self):
        # Medians of the raw figures (ours 9, RocksDB-IO's 10) would say
        # 0.90x, met; run by run the ratios are 0.90, 1.20 and 1.25.
        named = [("r1", run(fig(io=9), fig(), fig(io=10))),
                 ("r2", run(fig(io=12), fig(), fig(io=10))),
                 ("r3", run(fig(io=5), fig(), fig(io=4)))]
        values, median, verdict = rows_of(named)["I/O amplification × RocksDB-IO, closed loop, debt paid"]
        self.assertEqual([round(v, 2) for v in values], [0.9, 1.2, 1.25])
        self.assertAlmostEqual(median, 1.2)
        self.assertEqual(verdict, "**missed**")

    def test_closed_loop_costs_are_judged_with_the_debt_paid(self):
        # At the load's end ours looks cheaper (9 against 10); with the
        # 4 GiB of debt it left paid it is not (13 against 10.4).
        ours, io = fig(io=9, cpu=8), fig(io=10, cpu=10)
        ours.update(io_amplification_paid=13.0, cpu_us_per_op_paid=12.0)
        io.update(io_amplification_paid=10.4, cpu_us_per_op_paid=10.0)
        rows = rows_of([("r1", run(ours, fig(), io))])
        self.assertAlmostEqual(rows["I/O amplification × RocksDB-IO, closed loop, debt paid"][1], 1.25)
        self.assertEqual(rows["I/O amplification × RocksDB-IO, closed loop, debt paid"][2], "**missed**")
        self.assertAlmostEqual(rows["CPU per operation × RocksDB-IO, closed loop, debt paid"][1], 1.2)

    def test_the_write_tail_is_judged_against_both_rocksdbs(self):
        named = [("r1", run(fig(p99=50), fig(p99=40), fig(p99=400)))]
        rows = rows_of(named)
        self.assertEqual(rows["write P99 at 80%: RocksDB-IO's / ours"][1:], (8.0, "met"))
        self.assertEqual(rows["write P99 at 80% × RocksDB's"][1:], (1.25, "**missed**"))

    def test_stalls_against_a_rocksdb_io_that_never_stalled_are_not_measured(self):
        named = [("r1", run(fig(stall=0, longest=0), fig(), fig(stall=0, longest=0))),
                 ("r2", run(fig(stall=0, longest=0), fig(), fig(stall=20, longest=4)))]
        rows = rows_of(named)
        cumulative = rows["cumulative stall at 80%, lower than RocksDB-IO's by"]
        self.assertEqual(cumulative[0], [None, 1.0])
        self.assertEqual(cumulative[2], "met")
        longest = rows["longest stall at 80%: RocksDB-IO's / ours"]
        self.assertIsNone(longest[0][0])
        self.assertTrue(math.isinf(longest[0][1]))
        only_calm = rows_of(named[:1])
        self.assertEqual(only_calm["cumulative stall at 80%, lower than RocksDB-IO's by"][2],
                         "not measured")

    def test_a_run_without_rocksdb_io_gives_no_ratio_to_it(self):
        named = [("r1", run(fig(cpu=12), fig(), None)),
                 ("r2", run(fig(cpu=11), fig(), fig(cpu=10)))]
        values, median, verdict = rows_of(named)["CPU per operation × RocksDB-IO, closed loop, debt paid"]
        self.assertIsNone(values[0])
        self.assertAlmostEqual(median, 1.1)
        self.assertEqual(verdict, "met")

    def test_the_step_width_is_judged_against_the_collectors_bound(self):
        named = [("r1", run(fig(step_p99=70), fig(), fig())),
                 ("r2", run(fig(step_p99=95), fig(), fig())),
                 ("r3", run(fig(step_p99=85), fig(), fig()))]
        values, median, verdict = rows_of(named)["P99 step at 80% (MiB)"]
        self.assertEqual((median, verdict), (85, "**missed**"))
        text = "\n".join(ranged_targets.render(named, ["vlsm-ranged-rs32"], 80))
        self.assertIn("| P99 step at 80% (MiB) | ≤ the bound (80 MiB) | 70.0 | 95.0 | 85.0 "
                      "| 85.0 (70.0–95.0) | **missed** |", text)


if __name__ == "__main__":
    unittest.main()
