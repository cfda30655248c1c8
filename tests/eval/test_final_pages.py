"""final_eval.sh pages: one command writes every committed page of the
evaluation on the final library, and docs/results.md's first table, from
the committed (packed) runs; run on a copy of docs/, it reproduces what is
committed byte for byte (the figure is drawn, not compared: its bytes
depend on matplotlib's version)."""
import os
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PAGES = ["results.md",
         "results/final-1region-12M/README.md", "results/final-1region-12M/summary.json",
         "results/final-4region-48M/README.md", "results/final-4region-48M/summary.json",
         "results/final-orders-1region-12M/README.md",
         "results/final-reads-1region-12M/README.md", "results/final-reads-1region-12M/summary.json",
         "results/final-device-100m-4region-12M/README.md",
         "results/final-device-100m-4region-12M/summary.json",
         "results/final-device-100m-4region-12M/searched.json"]


class FinalPagesTest(unittest.TestCase):
    def test_pages_reproduce_what_is_committed(self):
        with tempfile.TemporaryDirectory() as tmp:
            docs = os.path.join(tmp, "docs")
            shutil.copytree(os.path.join(ROOT, "docs"), docs)
            figure = os.path.join(docs, "results", "figures", "final-1region", "p99_vs_load.png")
            os.remove(figure)
            for page in PAGES:  # nothing left of the tables: all must be written again
                path = os.path.join(docs, page)
                if page.endswith(".json"):
                    os.remove(path)
                    continue
                with open(path) as f:
                    text = f.read()
                for tag in ("final-answer", "final-curve", "final-checks", "ordered", "zipfian",
                            "final-reads", "final-reads-targets", "final-reads-during",
                            "final-searched"):
                    begin, end = f"<!-- {tag}:begin -->", f"<!-- {tag}:end -->"
                    if begin in text:
                        text = text[:text.index(begin) + len(begin)] + "\n" + text[text.index(end):]
                with open(path, "w") as f:
                    f.write(text)
            r = subprocess.run(["bash", os.path.join(ROOT, "scripts/bench/eval/final_eval.sh"),
                                "pages", docs], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            for page in PAGES:
                with open(os.path.join(ROOT, "docs", page), "rb") as a, \
                        open(os.path.join(docs, page), "rb") as b:
                    self.assertEqual(a.read(), b.read(), page)
            with open(figure, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_an_unknown_part_is_refused(self):
        r = subprocess.run(["bash", os.path.join(ROOT, "scripts/bench/eval/final_eval.sh"),
                            "page"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("pages", r.stderr)


if __name__ == "__main__":
    unittest.main()
