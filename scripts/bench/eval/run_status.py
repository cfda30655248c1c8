"""Whether a ycsb_vlsm report is a finished run, the one rule every script
asks: load_a.sh's RESUME (ycsb_run.sh eval_finished), final_eval.sh's base
rates and finished run_abcd.sh directories (reads_done), final_report.py.

A run is unfinished if its report is missing or empty, was stopped by a
signal ("interrupted": the report of a SIGINT/SIGTERM), or counted errors
(an operation the store refused): its figures describe a different run.

  python3 run_status.py REPORT...   exit 0 if every REPORT is finished; else
                                    exit 1 naming the first one that is not
"""
import json
import os
import sys


def problem(report):
    """None for a finished run's report (a dict); else why it is not."""
    if report.get("interrupted"):
        return "was stopped before it was done"
    if report.get("errors", 0) > 0:
        return f"counted {report['errors']} errors"
    return None


def file_problem(path):
    """problem() of the report at path, or why it cannot be read."""
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return "is missing"
    try:
        with open(path) as f:
            return problem(json.load(f))
    except ValueError:
        return "is not a whole JSON report"


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        why = file_problem(path)
        if why:
            print(f"{path} {why}", file=sys.stderr)
            sys.exit(1)
