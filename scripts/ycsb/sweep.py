#!/usr/bin/python3
"""Tail latency against offered load: runs one ycsb_vlsm workload at fractions
of a system's sustainable rate (find it first with -p mode=find-sustainable)
and writes a CSV of P99 (and more) per fraction; a PNG of P99 vs load too
when python3-matplotlib is installed.

  scripts/ycsb/sweep.py --sustainable 150000 --out build/sweep-stock \\
      --phase run -- -P ycsb/workloads/workloada -p rocksdb.dir=/data/db \\
      -p maxexecutiontime=60 -p operationcount=0 -p threads=8

Everything after `--` is passed to every ycsb_vlsm run; the script adds
-p target=<fraction * sustainable> and -p report=<out>/<label>-<pct>.json.
--fresh-dir DIR deletes DIR before each point (for load sweeps, so every
point starts from an empty store).
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys

OPS = ["read", "update", "insert", "scan", "read-modify-write"]
DEFAULT_FRACTIONS = "0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,0.95"


def run_point(args, fraction):
    target = fraction * args.sustainable
    pct = int(round(fraction * 100))
    report = os.path.join(args.out, f"{args.label}-{pct:03d}.json")
    if args.fresh_dir:
        shutil.rmtree(args.fresh_dir, ignore_errors=True)
    cmd = [args.bin, args.phase] + args.ycsb_args + [
        "-p", f"target={target:.0f}", "-p", f"report={report}"]
    print("sweep:", " ".join(cmd), file=sys.stderr, flush=True)
    log = report[:-5] + ".log"
    with open(log, "w") as f:
        rc = subprocess.call(cmd, stdout=f, stderr=subprocess.STDOUT)
    if rc != 0:
        print(f"sweep: run at {pct}% failed (exit {rc}), see {log}",
              file=sys.stderr)
        return None
    with open(report) as f:
        rep = json.load(f)
    lat = rep["latency_us"]
    row = {
        "label": args.label,
        "fraction": fraction,
        "target_ops_per_s": round(target),
        "achieved_ops_per_s": round(rep["achieved_ops_per_s"]),
        "max_queue_depth": rep["max_queue_depth"],
        "stalled_intervals": rep.get("stalled_intervals", 0),
        "all_p50_us": lat["all"]["p50"],
        "all_p99_us": lat["all"]["p99"],
        "all_p99.9_us": lat["all"]["p99.9"],
        "all_max_us": lat["all"]["max"],
    }
    for op in OPS:
        row[f"{op}_p99_us"] = lat[op]["p99"] if op in lat else ""
        row[f"{op}_max_us"] = lat[op]["max"] if op in lat else ""
    return row


def plot(rows, path, label):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("sweep: python3-matplotlib not installed; CSV only",
              file=sys.stderr)
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for op in OPS + ["all"]:
        pts = [(r["fraction"] * 100, r[f"{op}_p99_us"] / 1000.0)
               for r in rows if r.get(f"{op}_p99_us") not in ("", None)]
        if pts and op != "all":
            ax.plot(*zip(*pts), marker="o", label=f"{op} P99")
    ax.set_xlabel("offered load (% of sustainable rate)")
    ax.set_ylabel("P99 latency (ms)")
    ax.set_yscale("log")
    ax.set_title(f"{label}: P99 vs offered load")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"sweep: {path}", file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sustainable", type=float, required=True,
                   help="the sustainable rate, ops/s")
    p.add_argument("--fractions", default=DEFAULT_FRACTIONS)
    p.add_argument("--phase", default="run", choices=["load", "run"])
    p.add_argument("--bin", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "../../build/ycsb_vlsm"))
    p.add_argument("--out", default="build/ycsb-sweep")
    p.add_argument("--label", default="sweep")
    p.add_argument("--fresh-dir", default="")
    p.add_argument("ycsb_args", nargs=argparse.REMAINDER)
    args = p.parse_args()
    if args.ycsb_args and args.ycsb_args[0] == "--":
        args.ycsb_args = args.ycsb_args[1:]
    try:
        fractions = [float(x) for x in args.fractions.split(",")]
    except ValueError:
        p.error("--fractions: comma-separated numbers, e.g. 0.1,0.5,0.95")
    if args.sustainable <= 0 or any(not 0 < f <= 1.5 for f in fractions):
        p.error("--sustainable must be > 0 and fractions in (0, 1.5]")
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for f in fractions:
        row = run_point(args, f)
        if row:
            rows.append(row)
            print(f"sweep: {f*100:.0f}%: achieved {row['achieved_ops_per_s']} "
                  f"ops/s, P99 {row['all_p99_us']:.0f} us, max "
                  f"{row['all_max_us']:.0f} us", file=sys.stderr, flush=True)
    if not rows:
        return 1
    csv_path = os.path.join(args.out, f"{args.label}.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    print(f"sweep: {csv_path}", file=sys.stderr)
    plot(rows, os.path.join(args.out, f"{args.label}.png"), args.label)
    return 0 if len(rows) == len(fractions) else 1


if __name__ == "__main__":
    sys.exit(main())
