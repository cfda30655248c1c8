#!/usr/bin/env python3
"""Medians over repeated load_a.sh runs of one load point.

usage: report_repeats.py OUT_DIR OUT_DIR... [--load PCT]
                         [--markdown FILE [--section TAG]] [--json FILE]

Each OUT_DIR is a load_a.sh output directory holding load<PCT>-<system>
reports (PCT default 80). For every system this prints each figure's
samples and their median, then the issue's targets judged on the medians
(report.py's render_targets), since one run of an open-loop load can differ
from the next by an order of magnitude in P99. A system missing from some
directories gets the median of the samples it has, and the table says how
many. --markdown / --section / --json as report.py (TAG default:
eval-repeats).
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import (fmt, load_dir, publish, read_out_dir,  # noqa: E402
                    render_targets, systems_of, table)

# (figure key, column header, digits): what the table shows per system.
FIGURES = [
    ("achieved_ops_per_s", "achieved ops/s", 0),
    ("p50_ms", "P50 (ms)", 2),
    ("p99_ms", "P99 (ms)", 1),
    ("p99_9_ms", "P99.9 (ms)", 1),
    ("stall_s", "stall (s)", 1),
    ("longest_stall_s", "longest stall (s)", 2),
    ("io_amplification", "I/O amp.", 2),
    ("cpu_us_per_op", "CPU µs/op", 2),
    # To the end of compaction (load_a.sh's SETTLE=1).
    ("io_amplification_paid", "I/O amp. (debt paid)", 2),
    ("cpu_us_per_op_paid", "CPU µs/op (debt paid)", 2),
    ("step_p99_mib", "P99 step (MiB)", 1),
    ("peak_rss_mib", "peak RSS (MiB)", 0),
    # A figure a run lacks (debt paid, when it did not settle) shows "–";
    # the median is of the runs that have it.
]


def median_figures(samples):
    """One figure dict whose numbers are the medians of SAMPLES' numbers
    (what render_targets reads); non-numeric entries are dropped."""
    # Sorted, so that the JSON written from it is the same on every run.
    keys = sorted({k for f in samples for k, v in f.items()
                   if isinstance(v, (int, float)) and not isinstance(v, bool)})
    return {k: statistics.median(f[k] for f in samples if f.get(k) is not None)
            for k in keys if any(f.get(k) is not None for f in samples)}


def collect(dirs, pct):
    """{system: [figures per directory that ran it]} for load PCT, and
    {system: [closed-loop figures]} where a directory also measured that."""
    at_load, closed = {}, {}
    for d in dirs:
        runs, _, _ = read_out_dir(d, load_dir, "load_a.sh")
        for (exp, system), f in runs.items():
            if exp == f"load{pct}":
                at_load.setdefault(system, []).append(f)
            elif exp == "sustainable":
                closed.setdefault(system, []).append(f)
    return at_load, closed


def render(dirs, pct, at_load, closed):
    systems = systems_of([("", s) for s in at_load])  # (experiment, system) keys
    rows = []
    for s in systems:
        samples = at_load[s]
        cells = []
        for key, _, digits in FIGURES:
            values = [f.get(key) for f in samples]
            known = [v for v in values if v is not None]
            if not known:
                cells.append("–")
                continue
            med = statistics.median(known)
            shown = " / ".join("–" if v is None else
                               fmt(round(v) if digits == 0 else float(v), digits)
                               for v in values)
            cells.append(f"**{fmt(round(med) if digits == 0 else float(med), digits)}** "
                         f"({shown})" if len(values) > 1 else fmt(float(med), digits))
        rows.append([s, str(len(samples))] + cells)
    out = [f"**Load A, open loop, {pct}% of RocksDB's rate: medians of "
           f"{len(dirs)} directories** (bold: the median; in brackets: each "
           "run, in the order of the directories below):", "",
           table(["system", "runs"] + [h for _, h, _ in FIGURES], rows), "",
           "Directories: " + ", ".join(f"`{os.path.normpath(d)}`" for d in dirs), ""]
    medians = {(f"load{pct}", s): median_figures(v) for s, v in at_load.items()}
    medians.update({("sustainable", s): median_figures(v) for s, v in closed.items()})
    out += render_targets(medians, judged_on="on the medians, at")
    return "\n".join(out), medians


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="+")
    ap.add_argument("--load", type=int, default=80,
                    help="the load point, percent of RocksDB's rate (default: 80)")
    ap.add_argument("--markdown")
    ap.add_argument("--section", default="eval-repeats",
                    help="the marker tag in --markdown (default: eval-repeats)")
    ap.add_argument("--json")
    a = ap.parse_args()
    at_load, closed = collect(a.out, a.load)
    if not at_load:
        sys.exit(f"{os.path.basename(sys.argv[0])}: no load{a.load} reports in "
                 + ", ".join(a.out))
    text, medians = render(a.out, a.load, at_load, closed)
    publish(text, a, {"load": a.load, "directories": a.out,
                      "samples": at_load,
                      "medians": {"/".join(k): v for k, v in sorted(medians.items())}})
    return 0


if __name__ == "__main__":
    sys.exit(main())
