#!/usr/bin/env python3
"""The compaction steps of closed-loop (sustainable) runs, per system.

usage: step_widths.py OUT_DIR...

For every sustainable-<system> report in each load_a.sh output directory
(raw.tar.xz is read as report.py reads it): the rate and its ratio to
RocksDB's in the same directory, I/O amplification, stall time, how many
L0->L1 steps ran with their mean and widest input, the widest L1->L2 step,
and the process's peak RSS. report.py's sustainable table has no step
widths; the ranged L0 layout (issue 20) is judged on them.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_archive import unpacked  # noqa: E402

MIB = 1 << 20


def rows(directory):
    d = unpacked(directory)
    reports = sorted(n for n in os.listdir(d)
                     if n.startswith("sustainable-") and n.endswith(".json")
                     and not n.endswith(".machine.json"))
    out = []
    for name in reports:
        with open(os.path.join(d, name)) as f:
            r = json.load(f)
        lm = r["lsm_metrics"][0]
        levels = {lv["level"]: lv for lv in lm["levels"]}

        def width(level, key):
            return levels.get(level, {}).get("input_bytes_per_compaction", {}).get(key, 0) / MIB

        out.append({
            "system": name[len("sustainable-"):-len(".json")],
            "ops": r["achieved_ops_per_s"],
            "io_amp": lm["io_amplification"],
            "stall_s": lm["stalls"]["total_s"],
            "longest_s": lm["stalls"]["longest_s"],
            "l0_steps": levels.get(1, {}).get("compactions", 0),
            "l0_mean": width(1, "mean"),
            "l0_widest": width(1, "max"),
            "l1_widest": width(2, "max"),
            "rss_mib": r["space"]["peak_rss_bytes"] / MIB,
        })
    return out


def main(argv):
    if not argv:
        sys.exit(__doc__)
    print("| run | system | ops/s | × RocksDB | I/O amp. | stall / longest (s) "
          "| L0→L1 steps | mean L0→L1 (MiB) | widest L0→L1 (MiB) "
          "| widest L1→L2 (MiB) | peak RSS (MiB) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for directory in argv:
        table = rows(directory)
        base = next((t["ops"] for t in table if t["system"] == "rocksdb"), None)
        for t in table:
            ratio = "%.2f" % (t["ops"] / base) if base else "–"
            print("| %s | %s | %s | %s | %.2f | %.1f / %.1f | %d | %.1f | %.1f | %.1f | %.0f |" % (
                os.path.basename(os.path.normpath(directory)), t["system"],
                "{:,.0f}".format(t["ops"]), ratio, t["io_amp"], t["stall_s"],
                t["longest_s"], t["l0_steps"], t["l0_mean"], t["l0_widest"],
                t["l1_widest"], t["rss_mib"]))


if __name__ == "__main__":
    main(sys.argv[1:])
