#!/usr/bin/env python3
"""What the device limiter charged each run, beside the bytes its flushes
and compactions counted: the "limiter-charge" section of a page.

usage: limiter_charge.py DIR [--markdown FILE]... [--json FILE]

DIR (open, or packed in its parent's raw.tar.xz) holds ycsb_vlsm reports
(load_a.sh's load<pct>-<system>.json or sustainable-<system>.json) made
with rocksdb.rate_limit, whose "rate_limiter" object holds the limiter's
own count by priority at the phase's end and at close (after the settle).

Why: under one RateLimiter in kAllIo mode, "the device" is what the
limiter charges, and a store whose charges exceed the bytes its compactions
read and write spends the device on bytes no statistic counts. Before
patch 0024, with direct I/O, every compaction input file's last readahead
(2 MiB) was charged whole, past the file's end: for the ranged layout's
small files about a quarter of what it was charged.

Flushes ask at IO_HIGH, compactions at IO_LOW, and both at IO_USER while
writes are slowed or stopped: the per-priority ratios hold for a run that
never stalled, the "all" ratio (every charge against flushes and
compactions together) for any run. At the phase's end a step still running
is charged in part and counted by no statistic yet, so the close (every
step finished) is the exact comparison.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import final_report  # noqa: E402  (NAMES)
from report import (compaction_bytes, flushed_bytes, fmt, per_run_page, run_reports,  # noqa: E402
                    table)


def charge(rep):
    """{"phase": (charged, counted) at IO_LOW ("low"), at IO_HIGH ("high")
    and for all I/O ("all": every priority against flushes and compactions
    together), "close": the same with the settle} of one report, bytes;
    None without the limiter's count (a report made before ycsb_vlsm kept
    it, or a run without a limiter)."""
    lim = rep.get("rate_limiter")
    if not lim:
        return None
    regions = rep["lsm_metrics"]
    flushed = flushed_bytes(regions)
    compacted = compaction_bytes(regions)
    settle = rep.get("settle") or {}
    compacted_close = (compacted + settle.get("compaction_read_bytes", 0) +
                       settle.get("compaction_write_bytes", 0))
    flushed_close = flushed + settle.get("flush_bytes", 0)
    return {
        "seconds": rep["elapsed_s"],
        "phase": {"low": (lim["at_phase_end"]["bytes_low"], compacted),
                  "high": (lim["at_phase_end"]["bytes_high"], flushed),
                  "all": (lim["at_phase_end"]["bytes_total"], compacted + flushed)},
        "close": {"low": (lim["at_close"]["bytes_low"], compacted_close),
                  "high": (lim["at_close"]["bytes_high"], flushed_close),
                  "all": (lim["at_close"]["bytes_total"], compacted_close + flushed_close)},
    }


def per_counted(pair):
    charged, counted = pair
    return charged / counted if counted else None


def load_charges(out):
    """[(report name, system, charge)] of the reports in OUT that carry
    the limiter's count, by name."""
    found = [(run, system, charge(rep)) for run, system, rep in run_reports(out)]
    return [f for f in found if f[2] is not None]


def lines(found):
    rows = []
    for run, system, c in found:
        rows.append([run, final_report.NAMES.get(system, system), fmt(round(c["seconds"])),
                     fmt(round(c["close"]["low"][0] / 1e6)),
                     fmt(round(c["close"]["low"][1] / 1e6)),
                     fmt(per_counted(c["close"]["low"]), 3),
                     fmt(per_counted(c["phase"]["low"]), 3),
                     fmt(per_counted(c["close"]["high"]), 3),
                     fmt(per_counted(c["close"]["all"]), 3)])
    return ["**What the device limiter charged, per byte counted** (compactions at "
            "IO_LOW: their reads and writes as the statistics count them; flushes at "
            "IO_HIGH: the files they wrote; all: every charge, stalls' IO_USER too, "
            "against both; at close every step has finished, at the phase's end one "
            "may be under way):", "",
            table(["run", "system", "phase (s)", "compactions charged (MB)",
                   "counted (MB)", "charged / counted", "the same, phase only",
                   "flushes charged / counted", "all charged / counted"], rows), ""]


def main(argv):
    return per_run_page(argv, __doc__, load_charges, "ycsb_vlsm with rocksdb.rate_limit", "limiter-charge", lines)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
