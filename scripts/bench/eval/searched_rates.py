#!/usr/bin/env python3
"""The evaluation on the final library (issue 41), run 5: the rates
find-sustainable settled on in the device-bound regime, every step it
tried, the ranged layout's rate against RocksDB-IO's, and the P99s of the
steps both searches made at the same rate on the same tree.

usage: searched_rates.py DIR [--markdown FILE]... [--json FILE] [--ranged SYSTEM] [--per-step]

DIR/search (open, or packed in DIR/raw.tar.xz) holds load_a.sh's
sustainable-<system>.json reports made with SEARCH=find-sustainable
(final_eval.sh device). --markdown FILE replaces FILE's "final-searched"
section (between "<!-- final-searched:begin -->" and its end); --json FILE
writes every figure shown. --per-step also writes the "search-steps"
section: each step's compaction slots busy, and the debt estimate and
L0's bytes at its start and end (step_states). --ranged SYSTEM: which of the searched systems
is the ranged layout set against RocksDB-IO (default the evaluation's,
vlsm-ranged-rs32-io; issue 52's search used the preset since,
vlsm-ranged-rs32-deep).

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
import limiter_charge as charges  # noqa: E402  (charge, per_counted)
import run_status  # noqa: E402
from report import (RUN_REPORT, beside, compaction_bytes, fmt, page_arguments,  # noqa: E402
                    publish_sections, read_out_dir, reports_in, store_figures, table)

SEARCH = "search"
RANGED, ROCKSDB_IO = final_report.RANGED, final_report.ROCKSDB_IO


def is_search_report(name):
    """Whether NAME is a find-sustainable search's report."""
    m = RUN_REPORT.fullmatch(name)
    return bool(m) and m[1] == "sustainable"


def load_searches(out):
    """{system: its report's "sustainable" object, with "regions", "run"
    (report.store_figures of the report: its stalls and I/O over every
    step; its per-second figures are the kept step's, None without the
    CSV), "stops", "longest_spell_estimate" and "max_queue_depth" added}
    of one search directory; exits on a search that was stopped or
    counted errors."""
    found = {}
    for m, path in reports_in(out, RUN_REPORT):
        if m[1] != "sustainable":
            continue
        name = os.path.basename(path)
        with open(path) as f:
            rep = json.load(f)
        why = run_status.problem(rep)
        if why:
            sys.exit(f"searched_rates.py: {name} {why}: run its part again (the runs resume)")
        # The per-second CSV is the kept (best) step's: a search's report
        # describes that step (ycsb/sustainable_rate_search.cc), its
        # lsm_metrics every step.
        rows = None
        csv_path = beside(path, ".csv")
        if os.path.exists(csv_path):
            with open(csv_path) as f:
                rows = list(csv.DictReader(f))
        run = store_figures(rep, rows or [])
        if rows is None:
            run["seconds_stalled"] = run["seconds"] = None
        regions = rep["lsm_metrics"]
        found[m[2]] = dict(rep["sustainable"], regions=int(rep["properties"]["regions"]), run=run,
                           samples=[r["samples"] for r in regions],
                           compaction_bytes=compaction_bytes(regions),
                           charge=charges.charge(rep),
                           stops=sum(r["stalls"]["stop_count"] for r in regions),
                           longest_spell_estimate=longest_spell_estimate(regions),
                           max_queue_depth=rep["max_queue_depth"])
    return found


def longest_spell_estimate(regions):
    """[min, max] of the debt estimate through the longest stall of any
    region (the per-second samples inside it), None without a stall:
    above the soft limit all along means the estimate held the writes
    back, not L0's file count."""
    region, spell = max(((i, e) for i, m in enumerate(regions) for e in m["stalls"]["episodes"]),
                        key=lambda x: x[1]["duration_s"], default=(None, None))
    if not spell:
        return None
    inside = [x["pending_compaction_bytes"] for x in regions[region]["samples"]
              if spell["start_s"] <= x["time_s"] <= spell["start_s"] + spell["duration_s"]]
    return [min(inside), max(inside)] if inside else None


def records_before(steps, regions):
    """The records written before each step, per region: a search writes
    on one growing tree, so step i meets what steps 1..i-1 wrote."""
    before, written = [], 0.0
    for st in steps:
        before.append(written / regions)
        written += st["achieved_ops_per_s"] * st["step_s"]
    return before


def kept_step(search):
    """The kept step (the highest rate kept) with the tree it met and what
    its store went through: a search keeps a rate when the queue is empty
    at the step's end, however long the store stalled on the way, so the
    rate alone can hide seconds of stall. None if no step was kept."""
    before = records_before(search["steps"], search["regions"])
    for i, st in enumerate(search["steps"]):
        if st["sustained"] and st["target_ops_per_s"] == search["sustainable_ops_per_s"]:
            run = search["run"]
            return {"step": i + 1, "rate": st["target_ops_per_s"], "p99_us": st["p99_us"],
                    "records_before_per_region": before[i],
                    "stalled_s": run["seconds_stalled"], "seconds": run["seconds"],
                    "max_queue_depth": search["max_queue_depth"]}
    return None


def ordered_systems(found):
    """The searched systems in the evaluation's order, others after."""
    return [s for s in final_report.ORDER if s in found] + sorted(
        s for s in found if s not in final_report.ORDER)


def step_windows(steps):
    """[start_s, end_s) of each step on the run's clock (the steps follow
    one another on one tree, as the per-second samples count time)."""
    windows, t = [], 0.0
    for st in steps:
        windows.append((t, t + st["step_s"]))
        t += st["step_s"]
    return windows


def step_states(search):
    """Per step, what the regions' per-second samples say (means over the
    regions): the compactions running (a region runs at most one at a time
    with 2 background jobs, so 1.0 is every slot busy all the step), and
    the debt estimate and L0's bytes in the step's first and last second
    (a debt that climbs from start to end is compaction falling behind; a
    sawtooth that returns is not)."""
    states = []
    for start, end in step_windows(search["steps"]):
        inside = [[x for x in region if start <= x["time_s"] < end]
                  for region in search["samples"]]
        inside = [r for r in inside if r]
        if not inside:
            states.append(None)
            continue
        n = len(inside)
        states.append({
            "running_compactions": sum(sum(x["running_compactions"] for x in r) / len(r)
                                       for r in inside) / n,
            "debt_first_bytes": sum(r[0]["pending_compaction_bytes"] for r in inside) / n,
            "debt_last_bytes": sum(r[-1]["pending_compaction_bytes"] for r in inside) / n,
            "l0_first_bytes": sum(r[0]["l0_bytes"] for r in inside) / n,
            "l0_last_bytes": sum(r[-1]["l0_bytes"] for r in inside) / n})
    return states


def busy_slot_rate(search, states):
    """Compaction bytes (read and written, every region) per second of a
    busy compaction slot over the whole search: the bytes over the sum of
    each step's length times its mean slots busy times the regions. Under
    one device limit, a store whose busy slots move fewer bytes a second
    than another's spends its compaction time on something besides the
    device. None without samples."""
    busy_s = sum(st["step_s"] * state["running_compactions"] * search["regions"]
                 for st, state in zip(search["steps"], states) if state)
    return search["compaction_bytes"] / busy_s if busy_s else None


def limiter_charge(search):
    """What the device limiter charged over the whole search per byte the
    flushes and compactions counted (limiter_charge.py's "all": a search
    that stalls charges both at IO_USER then); None for a report without
    the limiter's count (made before ycsb_vlsm reported it)."""
    c = search.get("charge")
    return charges.per_counted(c["phase"]["all"]) if c else None


def step_state_lines(found, systems):
    """The page's lines for step_states (--per-step)."""
    rows = []
    for s in systems:
        for i, (st, state) in enumerate(zip(found[s]["steps"], step_states(found[s])), 1):
            if state is None:
                continue
            rows.append([final_report.NAMES.get(s, s), str(i), fmt(int(st["target_ops_per_s"])),
                         "yes" if st["sustained"] else "no",
                         fmt(state["running_compactions"], 2),
                         f"{fmt(round(state['debt_first_bytes'] / 2**20))} → "
                         f"{fmt(round(state['debt_last_bytes'] / 2**20))}",
                         f"{fmt(round(state['l0_first_bytes'] / 2**20))} → "
                         f"{fmt(round(state['l0_last_bytes'] / 2**20))}"])
    rates = []
    for s in systems:
        rate = busy_slot_rate(found[s], step_states(found[s]))
        if rate is not None:
            rates.append(f"{final_report.NAMES.get(s, s)} {rate / 1e6:.1f} MB/s")
    after = []
    if rates:
        after += ["", "**Compaction bytes per busy slot-second** (read and written, over the "
                  "whole search; every region's busy slots share the one limit): " +
                  "; ".join(rates) + "."]
    ratios = {s: limiter_charge(found[s]) for s in systems}
    charged = [f"{final_report.NAMES.get(s, s)} {r:.3f}×"
               for s, r in ratios.items() if r is not None]
    if charged:
        after += ["", "**What the device limiter charged, per byte flushes and compactions "
                  "counted** (every priority, over the whole search): " +
                  "; ".join(charged) + "."]
    return ["**Each step, per region** (means over the regions of the per-second "
            "samples: compactions running, where 2 background jobs give a region one "
            "compaction slot and 3 give it two; the debt estimate and L0's bytes in the "
            "step's first and last second):", "",
            table(["system", "step", "offered (ops/s)", "kept", "compactions running",
                   "debt estimate (MiB)", "L0 (MiB)"], rows), *after, ""]


def whole_search(search):
    """Every step of a search at once, as report.py counts a run: bytes
    moved per byte written (under a limiter on all I/O, what a rate costs
    the device), the stalls (time any region was in the slow-down or stop
    state; the longest; what the writers themselves waited), the stops,
    and the debt estimate through the longest stall."""
    run = search["run"]
    return {"io_amplification": run["io_amplification"], "stalled_s": run["stall_s"],
            "longest_stall_s": run["longest_stall_s"], "stops": search["stops"],
            "writer_stall_s": run["writers_waited_s"],
            "longest_stall_estimate_bytes": search["longest_spell_estimate"]}


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
    rows, before = [], records_before(io, regions)
    for i, (a, b) in enumerate(zip(ours, io), 1):
        if a["target_ops_per_s"] != b["target_ops_per_s"]:
            break
        rows.append({"step": i, "target_ops_per_s": b["target_ops_per_s"],
                     "records_before_per_region": before[i - 1],
                     "ours_p99_us": a["p99_us"], "rocksdb_io_p99_us": b["p99_us"],
                     "rocksdb_io_p99_over_ours": b["p99_us"] / a["p99_us"],
                     "kept": [a["sustained"], b["sustained"]]})
        if not (a["sustained"] and b["sustained"]):
            break
    return rows


def section(search_dir, ranged=RANGED):
    """(the page's lines, the figures) of the searches in SEARCH_DIR."""
    found, _, _ = read_out_dir(search_dir, load_searches, "load_a.sh find-sustainable")
    systems = ordered_systems(found)
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
                      "kept_step": kept_step(found[s]),
                      "whole_search": whole_search(found[s])}
    ours, io = figures.get(ranged), figures.get(ROCKSDB_IO)
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
             "**Over the whole search** (every step, as `report.py` counts a run: "
             "stalled: the time any region was in the slow-down or stop state; writers "
             "waited: RocksDB's user write stall time, the regions summed):", "",
             table(["system", "bytes moved per byte written", "stalled (s)", "longest (s)",
                    "debt estimate through the longest (MiB)", "stops", "writers waited (s)"],
                   [whole_row(s, figures[s]["whole_search"]) for s in systems]), ""]
    return lines + same_tree_lines(same), figures


def same_tree_lines(same):
    """The page's lines for same_tree_steps' rows; none without them."""
    if not same:
        return []
    yes = {True: "yes", False: "no"}
    ratios = [r["rocksdb_io_p99_over_ours"] for r in same]
    return [f"**At the same rate on the same tree** (steps 1–{len(same)}: both searches "
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


def whole_row(system, w):
    estimate = w["longest_stall_estimate_bytes"]
    return [final_report.NAMES.get(system, system), fmt(w["io_amplification"], 2),
            fmt(round(w["stalled_s"])), fmt(round(w["longest_stall_s"])),
            "–".join(fmt(b >> 20) for b in estimate) if estimate else "–",
            fmt(w["stops"]), fmt(round(w["writer_stall_s"]))]


def kept_row(system, k):
    stalled = ("–" if k["stalled_s"] is None
               else f"{fmt(round(k['stalled_s']))} of {fmt(round(k['seconds']))}")
    return [final_report.NAMES.get(system, system), fmt(int(k["rate"])), str(k["step"]),
            fmt(k["records_before_per_region"] / 1e6, 2), fmt(k["p99_us"] / 1e3, 2), stalled,
            fmt(k["max_queue_depth"])]


def main(argv):
    ap = page_arguments(__doc__)
    ap.add_argument("--ranged", default=RANGED)
    ap.add_argument("--per-step", action="store_true",
                    help='also write the "search-steps" section: each step\'s compaction '
                         "slots busy, debt and L0 at its start and end")
    a = ap.parse_args(argv)
    if SEARCH not in final_report.run_names(a.dir, re.compile(SEARCH)):
        sys.exit(f"searched_rates.py: no {SEARCH} run in {a.dir}")
    if final_report.still_going(a.dir, SEARCH, is_search_report):
        return 0
    lines, figures = section(os.path.join(a.dir, SEARCH), a.ranged)
    sections = {"final-searched": lines}
    if a.per_step:
        found, _, _ = read_out_dir(os.path.join(a.dir, SEARCH), load_searches,
                                   "load_a.sh find-sustainable")
        systems = ordered_systems(found)
        sections["search-steps"] = step_state_lines(found, systems)
        figures["step_states"] = {s: step_states(found[s]) for s in systems}
        figures["busy_slot_bytes_per_s"] = {
            s: busy_slot_rate(found[s], figures["step_states"][s]) for s in systems}
        figures["limiter_charge_per_counted_byte"] = {
            s: limiter_charge(found[s]) for s in systems}
    publish_sections(sections, a, figures)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
