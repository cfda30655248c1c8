#!/usr/bin/env python3
"""How RocksDB's estimate of pending compaction bytes behaved in a run: how
often it owed anything, how much, and how often it stood at a limit.

usage: debt_profile.py OUT_DIR... [--load PCT] [--limit BYTES]
                       [--markdown FILE [--section TAG]] [--json FILE]

Each OUT_DIR is a load_a.sh output directory (raw.tar.xz is read as
report.py reads it). For every system's open-loop load at PCT (default 80),
from the collector's per-second samples (rocksdb.estimate-pending-
compaction-bytes and L0's bytes, every region's seconds pooled):
  - owed: the share of seconds with a nonzero estimate. RocksDB's estimate
    is nonzero while L0 is due (it then owes all of L0, the base level and
    their overflow below) or a level is over its target;
  - L0 and the estimate in those seconds, medians;
  - seconds at or over LIMIT (default 1 GiB, RocksDB-IO's
    soft_pending_compaction_bytes_limit), where writes slow down;
  - stall seconds (the collectors' totals, summed over regions).
Why a layout stalls under the limits (docs/results/ranged-io-limits-
1region-12M): a layout due more often, or owing more when due, sits at the
limit longer.
"""
import argparse
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import (fmt, load_dir, publish, read_out_dir, report_name, systems_of,  # noqa: E402
                    table)

MIB = 1 << 20


def profile(rep, limit):
    """The figures above of one ycsb_vlsm report; ValueError if it has no
    per-second samples."""
    regions = rep.get("lsm_metrics") or []
    samples = [s for m in regions for s in m.get("samples", [])]
    if not samples:
        raise ValueError("no per-second samples (lsm_metrics) in the report")
    owed = [s for s in samples if s["pending_compaction_bytes"] > 0]

    def median_mib(key):
        return statistics.median(s[key] for s in owed) / MIB if owed else None

    return {
        "seconds": len(samples),
        "owed_share": len(owed) / len(samples),
        "l0_mib_when_owed": median_mib("l0_bytes"),
        "owed_mib_when_owed": median_mib("pending_compaction_bytes"),
        "seconds_at_limit": sum(s["pending_compaction_bytes"] >= limit for s in samples),
        "stall_s": sum(m["stalls"]["total_s"] for m in regions),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out", nargs="+")
    ap.add_argument("--load", type=int, default=80)
    ap.add_argument("--limit", type=int, default=1 << 30)
    ap.add_argument("--markdown")
    ap.add_argument("--section", default="debt")
    ap.add_argument("--json")
    a = ap.parse_args()
    rows, figures = [], {}
    for out in a.out:
        runs, _, src = read_out_dir(out, load_dir, "load_a.sh")
        name = os.path.basename(os.path.normpath(out))
        for system in systems_of(runs):
            path = os.path.join(src, report_name(f"load{a.load}", system))
            if not os.path.exists(path):
                continue
            with open(path) as f:
                try:
                    p = profile(json.load(f), a.limit)
                except ValueError as e:
                    sys.exit(f"debt_profile.py: {path}: {e}")
            figures[f"{name}/{system}"] = p
            rows.append([name, system, str(p["seconds"]), f"{p['owed_share']:.0%}",
                         fmt(p["l0_mib_when_owed"], 0), fmt(p["owed_mib_when_owed"], 0),
                         str(p["seconds_at_limit"]), fmt(float(p["stall_s"]), 1)])
    if not rows:
        sys.exit(f"debt_profile.py: no load{a.load} reports in {' '.join(a.out)}")
    text = table(["run", "system", "seconds", "owed (share of seconds)",
                  "L0 when owed (MiB, median)", "estimate when owed (MiB, median)",
                  f"seconds at ≥ {a.limit / (1 << 30):g} GiB", "stalled (s)"], rows)
    publish(f"**RocksDB's estimate of pending compaction bytes at {a.load}%**, "
            "per second (`debt_profile.py`):\n\n" + text, a, figures)


if __name__ == "__main__":
    main()
