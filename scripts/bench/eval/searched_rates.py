#!/usr/bin/env python3
"""The evaluation on the final library (issue 41), run 5: the rates
find-sustainable settled on in the device-bound regime, every step it
tried, the ranged layout's rate against RocksDB-IO's, and the P99s of the
steps both searches made at the same rate on the same tree.

usage: searched_rates.py DIR [--markdown FILE]... [--json FILE]

DIR/search (open, or packed in DIR/raw.tar.xz) holds load_a.sh's
sustainable-<system>.json reports made with SEARCH=find-sustainable
(final_eval.sh device). --markdown FILE replaces FILE's "final-searched"
section (between "<!-- final-searched:begin -->" and its end); --json FILE
writes every figure shown.

Why a search and not a closed loop here: under a 100 MiB/s limiter a
closed loop fills the memtables far faster than the "device" empties
them, so its rate is the stall's, not the store's. find-sustainable offers
a rate for a step (at least two debt cycles long, so a step sees whole
flush-and-compact cycles), keeps it if the store kept up and its
compaction debt stopped growing, and bisects between the last rate kept
and the first refused (ycsb/sustainable_rate_search.cc).
"""
import csv
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import final_report  # noqa: E402  (NAMES, ORDER, run_names, still_going)
import run_status  # noqa: E402
from report import fmt, page_arguments, publish_sections, read_out_dir, table  # noqa: E402

SEARCH = "search"
REPORT = re.compile(r"sustainable-([\w-]+)\.json")
RANGED, ROCKSDB_IO = final_report.RANGED, final_report.ROCKSDB_IO


def load_searches(out):
    """{system: its report's "sustainable" object, with "regions" and
    "kept_record" (the kept step's stalls and queue peak) added} of one
    search directory; exits on a search that was stopped or counted
    errors."""
    found = {}
    for name in sorted(os.listdir(out)):
        m = REPORT.fullmatch(name)
        if not m:
            continue
        with open(os.path.join(out, name)) as f:
            rep = json.load(f)
        why = run_status.problem(rep)
        if why:
            sys.exit(f"searched_rates.py: {name} {why}: run its part again (the runs resume)")
        found[m[1]] = dict(rep["sustainable"], regions=int(rep["properties"]["regions"]),
                           kept_record=kept_record(rep, os.path.join(out, name[:-5] + ".csv")),
                           whole_search=whole_search(rep["lsm_metrics"]))
    return found


def whole_search(regions):
    """Every step of a search at once, summed over the regions: the bytes
    flushes and compactions moved per byte flushed (under a limiter on
    all I/O, what a rate costs the device), and the write stalls (time in
    the slow-down or stop state; stops; what the writers themselves
    waited, RocksDB's user write stall time), with the debt estimate's
    range through the longest stall."""
    # The longest spell, and what the debt estimate stood at through it
    # (the per-second samples inside it): above the soft limit all along
    # means the estimate held the writes back, not L0's file count.
    region, spell = max(((i, e) for i, m in enumerate(regions) for e in m["stalls"]["episodes"]),
                        key=lambda x: x[1]["duration_s"], default=(None, None))
    estimate = None
    if spell:
        inside = [x["pending_compaction_bytes"] for x in regions[region]["samples"]
                  if spell["start_s"] <= x["time_s"] <= spell["start_s"] + spell["duration_s"]]
        if inside:
            estimate = [min(inside), max(inside)]
    flushed = sum(m["flush_bytes"] for m in regions)
    moved = sum(m["flush_bytes"] + m["compaction_read_bytes"] + m["compaction_write_bytes"]
                for m in regions)
    return {"moved_per_flushed": moved / flushed if flushed else None,
            "stalled_s": sum(m["stalls"]["total_s"] for m in regions),
            "longest_stall_s": max(m["stalls"]["longest_s"] for m in regions),
            "stops": sum(m["stalls"]["stop_count"] for m in regions),
            "writer_stall_s": sum(m["stalls"]["writer_stall_s"] for m in regions),
            "longest_stall_estimate_bytes": estimate}


def kept_record(rep, csv_path):
    """What the kept step's store went through: a search keeps a rate when
    the queue is empty at the step's end, however long the store stalled
    on the way, so the rate alone can hide seconds of stall. The report's
    top-level figures and its per-interval CSV are the kept (best) step's
    (ycsb/sustainable_rate_search.cc). Stalled seconds: the intervals
    whose write_stalled flag is set, each counted for its length; None
    without the CSV."""
    stalled = seconds = None
    if os.path.exists(csv_path):
        stalled = previous = 0.0
        with open(csv_path) as f:
            for row in csv.DictReader(f):
                t = float(row["time_s"])
                if row["write_stalled"] == "1":
                    stalled += t - previous
                previous = t
        seconds = previous
    return {"stalled_s": stalled, "seconds": seconds, "max_queue_depth": rep["max_queue_depth"]}


def kept_step(search, regions):
    """The kept step (the highest rate kept) and the records written
    before it, per region; None if no step was kept."""
    written = 0.0
    for i, st in enumerate(search["steps"], 1):
        if st["sustained"] and st["target_ops_per_s"] == search["sustainable_ops_per_s"]:
            return dict(search["kept_record"], step=i, rate=st["target_ops_per_s"],
                        p99_us=st["p99_us"],
                        records_before_per_region=written / regions)
        written += st["achieved_ops_per_s"] * st["step_s"]
    return None


def same_tree_steps(ours, io, regions):
    """The steps both searches made at the same rate on the same tree.

    Both searches start from an empty DB and multiply the rate by the same
    factor until a step fails, so their first steps offer the same rates
    in the same order and write the same records: the same tree, each
    step a side-by-side run at that rate. A step counts while every
    earlier step offered the same rate to both and both kept it (a failed
    step leaves each store its own debt: the search drops a step's queue,
    not what the store owes). Worked
    example: both offer 16, 20, 25, 31 K ops/s and keep them; at 39 K
    RocksDB-IO keeps and we fail, so step 5 is compared and the
    bisection steps after it (each its own rates) are not."""
    rows, written = [], 0.0
    for i, (a, b) in enumerate(zip(ours, io), 1):
        if a["target_ops_per_s"] != b["target_ops_per_s"]:
            break
        rows.append({"step": i, "target_ops_per_s": b["target_ops_per_s"],
                     "records_before_per_region": written / regions,
                     "ours_p99_us": a["p99_us"], "rocksdb_io_p99_us": b["p99_us"],
                     "rocksdb_io_p99_over_ours": b["p99_us"] / a["p99_us"],
                     "kept": [a["sustained"], b["sustained"]]})
        if not (a["sustained"] and b["sustained"]):
            break
        written += b["achieved_ops_per_s"] * b["step_s"]
    return rows


def section(search_dir):
    """(the page's lines, the figures) of the searches in SEARCH_DIR."""
    found, _, _ = read_out_dir(search_dir, load_searches, "load_a.sh find-sustainable")
    systems = [s for s in final_report.ORDER if s in found] + sorted(
        s for s in found if s not in final_report.ORDER)
    rows, figures = [], {}
    for s in systems:
        steps = found[s]["steps"]
        for i, st in enumerate(steps, 1):
            rows.append([final_report.NAMES.get(s, s), str(i), fmt(int(st["target_ops_per_s"])),
                         fmt(round(st["achieved_ops_per_s"])), fmt(round(st["step_s"])),
                         fmt(st["p99_us"] / 1e3, 2),
                         fmt(st["compaction_debt_rise_bytes_per_s"] / 1e6, 2),
                         "yes" if st["sustained"] else f"no: {st['why_not']}"])
        figures[s] = {"sustainable_ops_per_s": found[s]["sustainable_ops_per_s"],
                      "steps": steps,
                      "kept_step": kept_step(found[s], found[s]["regions"]),
                      "whole_search": found[s]["whole_search"]}
    ours, io = figures.get(RANGED), figures.get(ROCKSDB_IO)
    ratio = (ours["sustainable_ops_per_s"] / io["sustainable_ops_per_s"]
             if ours and io and io["sustainable_ops_per_s"] else None)
    figures["ranged_over_rocksdb_io"] = ratio
    same = (same_tree_steps(ours["steps"], io["steps"], found[ROCKSDB_IO]["regions"])
            if ours and io else [])
    figures["same_tree_steps"] = same
    # How long a step lasts, as the reports give it: a number of debt
    # cycles (the step then lasts as long as writing them takes), or a
    # fixed length from a report older than the cycles.
    lengths = {(f.get("cycles_per_step"), round(f.get("cycle_bytes", 0) / (1 << 20)), f["step_s"])
               for f in found.values()}
    if len(lengths) > 1:
        step = "each system's steps as long as its report says"
    else:
        cycles, mib, seconds = lengths.pop()
        step = (f"each step at least {cycles} debt cycles of {mib:,} MiB long" if mib
                else f"steps of {seconds:g} s")
    rates = "; ".join(f"{final_report.NAMES.get(s, s)} {fmt(int(figures[s]['sustainable_ops_per_s']))} "
                      "ops/s" for s in systems)
    if ratio is not None:
        rates += f": the ranged layout's is {ratio:.2f}× RocksDB-IO's"
    lines = [f"**The searched rates** (find-sustainable on a growing tree, {step}; "
             "a step is kept if the store completed what was offered, its backlog did "
             "not grow and its compaction debt stopped rising): " + rates + ".", "",
             table(["system", "step", "offered (ops/s)", "achieved", "seconds", "P99 (ms)",
                    "debt rise (MB/s)", "kept"], rows), "",
             "**The kept steps** (a rate is kept when the queue is empty at the step's "
             "end, however long the store stalled on the way; stalled: the seconds "
             "whose write-stall flag was set):", "",
             table(["system", "rate kept (ops/s)", "step", "records before it (M per region)",
                    "P99 (ms)", "stalled (s of the step)", "queue peak (requests)"],
                   [kept_row(s, figures[s]["kept_step"]) for s in systems
                    if figures[s]["kept_step"]]), "",
             "**Over the whole search** (every step, the regions summed; stalled: time in "
             "the slow-down or stop state; writers waited: RocksDB's user write stall "
             "time):", "",
             table(["system", "bytes moved per byte flushed", "stalled (s)", "longest (s)",
                    "debt estimate through the longest (MiB)", "stops", "writers waited (s)"],
                   [[final_report.NAMES.get(s, s), fmt(w["moved_per_flushed"], 2),
                     fmt(round(w["stalled_s"])), fmt(round(w["longest_stall_s"])),
                     "–" if not w["longest_stall_estimate_bytes"] else
                     "–".join(fmt(b >> 20) for b in w["longest_stall_estimate_bytes"]),
                     fmt(w["stops"]), fmt(round(w["writer_stall_s"]))]
                    for s in systems for w in [figures[s]["whole_search"]]]), ""]
    if same:
        yes = {True: "yes", False: "no"}
        ratios = [r["rocksdb_io_p99_over_ours"] for r in same]
        lines += [f"**At the same rate on the same tree** (steps 1–{len(same)}: both searches "
                  "offered these rates in this order, from an empty DB, each after steps both "
                  "kept): RocksDB-IO's P99 is "
                  f"{min(ratios):.2f}–{max(ratios):.2f}× the ranged layout's.", "",
                  table(["step", "offered (ops/s)", "records before it (M per region)",
                         "ranged P99 (ms)", "RocksDB-IO P99 (ms)", "RocksDB-IO's / ours",
                         "kept (ranged / RocksDB-IO)"],
                        [[str(r["step"]), fmt(int(r["target_ops_per_s"])),
                          fmt(r["records_before_per_region"] / 1e6, 2),
                          fmt(r["ours_p99_us"] / 1e3, 2), fmt(r["rocksdb_io_p99_us"] / 1e3, 2),
                          fmt(r["rocksdb_io_p99_over_ours"], 2),
                          " / ".join(yes[k] for k in r["kept"])] for r in same]), ""]
    return lines, figures


def kept_row(system, k):
    stalled = ("–" if k["stalled_s"] is None
               else f"{fmt(round(k['stalled_s']))} of {fmt(round(k['seconds']))}")
    return [final_report.NAMES.get(system, system), fmt(int(k["rate"])), str(k["step"]),
            fmt(k["records_before_per_region"] / 1e6, 2), fmt(k["p99_us"] / 1e3, 2), stalled,
            fmt(k["max_queue_depth"])]


def main(argv):
    a = page_arguments(__doc__).parse_args(argv)
    if SEARCH not in final_report.run_names(a.dir, re.compile(SEARCH)):
        sys.exit(f"searched_rates.py: no {SEARCH} run in {a.dir}")
    if final_report.still_going(a.dir, SEARCH, REPORT.fullmatch):
        return 0
    lines, figures = section(os.path.join(a.dir, SEARCH))
    publish_sections({"final-searched": lines}, a, figures)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
