"""The experiment scripts delete their DB and output directories before a
run, so a path setting that is empty, the checkout, or a directory above it
must be refused (exit 2) before anything is deleted: `DB=` once resolved
to the checkout itself. Run on a copy of scripts/ inside a temporary
directory, so that a regression deletes the copy, not the checkout."""
import os
import shutil
import subprocess
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


class SettingsPathsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        # tmp/checkout: a checkout with scripts/ only; ".." stays in tmp.
        self.root = os.path.join(self.tmp, "checkout")
        shutil.copytree(os.path.join(ROOT, "scripts"), os.path.join(self.root, "scripts"))
        self.sentinel = os.path.join(self.root, "sentinel")
        open(self.sentinel, "w").close()

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def run_script(self, script, *args):
        env = {k: v for k, v in os.environ.items() if not k.startswith("VLSM_")}
        return subprocess.run(["bash", os.path.join(self.root, script), *args],
                              capture_output=True, text=True, env=env, timeout=120)

    def test_load_a_and_reopen_steps_refuse_db_and_out_that_would_delete_the_checkout(self):
        for script, env in (("load_a.sh", "demo.env"),
                            ("reopen_steps.sh", "reopen-1region-12M.env")):
            settings = os.path.join(self.root, "scripts/bench/eval/settings", env)
            for bad, says in [("DB=", "DB="), ("DB=.", "DB=."), ("DB=..", "DB=.."),
                              ("DB=scripts/..", "DB=scripts/.."), (f"DB={self.root}", "DB="),
                              ("OUT=.", "OUT=."), ("OUT=", "OUT=")]:
                r = self.run_script("scripts/bench/eval/" + script, settings, bad)
                self.assertEqual(r.returncode, 2, (script, bad, r.stdout, r.stderr))
                self.assertIn(says, r.stderr, (script, bad))
                self.assertTrue(os.path.exists(self.sentinel), (script, bad))

    def test_grown_refuses_trees_db_and_out_that_would_delete_the_checkout(self):
        for bad, says in [("TREES=.", "TREES=."), ("TREES=..", "TREES=.."), ("DB=.", "DB=."),
                          ("OUT=.", "OUT=."), ("OUT=", "OUT=")]:
            r = self.run_script("scripts/bench/eval/grown.sh", "preload", bad)
            self.assertEqual(r.returncode, 2, (bad, r.stdout, r.stderr))
            self.assertIn(says, r.stderr, bad)
            self.assertTrue(os.path.exists(self.sentinel), bad)

    def test_demo_and_under_load_refuse_out_that_would_delete_the_checkout(self):
        for script in ("scripts/demo.sh", "scripts/under_load.sh"):
            for bad in ("OUT=", "OUT=.", "OUT=.."):
                r = self.run_script(script, bad)
                self.assertEqual(r.returncode, 2, (script, bad, r.stdout, r.stderr))
                self.assertIn(bad, r.stderr, (script, bad))
                self.assertTrue(os.path.exists(self.sentinel), (script, bad))

    def test_db_bench_scripts_refuse_out_that_would_delete_the_checkout(self):
        for script in ("fill.sh", "mixgraph.sh", "fig13c.sh", "allocator.sh",
                       "collector_overhead.sh"):
            r = self.run_script("scripts/bench/" + script, "OUT=.")
            self.assertEqual(r.returncode, 2, (script, r.stdout, r.stderr))
            self.assertIn("OUT=. is the checkout", r.stderr, script)
            self.assertTrue(os.path.exists(self.sentinel), script)

    def test_a_directory_inside_the_checkout_is_accepted(self):
        r = subprocess.run(["bash", "-c", 'VLSM_ROOT=$1; source "$1/scripts/bench/settings.sh";'
                            ' settings_dir OUT build/x', "_", self.root],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), os.path.join(self.root, "build/x"))


if __name__ == "__main__":
    unittest.main()
