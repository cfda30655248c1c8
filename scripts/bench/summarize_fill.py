#!/usr/bin/env python3
"""Summarize db_bench fill runs side by side (scripts/demo.sh).

For each run directory (made by demo.sh) it reads:
  db_bench.out   db_bench's output (--statistics --histogram)
  time.txt       "user sys" CPU seconds of the db_bench process
  tree.json      tools/vlsm_tree_report on the final DB
  LOG            RocksDB's info log (EVENT_LOG_v1 compaction events)
and prints one table; with --json PATH also writes the figures as JSON.

usage: summarize_fill.py [--json PATH] NAME=RUN_DIR [NAME=RUN_DIR ...]
"""
import json
import re
import statistics
import sys
from pathlib import Path


def ticker(text, name):
    m = re.search(r"^%s COUNT : (\d+)" % re.escape(name), text, re.M)
    return int(m.group(1)) if m else 0


def fill_line(text):
    m = re.search(r"^fillrandom\s*:\s*([\d.]+) micros/op (\d+) ops/sec", text, re.M)
    if not m:
        raise ValueError("no fillrandom result line in db_bench output")
    return float(m.group(1)), int(m.group(2))


def write_latency(text):
    """P99 and max microseconds of the fillrandom histogram."""
    sect = text.split("Microseconds per write:", 1)
    if len(sect) < 2:
        return None, None
    body = sect[1]
    p99 = re.search(r"P99: ([\d.]+)", body)
    mx = re.search(r"Max: ([\d.]+)", body)
    return (float(p99.group(1)) if p99 else None, float(mx.group(1)) if mx else None)


def compaction_events(log_text):
    """Input bytes of every compaction, split into L0->L1 and the others."""
    l0, other = [], []
    for line in log_text.splitlines():
        i = line.find("EVENT_LOG_v1 ")
        if i < 0:
            continue
        try:
            ev = json.loads(line[i + len("EVENT_LOG_v1 "):])
        except ValueError:
            continue
        if ev.get("event") != "compaction_started":
            continue
        size = int(ev.get("input_data_size", 0))
        (l0 if "files_L0" in ev else other).append(size)
    return l0, other


def summarize(name, run):
    run = Path(run)
    out = (run / "db_bench.out").read_text()
    micros, ops_sec = fill_line(out)
    user_sys = [float(x) for x in (run / "time.txt").read_text().split()[:2]]
    tree = json.loads((run / "tree.json").read_text())
    log = (run / "LOG").read_text(errors="replace") if (run / "LOG").exists() else ""
    l0, other = compaction_events(log)
    user_bytes = ticker(out, "rocksdb.bytes.written")
    flush_w = ticker(out, "rocksdb.flush.write.bytes")
    comp_r = ticker(out, "rocksdb.compact.read.bytes")
    comp_w = ticker(out, "rocksdb.compact.write.bytes")
    keys = ticker(out, "rocksdb.number.keys.written")
    p99, max_us = write_latency(out)
    good, poor = tree["l1_good_vssts"], tree["l1_poor_vssts"]
    return {
        "name": name,
        "ops_per_sec": ops_sec,
        "keys_written": keys,
        "user_bytes": user_bytes,
        "stall_seconds": ticker(out, "rocksdb.stall.micros") / 1e6,
        "write_p99_us": p99,
        "write_max_us": max_us,
        "l0_l1_compactions": len(l0),
        "l0_l1_input_max_bytes": max(l0) if l0 else 0,
        "l0_l1_input_mean_bytes": statistics.mean(l0) if l0 else 0,
        "other_compactions": len(other),
        "other_input_max_bytes": max(other) if other else 0,
        "io_amplification": (flush_w + comp_r + comp_w) / user_bytes if user_bytes else None,
        "flush_write_bytes": flush_w,
        "compaction_read_bytes": comp_r,
        "compaction_write_bytes": comp_w,
        "cpu_seconds": sum(user_sys),
        "cpu_us_per_write": sum(user_sys) * 1e6 / keys if keys else None,
        "l1_good_vssts": good,
        "l1_poor_vssts": poor,
        "l1_good_share": good / (good + poor) if good + poor else None,
        "levels": tree["levels"],
    }


def mib(b):
    return "%.1f MiB" % (b / 2**20)


def fmt(v, f):
    return "-" if v is None else f(v)


def main(argv):
    json_path = None
    if len(argv) > 1 and argv[1] == "--json":
        json_path, argv = argv[2], [argv[0]] + argv[3:]
    runs = [a.split("=", 1) for a in argv[1:]]
    if not runs or any(len(r) != 2 for r in runs):
        sys.exit(__doc__)
    rows = [summarize(n, d) for n, d in runs]
    table = [
        ("throughput (ops/s)", lambda r: "%d" % r["ops_per_sec"]),
        ("cumulative write stall (s)", lambda r: "%.2f" % r["stall_seconds"]),
        ("longest write (max latency, ms)", lambda r: fmt(r["write_max_us"], lambda v: "%.1f" % (v / 1e3))),
        ("P99 write latency (us)", lambda r: fmt(r["write_p99_us"], lambda v: "%.1f" % v)),
        ("L0->L1 compactions", lambda r: "%d" % r["l0_l1_compactions"]),
        ("L0->L1 input, max", lambda r: mib(r["l0_l1_input_max_bytes"])),
        ("L0->L1 input, mean", lambda r: mib(r["l0_l1_input_mean_bytes"])),
        ("other compactions (max input)", lambda r: "%d (%s)" % (r["other_compactions"], mib(r["other_input_max_bytes"]))),
        ("I/O amplification", lambda r: fmt(r["io_amplification"], lambda v: "%.2f" % v)),
        ("CPU per write (us)", lambda r: fmt(r["cpu_us_per_write"], lambda v: "%.2f" % v)),
        ("L1 good vSSTs (share)", lambda r: "%d/%d (%s)" % (r["l1_good_vssts"], r["l1_good_vssts"] + r["l1_poor_vssts"], fmt(r["l1_good_share"], lambda v: "%.0f%%" % (100 * v)))),
        ("files per level", lambda r: " ".join(str(l["files"]) for l in r["levels"])),
    ]
    width = max(len(t[0]) for t in table)
    col = max(18, max(len(r["name"]) for r in rows) + 2)
    print("%-*s" % (width, "") + "".join("%*s" % (col, r["name"]) for r in rows))
    for label, f in table:
        print("%-*s" % (width, label) + "".join("%*s" % (col, f(r)) for r in rows))
    if json_path:
        Path(json_path).write_text(json.dumps(rows, indent=2) + "\n")
        print("figures written to %s" % json_path)


if __name__ == "__main__":
    main(sys.argv)
