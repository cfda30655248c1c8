#!/usr/bin/env python3
"""The evaluation on the final library (issue 41), run 4: reads. The ranged
layout's read and write tails beside RocksDB's and RocksDB-IO's in YCSB's
Runs A-E after Load A, over repeated runs, and in Run A while the load's
compaction debt is still being paid.

usage: final_reads.py DIR [--markdown FILE]... [--json FILE] [--ranged SYSTEM]

DIR holds run_abcd.sh output directories, open or packed in DIR/raw.tar.xz
(final_eval.sh reads fills it):
  r1..rN   Runs A-E after Load A on the settled tree, each open loop at 80%
           of RocksDB's closed-loop rate for that workload in that run;
  during   Run A at 80% of RocksDB's median Run A rate over r1..rN, begun
           on the load's unpaid debt (run_abcd.sh FILL_SETTLE=0): reads
           meet the compactions the load left, as they would in service.
--markdown FILE replaces the sections FILE has of three, "final-reads" (the
runs' medians), "final-reads-targets" (the read targets, the run during the
load's among them) and "final-reads-during", each between
"<!-- TAG:begin -->" and "<!-- TAG:end -->"; a FILE with neither is an
error. --json FILE writes every figure shown. --ranged SYSTEM names the
ranged system judged (default vlsm-ranged-rs32-io, the evaluation's; the
preset since issue 52 is vlsm-ranged-rs32-deep, issue 54's runs).

The targets (issue 41, docs/results/targets.md): read P99 (scan P99 in
Run E) not above RocksDB's in every run of A-E, and Run A's read P99 at
least 5x below RocksDB-IO's, where reads wait behind its write stalls.
Each ratio is taken inside one run, between systems that ran side by
side, then the median over the runs, as final_report.py takes them.
"""
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import final_report  # noqa: E402  (run_names, median_spread, NAMES)
import report_runs  # noqa: E402  (one run_abcd.sh directory's figures)
from report import (RUNS_REPORT, fmt, kept_up, page_arguments, publish_sections,  # noqa: E402
                    read_out_dir, table)

ROCKSDB, ROCKSDB_IO, RANGED = final_report.ROCKSDB, final_report.ROCKSDB_IO, final_report.RANGED


def order(ranged):
    """The systems in table order: the ranged one judged, then the RocksDBs."""
    return [ranged, ROCKSDB, ROCKSDB_IO]


REPEAT = re.compile(r"r(\d+)")
DURING = "during"
RUN_A_FACTOR = 5  # Run A read P99: RocksDB-IO's at least this many times ours


def is_open_loop_report(name):
    """Whether NAME is a run_abcd.sh report of its open-loop phase."""
    m = RUNS_REPORT.fullmatch(name)
    return bool(m) and m[1] != "closed"


def read_experiment(exp):
    """([(run name, {(kind, workload, distribution, system): figures})],
    the "during" run's or None)."""
    named = [(n, runs) for n, runs, _ in final_report.read_runs(
        exp, REPEAT, is_open_loop_report, report_runs.load_dir, "run_abcd.sh", "final_reads.py",
        "r<N>")]
    during = None
    if DURING in final_report.run_names(exp, re.compile(DURING)):
        during = read_out_dir(os.path.join(exp, DURING), report_runs.load_dir, "run_abcd.sh")[0]
    return named, during


def open_loop(runs):
    """{(workload, distribution, system): figures} of one run's open-loop
    phase (run_abcd.sh runs one load, "run<pct>")."""
    kinds = {k for k, _, _, _ in runs if k != "closed"}
    if len(kinds) > 1:
        sys.exit(f"final_reads.py: a run with several loads ({', '.join(sorted(kinds))})")
    return {(w, d, s): f for (k, w, d, s), f in runs.items() if k != "closed"}


def workloads(named):
    keys = {(w, d) for _, runs in named for (_, w, d, _) in runs}
    return sorted(keys, key=lambda k: (report_runs.WORKLOAD_ORDER.index(k[0]), k[1]))


def p99(f, side):
    return f[side]["p99"] if f and f[side] else None


def ratio(a, b):
    return a / b if a is not None and b else None


def medians(named, ranged=RANGED):
    """The table of every workload and system: medians over the runs (spread)."""
    rows, figures = [], {}
    for w, d in workloads(named):
        for s in order(ranged):
            per_run = [(runs.get(("closed", w, d, s)), open_loop(runs).get((w, d, s)))
                       for _, runs in named]
            per_run = [(c, o) for c, o in per_run if o]
            if not per_run:
                continue
            closed = [c["achieved_ops_per_s"] / 1e3 for c, _ in per_run if c]
            cells = {"closed-loop rate (K/s)": final_report.median_spread(closed),
                     "read P99 (ms)": final_report.median_spread(
                         [p99(o, "read") for _, o in per_run], 2),
                     "read P99.9 (ms)": final_report.median_spread(
                         [o["read"]["p99.9"] if o["read"] else None for _, o in per_run], 2),
                     "write P99 (ms)": final_report.median_spread(
                         [p99(o, "write") for _, o in per_run], 2),
                     "client demand": final_report.median_spread(
                         [o["client_demand"] for _, o in per_run], 2),
                     "stall total (s)": final_report.median_spread(
                         [o["stall_s"] for _, o in per_run])}
            up = sum(kept_up(o) for _, o in per_run)
            rows.append([f"Run {w.upper()}", final_report.NAMES.get(s, s), str(len(per_run)),
                         f"{up} of {len(per_run)}"] + [shown for shown, _ in cells.values()])
            figures[f"{w}-{d}/{s}"] = {"runs": len(per_run), "kept_up": up,
                                       **{k: m for k, (_, m) in cells.items()}}
    header = ["run", "system", "runs", "kept up", "closed-loop rate (K/s)",
              "read P99 (ms)", "read P99.9 (ms)", "write P99 (ms)", "client demand",
              "stall total (s)"]
    return table(header, rows), figures


def targets(named, during=None, ranged=RANGED):
    """[(figure, target, per-run values, median, verdict)]: for every
    workload the ranged read P99 over RocksDB's (at most 1), and for Run A
    RocksDB-IO's over ours (at least RUN_A_FACTOR); then the same two for
    the run during the load, when there is one."""
    judged = []

    def judge(name, per_run):  # per_run: [{system: figures}] of one workload
        over_rocksdb = [ratio(p99(o.get(ranged), "read"), p99(o.get(ROCKSDB), "read"))
                        for o in per_run]
        judged.append((f"{name} × RocksDB's", "≤ 1×", over_rocksdb, lambda m: m <= 1))
        if name.startswith("Run A"):
            judged.append((f"{name}: RocksDB-IO's / ours", f"≥ {RUN_A_FACTOR}×",
                           [ratio(p99(o.get(ROCKSDB_IO), "read"), p99(o.get(ranged), "read"))
                            for o in per_run],
                           lambda m: m >= RUN_A_FACTOR))
    for w, d in workloads(named):
        per_run = [{s: f for (w2, d2, s), f in open_loop(runs).items() if (w2, d2) == (w, d)}
                   for _, runs in named]
        judge(f"Run {w.upper()} {'scan' if w == 'e' else 'read'} P99", per_run)
    if during:
        judge("Run A during the load, read P99", [run_a(during)])
    out = []
    for name, target, values, meets in judged:
        known = [v for v in values if v is not None]
        med = statistics.median(known) if known else None
        verdict = "–" if med is None else ("met" if meets(med) else "**missed**")
        out.append((name, target, values, med, verdict))
    return out


def render_targets(judged, runs):
    return ["**The read targets** (ratios inside one run, then the median over "
            f"the {runs} runs; during the load, one run):", "",
            table(["figure", "target", "median (spread)", "verdict"],
                  [[n, t, final_report.median_spread(v, 2)[0], verdict]
                   for n, t, v, _, verdict in judged]), ""]


def render_repeats(named, ranged=RANGED):
    text, figures = medians(named, ranged)
    pcts = sorted({k[3:] for _, runs in named for k, _, _, _ in runs if k != "closed"})
    lines = [f"Runs A-E at {'/'.join(pcts)}% of RocksDB's closed-loop rate for each workload, "
             f"after Load A, the tree settled; the median of {len(named)} "
             f"run{'s' if len(named) > 1 else ''}, spread in brackets "
             "(Run E's read side is its scans; its write side, like Run D's, inserts; "
             "client demand as in the first table, reads and writes together):", "",
             text, ""]
    return lines, figures


def run_a(runs):
    """{system: figures} of the run during the load, which must be one Run A."""
    o = open_loop(runs)
    if {w for w, _, _ in o} != {"a"} or len({d for _, d, _ in o}) > 1:
        sys.exit("final_reads.py: the run during the load must be Run A, one distribution")
    return {s: f for (_, _, s), f in o.items()}


def render_during(runs, ranged=RANGED):
    """Run A on the load's unpaid debt: one run, every system."""
    o = open_loop(runs)
    run_a(runs)
    rows, figures = [], {}
    systems = order(ranged)
    for (w, d, s), f in sorted(o.items(), key=lambda kv: systems.index(kv[0][2])
                               if kv[0][2] in systems else len(systems)):
        rows.append([final_report.NAMES.get(s, s), fmt(int(f["offered_ops_per_s"])),
                     fmt(int(f["achieved_ops_per_s"])), fmt(p99(f, "read"), 2),
                     fmt(f["read"]["p99.9"] if f["read"] else None, 2), fmt(p99(f, "write"), 2),
                     f"{fmt(f['stall_s'])} / {fmt(f['longest_stall_s'], 2)}"])
        figures[s] = {"read_p99_ms": p99(f, "read"), "write_p99_ms": p99(f, "write"),
                      "stall_s": f["stall_s"], "kept_up": kept_up(f)}
    lines = ["Run A while the load's compactions still run (one run; latency in ms; "
             "the load did not settle, so every system starts on its debt):", "",
             table(["system", "offered", "achieved", "read P99", "read P99.9", "write P99",
                    "stall total / longest (s)"], rows), ""]
    return lines, figures


def main(argv):
    ap = page_arguments(__doc__)
    ap.add_argument("--ranged", default=RANGED)
    a = ap.parse_args(argv)
    named, during = read_experiment(a.dir)
    repeat_lines, repeat_figures = render_repeats(named, a.ranged)
    judged = targets(named, during, a.ranged)
    sections = {"final-reads": repeat_lines,
                "final-reads-targets": render_targets(judged, len(named))}
    during_figures = None
    if during:
        sections["final-reads-during"], during_figures = render_during(during, a.ranged)
    publish_sections(sections, a, {
        "runs": repeat_figures,
        "targets": [{"figure": n, "target": t, "runs": [final_report.finite(x) for x in v],
                     "median": final_report.finite(m), "verdict": d}
                    for n, t, v, m, d in judged],
        "during": during_figures})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
