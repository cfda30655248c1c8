"""docs/results keeps raw runs packed (scripts/bench/eval/results_archive.py):
packing keeps what readers need in the open, drops the .err progress logs,
and the report scripts read a packed experiment as they read a fresh one."""
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EVAL = os.path.join(ROOT, "scripts", "bench", "eval")
sys.path.insert(0, EVAL)
from results_archive import ARCHIVE, pack, unpacked  # noqa: E402


class ResultsArchiveTest(unittest.TestCase):
    def test_pack_then_unpacked_round_trip(self):
        with tempfile.TemporaryDirectory() as d:
            files = {"config.txt": "run 1", "summary.json": "{}",
                     "load80-vlsm.json": '{"a": 1}', "load80-vlsm.csv": "t,ops\n1,2\n",
                     "load80-vlsm.err": "progress", "load80-vlsm.out": "out"}
            for n, text in files.items():
                with open(os.path.join(d, n), "w") as f:
                    f.write(text)
            self.assertEqual(pack(d), 3)
            self.assertEqual(sorted(os.listdir(d)), sorted([ARCHIVE, "config.txt", "summary.json"]))
            u = unpacked(d)
            self.assertNotEqual(u, d)
            for n, text in files.items():
                if n.endswith(".err"):
                    self.assertFalse(os.path.exists(os.path.join(u, n)))
                else:
                    with open(os.path.join(u, n)) as f:
                        self.assertEqual(f.read(), text, n)

    def test_an_experiments_diff_stays_in_the_open(self):
        """A diff an experiment's library was built with is how to rerun
        it, not raw output: a reader needs it beside the page."""
        with tempfile.TemporaryDirectory() as d:
            os.mkdir(os.path.join(d, "x1"))
            for n in ("README.md", "change.diff", os.path.join("x1", "load80-x.json")):
                with open(os.path.join(d, n), "w") as f:
                    f.write(n)
            self.assertEqual(pack(d), 1)
            self.assertEqual(sorted(os.listdir(d)), sorted([ARCHIVE, "README.md", "change.diff"]))

    def test_packing_again_keeps_the_runs_already_packed(self):
        """A run added to a packed experiment joins its archive: the runs
        packed before stay readable."""
        with tempfile.TemporaryDirectory() as d:
            for run in ("r1", "r2"):
                os.mkdir(os.path.join(d, run))
                with open(os.path.join(d, run, "load80-x.json"), "w") as f:
                    f.write(run)
                if run == "r1":
                    self.assertEqual(pack(d), 1)
            self.assertEqual(pack(d), 1)
            for run in ("r1", "r2"):
                with open(os.path.join(unpacked(os.path.join(d, run)), "load80-x.json")) as f:
                    self.assertEqual(f.read(), run)

    def test_runs_in_subdirectories_share_one_archive(self):
        """An experiment of several runs packs them all, their config.txt
        too, into one archive, and leaves no run directory behind (the page
        carries the figures); each run still reads as a fresh one."""
        with tempfile.TemporaryDirectory() as d:
            for run, text in (("r1", "one"), ("r2", "two")):
                os.mkdir(os.path.join(d, run))
                for n in ("config.txt", "sustainable-x.json", "sustainable-x.err"):
                    with open(os.path.join(d, run, n), "w") as f:
                        f.write(run + " " + text + " " + n)
            self.assertEqual(pack(d), 4)
            self.assertEqual(os.listdir(d), [ARCHIVE])
            for run, text in (("r1", "one"), ("r2", "two")):
                u = unpacked(os.path.join(d, run))
                self.assertEqual(sorted(os.listdir(u)), ["config.txt", "sustainable-x.json"])
                with open(os.path.join(u, "sustainable-x.json")) as f:
                    self.assertEqual(f.read(), run + " " + text + " sustainable-x.json")

    def test_repack_keeps_every_member(self):
        """repack rewrites an archive packed before (by any xz settings)
        with nothing lost or changed, and only the .err logs stay out."""
        with tempfile.TemporaryDirectory() as d:
            files = {"r1/load80-x.json": '{"p99": 1}', "r1/load80-x.csv": "t\n1\n",
                     "r2/load80-x.json": '{"p99": 2}'}
            with tarfile.open(os.path.join(d, ARCHIVE), "w:xz", preset=1) as tar:
                for n, text in files.items():
                    info = tarfile.TarInfo(n)
                    info.size = len(text)
                    tar.addfile(info, io.BytesIO(text.encode()))
            with open(os.path.join(d, "late.err"), "w") as f:
                f.write("progress")
            self.assertEqual(pack(d), 0, "nothing loose but an .err: no rewrite")
            self.assertEqual(pack(d, repack=True), 0)
            with tarfile.open(os.path.join(d, ARCHIVE), "r:xz") as tar:
                got = {m.name: tar.extractfile(m).read().decode() for m in tar.getmembers()}
            self.assertEqual(got, files)
            self.assertFalse(os.path.exists(os.path.join(d, "late.err")))

    def test_repack_leaves_a_directory_without_an_archive_alone(self):
        """repack rewrites archives; a directory that has none (the
        figures, a page's own files) is not an experiment to pack, so
        `repack docs/results/*/` must not sweep its files into one."""
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "p99_vs_load.png"), "w") as f:
                f.write("png")
            with self.assertRaises(ValueError):
                pack(d, repack=True)
            self.assertEqual(sorted(os.listdir(d)), ["p99_vs_load.png"])
            out = subprocess.run([sys.executable, os.path.join(EVAL, "results_archive.py"),
                                  "repack", d], capture_output=True, text=True)
            self.assertEqual(out.returncode, 0, out.stderr)
            self.assertIn("no raw.tar.xz", out.stdout)
            self.assertEqual(sorted(os.listdir(d)), ["p99_vs_load.png"])

    def test_report_reads_a_committed_packed_experiment(self):
        # A run packed in its experiment's archive.
        out = os.path.join(ROOT, "docs", "results", "load-a-4region-48M", "base-198K")
        self.assertTrue(os.path.exists(os.path.join(os.path.dirname(out), ARCHIVE)))
        r = subprocess.run([sys.executable, os.path.join(EVAL, "report.py"), out],
                           capture_output=True, text=True, check=True)
        for system in ("rocksdb", "rocksdb-io", "vlsm"):
            self.assertIn(system, r.stdout)
        self.assertIn("records=48000000", r.stdout)

    def test_calibrate_judges_a_run_packed_in_a_page(self):
        # A calibration run kept only in its page's archive is judged again
        # from it (calibrate.py --judge-only), figures as the page gives them.
        out = subprocess.run(
            [sys.executable, os.path.join(ROOT, "scripts", "bench", "calibrate.py"),
             os.path.join(ROOT, "docs", "results", "estimate-priced-1region", "yield-r2"),
             "--judge-only", "--systems", "vlsm-ranged-rs32-io", "--keys", "zipfian"],
            capture_output=True, text=True, check=True).stdout
        row = [line.split() for line in out.splitlines()
               if line.startswith("vlsm-ranged-rs32-io")]
        self.assertEqual(len(row), 1, out)
        self.assertEqual(row[0][1:4], ["zipfian", "15", "1.09"])
        self.assertEqual(row[0][-1], "pass")

    def test_step_widths_reads_a_packed_experiment(self):
        """step_widths.py's row for each system matches that system's packed
        report: its rate over RocksDB's and its widest L0->L1 step."""
        out = os.path.join(ROOT, "docs", "results", "ranged-split-1region-12M", "r4")
        r = subprocess.run([sys.executable, os.path.join(EVAL, "step_widths.py"), out],
                           capture_output=True, text=True, check=True)
        table = r.stdout.split("\n\n")[0].splitlines()[2:]
        rows = {line.split("|")[3].strip(): [c.strip() for c in line.split("|")[1:-1]]
                for line in table}
        self.assertEqual(sorted(rows), ["rocksdb", "vlsm-ranged", "vlsm-ranged-rs"])
        reports = {}
        for system in rows:
            with open(os.path.join(unpacked(out), "sustainable-%s.json" % system)) as f:
                reports[system] = json.load(f)
        base = reports["rocksdb"]["achieved_ops_per_s"]
        for system, cells in rows.items():
            report = reports[system]
            self.assertEqual(cells[1], "sustainable")
            self.assertEqual(cells[4], "%.2f" % (report["achieved_ops_per_s"] / base))
            l1 = [lv for lv in report["lsm_metrics"][0]["levels"] if lv["level"] == 1][0]
            widest = l1["input_bytes_per_compaction"]["max"] / (1 << 20)
            self.assertEqual(cells[9], "%.1f" % widest, system)
            self.assertEqual(cells[13], "–", "r4's reports predate the step list")

    def test_report_draws_a_packed_experiments_figures(self):
        """The figures no page shows are not committed: each page's one
        command must redraw them from the packed runs."""
        out = os.path.join(ROOT, "docs", "results", "load-a-4region-48M", "base-198K")
        with tempfile.TemporaryDirectory() as figs:
            subprocess.run([sys.executable, os.path.join(EVAL, "report.py"), out,
                            "--figures", figs], capture_output=True, text=True, check=True)
            for name in ("timeline_80.png", "latency_tail_80.png"):
                path = os.path.join(figs, name)
                self.assertTrue(os.path.exists(path), name)
                with open(path, "rb") as f:
                    self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n", name)


if __name__ == "__main__":
    unittest.main()
