#!/usr/bin/env python3
"""Where each run's compaction bytes went, level by level, per byte
flushed: the "level-costs" section of a page.

usage: level_costs.py DIR [--markdown FILE]... [--json FILE]

DIR (open, or packed in its parent's raw.tar.xz) holds ycsb_vlsm reports
(load_a.sh's load<pct>-<system>.json or sustainable-<system>.json). For
each, the regions summed: the flushes, then every level a compaction wrote
to (the collector keys a step by its output level), with the bytes it read
from the level above and from its own level, the bytes it wrote, the
trivial moves apart (they read and write nothing), and then the settle's
compactions (load_a.sh's SETTLE=1: the drain at rest apart from the rest).
Each kind's reads and writes are divided by the bytes flushed in the
phase, so that kinds compare across systems whose memtables held
different amounts at the phase's end (the second table gives the whole
phase per byte written too), and
"below / above" is what a step read from its output level per byte it
took from the level above (the cost of an L0 -> L1 step per L0 byte is
1 + that, plus what it writes).

Why: issue 52's device search left the ranged layout at 0.80x RocksDB-IO's
rate under one limiter with about equal bytes moved per byte written (8.80
against 8.70); this says which kind of step spends what.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import final_report  # noqa: E402  (NAMES)
from report import fmt, per_run_page, run_reports, table  # noqa: E402

MB = 1e6


def costs(rep):
    """{"flushed", "levels": [{level, compactions, moves, moved, above,
    below, written}], "settle": {drain, other} or None, "tree": [bytes per
    level at the phase's end]} of one report, the regions summed."""
    regions = rep["lsm_metrics"]
    levels = []
    for i in range(1, max(len(r["levels"]) for r in regions)):
        def total(key):
            return sum(r["levels"][i][key] for r in regions if i < len(r["levels"]))
        levels.append({"level": i, "compactions": total("compactions"),
                       "moves": total("trivial_moves"), "moved": total("trivial_move_bytes"),
                       "above": total("read_from_upper_bytes"),
                       "below": total("read_from_level_bytes"),
                       "written": total("written_bytes")})
    settle = rep.get("settle")
    if settle:
        drain = settle.get("drain_read_bytes", 0) + settle.get("drain_write_bytes", 0)
        settle = {"drain": drain,
                  "other": settle["compaction_read_bytes"] + settle["compaction_write_bytes"] - drain}
    depth = max(len(r["tree"]["level_bytes"]) for r in regions)
    tree = [sum(r["tree"]["level_bytes"][i] for r in regions if i < len(r["tree"]["level_bytes"]))
            for i in range(depth)]
    return {"written": sum(r["user_bytes"] for r in regions),
            "flushed": sum(r["flush_bytes"] for r in regions), "levels": levels,
            "settle": settle, "tree": tree}


def load_costs(out):
    """[(report name, system, costs)] of the reports in OUT, by name."""
    return [(run, system, costs(rep)) for run, system, rep in run_reports(out)]


def lines(found):
    rows = []
    for run, system, c in found:
        name = final_report.NAMES.get(system, system)
        fl = c["flushed"]

        def per_flushed(b):
            return fmt(b / fl, 3) if fl else "–"
        rows.append([run, name, "flushes", "–", "–", "–", "–", fmt(round(fl / MB)),
                     per_flushed(fl), "–"])
        moved = fl
        for lv in c["levels"]:
            rw = lv["above"] + lv["below"] + lv["written"]
            if lv["compactions"] == 0 and lv["moves"] == 0:
                continue
            moved += rw
            rows.append([run, name, f"into L{lv['level']}", fmt(lv["compactions"]),
                         f"{lv['moves']} ({fmt(round(lv['moved'] / MB))} MB)",
                         fmt(round(lv["above"] / MB)), fmt(round(lv["below"] / MB)),
                         fmt(round(lv["written"] / MB)), per_flushed(rw),
                         fmt(lv["below"] / lv["above"], 3) if lv["above"] else "–"])
        rows.append([run, name, "**phase, all**", "", "", "", "", "",
                     f"**{per_flushed(moved)}**", ""])
        if c["settle"]:
            for kind in ("drain", "other"):
                rows.append([run, name, "settle: " + ("drain at rest" if kind == "drain"
                                                      else "every other step"),
                             "", "", "", "", fmt(round(c["settle"][kind] / MB)),
                             per_flushed(c["settle"][kind]), ""])
    depth = max((len(c["tree"]) for _, _, c in found), default=0)
    trees = []
    for run, system, c in found:
        moved = c["flushed"] + sum(lv["above"] + lv["below"] + lv["written"]
                                   for lv in c["levels"])
        trees.append([run, final_report.NAMES.get(system, system),
                      fmt(round(c["written"] / MB)), fmt(round(c["flushed"] / MB)),
                      fmt(moved / c["written"], 3) if c["written"] else "–"] +
                     [fmt(round(b / MB)) for b in c["tree"]] +
                     ["–"] * (depth - len(c["tree"])))
    return ["**Where the compaction bytes went** (the regions summed; a compaction "
            "counts at the level it wrote to; MB read from the level above and from "
            "its own level, MB written; R + W per byte flushed in the phase; below / "
            "above: bytes read from the output level per byte taken from above):", "",
            table(["run", "system", "kind", "compactions", "trivial moves", "read above (MB)",
                   "read below (MB)", "written (MB)", "R + W per byte flushed",
                   "below / above"], rows), "",
            "**Per byte written, and the levels at the phase's end** (the regions "
            "summed; a store may hold written bytes in its memtables at the phase's "
            "end, which it flushes later: compare both columns):", "",
            table(["run", "system", "written (MB)", "flushed (MB)",
                   "moved per byte written"] + [f"L{i} (MB)" for i in range(depth)],
                  trees), ""]


def main(argv):
    return per_run_page(argv, __doc__, load_costs, "ycsb_vlsm (load_a.sh)", "level-costs", lines)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
