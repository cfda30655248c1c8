#!/usr/bin/env python3
"""Tables from a scripts/bench/eval/run_abcd.sh output directory.

usage: report_runs.py OUT_DIR [--markdown FILE [--section TAG]] [--json FILE]
                      [--figures DIR]

Each system's closed-loop rate per workload after Load A, and open-loop
Run A-E at one percentage of
RocksDB's rate: read and write latency apart, as the paper's "Run A-R" and
"Run A-W" (Run E's read side is its scans), the L0 depth each run began
with, plus the Run A read P99 target (vLSM against RocksDB-IO) and the
ranged layout's read target (against RocksDB, every run). --markdown replaces the text
between "<!-- TAG:begin -->" and "<!-- TAG:end -->" (TAG default:
eval-runs); --json writes every figure of the tables; --figures DIR draws
run_p99_<pct>.png, read and write P99 per run and system (scripts/plot.py).

Store-wide figures (stall union, I/O, CPU) come from report.py's
store_figures. Every phase of run_abcd.sh waits for its compactions before
it reports, so a run's bytes moved and CPU are its own writes' full cost
(nothing left over from the fill, unless the fill ran with FILL_SETTLE=0,
which the table's title then says), shown as bytes moved per byte written.
"""
import argparse
import csv
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report import (BASELINE, OURS, RUNS_REPORT, fmt, publish, read_out_dir,  # noqa: E402
                    read_run, render_machine, reports_in, systems_of, table)

WORKLOAD_ORDER = "abcdef"
READ_TARGET = 12  # Run A read P99: RocksDB-IO / vLSM at least this


def side_figures(rep):
    """The read side and the write side of one run's latency (ms), and the
    L0 depth its lookups met at the start. Run E reads by scanning, so its
    scans are its read side; A and B update, D and E insert, C only reads.
    L0 depth (the most L0 files over one key) is the deepest region's
    first sample: run_abcd.sh settles the tree before every run, so that
    is L0 at rest, the L0 files a point lookup may have to check (the
    ranged layout keeps up to its depth trigger - 1 there); and the L0
    files a scan merges (an iterator has a child for every L0 file of its
    region, whatever its keys), the most in one region."""
    lat = rep["latency_us"]
    read = lat.get("read") or lat.get("scan")
    write = lat.get("update") or lat.get("insert")
    first = [m["samples"][0] for m in rep["lsm_metrics"] if m["samples"]]

    def ms(d):
        return {k: d[k] / 1e3 for k in ("p50", "p99", "p99.9", "max")} if d else None
    return {"read": ms(read), "write": ms(write), "not_found": rep.get("not_found", 0),
            "l0_depth_at_start": most_at_start(first, "l0_depth"),
            "l0_sublevels_at_start": most_at_start(first, "l0_sublevels"),
            "l0_files_at_start": most_at_start(first, "l0_files")}


def most_at_start(first, field):
    """The most of `field` over the regions' first samples; None where a
    region recorded none, or not this field (runs from before the collector
    sampled L0's depth, or its sublevels)."""
    if not first or any(field not in f for f in first):
        return None
    return max(f[field] for f in first)


def run_figures(path):
    rep, fig = read_run(path)
    fig.update(side_figures(rep))
    return fig


def load_dir(out):
    """{(kind, workload, distribution, system): figures}; kind is "closed"
    or "run<pct>"."""
    return {m.groups(): run_figures(path) for m, path in reports_in(out, RUNS_REPORT)}


def ordered_workloads(runs):
    keys = {(w, d) for _, w, d, _ in runs}
    return sorted(keys, key=lambda k: (WORKLOAD_ORDER.index(k[0]), k[1]))


def ms(d, key):
    return fmt(d[key], 2) if d else "–"


def render(runs, config):
    systems = systems_of({(k, s): None for k, _, _, s in runs})
    out = ["Configuration (`config.txt`):", "", "```", config, "```", ""]
    out += ["**Closed-loop rate after Load A** (4 client threads, half the open-loop "
            "run's length; ops/s):", ""]
    out.append(table(["run"] + systems,
                     [[f"Run {w.upper()} {d}"] +
                      [fmt(int(runs[("closed", w, d, s)]["achieved_ops_per_s"]))
                       if ("closed", w, d, s) in runs else "–" for s in systems]
                      for w, d in ordered_workloads(runs)]))
    out.append("")
    kinds = sorted({k for k, _, _, _ in runs if k != "closed"})
    for kind in kinds:
        pct = int(kind[3:])
        rows = []
        for w, d in ordered_workloads(runs):
            for s in systems:
                f = runs.get((kind, w, d, s))
                if not f:
                    continue
                rows.append([f"Run {w.upper()} {d}", s, fmt(int(f["offered_ops_per_s"])),
                             fmt(int(f["achieved_ops_per_s"])),
                             ms(f["read"], "p50"), ms(f["read"], "p99"),
                             ms(f["read"], "p99.9"),
                             ms(f["write"], "p99"), ms(f["write"], "p99.9"),
                             fmt(max(x["max"] for x in (f["read"], f["write"]) if x), 1),
                             f"{fmt(f['stall_s'])} / {fmt(f['longest_stall_s'], 2)}",
                             fmt(f["io_amplification"], 2) if f["write"] else "–",
                             fmt(f["cpu_us_per_op"], 2),
                             f"{fmt(f.get('l0_depth_at_start'))} / "
                             f"{fmt(f.get('l0_sublevels_at_start'))} / "
                             f"{fmt(f.get('l0_files_at_start'))}"])
        # run_abcd.sh's config.txt says where the rate came from and whether
        # the fill paid its debt (FILL_SETTLE=0: the runs start on it).
        of = ("a given rate (BASE_RATE)" if "given_rate=" in config
              else "RocksDB's closed-loop rate for each run")
        tree = ("on the fill's unpaid debt (FILL_SETTLE=0: bytes moved include the "
                "fill's compactions)" if "FILL_SETTLE=0" in config else "on the settled tree")
        out += [f"**Run A-E, open loop at {pct}% of {of}** (latency in ms; R = reads, "
                "or scans in Run E; W = updates, or "
                "inserts in Runs D and E; L0 depth / sublevels / files: the most L0 files "
                "over one key, the sorted runs L0 splits into (a ranged tree's reads "
                "search one file per sublevel), and all L0 files, when the run began, "
                f"{tree}; – where not recorded):", ""]
        out.append(table(["run", "system", "offered", "achieved", "R P50", "R P99",
                          "R P99.9", "W P99", "W P99.9", "max", "stall s / longest",
                          "bytes moved / written", "CPU µs/op", "L0 depth / sublevels / files"], rows))
        out.append("")
        out += render_read_target(runs, kind)
        out += render_ranged_read_target(runs, kind)
    out += render_machine([("-".join((k, w, d, s)), runs[(k, w, d, s)])
                           for k in ["closed"] + kinds for w, d in ordered_workloads(runs)
                           for s in systems if (k, w, d, s) in runs])
    return "\n".join(out)


def render_read_target(runs, kind):
    rows = []
    for d in ("uniform", "zipfian", "latest"):
        v, b = runs.get((kind, "a", d, OURS)), runs.get((kind, "a", d, BASELINE))
        if not (v and b and v["read"] and b["read"]):
            continue
        r = b["read"]["p99"] / v["read"]["p99"]
        rows.append([f"Run A {d}", f"{fmt(b['read']['p99'], 2)} / {fmt(v['read']['p99'], 2)} ms",
                     f"{r:.2f}×", "met" if r >= READ_TARGET else "**missed**"])
    if not rows:
        return []
    return [f"**Target: Run A read P99 at least {READ_TARGET}× lower than RocksDB-IO's** "
            f"({kind[3:]}% load):", "",
            table(["run", "RocksDB-IO / vLSM read P99", "ratio", "verdict"], rows), ""]


def render_ranged_read_target(runs, kind):
    """Issue 20's read target, per run: each ranged layout's read P99 (scan
    P99 in Run E) not above RocksDB's. L0 pieces cost reads (a lookup may
    check every L0 file over its key), so this is where they would show."""
    rows = []
    ranged = [s for s in systems_of({(k, s): None for k, _, _, s in runs})
              if s.startswith("vlsm-ranged")]
    for w, d in ordered_workloads(runs):
        b = runs.get((kind, w, d, "rocksdb"))
        for s in ranged:
            v = runs.get((kind, w, d, s))
            if not (v and b and v["read"] and b["read"]):
                continue
            r = v["read"]["p99"] / b["read"]["p99"]
            rows.append([f"Run {w.upper()} {d}", s,
                         f"{fmt(b['read']['p99'], 2)} / {fmt(v['read']['p99'], 2)} ms",
                         f"{r:.2f}×", "met" if r <= 1 else "**missed**"])
    if not rows:
        return []
    return [f"**Target: the ranged layout's read P99 (scans in Run E) not above "
            f"RocksDB's** ({kind[3:]}% load):", "",
            table(["run", "system", "RocksDB / ranged read P99", "ratio", "verdict"], rows),
            ""]


def figures(runs, fig_dir):
    os.makedirs(fig_dir, exist_ok=True)
    plot = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plot.py")
    systems = systems_of({(k, s): None for k, _, _, s in runs})
    for kind in sorted({k for k, _, _, _ in runs if k != "closed"}):
        data = os.path.join(fig_dir, f"run_p99_{kind[3:]}.csv")
        with open(data, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["group", "series", "read P99 (ms)", "write P99 (ms)"])
            for wl, d in ordered_workloads(runs):
                for s in systems:
                    fig = runs.get((kind, wl, d, s))
                    if fig:
                        w.writerow([f"Run {wl.upper()} {d}", s,
                                    fig["read"]["p99"] if fig["read"] else "",
                                    fig["write"]["p99"] if fig["write"] else ""])
        # plot.py's own interpreter (Debian's python3-matplotlib).
        subprocess.run([plot, "bars", data, "--log", "-o",
                        os.path.join(fig_dir, f"run_p99_{kind[3:]}.png")], check=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--markdown")
    ap.add_argument("--section", default="eval-runs")
    ap.add_argument("--json")
    ap.add_argument("--figures")
    a = ap.parse_args()
    runs, config, _ = read_out_dir(a.out, load_dir, "run_abcd.sh")
    publish(render(runs, config), a, {"/".join(k): v for k, v in sorted(runs.items())})
    if a.figures:
        figures(runs, a.figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
