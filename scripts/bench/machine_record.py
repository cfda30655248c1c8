"""Reads the <run>.machine.json that scripts/bench/machine.sh writes beside a
run's report: what else the machine did during the run. Shared by the
db_bench summary (eval/report_db_bench.py) and the evaluation reports (eval/report.py).
"""
import json
import os


def machine_figures(report_path):
    """The machine record beside REPORT.json (REPORT.machine.json), or None
    for a run made before the records existed."""
    path = report_path[:-len(".json")] + ".machine.json"
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)
