#!/usr/bin/python3
"""Tests for scripts/vat.py, the VAT I/O amplification model (docs/vat.md).

Run directly (`python3 tests/vat/test_vat.py`) or through ctest -L vat.
"""

import importlib.util
import io
import json
import math
import os
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
VAT_PATH = os.path.join(HERE, "..", "..", "scripts", "vat.py")
SAMPLE_REPORT = os.path.join(HERE, "sample_report.json")

_spec = importlib.util.spec_from_file_location("vat", VAT_PATH)
vat = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vat)

MIB = 1024 * 1024
GIB = 1024 * MIB


def predict(*argv):
    """Prediction for a command line, through the same path as the CLI."""
    args = vat.build_parser().parse_args(list(argv))
    return vat.predict(vat.resolve_config(args, None))


def pairs_by_level(prediction):
    return {pair["output_level"]: pair for pair in prediction["pairs"]}


def run_cli(*argv):
    return subprocess.run([sys.executable, VAT_PATH, *argv],
                          capture_output=True, text=True)


# A small tree in MiB: FIFO L0 of 1 MiB memtables, L1 4, L2 16, L3 64, with
# 40 MiB of unique data, so L1 and L2 end full and L3 holds the rest.
SMALL_TREE = ["--dataset-bytes", "40MiB", "--memtable-bytes", "1MiB",
              "--l0", "fifo", "--level-sizes", "4MiB,16MiB,64MiB",
              "--num-levels", "4"]


class HandComputedExample(unittest.TestCase):
    """SMALL_TREE by hand (sizes in MiB, per user byte = / 40).

    Resident: L1 4, L2 16, L3 40 - 20 = 20.
    A pair's lower bytes met at mu = 1: while the lower level fills from 0 to
    R it meets R^2 / 2 / unit in total, afterwards R / unit per byte moved.
      L0->L1: unit 1 (one memtable), moved 40, L1 fills in the first 4:
              4^2/2 + (40 - 4) * 4 = 8 + 144 = 152  -> read lower 3.8
              read upper 1, written 1 + 3.8 = 4.8, io 1 + 3.8 + 4.8 = 9.6
      L1->L2: unit 4 (all of L1), moved 16 + 20 = 36, L2 fills in 16:
              (16^2/2 + (36 - 16) * 16) / 4 = (128 + 320) / 4 = 112
              -> read lower 2.8, read upper 0.9, written 3.7, io 7.4
      L2->L3: unit 16, moved 20, L3 still filling at the end:
              20^2/2 / 16 = 12.5 -> read lower 0.3125, read upper 0.5,
              written 0.8125, io 1.625
    Total: flush 1 + 9.6 + 7.4 + 1.625 = 19.625.
    """

    def test_per_pair_and_total(self):
        prediction = predict(*SMALL_TREE)
        pairs = pairs_by_level(prediction)
        expected = {1: (1.0, 3.8, 4.8, 9.6),
                    2: (0.9, 2.8, 3.7, 7.4),
                    3: (0.5, 0.3125, 0.8125, 1.625)}
        self.assertEqual(sorted(pairs), [1, 2, 3])
        for level, (upper, lower, written, io_amp) in expected.items():
            with self.subTest(level=level):
                self.assertAlmostEqual(pairs[level]["read_upper"], upper)
                self.assertAlmostEqual(pairs[level]["read_lower"], lower)
                self.assertAlmostEqual(pairs[level]["written"], written)
                self.assertAlmostEqual(pairs[level]["io"], io_amp)
        self.assertAlmostEqual(prediction["flush"], 1.0)
        self.assertAlmostEqual(prediction["io_amplification"], 19.625)


class LimitingCases(unittest.TestCase):
    def test_mu_zero_is_tiering(self):
        # Every byte is read once and written once per pair it crosses:
        # moved fractions 1, 0.9, 0.5 -> io 2 * (1 + 0.9 + 0.5) + flush 1.
        prediction = predict(*SMALL_TREE, "--mu-per-level", "1:0,2:0,3:0")
        for pair in prediction["pairs"]:
            self.assertEqual(pair["read_lower"], 0.0)
            self.assertAlmostEqual(pair["written"], pair["read_upper"])
        self.assertAlmostEqual(prediction["io_amplification"], 5.8)

    def test_mu_option_leaves_l0_at_full_overlap(self):
        # --mu is for the picker's pairs; an L0 file spans the key space.
        pairs = pairs_by_level(predict(*SMALL_TREE, "--mu", "0"))
        self.assertEqual(pairs[1]["mu"], 1.0)
        self.assertAlmostEqual(pairs[1]["read_lower"], 3.8)
        self.assertEqual(pairs[2]["read_lower"], 0.0)

    def test_mu_one_steady_state_is_one_plus_growth(self):
        # With the data far larger than L1 the filling phase vanishes:
        # written per byte moved -> 1 + g (g = L1 / memtable = 8).
        pair = pairs_by_level(predict(
            "--dataset-bytes", "100GiB", "--memtable-bytes", "8MiB",
            "--l0", "fifo", "--growth", "8", "--num-levels", "3"))[1]
        self.assertAlmostEqual(pair["written"] / pair["read_upper"], 9.0,
                               places=2)
        self.assertAlmostEqual(pair["read"] / pair["read_upper"], 9.0,
                               places=2)

    def test_vat_convention_gives_one_plus_mu_f_minus_one(self):
        # VAT's form 1 + mu * (f - 1): mu 0.5, f 8 -> 4.5 at L1->L2.
        pairs = pairs_by_level(predict(
            "--dataset-bytes", "1TiB", "--memtable-bytes", "1MiB",
            "--level-sizes", "1MiB,8MiB,1TiB", "--num-levels", "4",
            "--l0", "fifo", "--convention", "vat", "--mu", "0.5"))
        self.assertAlmostEqual(pairs[2]["written"] / pairs[2]["read_upper"],
                               4.5, places=3)

    def test_mu_scales_lower_reads_linearly(self):
        full = pairs_by_level(predict(*SMALL_TREE))
        partial = pairs_by_level(predict(*SMALL_TREE, "--mu", "0.68"))
        self.assertAlmostEqual(partial[2]["read_lower"],
                               0.68 * full[2]["read_lower"])


class UnequalGrowth(unittest.TestCase):
    def test_phi_sets_l2_over_l1_only(self):
        config = vat.resolve_config(vat.build_parser().parse_args(
            ["--preset", "vlsm", "--dataset-bytes", "4.4G"]), None)
        self.assertEqual(config["level_targets"][:4],
                         [64 * MIB, 2 * GIB, 16 * GIB, 128 * GIB])

    def test_phi_pair_overlap_is_phi_at_steady_state(self):
        # L1 64 MiB, L2 2 GiB (Phi 32): with 2 TiB of data the L1->L2 pair
        # meets ~32 bytes of L2 per byte moved, a pair with growth f only 8.
        prediction = predict("--preset", "vlsm", "--dataset-bytes", "2TiB",
                             "--num-levels", "4")
        pairs = pairs_by_level(prediction)
        self.assertAlmostEqual(pairs[2]["full_leveling_overlap"], 32, delta=0.1)
        self.assertAlmostEqual(pairs[2]["growth"], 32)
        self.assertAlmostEqual(pairs[3]["growth"], 8)
        same_f = pairs_by_level(predict(
            "--preset", "vlsm", "--phi", "8", "--dataset-bytes", "2TiB",
            "--num-levels", "4"))
        self.assertAlmostEqual(same_f[2]["full_leveling_overlap"], 8, delta=0.1)

    def test_explicit_level_sizes_match_f_and_phi(self):
        from_phi = predict("--preset", "vlsm", "--dataset-bytes", "4.4G")
        explicit = predict("--preset", "vlsm", "--dataset-bytes", "4.4G",
                           "--level-sizes",
                           "64MiB,2GiB,16GiB,128GiB,1TiB,8TiB")
        self.assertAlmostEqual(from_phi["io_amplification"],
                               explicit["io_amplification"])


class FifoVersusTieredL0(unittest.TestCase):
    COMMON = ["--dataset-bytes", "1TiB", "--memtable-bytes", "64MiB",
              "--l1-bytes", "256MiB", "--growth", "8", "--num-levels", "3"]

    def l0_pair(self, *extra):
        return pairs_by_level(predict(*self.COMMON, *extra))[1]

    def test_fifo_merges_each_memtable_with_all_of_l1(self):
        # g = 256 / 64 = 4: written per byte flushed -> 1 + 4.
        pair = self.l0_pair("--l0", "fifo")
        self.assertAlmostEqual(pair["written"], 5.0, places=2)

    def test_tiered_merges_trigger_files_at_once(self):
        # 4 files * 64 MiB = L1: written per byte flushed -> 1 + 1.
        pair = self.l0_pair("--l0", "tiered", "--l0-trigger", "4")
        self.assertAlmostEqual(pair["written"], 2.0, places=2)
        two_files = self.l0_pair("--l0", "tiered", "--l0-trigger", "2")
        self.assertAlmostEqual(two_files["written"], 3.0, places=2)

    def test_presets_l1_sizes(self):
        rocksdb = vat.resolve_config(vat.build_parser().parse_args(
            ["--preset", "rocksdb", "--dataset-bytes", "1G"]), None)
        self.assertEqual(rocksdb["level_targets"][:2], [256 * MIB, 2 * GIB])
        self.assertEqual((rocksdb["l0_mode"], rocksdb["l0_trigger"]),
                         ("tiered", 4))


class BadInput(unittest.TestCase):
    CASES = [
        (["--preset", "vlsm", "--dataset-bytes", "4.4Q"], "--dataset-bytes"),
        (["--preset", "vlsm", "--dataset-bytes", "-1G"], "--dataset-bytes"),
        (["--preset", "vlsm", "--dataset-bytes", "1G", "--mu", "1.5"], "--mu"),
        (["--preset", "vlsm", "--dataset-bytes", "1G", "--mu-per-level",
          "1=0.5"], "--mu-per-level"),
        (["--preset", "vlsm", "--dataset-bytes", "1G", "--mu-per-level",
          "9:0.5"], "--mu-per-level"),
        (["--preset", "vlsm", "--dataset-bytes", "1G", "--growth", "1"],
         "--growth"),
        (["--preset", "vlsm", "--dataset-bytes", "1G", "--l0", "lifo"],
         "--l0"),
        (["--preset", "vlsm"], "--dataset-bytes"),
        (["--dataset-bytes", "1G"], "--memtable-bytes"),
        (["--dataset-bytes", "1G", "--memtable-bytes", "8MiB"], "--growth"),
        (["--measured", "/nonexistent/report.json"], "--measured"),
        (["--preset", "nosuch"], "--preset"),
    ]

    def test_rejected_with_exit_2_and_one_line(self):
        for argv, named in self.CASES:
            with self.subTest(argv=argv):
                result = run_cli(*argv)
                self.assertEqual(result.returncode, 2, result.stderr)
                lines = result.stderr.strip().splitlines()
                self.assertEqual(len(lines), 1, result.stderr)
                self.assertIn(named, lines[0])
                self.assertNotIn("Traceback", result.stderr)
                self.assertEqual(result.stdout, "")

    def test_malformed_reports(self):
        bad_reports = ["not json", json.dumps([1, 2]),
                       json.dumps({"metrics": {"user_bytes": 0, "levels": []}}),
                       json.dumps({"metrics": {"user_bytes": 5,
                                               "levels": [{"level": "x"}]}}),
                       json.dumps({"metrics": {"user_bytes": 5, "levels": [
                           {"level": 1, "written_bytes": "many"}]}}),
                       json.dumps({"config": {"max_bytes_for_level_base": "x"},
                                   "metrics": {"user_bytes": 5, "levels": []}})]
        for text in bad_reports:
            with self.subTest(report=text):
                result = self.run_with_report(text)
                self.assertEqual(result.returncode, 2, result.stderr)
                self.assertIn("--measured", result.stderr)
                self.assertNotIn("Traceback", result.stderr)

    @staticmethod
    def run_with_report(text):
        with tempfile.NamedTemporaryFile("w", suffix=".json",
                                         delete=False) as handle:
            handle.write(text)
        try:
            return run_cli("--measured", handle.name)
        finally:
            os.unlink(handle.name)


class MeasuredReport(unittest.TestCase):
    """tests/vat/sample_report.json holds SYNTHETIC numbers (chosen by hand,
    not measured): user bytes 4e9; L1: upper 4.1e9, level 32e9, written 36e9;
    L2: 2.4e9, 28e9, 30e9; L3: 0.5e9, 0.05e9, 0.55e9; flush 4.1e9."""

    def run_json(self, *extra):
        output = io.StringIO()
        with redirect_stdout(output):
            status = vat.main(["--measured", SAMPLE_REPORT, "--json", *extra])
        self.assertEqual(status, 0)
        return json.loads(output.getvalue())

    def test_measured_per_level(self):
        comparison = self.run_json()["comparison"]
        rows = {row["output_level"]: row for row in comparison["pairs"]}
        # (upper + level + written) / user bytes, by hand.
        self.assertAlmostEqual(rows[1]["measured_io"], 72.1 / 4)
        self.assertAlmostEqual(rows[2]["measured_io"], 60.4 / 4)
        self.assertAlmostEqual(rows[3]["measured_io"], 1.1 / 4)
        self.assertAlmostEqual(rows[2]["measured_written"], 30 / 4)
        self.assertAlmostEqual(rows[2]["measured_lower_per_moved"], 28 / 2.4)
        self.assertAlmostEqual(comparison["flush"]["measured"], 4.1 / 4)
        self.assertAlmostEqual(comparison["total"]["measured"], 34.425)

    def test_measured_mu_is_normalised_by_model_overlap(self):
        output = self.run_json()
        rows = {row["output_level"]: row
                for row in output["comparison"]["pairs"]}
        pairs = pairs_by_level(output["prediction"])
        for level in (1, 2, 3):
            with self.subTest(level=level):
                expected = (rows[level]["measured_lower_per_moved"]
                            / pairs[level]["full_leveling_overlap"])
                self.assertAlmostEqual(rows[level]["measured_mu"], expected)
        # Feeding the measured mu back reproduces the measured lower bytes
        # per byte moved.
        again = self.run_json("--mu-per-level",
                              f"2:{min(rows[2]['measured_mu'], 1):.12f}")
        pair = pairs_by_level(again["prediction"])[2]
        self.assertAlmostEqual(pair["read_lower"] / pair["read_upper"],
                               28 / 2.4, places=6)

    def test_config_comes_from_report(self):
        config = self.run_json()["config"]
        self.assertEqual(config["l0_mode"], "fifo")
        self.assertEqual(config["memtable_bytes"], 8 * MIB)
        self.assertEqual(config["dataset_bytes"], 4000000000)
        self.assertEqual(config["level_targets"][:3],
                         [64 * MIB, 2 * GIB, 16 * GIB])
        self.assertAlmostEqual(config["live_fraction"], 1 - math.exp(-1))

    def test_flags_override_report(self):
        config = self.run_json("--growth", "10", "--l0", "tiered",
                               "--live-fraction", "1")["config"]
        self.assertEqual(config["l0_mode"], "tiered")
        self.assertEqual(config["level_targets"][:3],
                         [64 * MIB, 64 * MIB * 32, 64 * MIB * 32 * 10])
        self.assertEqual(config["live_fraction"], 1.0)

    def test_text_output_side_by_side(self):
        result = run_cli("--measured", SAMPLE_REPORT)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("predicted vs measured", result.stdout)
        for pair in ("L0->L1", "L1->L2", "L2->L3", "total"):
            self.assertIn(pair, result.stdout.split("predicted vs measured")[1])


class PresetsRun(unittest.TestCase):
    def test_presets_print_a_total(self):
        for preset in ("rocksdb", "vlsm"):
            with self.subTest(preset=preset):
                result = run_cli("--preset", preset, "--dataset-bytes", "4.4G")
                self.assertEqual(result.returncode, 0, result.stderr)
                self.assertIn("total I/O amplification", result.stdout)

    def test_vlsm_costs_more_than_rocksdb_at_4_4_gb(self):
        rocksdb = predict("--preset", "rocksdb", "--dataset-bytes", "4.4G")
        vlsm = predict("--preset", "vlsm", "--dataset-bytes", "4.4G")
        self.assertGreater(vlsm["io_amplification"],
                           rocksdb["io_amplification"])


if __name__ == "__main__":
    unittest.main()
