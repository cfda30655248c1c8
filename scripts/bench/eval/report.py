#!/usr/bin/env python3
"""Tables and figures from a scripts/bench/eval/load_a.sh output directory.

usage: report.py OUT_DIR [--brief] [--markdown FILE [--section TAG]]
                 [--figures DIR] [--json FILE]

Prints the tables as Markdown; --brief prints one table per load, the
figures that matter most (scripts/demo.sh). --markdown FILE replaces the text between
"<!-- TAG:begin -->" and "<!-- TAG:end -->" in FILE with them (TAG is "eval"
unless --section says otherwise; the rest of FILE, the prose, is left
alone), so one results page can hold several output directories' tables. --figures DIR writes p99_vs_load.png,
timeline_<pct>.png and latency_tail_<pct>.png (needs python3-matplotlib).
--json FILE writes every figure of the tables, machine-readable.

A report holds one LsmMetricsCollector per region; the figures here are of
the whole store: bytes summed over regions, stall time as the union of the
regions' stall episodes (a writer waits if its region stalls), CPU per
operation of the process (every collector measures the process).
"""
import argparse
import csv
import json
import os
import re
import statistics
import subprocess
import sys

# The machine-record reader is shared with the db_bench summary, one level up.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from machine_record import machine_figures  # noqa: E402
from results_archive import ARCHIVE, unpacked  # noqa: E402
from systems import SYSTEMS  # noqa: E402

BASELINE, OURS = "rocksdb-io", "vlsm"
MIB = 2 ** 20


# ---- The model every evaluation script reads runs by: the report files'
# names, and the figures of a report's regions, each defined once.

# A load_a.sh run's report: its experiment (sustainable, load<pct>) and
# system (the .machine.json beside it does not match: no "." in a system).
RUN_REPORT = re.compile(r"(sustainable|load\d+)-([\w-]+)\.json")
# A run_abcd.sh run's report: its kind (closed, or run<pct> for the open
# loop), workload, key distribution and system.
RUNS_REPORT = re.compile(r"(closed|run\d+)-([a-f])-(uniform|zipfian|latest)-([\w-]+)\.json")
# A reopen_steps.sh run's report: its phase (fill-<how><n> or
# reopen-<how><n>) and system.
REOPEN_REPORT = re.compile(r"((?:fill|reopen)-[a-z]+\d+)-([\w-]+)\.json")


def reports_in(out, *patterns):
    """(match, path) of every report in directory OUT whose name one of
    PATTERNS matches (the first that does), by name: the one walk of a run
    directory every reader of the evaluation takes."""
    for name in sorted(os.listdir(out)):
        for pattern in patterns:
            m = pattern.fullmatch(name)
            if m:
                yield m, os.path.join(out, name)
                break


def report_name(experiment, system):
    """The file name of a load_a.sh run's report (RUN_REPORT)."""
    return f"{experiment}-{system}.json"


def beside(report_path, suffix):
    """The file load_a.sh or run_abcd.sh writes beside a report:
    ".csv" (its per-second figures), ".out" (the tool's output)."""
    return report_path[:-len(".json")] + suffix


def user_bytes(regions):
    return sum(m["user_bytes"] for m in regions)


def flushed_bytes(regions):
    return sum(m["flush_bytes"] for m in regions)


def compaction_bytes(regions):
    """What compactions read and wrote, every region."""
    return sum(m["compaction_read_bytes"] + m["compaction_write_bytes"] for m in regions)


def moved_bytes(regions):
    """Every byte flushes and compactions moved: what "I/O amplification"
    divides by the user's bytes."""
    return sum(m["flush_bytes"] + m["compaction_read_bytes"] +
               m["compaction_write_bytes"] for m in regions)


def stall_episodes(regions):
    """Every region's stall episodes as (start, end) seconds, sorted."""
    return sorted((e["start_s"], e["start_s"] + e["duration_s"])
                  for m in regions for e in m["stalls"]["episodes"])


def stalled_seconds(episodes):
    """The store's stall time: the union of the episodes, as a writer waits
    whenever its region stalls (overlapping episodes counted once; the
    collectors' own total_s adds each region's, overlaps and all)."""
    union, end = 0.0, None
    for a, b in episodes:
        if end is None or a > end:
            union += b - a
            end = b
        elif b > end:
            union += b - end
            end = b
    return union


def store_figures(rep, csv_rows):
    regions = rep["lsm_metrics"]
    user = user_bytes(regions)
    flushed = flushed_bytes(regions)
    moved = moved_bytes(regions)
    episodes = stall_episodes(regions)
    union = stalled_seconds(episodes)
    good = sum(m["l1_vssts"]["good"] for m in regions)
    poor = sum(m["l1_vssts"]["poor"] for m in regions)
    lat = rep["latency_us"].get("insert") or rep["latency_us"]["all"]
    levels = {}
    for m in regions:
        for lv in m["levels"]:
            d = levels.setdefault(lv["level"], {"compactions": 0, "max": 0, "total": 0,
                                                "from_upper": 0, "from_level": 0,
                                                "written": 0})
            per = lv["input_bytes_per_compaction"]
            d["compactions"] += per["count"]
            d["max"] = max(d["max"], per["max"])
            d["total"] += per["total"]
            d["written"] += lv["written_bytes"]
            d["from_upper"] += lv["read_from_upper_bytes"]
            d["from_level"] += lv["read_from_level_bytes"]
    depth = max((i for m in regions for i, b in enumerate(m["tree"]["level_bytes"]) if b),
                default=0)
    stalled = [r for r in csv_rows if r["write_stalled"] == "1"]
    calm = [r for r in csv_rows if r["write_stalled"] != "1"]

    def median_p99(rows):
        v = [float(r["insert_p99_us"]) for r in rows if float(r["insert_p99_us"]) > 0]
        return statistics.median(v) / 1e3 if v else None

    floor = rep.get("harness_floor", {})
    gen_lag = floor.get("generator_lag_us") or rep.get("generator_lag_us") or {}
    null_store = floor.get("null_store_latency_us") or {}
    space = rep.get("space", {})

    def ms(d, k):
        return d[k] / 1e3 if k in d else None

    # What paying the load's compaction debt cost (load_a.sh SETTLE=1,
    # ycsb's "settle"; None in runs that stopped at their last operation).
    settle = rep.get("settle")
    settle_moved = sum(settle.get(k, 0) for k in
                       ("flush_bytes", "compaction_read_bytes", "compaction_write_bytes")) \
        if settle else 0
    cpu_us_per_op = regions[0]["cpu"]["cpu_us_per_op"]
    service = (rep.get("service_us") or {}).get("all") or {}

    return {
        # How busy the open loop's client threads must be to serve what is
        # offered (Little's law): offered rate x mean time to serve one
        # operation / threads. At 1 they cannot keep up even without a
        # burst; near it a few slow seconds queue for many. Stores that
        # slow their writes down (a compaction sharing the cores, a write
        # group waiting on the WAL) raise it without ever stalling.
        "client_demand": rep["offered_ops_per_s"] * service["mean"] / 1e6 / rep["threads"]
        if service.get("mean") and rep.get("offered_ops_per_s") and rep.get("threads") else None,
        # The harness's own share (reports from 2026-11-23 on): how late
        # the generator handed requests over in this run, and a null-store
        # run at the same rate and threads if one was taken.
        "gen_lag_p50_ms": ms(gen_lag, "p50"), "gen_lag_p99_ms": ms(gen_lag, "p99"),
        "null_p50_ms": ms(null_store, "p50"), "null_p99_ms": ms(null_store, "p99"),
        "null_p99_9_ms": ms(null_store, "p99.9"),
        # Disk space against the logical data (None in older reports).
        "disk_end_gib": space["disk_bytes_end"] / 2 ** 30 if space else None,
        "disk_peak_gib": space["disk_bytes_peak"] / 2 ** 30 if space else None,
        "space_amp_end": space.get("space_amp_end"),
        "space_amp_peak": space.get("space_amp_peak"),
        "offered_ops_per_s": rep.get("offered_ops_per_s") or 0,
        "achieved_ops_per_s": rep["achieved_ops_per_s"],
        "operations": rep["operations"],
        "records": int(rep["properties"]["recordcount"]),
        "elapsed_s": rep["elapsed_s"],
        "errors": rep["errors"],
        "peak_rss_mib": rep.get("peak_rss_bytes", 0) / MIB,
        "p50_ms": lat["p50"] / 1e3, "p90_ms": lat["p90"] / 1e3,
        "p99_ms": lat["p99"] / 1e3, "p99_9_ms": lat["p99.9"] / 1e3,
        "max_ms": lat["max"] / 1e3,
        "stall_s": union,
        "longest_stall_s": max((b - a for a, b in episodes), default=0.0),
        "stall_count": len(episodes),
        "writers_waited_s": sum(m["stalls"]["writer_stall_s"] for m in regions),
        "seconds_stalled": len(stalled), "seconds": len(csv_rows),
        "p99_ms_outside_stalls": median_p99(calm),
        "p99_ms_in_stalls": median_p99(stalled),
        "io_amplification": moved / user if user else 0.0,
        "cpu_us_per_op": cpu_us_per_op,
        # The same two to the end of compaction, debt paid: what a closed
        # loop that leaves debt behind has not yet paid for its writes.
        "settle_s": settle["seconds"] if settle else None,
        "io_amplification_paid": (moved + settle_moved) / user if settle and user else None,
        "cpu_us_per_op_paid": cpu_us_per_op + settle["cpu_s"] * 1e6 / rep["operations"]
        if settle and "cpu_s" in settle and rep["operations"] else None,
        "good_vsst_share": good / (good + poor) if good + poor else None,
        "levels_with_data": depth + 1,
        # Compaction debt left when the load ended (RocksDB's estimate; the
        # settle's reading, else the last sample's): work a closed-loop rate
        # does not pay for.
        "debt_left_gib": (settle["debt_bytes_at_phase_end"] if settle else
                          sum(m["samples"][-1]["pending_compaction_bytes"]
                              for m in regions if m["samples"])) / 2 ** 30,
        # Every step's width (the collector's step list; reports from before
        # it kept one lack it): the widest region's P99 step, the bound
        # ((f + 2) * S_M), and the steps over it, all regions together.
        **step_figures(regions),
        "chain_max_mib": max((e["compacted_bytes"] for m in regions
                              for e in m["stalls"]["episodes"]), default=0) / MIB,
        "levels": {str(k): {"compactions": v["compactions"],
                            "max_input_mib": v["max"] / MIB,
                            "mean_input_mib": v["total"] / v["compactions"] / MIB
                            if v["compactions"] else 0.0,
                            "written_gib": v["written"] / 2 ** 30,
                            # What each step costs, in the units of the
                            # I/O amplification: bytes it wrote per byte
                            # flushed, and bytes it read from its output
                            # level per byte it took from the level above
                            # (the overlap it merged with).
                            "written_per_flushed": v["written"] / flushed
                            if flushed else None,
                            "overlap": v["from_level"] / v["from_upper"]
                            if v["from_upper"] else None}
                   for k, v in sorted(levels.items())},
    }


def step_figures(regions):
    steps = [m["steps"] for m in regions if m.get("steps")]
    if not steps:
        return {"step_p99_mib": None, "width_bound_mib": None,
                "steps": None, "steps_over_bound": None}
    return {"step_p99_mib": max(s["input_bytes_per_step"]["p99"] for s in steps) / MIB,
            "width_bound_mib": max(s["width_bound"] for s in steps) / MIB,
            "steps": sum(s["input_bytes_per_step"]["count"] for s in steps),
            "steps_over_bound": sum(s["over_bound"] for s in steps)}


def render_machine(named_figures):
    """A table of what the machine did during each run, from
    [(run name, figures)]; [] when no run has machine figures."""
    rows = [[name, fmt(m["cpu_probe_ms"]), fmt(m["run_cores"], 2), fmt(m["other_cores"], 2),
             fmt(m["iowait_cores"], 2), fmt(m["steal_cores"], 2)]
            for name, f in named_figures for m in [f.get("machine")] if m]
    if not rows:
        return []
    return ["**The machine during each run** (`<run>.machine.json`, scripts/bench/"
            "machine.sh: the CPU probe is a fixed single-threaded job timed just before the "
            "run, larger when the CPU is slower; cores are CPU seconds per second: the run's "
            "own, everything else's, I/O wait and steal):", "",
            table(["run", "CPU probe (ms)", "run's cores", "other cores", "I/O wait cores",
                   "steal cores"], rows), ""]


def read_run(report_path):
    """(the ycsb_vlsm report, its store figures) of one run: the report
    JSON, its per-second CSV beside it, and its machine record if any."""
    with open(report_path) as f:
        rep = json.load(f)
    with open(beside(report_path, ".csv")) as f:
        rows = list(csv.DictReader(f))
    fig = store_figures(rep, rows)
    fig["machine"] = machine_figures(report_path)
    return rep, fig


def run_reports(out):
    """(run name, system, report JSON) of every load_a.sh report in OUT, by
    name."""
    for m, path in reports_in(out, RUN_REPORT):
        with open(path) as f:
            yield os.path.basename(beside(path, "")), m[2], json.load(f)


def load_dir(out):
    """{(experiment, system): figures} of one load_a.sh directory."""
    return {m.groups(): read_run(path)[1] for m, path in reports_in(out, RUN_REPORT)}


def fmt(v, digits=1):
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:,.{digits}f}"
    return f"{v:,}"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def loads_of(runs):
    return sorted({int(e[4:]) for e, _ in runs if e.startswith("load")})


def systems_of(runs):
    """The systems of RUNS in the definition's order (systems.py), then any
    other name (older reports) alphabetically."""
    order = list(SYSTEMS)
    present = {s for _, s in runs}
    return [s for s in order if s in present] + sorted(present - set(order))


def with_paid(f, key, digits=2):
    """FIGURE, and in parentheses the same figure with the load's debt paid
    when the run settled (load_a.sh SETTLE=1)."""
    paid = f.get(key + "_paid")
    return fmt(f[key], digits) + (f" ({fmt(paid, digits)})" if paid is not None else "")


def finished(f):
    return "yes" if f["operations"] >= f["records"] else \
        f"no: {f['operations'] / f['records']:.0%} of the records"


def render(runs, config):
    out = ["Configuration (`config.txt`, one paragraph per invocation):", "", "```",
           config, "```", ""]
    systems = systems_of(runs)
    if any(e == "sustainable" for e, _ in runs):
        out += ["**Sustainable Load A rate** (closed loop, 4 client threads, whole dataset):", ""]
        out.append(table(
            ["system", "ops/s", "loaded", "debt left (GiB)", "stall (s)",
             "I/O amp. (debt paid)", "CPU µs/op (debt paid)", "levels", "good vSSTs (%)"],
            [[s, fmt(int(f["achieved_ops_per_s"])), finished(f), fmt(f["debt_left_gib"], 2),
              fmt(f["stall_s"]),
              with_paid(f, "io_amplification"), with_paid(f, "cpu_us_per_op"),
              fmt(f["levels_with_data"]),
              # No L1 file yet (a tiny run) has no share either.
              fmt(100 * f["good_vsst_share"], 0)
              if s.startswith("vlsm") and f["good_vsst_share"] is not None else "–"]
             for s in systems if ("sustainable", s) in runs
             for f in [runs[("sustainable", s)]]]))
        out.append("")
    for pct in loads_of(runs):
        key = f"load{pct}"
        rows = [(s, runs[(key, s)]) for s in systems if (key, s) in runs]
        if not rows:
            continue
        offered = int(rows[0][1]["offered_ops_per_s"])
        out += [f"**Load A, open loop, {pct}% of RocksDB's rate ({offered:,} ops/s offered)**:", ""]
        out.append(table(
            ["system", "achieved ops/s", "finished", "P50", "P90", "P99", "P99.9",
             "max (ms)", "stall s / longest / count", "writers waited (s)",
             "P99 outside / in stalls (ms)", "I/O amp. (debt paid)", "CPU µs/op (debt paid)"],
            [[s, fmt(int(f["achieved_ops_per_s"])), finished(f), fmt(f["p50_ms"], 2),
              fmt(f["p90_ms"], 2), fmt(f["p99_ms"]), fmt(f["p99_9_ms"]), fmt(f["max_ms"]),
              f"{fmt(f['stall_s'])} / {fmt(f['longest_stall_s'], 2)} / {f['stall_count']}",
              fmt(f["writers_waited_s"], 2),
              f"{fmt(f['p99_ms_outside_stalls'])} / {fmt(f['p99_ms_in_stalls'])}",
              with_paid(f, "io_amplification"), with_paid(f, "cpu_us_per_op")]
             for s, f in rows]))
        out.append("")
        out += render_floor_and_space(rows)
    target = render_targets(runs)
    if target:
        out += target
    out += render_chains(runs)
    out += render_machine([(f"{e}-{s}", runs[(e, s)]) for e in
                           ["sustainable"] + [f"load{p}" for p in loads_of(runs)]
                           for s in systems if (e, s) in runs])
    return "\n".join(out)


def widest_step(f):
    """(MiB, "L0→L1") of the compaction that read the most input, over
    every level but flushes."""
    steps = [(d["max_input_mib"], f"L{int(lv) - 1}→L{lv}") for lv, d in f["levels"].items()
             if int(lv) > 0 and d["compactions"]]
    return max(steps, default=(0.0, "–"))


def render_brief(runs, config):
    """One table per open-loop load: latency, stalls, the widest step, I/O
    and CPU, each system a row."""
    out = []
    for pct in loads_of(runs):
        rows = [(s, runs[(f"load{pct}", s)]) for s in systems_of(runs)
                if (f"load{pct}", s) in runs]
        if not rows:
            continue
        offered = int(rows[0][1]["offered_ops_per_s"])
        secs = max(f["elapsed_s"] for _, f in rows)
        out += [f"**Load A, open loop, {offered:,} ops/s offered ({pct}% of RocksDB's rate), "
                f"{rows[0][1]['operations']:,} inserts, up to {secs:,.0f} s** "
                "(insert latency from the intended start, ms):", ""]
        out.append(table(
            ["system", "achieved ops/s", "P50", "P99", "P99.9", "max",
             "stalls: count / total s / longest s", "widest step (MiB)",
             "I/O amp.", "CPU µs/op"],
            [[s, fmt(int(f["achieved_ops_per_s"])), fmt(f["p50_ms"], 2), fmt(f["p99_ms"]),
              fmt(f["p99_9_ms"]), fmt(f["max_ms"]),
              f"{f['stall_count']} / {fmt(f['stall_s'])} / {fmt(f['longest_stall_s'], 2)}",
              "%s (%s)" % (fmt(widest_step(f)[0]), widest_step(f)[1]),
              fmt(f["io_amplification"], 2), fmt(f["cpu_us_per_op"], 2)]
             for s, f in rows]))
        out += [*fell_behind_note(rows), *in_words(rows), ""]
    return "\n".join(out) if out else "(no open-loop load in this directory)"


# Repeated runs of the same load on this machine spread 2-8x in P99
# (docs/results/final-1region-12M: RocksDB's P99 at 80%, 148-473 ms over
# five runs), so a difference under this factor means nothing and the
# demo's words call it "about the same"; a larger one is what this one run
# showed, and the words say "in this run", not that it always holds.
CLEAR_DIFFERENCE = 2.0
NAMES = {"rocksdb": "RocksDB", "rocksdb-io": "RocksDB-IO"}  # as the pages name them


def in_words(rows):
    """What the table shows, in sentences: the ranged layout (the first
    system named vlsm-ranged*) against each other system, on keeping up,
    write P99, stalls and the widest step; and, when no tail differs by
    CLEAR_DIFFERENCE and no one stalled or fell behind, that nothing
    differs at this load. [] without a ranged system or anything to
    compare it with."""
    ranged = next(((s, f) for s, f in rows if s.startswith("vlsm-ranged")), None)
    others = [(s, f) for s, f in rows if ranged and s != ranged[0]]
    if not others:
        return []
    name, mine = ranged
    words, differs = [], False
    for s, f in others:
        other = NAMES.get(s, s)
        if kept_up(mine) and not kept_up(f):
            differs = True
            words.append(f"{other} fell behind the offered rate and the ranged layout "
                         f"kept up: write P99 {fmt(f['p99_ms'])} ms (mostly queueing) "
                         f"against {fmt(mine['p99_ms'])}.")
        elif kept_up(f) and not kept_up(mine):
            differs = True
            words.append(f"The ranged layout fell behind where {other} kept up: "
                         "this load is past what it carries on this machine.")
        elif not kept_up(f):
            words.append(f"Both the ranged layout and {other} fell behind: this load "
                         "is past what either carries on this machine "
                         "(a lower share, e.g. LOADS=70, fits).")
        else:
            ratio = f["p99_ms"] / mine["p99_ms"] if mine["p99_ms"] else float("inf")
            factor, side = (ratio, "lower") if ratio >= 1 else (1 / ratio, "higher")
            if factor >= CLEAR_DIFFERENCE:
                differs = True
                words.append(f"In this run the ranged layout's write P99 was {fmt(factor, 1)}× "
                             f"{side} than {other}'s ({fmt(mine['p99_ms'])} against "
                             f"{fmt(f['p99_ms'])} ms).")
            else:
                words.append(f"The ranged layout's write P99 was about {other}'s "
                             f"({fmt(mine['p99_ms'])} against {fmt(f['p99_ms'])} ms: "
                             f"within {fmt(CLEAR_DIFFERENCE, 0)}×, which one run here "
                             "does not tell apart).")
        if f["stall_s"] > 0 or mine["stall_s"] > 0:
            differs = differs or f["stall_s"] != mine["stall_s"]
            words.append(f"{other} stalled writes for {fmt(f['stall_s'])} s "
                         f"(longest {fmt(f['longest_stall_s'], 2)} s); the ranged layout "
                         f"for {fmt(mine['stall_s'])} s.")
    widest = ", ".join(f"{NAMES.get(s, s)} {fmt(widest_step(f)[0])}" for s, f in others)
    words.append(f"Widest compaction step: the ranged layout {fmt(widest_step(mine)[0])} "
                 f"MiB; {widest} MiB.")
    if not differs and all(kept_up(f) and not f["stall_s"] for _, f in rows):
        words.append("Nothing differs at this load on this machine today: no system "
                     "stalled or fell behind, and no write tail was "
                     f"{fmt(CLEAR_DIFFERENCE, 0)}× another's. A higher share "
                     "(e.g. LOADS=95) separates them if anything does.")
    return ["", f"In words ({name} is the ranged layout):", *("- " + w for w in words)]


# A run that completes less than this share of its offered rate did not
# keep up. find-sustainable (ycsb/sustainable_rate_search.cc) judges the
# rate achieved while the generator ran; this judges the whole run, drain
# included, which is what the table's "achieved" column shows.
KEPT_UP_SHARE = 0.99


def kept_up(f):
    return f["achieved_ops_per_s"] >= KEPT_UP_SHARE * f["offered_ops_per_s"]


def fell_behind_note(rows):
    """[] if every system of one load kept up; else one line naming those
    that fell behind, whose latency is then mostly queueing, and the CPU
    probe of the runs: the same offered load is heavier on a slower
    machine (machine records: scripts/bench/machine.sh)."""
    behind = [(s, f) for s, f in rows if not kept_up(f)]
    if not behind:
        return []
    who = ", ".join(f"{s} ({int(f['achieved_ops_per_s']):,} of "
                    f"{int(f['offered_ops_per_s']):,} ops/s)" for s, f in behind)
    probes = sorted(f["machine"]["cpu_probe_ms"] for _, f in rows
                    if (f.get("machine") or {}).get("cpu_probe_ms") is not None)
    probe = (f" CPU probe of these runs: {probes[0]}–{probes[-1]} ms (lower is faster)."
             if probes else "")
    return ["", f"Fell behind the offered rate: {who}; their latency is mostly "
            f"queueing. A lower offered load may fit this machine.{probe}"]


def render_floor_and_space(rows):
    """The harness's share and what each system costs in disk and memory,
    for [(system, figures)] of one load; [] for reports older than these
    figures."""
    if all(f["gen_lag_p50_ms"] is None and f["disk_peak_gib"] is None for _, f in rows):
        return []
    return ["Beside it, the harness's floor (generator lag during the run; a null-store "
            "run at the same rate and threads, if taken) and the cost in space (disk "
            "over live records × record size) and memory:", "",
            table(["system", "gen. lag P50 / P99 (ms)", "null store P50 / P99 / P99.9 (ms)",
                   "disk end / peak (GiB)", "space amp. end / peak", "peak RSS (MiB)"],
                  [[s, f"{fmt(f['gen_lag_p50_ms'], 2)} / {fmt(f['gen_lag_p99_ms'], 2)}",
                    f"{fmt(f['null_p50_ms'], 2)} / {fmt(f['null_p99_ms'], 2)} / "
                    f"{fmt(f['null_p99_9_ms'], 2)}",
                    f"{fmt(f['disk_end_gib'], 2)} / {fmt(f['disk_peak_gib'], 2)}",
                    f"{fmt(f['space_amp_end'], 2)} / {fmt(f['space_amp_peak'], 2)}",
                    fmt(f["peak_rss_mib"], 0)]
                   for s, f in rows]), ""]


def ratio(a, b):
    return a / b if b else None


def render_targets(runs, judged_on="at"):
    """The issue's targets at 80% load (or the highest load both systems
    ran); JUDGED_ON says what the figures are, e.g. "on the medians, at"."""
    pct = 80 if ("load80", OURS) in runs else max(
        (p for p in loads_of(runs) if ("load%d" % p, OURS) in runs), default=None)
    if pct is None or (f"load{pct}", BASELINE) not in runs:
        return []
    v, b = runs[(f"load{pct}", OURS)], runs[(f"load{pct}", BASELINE)]
    sv, sb = runs.get(("sustainable", OURS)), runs.get(("sustainable", BASELINE))
    rows = [
        ("P99 write latency", "≥ 5× lower", ratio(b["p99_ms"], v["p99_ms"]), lambda r: r >= 5,
         "×"),
        ("cumulative write stall", "≥ 60% lower",
         1 - v["stall_s"] / b["stall_s"] if b["stall_s"] else None, lambda r: r >= 0.6, "%"),
        ("longest stall", "≥ 5× shorter", ratio(b["longest_stall_s"], v["longest_stall_s"]),
         lambda r: r >= 5, "×"),
        ("I/O amplification", "≤ 1.05×", ratio(v["io_amplification"], b["io_amplification"]),
         lambda r: r <= 1.05, "×"),
        ("CPU per op", "≤ 1.05×", ratio(v["cpu_us_per_op"], b["cpu_us_per_op"]),
         lambda r: r <= 1.05, "×"),
        ("sustainable throughput", "not lower",
         ratio(sv["achieved_ops_per_s"], sb["achieved_ops_per_s"]) if sv and sb else None,
         lambda r: r >= 1, "×"),
    ]
    body = []
    for name, want, r, ok, unit in rows:
        if r is None:
            shown = "–"
        elif unit == "%":
            shown = f"{100 * r:.0f}% lower" if r >= 0 else \
                f"{1 - r:.1f}× higher ({fmt(v['stall_s'])} s vs {fmt(b['stall_s'])} s)"
        else:
            shown = f"{r:.2f}×"
        verdict = "not measured" if r is None else ("met" if ok(r) else "**missed**")
        body.append([name, want, shown, verdict])
    return [f"**Targets {judged_on} {pct}% load, vLSM against RocksDB-IO** (ratio RocksDB-IO / vLSM "
            "for latency and stalls, vLSM / RocksDB-IO for costs; the Run A read P99 "
            "target is in the Run A-D tables, report_runs.py):", "",
            table(["figure", "target", "measured", "verdict"], body), ""]


def render_chains(runs):
    pct = 80 if any(e == "load80" for e, _ in runs) else max(loads_of(runs), default=None)
    if pct is None:
        return []
    rows = []
    for s in systems_of(runs):
        f = runs.get((f"load{pct}", s))
        if not f:
            continue
        for lv, d in f["levels"].items():
            if d["compactions"]:
                rows.append([s, f"L{int(lv) - 1}→L{lv}" if int(lv) > 0 else "flush",
                             fmt(d["compactions"]), fmt(d["max_input_mib"]),
                             fmt(d["mean_input_mib"]), fmt(d["written_gib"], 2),
                             fmt(d["written_per_flushed"], 2), fmt(d["overlap"], 2)])
        rows.append([s, "largest stall chain", "", fmt(f["chain_max_mib"]), "", "", "", ""])
    # The chain is what compacted (read + written) while one stall episode
    # lasted: the work writers waited behind.
    return [f"**Compaction chains at {pct}% load** (input bytes per compaction by output "
            "level; the largest stall chain is the bytes compacted, read plus written, "
            "during the stall episode that compacted the most; per byte flushed: what "
            "the step wrote; overlap: bytes it read from its output level per byte "
            "it took from the level above):", "",
            table(["system", "step", "compactions", "max input (MiB)", "mean input (MiB)",
                   "written (GiB)", "per byte flushed", "overlap"], rows), ""]


def sensitivity_table(runs, fig_dir):
    """The vLSM variants' closed-loop figures and their P99 at the lowest
    load, as plot.py bars input (the paper's Table 1 and Fig. 13); None
    unless at least two vLSM systems ran closed loop."""
    variants = [s for s in systems_of(runs)
                if s.startswith("vlsm") and ("sustainable", s) in runs]
    if len(variants) < 2:
        return None
    low = min(loads_of(runs), default=None)
    path = os.path.join(fig_dir, "sensitivity.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        p99 = f"P99 at {low}% load (ms)" if low else None
        w.writerow(["group", "series", "closed-loop kops/s", "CPU µs/op",
                    "I/O amplification", "good vSSTs (%)"] + ([p99] if p99 else []))
        for s in variants:
            c = runs[("sustainable", s)]
            o = runs.get((f"load{low}", s)) if low else None
            w.writerow([s, "", c["achieved_ops_per_s"] / 1e3, c["cpu_us_per_op"],
                        c["io_amplification"],
                        100 * c["good_vsst_share"] if c["good_vsst_share"] is not None else ""]
                       + ([o["p99_ms"] if o else ""] if p99 else []))
    return path


def figures(runs, out, fig_dir):
    os.makedirs(fig_dir, exist_ok=True)
    plot = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plot.py")
    systems = systems_of(runs)
    loads = loads_of(runs)
    curves = []
    for s in systems:
        pts = [(p, runs[(f"load{p}", s)]) for p in loads if (f"load{p}", s) in runs]
        if len(pts) < 2:
            continue
        path = os.path.join(fig_dir, f"p99_vs_load-{s}.csv")
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["fraction", "offered_ops_per_s", "insert_p99_us"])
            for p, fig in pts:
                w.writerow([p / 100, fig["offered_ops_per_s"], fig["p99_ms"] * 1e3])
        curves.append((path, s))
    cmds = []
    if curves:
        cmds.append(["load", *[c for c, _ in curves], "-o",
                     os.path.join(fig_dir, "p99_vs_load.png"), "--op", "insert",
                     "--labels", ",".join(s for _, s in curves),
                     "--xlabel", "offered load (% of RocksDB's sustainable rate)"])
    sensitivity = sensitivity_table(runs, fig_dir)
    if sensitivity:
        cmds.append(["bars", sensitivity, "-o", os.path.join(fig_dir, "sensitivity.png")])
    for p in loads:
        present = [s for s in systems if (f"load{p}", s) in runs]
        reports = [os.path.join(out, report_name(f"load{p}", s)) for s in present]
        if present:
            cmds.append(["timeseries", *reports, "-o",
                         os.path.join(fig_dir, f"timeline_{p}.png"), "--op", "insert",
                         "--labels", ",".join(present)])
            cmds.append(["cdf", *reports, "-o",
                         os.path.join(fig_dir, f"latency_tail_{p}.png"), "--op", "insert",
                         "--labels", ",".join(present)])
    for c in cmds:
        # plot.py's own interpreter (/usr/bin/python3, where Debian's
        # python3-matplotlib is), not necessarily the one running this.
        subprocess.run([plot, *c], check=True)


def write_sections(pages, sections):
    """Writes SECTIONS ({tag: lines}) into every page of PAGES that has
    them: a page may hold any of the tags (an experiment's own page all,
    the results page some), but one with none of them is a mistake."""
    for page in pages:
        with open(page) as f:
            text = f.read()
        present = [t for t in sections if f"<!-- {t}:begin -->" in text]
        if not present:
            sys.exit(f"{os.path.basename(sys.argv[0])}: {page} has none of the sections "
                     + ", ".join(f"<!-- {t}:begin -->" for t in sections))
        for tag in present:
            replace_section(page, tag, "\n".join(sections[tag]))


def page_arguments(doc):
    """The command line every page writer of the evaluation shares: DIR,
    --markdown FILE (once per page) and --json FILE; a writer adds its own."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--markdown", action="append", default=[])
    ap.add_argument("--json")
    return ap


def publish_sections(sections, args, figures_json):
    """Prints SECTIONS ({tag: lines}), writes them into every page of
    args.markdown (write_sections) and FIGURES_JSON into args.json when
    asked: the end of every page writer made with page_arguments."""
    for lines in sections.values():
        print("\n".join(lines))
    write_sections(args.markdown, sections)
    if args.json:
        # A packed run's summary (docs/results/<dir>/<run>/summary.json) has
        # no directory to go to: it gets one, and results_archive.py pack
        # <dir> puts the rewritten summary back into the archive.
        os.makedirs(os.path.dirname(args.json) or ".", exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(figures_json, f, indent=1)


def per_run_page(argv, doc, load, producer, tag, lines):
    """The whole command of a page writer with one figure per run
    (limiter_charge.py, level_costs.py): LOAD reads [(run, system,
    figures)] from DIR, LINES renders them as section TAG; --json gets
    {run: {"system": ..., **figures}}."""
    a = page_arguments(doc).parse_args(argv)
    found, _, _ = read_out_dir(a.dir, load, producer)
    figures = {run: {"system": system, **f} for run, system, f in found}
    publish_sections({tag: lines(found)}, a, figures)
    return 0


def replace_section(path, tag, text):
    """Puts TEXT between "<!-- TAG:begin -->" and "<!-- TAG:end -->" in the
    file at PATH, leaving the prose around them alone."""
    with open(path) as f:
        doc = f.read()
    begin, end = f"<!-- {tag}:begin -->", f"<!-- {tag}:end -->"
    if begin not in doc or end not in doc:
        sys.exit(f"{os.path.basename(sys.argv[0])}: {path} has no {begin} ... {end} section")
    head, rest = doc.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + text + "\n" + end + tail)


def read_out_dir(out, load, producer):
    """(runs, config.txt's text, the directory the runs were read from) of
    an output directory, or exits naming what is wrong. LOAD reads the runs;
    PRODUCER names the script that writes such directories. For a committed
    experiment the last is a temporary unpacked copy: what reads the raw run
    files again (the figures) must read them there."""
    tool = os.path.basename(sys.argv[0])
    # A packed run of a committed experiment has no directory of its own:
    # it is in its parent's archive.
    packed_run = os.path.exists(os.path.join(
        os.path.dirname(os.path.normpath(out)), ARCHIVE))
    if not os.path.isdir(out) and not packed_run:
        sys.exit(f"{tool}: {out} is not a directory")
    out = unpacked(out)  # committed experiments keep their raw runs packed
    runs = load(out)
    if not runs:
        sys.exit(f"{tool}: no {producer} reports in {out}")
    config_path = os.path.join(out, "config.txt")
    config = "unknown"
    if os.path.exists(config_path):
        with open(config_path) as f:
            config = f.read().strip()
    return runs, config, out


def publish(text, args, figures_json):
    """publish_sections for a writer of one section (--markdown FILE
    --section TAG, each at most once): prints TEXT, writes it into
    args.markdown's args.section and FIGURES_JSON into args.json when
    asked."""
    pages = argparse.Namespace(markdown=[args.markdown] if args.markdown else [],
                               json=args.json)
    publish_sections({args.section: [text]}, pages, figures_json)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("out")
    ap.add_argument("--brief", action="store_true",
                    help="one table per load: the figures that matter most")
    ap.add_argument("--markdown")
    ap.add_argument("--section", default="eval",
                    help="the marker tag in --markdown (default: eval)")
    ap.add_argument("--figures")
    ap.add_argument("--json")
    a = ap.parse_args()
    runs, config, src = read_out_dir(a.out, load_dir, "load_a.sh")
    text = render_brief(runs, config) if a.brief else render(runs, config)
    publish(text, a, {"/".join(k): v for k, v in sorted(runs.items())})
    if a.figures:
        figures(runs, src, a.figures)
    return 0


if __name__ == "__main__":
    sys.exit(main())
