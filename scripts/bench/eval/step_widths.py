#!/usr/bin/env python3
"""The compaction steps of load_a.sh runs, per load and system.

usage: step_widths.py OUT_DIR...

For every report in each load_a.sh output directory (closed loop,
sustainable-<system>.json, and open loop, load<N>-<system>.json;
reopen_steps.sh's fill-<how><r>-<system>.json and reopen-<how><r>-<system>.json; raw.tar.xz
is read as report.py reads it), one row: the rate and its ratio to RocksDB's
under the same load in the same directory, I/O amplification, stall time,
how many L0->L1 steps ran with their mean and widest input, the widest
L1->L2 step, the process's peak RSS, and, from reports that carry them, the
P99 of every step's width (flushes included) and how many steps were wider
than the collector's bound ((f + 2) * S_M of that system).

A second table names each system's widest listed compaction and what it
took: the bytes from the level above (an L0 backlog shows here) against the
bytes of the level below. report.py's tables have no step widths; the ranged
L0 layout (issue 20) is judged on them.

Runs of one region only: a report of several is refused, naming it (step
widths are one tree's; report.py sums regions), as is a directory that is
missing or holds no report.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import REOPEN_REPORT, RUN_REPORT, read_out_dir, reports_in  # noqa: E402

MIB = 1 << 20


def load_reports(d):
    """(load, system, report) of every run report in directory D, by name:
    load_a.sh's runs, and reopen_steps.sh's loads and reopens."""
    out = []
    for m, path in reports_in(d, RUN_REPORT, REOPEN_REPORT):
        with open(path) as f:
            out.append((m.group(1), m.group(2), json.load(f)))
    return out


def reports(directory):
    """load_reports of DIRECTORY, open or packed in its parent's archive;
    exits naming it when it is neither, or holds no report."""
    return read_out_dir(directory, load_reports, "load_a.sh or reopen_steps.sh")[0]


def row(load, system, r):
    if len(r["lsm_metrics"]) != 1:
        # Its step widths are one tree's (P99 and the wide steps do not add
        # over regions): figures of region 0 alone would pass for the store's.
        sys.exit(f"step_widths.py: {load}-{system} has {len(r['lsm_metrics'])} regions; "
                 "this table is of one-region runs (report.py sums regions)")
    lm = r["lsm_metrics"][0]
    levels = {lv["level"]: lv for lv in lm["levels"]}

    def width(level, key):
        return levels.get(level, {}).get("input_bytes_per_compaction", {}).get(key, 0) / MIB

    steps = lm.get("steps")  # reports from before the collector kept them lack it
    return {
        "load": load,
        "system": system,
        "ops": r["achieved_ops_per_s"],
        "io_amp": lm["io_amplification"],
        "stall_s": lm["stalls"]["total_s"],
        "longest_s": lm["stalls"]["longest_s"],
        "l0_steps": levels.get(1, {}).get("compactions", 0),
        "l0_mean": width(1, "mean"),
        "l0_widest": width(1, "max"),
        "l1_widest": width(2, "max"),
        "rss_mib": r["space"]["peak_rss_bytes"] / MIB,
        "steps": steps,
    }


def widest_compaction(steps):
    wide = steps["wide_compactions"] if steps else []
    return max(wide, key=lambda w: w["input_bytes"]) if wide else None


def main(argv):
    if not argv:
        sys.exit(__doc__)
    tables = [(os.path.basename(os.path.normpath(d)), [row(*r) for r in reports(d)])
              for d in argv]
    print("| run | load | system | ops/s | × RocksDB | I/O amp. | stall / longest (s) "
          "| L0→L1 steps | mean L0→L1 (MiB) | widest L0→L1 (MiB) "
          "| widest L1→L2 (MiB) | peak RSS (MiB) | P99 step (MiB) | steps over bound |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for run, table in tables:
        for t in table:
            base = next((u["ops"] for u in table
                         if u["system"] == "rocksdb" and u["load"] == t["load"]), None)
            ratio = "%.2f" % (t["ops"] / base) if base else "–"
            s = t["steps"]
            p99 = "%.1f" % (s["input_bytes_per_step"]["p99"] / MIB) if s else "–"
            over = ("%d of %d (> %.0f MiB)" % (s["over_bound"], s["input_bytes_per_step"]["count"],
                                              s["width_bound"] / MIB) if s else "–")
            print("| %s | %s | %s | %s | %s | %.2f | %.1f / %.1f | %d | %.1f | %.1f | %.1f "
                  "| %.0f | %s | %s |" % (
                      run, t["load"], t["system"], "{:,.0f}".format(t["ops"]), ratio,
                      t["io_amp"], t["stall_s"], t["longest_s"], t["l0_steps"],
                      t["l0_mean"], t["l0_widest"], t["l1_widest"], t["rss_mib"], p99, over))

    widest = [(run, t, widest_compaction(t["steps"])) for run, table in tables for t in table]
    widest = [(run, t, w) for run, t, w in widest if w is not None]
    if not widest:
        return
    print()
    print("| run | load | system | widest compaction | at (s) | from above: files, MiB "
          "| below: files, MiB | reason |")
    print("|---|---|---|---|---|---|---|---|")
    for run, t, w in widest:
        print("| %s | %s | %s | →L%d %.1f MiB | %.0f | %d, %.1f | %d, %.1f | %s |" % (
            run, t["load"], t["system"], w["output_level"], w["input_bytes"] / MIB,
            w["time_s"], w["upper_files"], w["upper_bytes"] / MIB, w["level_files"],
            w["level_bytes"] / MIB, w["reason"]))


if __name__ == "__main__":
    main(sys.argv[1:])
