#!/usr/bin/env python3
"""One table, side by side, from db_bench_vlsm runs (the report family's
member for db_bench: report.py and the others read ycsb_vlsm runs).

Each run is NAME=REPORT.json, the --vlsm_report of db_bench_vlsm; db_bench's
own output is read from the same path with .out instead of .json (written by
scripts/bench/lib.sh), for the throughput line and the latency histogram,
and the machine record (what else ran; scripts/bench/machine.sh) from
.machine.json, when there is one. Used by fill.sh, mixgraph.sh, fig13c.sh.

usage: report_db_bench.py [--json PATH] NAME=REPORT.json [NAME=REPORT.json ...]
"""
import json
import os
import re
import sys
from pathlib import Path

# The machine-record reader is shared with report.py, one level up.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from machine_record import machine_figures  # noqa: E402

RESULT_LINE = re.compile(r"^(\w+)\s*:\s*([\d.]+) micros/op (\d+) ops/sec", re.M)


def benchmark_result(out_text):
    """(benchmark, ops/s) of the last benchmark db_bench reported."""
    found = RESULT_LINE.findall(out_text)
    if not found:
        return None, None
    name, _, ops = found[-1]
    return name, int(ops)


def latency_percentiles(out_text, kind):
    """P99 and max microseconds of db_bench's 'Microseconds per <kind>:'."""
    sections = out_text.split("Microseconds per %s:" % kind)
    if len(sections) < 2:
        return None, None
    body = sections[-1]
    p99 = re.search(r"P99: ([\d.]+)", body)
    mx = re.search(r"Max: ([\d.]+)", body)
    return (float(p99.group(1)) if p99 else None,
            float(mx.group(1)) if mx else None)


def summarize(name, report_path):
    report_path = Path(report_path)
    report = json.loads(report_path.read_text())
    m = report["metrics"]
    out_path = report_path.with_suffix(".out")
    out = out_path.read_text(errors="replace") if out_path.exists() else ""
    bench, ops = benchmark_result(out)
    p99, mx = latency_percentiles(out, "write")
    levels = m["levels"]
    into_l1 = levels[1]["input_bytes_per_compaction"] if len(levels) > 1 else {}
    deeper = [l["input_bytes_per_compaction"]["max"] for l in levels[2:]]
    l1 = m["l1_vssts"]
    machine = machine_figures(str(report_path)) or {}  # none: an older run
    return {
        "name": name,
        "benchmark": bench,
        "ops_per_sec": ops,
        "vlsm": report["config"].get("vlsm"),
        "user_bytes": m["user_bytes"],
        "stall_count": m["stalls"]["count"],
        "stall_total_s": m["stalls"]["total_s"],
        "stall_longest_s": m["stalls"]["longest_s"],
        "writer_stall_s": m["stalls"]["writer_stall_s"],
        "write_p99_us": p99,
        "write_max_us": mx,
        "l0_l1_compactions": into_l1.get("count", 0),
        "l0_l1_input_max_bytes": into_l1.get("max", 0),
        "l0_l1_input_mean_bytes": into_l1.get("mean", 0),
        "deeper_input_max_bytes": max(deeper) if deeper else 0,
        "io_amplification": m["io_amplification"],
        "io_amplification_per_level": [l["io_amplification"] for l in levels],
        "cpu_us_per_op": m["cpu"]["cpu_us_per_op"],
        "l1_good_vssts": l1["good"],
        "l1_vssts": l1["good"] + l1["poor"],
        "l1_good_share": l1["good_share"] if l1["good"] + l1["poor"] else None,
        "files_per_level": m["tree"]["level_files"],
        "cpu_probe_ms": machine.get("cpu_probe_ms"),
        "other_cores": machine.get("other_cores"),
        "iowait_cores": machine.get("iowait_cores"),
        "steal_cores": machine.get("steal_cores"),
        "report": str(report_path),
    }


def mib(b):
    return "%.1f MiB" % (b / 2**20)


def opt(v, f):
    return "-" if v is None else f(v)


TABLE = [
    ("benchmark", lambda r: r["benchmark"] or "-"),
    ("throughput (ops/s)", lambda r: opt(r["ops_per_sec"], str)),
    ("write stalls (episodes)", lambda r: "%d" % r["stall_count"]),
    ("cumulative write stall (s)", lambda r: "%.2f" % r["stall_total_s"]),
    ("longest write stall (s)", lambda r: "%.2f" % r["stall_longest_s"]),
    ("writers waited (s)", lambda r: "%.2f" % r["writer_stall_s"]),
    ("P99 write latency (us)", lambda r: opt(r["write_p99_us"], lambda v: "%.1f" % v)),
    ("max write latency (ms)", lambda r: opt(r["write_max_us"], lambda v: "%.1f" % (v / 1e3))),
    ("L0->L1 compactions", lambda r: "%d" % r["l0_l1_compactions"]),
    ("L0->L1 input, max", lambda r: mib(r["l0_l1_input_max_bytes"])),
    ("L0->L1 input, mean", lambda r: mib(r["l0_l1_input_mean_bytes"])),
    ("deeper compaction input, max", lambda r: mib(r["deeper_input_max_bytes"])),
    ("I/O amplification", lambda r: "%.2f" % r["io_amplification"]),
    ("  per output level (0 = flush)", lambda r: " ".join("%.1f" % a for a in r["io_amplification_per_level"])),
    ("CPU per op (us)", lambda r: "%.2f" % r["cpu_us_per_op"]),
    ("L1 good vSSTs", lambda r: "%d/%d (%s)" % (r["l1_good_vssts"], r["l1_vssts"], opt(r["l1_good_share"], lambda v: "%.0f%%" % (100 * v)))),
    ("files per level", lambda r: " ".join(str(n) for n in r["files_per_level"])),
    # The machine during the run: a larger probe means a slower CPU, other
    # cores are what else ran (good to about 0.1 core; see machine.sh).
    ("machine: CPU probe (ms)", lambda r: opt(r["cpu_probe_ms"], str)),
    ("machine: other cores", lambda r: opt(r["other_cores"], lambda v: "%.2f" % v)),
    ("machine: I/O wait, steal (cores)", lambda r: "-" if r["iowait_cores"] is None
     else "%.2f, %.2f" % (r["iowait_cores"], r["steal_cores"])),
]


def main(argv):
    json_path = None
    if len(argv) > 2 and argv[1] == "--json":
        json_path, argv = argv[2], [argv[0]] + argv[3:]
    runs = [a.split("=", 1) for a in argv[1:]]
    if not runs or any(len(r) != 2 for r in runs):
        sys.stderr.write(__doc__)
        return 2
    rows = []
    for name, path in runs:
        try:
            rows.append(summarize(name, path))
        except (OSError, ValueError, KeyError) as e:
            sys.stderr.write("report_db_bench.py: %s: cannot read the report %s: %s\n"
                             % (name, path, e))
            return 1
    width = max(len(label) for label, _ in TABLE)
    col = max(20, max(len(r["name"]) for r in rows) + 2)
    print("%-*s" % (width, "") + "".join("%*s" % (col, r["name"]) for r in rows))
    for label, cell in TABLE:
        print("%-*s" % (width, label) + "".join("%*s" % (col, cell(r)) for r in rows))
    if json_path:
        Path(json_path).write_text(json.dumps(rows, indent=2) + "\n")
        print("figures written to %s" % json_path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
