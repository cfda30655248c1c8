#!/usr/bin/env python3
"""The one-second dips of open-loop load_a.sh runs, and what the writes
spent their time on in them (issue 55).

usage: write_dips.py OUT_DIR [--factor 10] [--json FILE] [--seconds]

For every open-loop run in OUT_DIR (load<N>-<system>.csv, with its
load<N>-<system>.writes.csv from ycsb_vlsm's rocksdb.write_breakdown), a
row per run: its seconds, its median second's write P99, the DIPS (seconds
whose P99 is over FACTOR x that median, issue 55's count), and, in the dips
and in the other seconds, the mean write's time inside DB::Put as RocksDB
split it (ycsb/write_breakdown.h: the top-level parts wal, memtable,
delay, scheduling, pre_post, and `unseen`, the rest), with the memtables
sealed and table files finished per second. A dip's P99 is mostly
queueing (latency counts from each request's intended start): what
changes is how long each write holds a client thread, the service time;
this table says which part of it grew.

With the run's report (load<N>-<system>.json), it also counts the dips
that fall in, or just after, a second in which a compaction was running
(lsm_metrics' per-second samples, any region), beside how many of all
seconds do: whether the dips follow the compactions or the clock.

--seconds also prints every dip second's row. Runs without a writes CSV
are listed with their dips only. OUT_DIR may be a run packed in its
experiment's archive (docs/results/<experiment>/<run>). Exit 2: no
open-loop run in OUT_DIR.
"""
import argparse
import csv
import glob
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from results_archive import unpacked  # noqa: E402

TOP = ("wal", "memtable", "delay", "scheduling", "pre_post")
NESTED = ("write_thread_wait", "mutex_lock", "condition_wait", "wal_fsync")
RUN = re.compile(r"^load(?P<load>\d+)-(?P<system>.+)\.csv$")


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def seconds_of(intervals, writes_rows):
    """Per interval: time, P99 (µs) and the regions' write breakdown summed."""
    by_time = {}
    for w in writes_rows:
        t = w["time_s"]
        acc = by_time.setdefault(t, {})
        for k, v in w.items():
            if k in ("time_s", "region"):
                continue
            acc[k] = acc.get(k, 0) + float(v)
    out = []
    for row in intervals:
        p99 = float(row["insert_p99_us"] or 0) or float(row["update_p99_us"] or 0)
        out.append({"time_s": float(row["time_s"]), "p99_us": p99,
                    "achieved": float(row["achieved_ops_per_s"]),
                    "writes": by_time.get(row["time_s"])})
    return out


def mean_write(secs):
    """The mean write's µs per part over seconds SECS (with breakdowns)."""
    rows = [s["writes"] for s in secs if s["writes"] and s["writes"]["writes"] > 0]
    if not rows:
        return None
    n = sum(r["writes"] for r in rows)
    m = {"writes": n, "total": sum(r["total_us"] for r in rows) / n}
    for p in TOP + NESTED:
        m[p] = sum(r[p + "_us"] for r in rows) / n
    m["unseen"] = m["total"] - sum(m[p] for p in TOP)
    m["memtables_sealed_per_s"] = sum(r["memtables_sealed"] for r in rows) / len(rows)
    m["tables_per_s"] = sum(r["tables_created"] for r in rows) / len(rows)
    return m


def compacting(report_path, secs, dips):
    """{dips, dips_compacting, seconds, seconds_compacting}: a second counts
    as compacting when a compaction ran in it or in the second before (a
    step's CPU and I/O reach the writers a little after it starts); None
    without the report or its samples."""
    if not os.path.exists(report_path):
        return None
    with open(report_path) as f:
        regions = json.load(f).get("lsm_metrics") or []
    running = {}
    for region in regions:
        for s in region.get("samples", []):
            second = round(s["time_s"])
            running[second] = running.get(second, 0) + s.get("running_compactions", 0)
    if not running:
        return None

    def busy(t):
        second = round(t)
        return running.get(second, 0) > 0 or running.get(second - 1, 0) > 0
    return {"dips": len(dips), "dips_compacting": sum(busy(s["time_s"]) for s in dips),
            "seconds": len(secs), "seconds_compacting": sum(busy(s["time_s"]) for s in secs)}


def analyse(out_dir, factor):
    runs = []
    for path in sorted(glob.glob(os.path.join(out_dir, "load*-*.csv"))):
        name = os.path.basename(path)
        m = RUN.match(name)
        if not m or name.endswith(".writes.csv"):
            continue
        writes_path = path[:-4] + ".writes.csv"
        writes = read_csv(writes_path) if os.path.exists(writes_path) else []
        secs = seconds_of(read_csv(path), writes)
        if not secs:
            continue
        median = statistics.median(s["p99_us"] for s in secs)
        dips = [s for s in secs if s["p99_us"] > factor * median]
        rest = [s for s in secs if s["p99_us"] <= factor * median]
        runs.append({"load": int(m["load"]), "system": m["system"],
                     "seconds": len(secs), "median_second_p99_ms": median / 1e3,
                     "dips": len(dips), "dip_seconds": [s["time_s"] for s in dips],
                     "in_dips": mean_write(dips), "elsewhere": mean_write(rest),
                     "compacting": compacting(path[:-4] + ".json", secs, dips),
                     "dip_rows": dips})
    return runs


def fmt(m):
    if not m:
        return "-"
    return ("%.1f = wal %.1f + mem %.1f + delay %.1f + sched %.1f + pre_post %.1f "
            "(thread wait %.1f) + unseen %.1f; mutex %.1f/%.1f; %.2f memtables/s"
            % (m["total"], m["wal"], m["memtable"], m["delay"], m["scheduling"],
               m["pre_post"], m["write_thread_wait"], m["unseen"],
               m["mutex_lock"], m["condition_wait"], m["memtables_sealed_per_s"]))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("out_dir")
    p.add_argument("--factor", type=float, default=10.0)
    p.add_argument("--json")
    p.add_argument("--seconds", action="store_true")
    a = p.parse_args()
    if a.factor <= 1:
        p.error("--factor must be over 1")
    runs = analyse(unpacked(a.out_dir), a.factor)
    if not runs:
        print("write_dips.py: no open-loop run (load<N>-<system>.csv) in %s"
              % a.out_dir, file=sys.stderr)
        sys.exit(2)
    print("dips: seconds with a write P99 over %gx the run's median second; "
          "the mean write's µs inside DB::Put, in the dips | elsewhere" % a.factor)
    for r in runs:
        print("\nload %d%% %s: %d s, median second P99 %.2f ms, %d dips"
              % (r["load"], r["system"], r["seconds"], r["median_second_p99_ms"],
                 r["dips"]))
        print("  in dips:   " + fmt(r["in_dips"]))
        print("  elsewhere: " + fmt(r["elsewhere"]))
        c = r["compacting"]
        if c:
            print("  %d of %d dips in or just after a second with a compaction running; "
                  "%d of all %d seconds" % (c["dips_compacting"], c["dips"],
                                           c["seconds_compacting"], c["seconds"]))
        if a.seconds:
            for s in r["dip_rows"]:
                w = s["writes"]
                per = (lambda k: w[k + "_us"] / w["writes"]) if w and w["writes"] else None
                print("    %7.1f s  P99 %8.1f ms  %7.0f ops/s%s"
                      % (s["time_s"], s["p99_us"] / 1e3, s["achieved"],
                         "  µs/write: total %.1f wal %.1f mem %.1f delay %.1f "
                         "sched %.1f pre_post %.1f; %d sealed"
                         % (per("total"), per("wal"), per("memtable"), per("delay"),
                            per("scheduling"), per("pre_post"),
                            w["memtables_sealed"]) if per else ""))
    if a.json:
        with open(a.json, "w") as f:
            json.dump([{k: v for k, v in r.items() if k != "dip_rows"} for r in runs],
                      f, indent=1)


if __name__ == "__main__":
    main()
