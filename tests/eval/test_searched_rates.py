"""searched_rates.py on real find-sustainable reports: the two searches of
the earlier device-bound experiment (docs/results/load-a-4region-12M-
device-100m: RocksDB-IO's, and the paper's layout's, here filed under the
ranged layout's name, as the section only reads what a report holds). What
it must get right: every step shown with why it failed, the rate each
search settled on, the ratio of the two, and a stopped search refused."""
import csv
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "scripts", "bench", "eval"))
import level_costs  # noqa: E402
import limiter_charge  # noqa: E402
import searched_rates  # noqa: E402

SOURCE = os.path.join(ROOT, "docs", "results", "load-a-4region-12M-device-100m", "raw.tar.xz")
AS = {"search-rocksdb-io.json": "sustainable-rocksdb-io.json",
      "search-vlsm.json": "sustainable-vlsm-ranged-rs32-io.json",
      # The kept step's per-second record (the report keeps the best step's).
      "search-rocksdb-io.csv": "sustainable-rocksdb-io.csv",
      "search-vlsm.csv": "sustainable-vlsm-ranged-rs32-io.csv"}


class SearchedRatesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="searched-rates-")
        self.search = os.path.join(self.tmp, "exp", "search")
        os.makedirs(self.search)
        with tarfile.open(SOURCE, "r:xz") as tar:
            for member, name in AS.items():
                with tar.extractfile(member) as src, \
                        open(os.path.join(self.search, name), "wb") as dst:
                    shutil.copyfileobj(src, dst)

    def with_cycles(self, system, cycles, cycle_bytes):
        """The reports predate the debt-cycle steps: give SYSTEM's search
        the fields a newer report carries."""
        path = os.path.join(self.search, f"sustainable-{system}.json")
        with open(path) as f:
            rep = json.load(f)
        rep["sustainable"].update(cycles_per_step=cycles, cycle_bytes=cycle_bytes)
        with open(path, "w") as f:
            json.dump(rep, f)

    def tearDown(self):
        shutil.rmtree(self.tmp, True)

    def test_rates_steps_and_their_ratio(self):
        lines, figures = searched_rates.section(self.search)
        self.assertEqual(figures["rocksdb-io"]["sustainable_ops_per_s"], 30937.5)
        self.assertEqual(figures["vlsm-ranged-rs32-io"]["sustainable_ops_per_s"], 22500)
        self.assertAlmostEqual(figures["ranged_over_rocksdb_io"], 22500 / 30937.5)
        self.assertEqual(len(figures["rocksdb-io"]["steps"]), 6)
        text = "\n".join(lines)
        # One row per step (6 + 6), each failed one with its reason; then
        # one per system for its kept step.
        steps, kept = text.split("**The kept steps**")
        kept = kept.split("**Over the whole search**")[0]
        self.assertEqual(steps.count("\n| RocksDB-IO |")
                         + steps.count("\n| vLSM ranged (the product) |"), 12)
        self.assertEqual(kept.count("\n| RocksDB-IO |")
                         + kept.count("\n| vLSM ranged (the product) |"), 2)
        self.assertIn("| 4 | 33,750 | 33,750 | 60 | 2.88 | 16.17 | no: compaction debt rose "
                      "16.17 MB/s above its first-half peak (limit 2.24 MB/s) |", text)
        self.assertIn("0.73× RocksDB-IO's", text)
        self.assertIn("steps of 60 s", text)

    def test_steps_on_the_same_tree(self):
        # Both searches offered 10,000, 15,000, 22,500 and 33,750 ops/s in
        # that order, keeping the first three: steps 1-4 met the same tree
        # with an empty queue. Both then offered 28,125 after failing 33,750:
        # each began with its own backlog, so step 5 is not compared.
        lines, figures = searched_rates.section(self.search)
        same = figures["same_tree_steps"]
        self.assertEqual([s["target_ops_per_s"] for s in same], [10000, 15000, 22500, 33750])
        # Records written before each step, per region (4): the kept
        # steps' 60 s at their rates.
        for got, want in zip([s["records_before_per_region"] for s in same],
                             [0, 150000, 375000, 712500]):
            self.assertAlmostEqual(got, want, delta=20)
        self.assertAlmostEqual(same[1]["rocksdb_io_p99_over_ours"], 521.215 / 1560.575, places=3)
        text = "\n".join(lines)
        self.assertIn("| 2 | 15,000 | 0.15 | 1.56 | 0.52 | 0.33 | yes / yes |", text)
        self.assertIn("| 4 | 33,750 | 0.71 | 3.25 | 2.88 | 0.88 | no / no |", text)
        self.assertNotIn("\n| 5 |", text.split("At the same rate on the same tree")[1])
        self.assertIn("RocksDB-IO's P99 is 0.33–0.99× the ranged layout's", text)

    def test_the_kept_steps_stalls_and_queue(self):
        # A rate is kept when the queue is empty at the step's end, however
        # long the store stalled on the way: the kept step's stalls and
        # queue peak are shown beside the rate. The fixture's steps never
        # stalled; mark 5 of RocksDB-IO's 60 one-second intervals stalled.
        path = os.path.join(self.search, "sustainable-rocksdb-io.csv")
        with open(path) as f:
            rows = list(csv.DictReader(f))
        for r in rows[10:15]:
            r["write_stalled"] = "1"
        with open(path, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        lines, figures = searched_rates.section(self.search)
        kept = figures["rocksdb-io"]["kept_step"]
        self.assertEqual(kept["step"], 6)
        self.assertAlmostEqual(kept["stalled_s"], 5, places=6)
        self.assertAlmostEqual(kept["seconds"], 60, places=6)
        self.assertEqual(kept["max_queue_depth"], 345)
        # 10,000 x 60 + 15,000 x 60 + 22,500 x 60 + 33,750 x 60 (failed,
        # but written) + 28,125 x 60 records before it, over 4 regions.
        self.assertAlmostEqual(kept["records_before_per_region"], 6562500 / 4, delta=50)
        self.assertEqual(figures["vlsm-ranged-rs32-io"]["kept_step"]["stalled_s"], 0)
        text = "\n".join(lines)
        self.assertIn("| RocksDB-IO | 30,937 | 6 | 1.64 | 0.92 | 5 of 60 | 345 |", text)
        # A search without its per-second record still shows its rate.
        os.remove(path)
        kept = searched_rates.section(self.search)[1]["rocksdb-io"]["kept_step"]
        self.assertIsNone(kept["stalled_s"])

    def test_over_the_whole_search(self):
        # Bytes moved per byte written and the stalls over every step, as
        # report.py counts a run: the fixture's RocksDB-IO never stalled
        # and moved 1.80 bytes per byte written; the other search (the
        # paper's layout) moved 13.41 and stalled in every region (7.6 +
        # 6.2 + 10.0 + 1.8 s, the longest 6.0 s), the spells overlapping,
        # so that some region stalled for 10.19 s; never to a stop.
        lines, figures = searched_rates.section(self.search)
        io = figures["rocksdb-io"]["whole_search"]
        other = figures["vlsm-ranged-rs32-io"]["whole_search"]
        self.assertAlmostEqual(io["io_amplification"], 1.8043, places=3)
        self.assertEqual((io["stalled_s"], io["longest_stall_s"], io["stops"]), (0, 0, 0))
        self.assertAlmostEqual(other["io_amplification"], 13.4056, places=3)
        self.assertAlmostEqual(other["stalled_s"], 10.1875, places=2)
        self.assertAlmostEqual(other["longest_stall_s"], 5.959, places=2)
        self.assertEqual(other["stops"], 0)
        self.assertEqual(other["writer_stall_s"], 0)
        text = "\n".join(lines)
        # The longest spell (region 2, 5.96 s from 354.2 s): the estimate
        # stood at 498 MiB, then 512, through its samples.
        self.assertEqual([b >> 20 for b in other["longest_stall_estimate_bytes"]], [498, 512])
        self.assertIsNone(io["longest_stall_estimate_bytes"])
        self.assertIn("| RocksDB-IO | 1.80 | 0 | 0 | – | 0 | 0 |", text)
        self.assertIn("| vLSM ranged (the product) | 13.41 | 10 | 6 | 498–512 | 0 | 0 |", text)

    def test_step_length_in_debt_cycles(self):
        for system in ("rocksdb-io", "vlsm-ranged-rs32-io"):
            # As ycsb writes it: a float a few bytes short of 1 GiB.
            self.with_cycles(system, 2, 1073741820.0)
        self.assertIn("each step at least 2 debt cycles of 1,024 MiB long",
                      "\n".join(searched_rates.section(self.search)[0]))
        self.with_cycles("rocksdb-io", 2, float(1 << 29))  # searches that differ say so
        self.assertIn("each system's steps as long as its report says",
                      "\n".join(searched_rates.section(self.search)[0]))

    def test_one_search_has_no_ratio(self):
        os.remove(os.path.join(self.search, "sustainable-vlsm-ranged-rs32-io.json"))
        lines, figures = searched_rates.section(self.search)
        self.assertNotIn("vlsm-ranged-rs32-io", figures)
        self.assertIsNone(figures["ranged_over_rocksdb_io"])
        self.assertEqual(figures["same_tree_steps"], [])
        self.assertNotIn("× RocksDB-IO's", "\n".join(lines))

    def test_a_stopped_search_is_refused(self):
        path = os.path.join(self.search, "sustainable-rocksdb-io.json")
        with open(path) as f:
            rep = json.load(f)
        rep["interrupted"] = True
        with open(path, "w") as f:
            json.dump(rep, f)
        r = subprocess.run([sys.executable, "-c",
                            "import sys; sys.path.insert(0, sys.argv[1]); import searched_rates; "
                            "searched_rates.section(sys.argv[2])",
                            os.path.join(ROOT, "scripts", "bench", "eval"), self.search],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 1)
        self.assertIn("sustainable-rocksdb-io.json was stopped before it was done", r.stderr)


    def test_the_ranged_system_is_named(self):
        # --ranged: the ratio is the named system's over RocksDB-IO's, and
        # a name no search holds gives none (not the evaluation's default).
        other = os.path.join(self.search, "sustainable-vlsm-ranged-rs32-deep.json")
        os.rename(os.path.join(self.search, "sustainable-vlsm-ranged-rs32-io.json"), other)
        os.rename(os.path.join(self.search, "sustainable-vlsm-ranged-rs32-io.csv"),
                  other[:-len(".json")] + ".csv")
        figures = searched_rates.section(self.search, "vlsm-ranged-rs32-deep")[1]
        self.assertAlmostEqual(figures["ranged_over_rocksdb_io"], 22500 / 30937.5)
        self.assertIsNone(searched_rates.section(self.search)[1]["ranged_over_rocksdb_io"])


class StepStatesTest(unittest.TestCase):
    """step_states on a made-up search of two steps (10 s and 20 s) over
    two regions: each step's samples are the seconds of its window, and
    the figures are means over the regions."""

    def sample(self, t, running, debt_mib, l0_mib):
        return {"time_s": t, "running_compactions": running,
                "pending_compaction_bytes": debt_mib << 20, "l0_bytes": l0_mib << 20}

    def test_each_step_reads_its_own_seconds(self):
        steps = [{"step_s": 10.0}, {"step_s": 20.0}]
        # Region 0: idle in step 1 (debt 0), busy all of step 2 with its
        # debt climbing 100 -> 290 MiB; region 1: busy half of step 2, its
        # debt a sawtooth that returns (100 -> 0).
        r0 = ([self.sample(t, 0, 0, 10) for t in range(10)] +
              [self.sample(t, 1, 100 + (t - 10) * 10, 20 + t) for t in range(10, 30)])
        r1 = ([self.sample(t, 0, 0, 10) for t in range(10)] +
              [self.sample(t, t % 2, 0 if t == 29 else 100, 30) for t in range(10, 30)])
        states = searched_rates.step_states({"steps": steps, "samples": [r0, r1]})
        self.assertEqual(len(states), 2)
        self.assertEqual(states[0]["running_compactions"], 0)
        self.assertEqual(states[0]["debt_first_bytes"], 0)
        self.assertAlmostEqual(states[1]["running_compactions"], (1 + 0.5) / 2)
        self.assertEqual(states[1]["debt_first_bytes"], 100 << 20)
        self.assertEqual(states[1]["debt_last_bytes"], ((290 + 0) << 20) / 2)
        self.assertEqual(states[1]["l0_first_bytes"], ((30 + 30) << 20) / 2)
        self.assertEqual(states[1]["l0_last_bytes"], ((49 + 30) << 20) / 2)

    def test_bytes_per_busy_slot_second(self):
        # Two regions; step 1 (10 s) half busy, step 2 (20 s) all busy:
        # (10 * 0.5 + 20 * 1) * 2 = 50 slot-seconds for 100 MB.
        search = {"steps": [{"step_s": 10.0}, {"step_s": 20.0}], "regions": 2,
                  "compaction_bytes": 100e6}
        states = [{"running_compactions": 0.5}, {"running_compactions": 1.0}]
        self.assertAlmostEqual(searched_rates.busy_slot_rate(search, states), 2e6)
        self.assertIsNone(searched_rates.busy_slot_rate(search, [None, None]))

    def test_what_the_limiter_charged_per_counted_byte(self):
        # Every priority against flushes and compactions together: a search
        # that stalls is charged at IO_USER for both.
        search = {"charge": {"phase": {"low": (1, 1), "high": (1, 1),
                                       "all": (12730e6, 9613e6)}}}
        self.assertAlmostEqual(searched_rates.limiter_charge(search), 12730 / 9613)
        # A report made before ycsb_vlsm counted the limiter, or one run
        # without a limiter, has no figure, never a zero.
        self.assertIsNone(searched_rates.limiter_charge({"charge": None}))
        self.assertIsNone(searched_rates.limiter_charge(
            {"charge": {"phase": {"low": (5, 0), "high": (1, 1), "all": (5, 0)}}}))

    def test_the_per_step_lines_say_what_the_limiter_charged(self):
        def search(charged):
            return {"steps": [{"step_s": 5.0, "target_ops_per_s": 1000, "sustained": True}],
                    "samples": [[]], "regions": 1, "compaction_bytes": 4e9,
                    "charge": charged and {"phase": {"all": (charged, 4e9)}}}
        found = {"rocksdb-io": search(4.06e9),
                 "vlsm-ranged-rs32-deep": search(5.28e9),
                 "vlsm-ranged-rs32-io": search(None)}
        text = "\n".join(searched_rates.step_state_lines(found, sorted(found)))
        # A search without the limiter's count is left out, never shown as 0.
        self.assertIn("per byte flushes and compactions counted** (every priority, over "
                      "the whole search): RocksDB-IO 1.015×; vlsm-ranged-rs32-deep 1.320×.",
                      text)

    def test_a_step_without_samples_has_no_state(self):
        states = searched_rates.step_states(
            {"steps": [{"step_s": 5.0}, {"step_s": 5.0}],
             "samples": [[self.sample(t, 1, 1, 1) for t in range(5)]]})
        self.assertIsNotNone(states[0])
        self.assertIsNone(states[1])

class LimiterChargeTest(unittest.TestCase):
    """limiter_charge.py: the limiter's own count against the statistics'."""

    def report(self, limiter):
        # Two regions; the settle added 2 MB of flushes and 300 MB of
        # compaction reads and writes.
        region = {"flush_bytes": 500e6, "compaction_read_bytes": 1000e6,
                  "compaction_write_bytes": 900e6}
        return {"elapsed_s": 240.0, "lsm_metrics": [region, region],
                "settle": {"flush_bytes": 2e6, "compaction_read_bytes": 200e6,
                           "compaction_write_bytes": 100e6},
                "rate_limiter": limiter}

    def test_charged_against_counted_at_the_phase_end_and_at_close(self):
        # 200 MB charged at IO_USER while writes were slowed: in "all" only.
        c = limiter_charge.charge(self.report({
            "bytes_per_second": 100 << 20,
            "at_phase_end": {"bytes_low": 4750e6, "bytes_high": 1010e6,
                             "bytes_total": 5960e6},
            "at_close": {"bytes_low": 5500e6, "bytes_high": 1012e6,
                         "bytes_total": 6712e6}}))
        self.assertEqual(c["phase"]["low"], (4750e6, 3800e6))
        self.assertEqual(c["phase"]["high"], (1010e6, 1000e6))
        self.assertEqual(c["phase"]["all"], (5960e6, 4800e6))
        # At close the settle's bytes are counted too.
        self.assertEqual(c["close"]["low"], (5500e6, 4100e6))
        self.assertEqual(c["close"]["high"], (1012e6, 1002e6))
        self.assertEqual(c["close"]["all"], (6712e6, 5102e6))
        self.assertAlmostEqual(limiter_charge.per_counted(c["phase"]["low"]), 1.25)
        text = "\n".join(limiter_charge.lines([("load100-x", "rocksdb-io", c)]))
        self.assertIn("| load100-x | RocksDB-IO | 240 | 5,500 | 4,100 | 1.341 | 1.250 | 1.010 "
                      "| 1.316 |", text)

    def test_a_report_without_the_count_has_none(self):
        self.assertIsNone(limiter_charge.charge(self.report(None)))
        self.assertIsNone(limiter_charge.per_counted((5, 0)))


class LevelCostsTest(unittest.TestCase):
    """level_costs.py: each kind of step's bytes per byte flushed."""

    @staticmethod
    def level(compactions, above, below, written, moves=0, moved=0):
        return {"compactions": compactions, "trivial_moves": moves,
                "trivial_move_bytes": moved, "read_from_upper_bytes": above,
                "read_from_level_bytes": below, "written_bytes": written}

    def report(self, settle=None):
        # Two regions alike: 100 MB flushed each; into L1 80 MB from L0 and
        # 40 MB of L1 read, 110 MB written; into L2 one trivial move of
        # 8 MB; nothing into L3.
        region = {"user_bytes": 115e6, "flush_bytes": 100e6,
                  "levels": [self.level(0, 0, 0, 0), self.level(5, 80e6, 40e6, 110e6),
                             self.level(0, 0, 0, 0, moves=1, moved=8e6),
                             self.level(0, 0, 0, 0)],
                  "tree": {"level_bytes": [10e6, 300e6, 8e6, 0]}}
        rep = {"lsm_metrics": [region, region]}
        if settle:
            rep["settle"] = settle
        return rep

    def test_the_regions_summed_level_by_level(self):
        c = level_costs.costs(self.report())
        self.assertEqual(c["flushed"], 200e6)
        self.assertEqual(c["levels"][0], {"level": 1, "compactions": 10, "moves": 0,
                                          "moved": 0, "above": 160e6, "below": 80e6,
                                          "written": 220e6})
        self.assertEqual(c["levels"][1]["moves"], 2)
        self.assertEqual(c["tree"], [20e6, 600e6, 16e6, 0])
        self.assertIsNone(c["settle"])
        text = "\n".join(level_costs.lines([("load100-x", "rocksdb-io", c)]))
        # (160 + 80 + 220) / 200 = 2.3 per byte flushed; 80 / 160 below per above.
        self.assertIn("| load100-x | RocksDB-IO | into L1 | 10 | 0 (0 MB) | 160 | 80 | 220 "
                      "| 2.300 | 0.500 |", text)
        self.assertIn("| into L2 | 0 | 2 (16 MB) | 0 | 0 | 0 | 0.000 | – |", text)
        self.assertNotIn("into L3", text, "a level no step wrote to is left out")
        self.assertIn("| **phase, all** |  |  |  |  |  | **3.300** |  |", text)
        # 200 MB flushed + 460 MB compacted over 230 MB written.
        self.assertIn("| load100-x | RocksDB-IO | 230 | 200 | 2.870 | 20 | 600 | 16 | 0 |", text)

    def test_the_settle_splits_the_drain_from_the_rest(self):
        c = level_costs.costs(self.report({
            "compaction_read_bytes": 300e6, "compaction_write_bytes": 200e6,
            "drain_read_bytes": 60e6, "drain_write_bytes": 40e6}))
        self.assertEqual(c["settle"], {"drain": 100e6, "other": 400e6})
        text = "\n".join(level_costs.lines([("load100-x", "vlsm-ranged-rs32-deep", c)]))
        self.assertIn("| settle: drain at rest |  |  |  |  | 100 | 0.500 |  |", text)
        self.assertIn("| settle: every other step |  |  |  |  | 400 | 2.000 |  |", text)


if __name__ == "__main__":
    unittest.main()
