#!/usr/bin/env python3
"""Median figures per system from ycsb_vlsm reports.

usage: summarize_ycsb.py SYSTEM=REPORT.json [SYSTEM=REPORT.json ...]
Reports of the same SYSTEM are rounds of one experiment; each figure is the
median over them (the rounds are listed beside it).
"""
import json
import statistics
import sys


def figures(path):
    r = json.loads(open(path).read())
    lat = r["latency_us"].get("insert") or r["latency_us"].get("update")
    m = r["lsm_metrics"][0]
    into_l1 = m["levels"][1]["input_bytes_per_compaction"] if len(m["levels"]) > 1 else {"max": 0}
    return {
        "achieved ops/s": r["achieved_ops_per_s"],
        "P50 write (ms)": lat["p50"] / 1e3,
        "P99 write (ms)": lat["p99"] / 1e3,
        "P99.9 write (ms)": lat["p99.9"] / 1e3,
        "max write (ms)": lat["max"] / 1e3,
        "write stall (s)": sum(x["stalls"]["total_s"] for x in r["lsm_metrics"]),
        "longest stall (s)": max(x["stalls"]["longest_s"] for x in r["lsm_metrics"]),
        "L0->L1 input max (MiB)": into_l1["max"] / 2**20,
        "I/O amplification": m["io_amplification"],
        "CPU per op (us)": m["cpu"]["cpu_us_per_op"],
    }


def main(argv):
    runs = [a.split("=", 1) for a in argv[1:]]
    if not runs or any(len(r) != 2 for r in runs):
        sys.stderr.write(__doc__)
        return 2
    by_system = {}
    for system, path in runs:
        try:
            by_system.setdefault(system, []).append(figures(path))
        except (OSError, ValueError, KeyError, IndexError) as e:
            sys.stderr.write("summarize_ycsb.py: %s: %s\n" % (path, e))
            return 1
    labels = list(next(iter(by_system.values()))[0])
    width = max(map(len, labels))
    print("%-*s" % (width, "") + "".join("%34s" % ("%s (median of %d)" % (s, len(v)))
                                          for s, v in by_system.items()))
    for label in labels:
        cells = []
        for rounds in by_system.values():
            values = [f[label] for f in rounds]
            cells.append("%.1f [%s]" % (statistics.median(values),
                                        " ".join("%.1f" % v for v in values)))
        print("%-*s" % (width, label) + "".join("%34s" % c for c in cells))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
