#!/usr/bin/env python3
"""eval_test_util.run on a stuck command: the test fails with where it was
stuck, within the bound, instead of hanging to ctest's timeout in silence.
The stuck command is the harness itself, ycsb_vlsm on the null store
offering 100 ops/s for 1,000 s, its stderr in a file as the scripts keep
it."""
import os
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from eval_test_util import run  # noqa: E402

BUILD = os.environ.get("VLSM_BUILD_DIR") or os.path.join(os.getcwd(), "build")


class StuckCommandTest(unittest.TestCase):
    def test_a_stuck_command_says_where(self):
        with tempfile.TemporaryDirectory() as tmp:
            err = os.path.join(tmp, "stuck.err")
            ycsb = os.path.join(BUILD, "ycsb_vlsm")
            cmd = ["bash", "-c", f"'{ycsb}' run -db null -P ycsb/workloads/workloada -target 100 "
                   f"-p operationcount=100000 > /dev/null 2> '{err}'; echo never"]
            start = time.monotonic()
            with self.assertRaises(AssertionError) as caught:
                run(cmd, stuck_s=3)
            self.assertLess(time.monotonic() - start, 150)  # bounded: killed, not waited for
            said = str(caught.exception)
            self.assertIn("stuck: bash -c", said)
            self.assertIn("still running after 3 s", said)
            # The process tree, with the harness in it.
            self.assertRegex(said, r"\n\d+ \w .*ycsb_vlsm run -db null")
            # Its threads' stacks: the open-loop driver's generator or
            # workers are somewhere in them.
            self.assertIn("ycsb_vlsm", said)
            self.assertRegex(said, r"Thread \d+ .*\n#0 ")
            self.assertIn("OpenLoopDriver", said)
            # And the end of its stderr file: the per-second progress lines.
            self.assertIn(f"the end of {err}", said)
            self.assertIn("ops/s (offered", said)
            # Killed where it was stuck: bash never got to its echo.
            self.assertIn("--- its stdout (end)\n\n--- its stderr", said)

    def test_a_command_that_ends_is_returned(self):
        r = run(["bash", "-c", "echo out; echo err >&2; exit 3"])
        self.assertEqual((r.returncode, r.stdout, r.stderr), (3, "out\n", "err\n"))


if __name__ == "__main__":
    unittest.main()
