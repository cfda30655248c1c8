#!/usr/bin/env python3
"""Side by side: ycsb_vlsm reports of the same operation, one row each.

usage: compare_reports.py [--op insert] [--json FILE] LABEL=REPORT.json...

REPORT may be inside a packed experiment directory (raw.tar.xz): it is read
through results_archive.unpacked. Prints one Markdown table: the operation's
latency from the intended start (P50 … max), its service time P99 (reports
from 2026-11-23 on), the harness's generator lag, the deepest queue, the
seconds with a write stall, disk space amplification and peak RSS. Made for
A/B comparisons where only one thing differs between the runs (the harness
build, a limiter), e.g. docs/results/harness-ab-4region-12M-79K.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__))))
from results_archive import unpacked  # noqa: E402


def figures(report, op):
    lat = report["latency_us"].get(op) or report["latency_us"]["all"]
    service = (report.get("service_us") or {}).get(op)
    floor = report.get("harness_floor") or {}
    lag = floor.get("generator_lag_us") or report.get("generator_lag_us") or {}
    null = floor.get("null_store_latency_us") or {}
    space = report.get("space") or {}
    ms = lambda d, k: d[k] / 1e3 if k in d else None  # noqa: E731
    return {
        "achieved_ops_per_s": report["achieved_ops_per_s"],
        "p50_ms": ms(lat, "p50"), "p90_ms": ms(lat, "p90"), "p99_ms": ms(lat, "p99"),
        "p99_9_ms": ms(lat, "p99.9"), "max_ms": ms(lat, "max"),
        "service_p99_ms": ms(service, "p99") if service else None,
        "gen_lag_p50_ms": ms(lag, "p50"), "gen_lag_p99_ms": ms(lag, "p99"),
        "null_store_p99_ms": ms(null, "p99"),
        "max_queue_depth": report["max_queue_depth"],
        "stalled_intervals": report["stalled_intervals"],
        "space_amp_end": space.get("space_amp_end"),
        "peak_rss_mib": report.get("peak_rss_bytes", 0) / 2 ** 20,
    }


def fmt(v, digits=2):
    if v is None:
        return "–"
    return f"{v:,.{digits}f}" if isinstance(v, float) else f"{v:,}"


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", metavar="LABEL=REPORT.json")
    ap.add_argument("--op", default="insert")
    ap.add_argument("--json", help="write the figures here too")
    args = ap.parse_args()
    rows = {}
    for arg in args.runs:
        label, sep, path = arg.partition("=")
        if not sep or not path.endswith(".json"):
            ap.error(f"'{arg}' is not LABEL=REPORT.json")
        directory = unpacked(os.path.dirname(path) or ".")
        try:
            with open(os.path.join(directory, os.path.basename(path))) as f:
                rows[label] = figures(json.load(f), args.op)
        except (OSError, ValueError, KeyError) as e:
            sys.exit(f"error: {path}: {e}")
    print(f"| run | achieved ops/s | {args.op} P50 | P90 | P99 | P99.9 | max (ms) | "
          "service P99 (ms) | gen. lag P50 / P99 (ms) | null-store P99 (ms) | max queue | "
          "stalled s | space amp. | peak RSS (MiB) |")
    print("|" + "---|" * 14)
    for label, f in rows.items():
        print(f"| {label} | {fmt(int(f['achieved_ops_per_s']))} | {fmt(f['p50_ms'])} | "
              f"{fmt(f['p90_ms'])} | {fmt(f['p99_ms'])} | {fmt(f['p99_9_ms'])} | "
              f"{fmt(f['max_ms'])} | {fmt(f['service_p99_ms'])} | "
              f"{fmt(f['gen_lag_p50_ms'])} / {fmt(f['gen_lag_p99_ms'])} | "
              f"{fmt(f['null_store_p99_ms'])} | {fmt(f['max_queue_depth'])} | "
              f"{fmt(f['stalled_intervals'])} | {fmt(f['space_amp_end'])} | "
              f"{fmt(f['peak_rss_mib'], 0)} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
