#!/usr/bin/env python3
"""Parsing and summary for scripts/bench/l0_read_paths.sh: the two L0 read
paths (`files`: one table iterator per L0 file, upstream's; `sublevels`: one
LevelIterator per L0 sorted run) on one settled ranged tree.

  l0_read_paths.py tree LIVE_FILES.txt
      files per level of `ldb list_live_files_metadata` output, one line
      ("72 34 255 32 0")
  l0_read_paths.py line DB_BENCH.out BENCHMARK
      one line about one run: ops/s and the per-op counters
  l0_read_paths.py summary OUT_DIR [--json PATH]
      the table (medians, min-max, sublevels/files) on stdout and every
      run as JSON (default OUT_DIR/results.json). Exits 3 if the runs show
      that the switch did not change the read path (a seek merges as many
      children on both paths although L0 has more files than sublevels).

Per-op counters are db_bench's PERF_CONTEXT totals (perf_level >= 2:
counts) divided by the run's operations:
  seek_child_seek_count    children the merging iterator seeks, per Seek:
                           the memtable, one per L0 file (files) or per
                           sublevel (sublevels), one per non-empty level >= 1
  bloom_sst_hit_count + bloom_sst_miss_count
                           SST filters probed per Get, or per key of a
                           MultiGet (files whose key range holds the key)
  user_key_comparison_count, block_read_count (block cache misses: reads
                           from the OS page cache here)
An unknown command or a missing file exits 2.
"""
import json
import os
import re
import statistics
import sys

PATHS = ("files", "sublevels")
BENCHMARKS = ("seekrandom", "readrandom", "multireadrandom")
# Issue 39's targets: sublevels / files ops/s on the same tree. MultiGet
# (multireadrandom, batches of 32; issue 54) has none against the file
# walk: its targets are against RocksDB's tree (scripts/bench/rest_reads.sh).
TARGETS = {"seekrandom": 2.0, "readrandom": 1.2, "multireadrandom": None}
# The counters the table shows, per op (name in the table, how to compute).
SHOWN = (
    ("child seeks", lambda p: p.get("seek_child_seek_count")),
    ("filter probes", lambda p: _sum(p, "bloom_sst_hit_count", "bloom_sst_miss_count")),
    ("key cmp", lambda p: p.get("user_key_comparison_count")),
    ("block reads", lambda p: p.get("block_read_count")),
)

REPORT_LINE = re.compile(
    r"^(?P<name>\w+)\s*:\s*(?P<us>[\d.]+) micros/op (?P<ops_s>\d+) ops/sec "
    r"(?P<secs>[\d.]+) seconds (?P<ops>\d+) operations;(?P<rest>.*)$")
FOUND = re.compile(r"\((\d+) of (\d+) found\)")
COUNTER = re.compile(r"(\w+) = ")
BY_LEVEL = re.compile(r"(\d+)@level(\d+)")


class Usage(Exception):
    """Bad input: exit 2 with this message."""


def _sum(per_op, *names):
    values = [per_op.get(n) for n in names]
    return None if any(v is None for v in values) else sum(values)


def read_text(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read()
    except OSError as e:
        raise Usage(f"cannot read {path}: {e.strerror}") from e


def parse_perf(line):
    """db_bench's PERF_CONTEXT line -> (flat counters, per-level counters).
    Flat: "name = 12, "; per level: "name = 3@level0, 5@level2, " (or
    nothing after "name = " when no level counted)."""
    flat, by_level = {}, {}
    matches = list(COUNTER.finditer(line))
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(line)
        value = line[m.end():end].strip().rstrip(",").strip()
        name = m.group(1)
        if "@level" in value or (value == "" and name in flat):
            by_level[name] = {int(lv): int(v) for v, lv in BY_LEVEL.findall(value)}
        elif value.isdigit():
            flat[name] = int(value)
        elif value == "":
            by_level.setdefault(name, {})
    return flat, by_level


def parse_run(path, benchmark):
    """One db_bench output: BENCHMARK's report line, found count and
    PERF_CONTEXT counters (None when perf_level was below 2)."""
    lines = read_text(path).splitlines()
    for i, line in enumerate(lines):
        m = REPORT_LINE.match(line.strip())
        if not m or m.group("name") != benchmark:
            continue
        run = {"benchmark": benchmark,
               "ops_per_s": int(m.group("ops_s")),
               "micros_per_op": float(m.group("us")),
               "seconds": float(m.group("secs")),
               "operations": int(m.group("ops"))}
        tail = "\n".join(lines[i:i + 3])
        f = FOUND.search(tail)
        if f:
            run["found"], run["looked_up"] = int(f.group(1)), int(f.group(2))
        run["perf"], run["perf_by_level"] = None, None
        for j in range(i, min(i + 4, len(lines))):
            if lines[j].strip().endswith("PERF_CONTEXT:") and j + 1 < len(lines):
                run["perf"], run["perf_by_level"] = parse_perf(lines[j + 1])
                break
        return run
    raise Usage(f"{path}: no '{benchmark}' report line (did db_bench run it?)")


def per_op(run):
    if not run.get("perf"):
        return None
    ops = max(run["operations"], 1)
    return {k: v / ops for k, v in run["perf"].items()}


def per_op_by_level(run):
    if not run.get("perf_by_level"):
        return None
    ops = max(run["operations"], 1)
    return {k: {str(lv): v / ops for lv, v in levels.items()}
            for k, levels in run["perf_by_level"].items() if levels}


def tree_levels(path):
    """`ldb list_live_files_metadata` -> files per level, level order."""
    counts, level = {}, None
    for line in read_text(path).splitlines():
        m = re.match(r"^-+ level (\d+) -+$", line.strip())
        if m:
            level = int(m.group(1))
            counts.setdefault(level, 0)
        elif line.startswith("Live Blob Files"):
            level = None
        elif level is not None and line.strip().endswith(".sst"):
            counts[level] += 1
    if not counts:
        raise Usage(f"{path}: no '---- level N ----' sections (not ldb list_live_files_metadata output?)")
    return [counts.get(lv, 0) for lv in range(max(counts) + 1)]


def read_env(path):
    """KEY=VALUE lines (the script's meta.env)."""
    env = {}
    for line in read_text(path).splitlines():
        if "=" in line and not line.startswith("#"):
            k, _, v = line.partition("=")
            env[k.strip()] = v.strip()
    return env


def spread(values):
    return {"median": statistics.median(values), "min": min(values),
            "max": max(values), "values": values}


def fmt(x, digits=0):
    if x is None:
        return "–"
    return f"{x:,.{digits}f}"


def summarize(out_dir):
    meta = read_env(os.path.join(out_dir, "meta.env"))
    manifest = os.path.join(out_dir, "runs.tsv")
    rows = [l.split("\t") for l in read_text(manifest).splitlines()[1:] if l.strip()]
    runs = []
    for kind, rep, bench, path, name, resident in rows:
        if kind != "run":
            continue
        base = os.path.join(out_dir, "runs", name)
        run = parse_run(base + ".out", bench)
        run.update({"name": name, "rep": int(rep), "path": path,
                    "page_cache_resident_pct": None if resident in ("", "unknown") else float(resident)})
        run["per_op"] = per_op(run)
        run["per_op_by_level"] = per_op_by_level(run)
        del run["perf_by_level"]
        try:
            run["command"] = read_text(base + ".cmd").strip()
            run["machine"] = json.loads(read_text(base + ".machine.json"))
        except (Usage, ValueError):
            run.setdefault("command", None)
            run["machine"] = None
        runs.append(run)
    if not runs:
        raise Usage(f"{manifest}: no measured runs")

    l0_files = int(meta.get("l0_files", 0))
    sublevels = meta.get("l0_sublevels")
    sublevels = int(sublevels) if sublevels not in (None, "") else None
    levels = [int(x) for x in meta.get("files_per_level", "").split()]
    nonempty_below = sum(1 for n in levels[1:] if n > 0)
    expected_children = {"files": 1 + l0_files + nonempty_below,
                         "sublevels": None if sublevels is None else 1 + sublevels + nonempty_below}

    summary, problems = {}, []
    for bench in BENCHMARKS:
        by_path = {p: sorted((r for r in runs if r["benchmark"] == bench and r["path"] == p),
                             key=lambda r: r["rep"]) for p in PATHS}
        if not any(by_path.values()):
            continue
        s = {}
        for p, rs in by_path.items():
            if not rs:
                continue
            entry = {"runs": len(rs), "ops_per_s": spread([r["ops_per_s"] for r in rs])}
            counters = {}
            for label, get in SHOWN:
                vals = [get(r["per_op"]) for r in rs if r["per_op"]]
                vals = [v for v in vals if v is not None]
                counters[label] = spread(vals) if vals else None
            entry["per_op"] = counters
            if bench in ("readrandom", "multireadrandom"):
                missing = [r["name"] for r in rs if r.get("found") is not None and r["found"] != r["looked_up"]]
                if missing:
                    problems.append(f"{bench} found fewer keys than it looked up in {', '.join(missing)} "
                                    "(--records not the loaded count?)")
            s[p] = entry
        if by_path["files"] and by_path["sublevels"]:
            med = s["sublevels"]["ops_per_s"]["median"] / s["files"]["ops_per_s"]["median"]
            files_by_rep = {r["rep"]: r["ops_per_s"] for r in by_path["files"]}
            pairs = [r["ops_per_s"] / files_by_rep[r["rep"]] for r in by_path["sublevels"]
                     if r["rep"] in files_by_rep and files_by_rep[r["rep"]] > 0]
            s["ratio_sublevels_over_files"] = {
                "of_medians": med,
                "per_rep": spread(pairs) if pairs else None,
                "target": TARGETS[bench],
                "verdict": ("no target" if TARGETS[bench] is None
                            else "met" if med >= TARGETS[bench] else "missed")}
        summary[bench] = s

    # Did the switch change the path? On seeks, the files path merges one
    # child per L0 file, the sublevels path one per sublevel.
    check = {"ok": True, "message": "not checked (no seekrandom runs on both paths, or no counters)"}
    seek = summary.get("seekrandom", {})
    cf = seek.get("files", {}).get("per_op", {}).get("child seeks")
    cs = seek.get("sublevels", {}).get("per_op", {}).get("child seeks")
    if cf and cs:
        check["measured"] = {"files": cf["median"], "sublevels": cs["median"]}
        check["expected"] = expected_children
        if sublevels is not None and l0_files > sublevels and not cf["median"] > cs["median"]:
            check["ok"] = False
            check["message"] = (f"a seek merged {cf['median']:.1f} children on the files path and "
                                f"{cs['median']:.1f} on the sublevels path although L0 has {l0_files} files "
                                f"in {sublevels} sublevels: the binary ignored the read-path switch?")
        else:
            check["message"] = (f"child seeks per Seek: files {cf['median']:.2f} (expected "
                                f"{expected_children['files']}), sublevels {cs['median']:.2f} (expected "
                                f"{fmt(expected_children['sublevels'])})")

    busy = [r["name"] for r in runs if r.get("machine") and r["machine"].get("other_cores", 0) > 0.3]
    if busy:
        problems.append("something else used > 0.3 core during " + ", ".join(busy) +
                        " (runs/<name>.machine.json): those rates are suspect")

    return {"tool": "scripts/bench/l0_read_paths.sh", "meta": meta,
            "tree": {"l0_files": l0_files, "l0_depth": int(meta["l0_depth"]) if meta.get("l0_depth") else None,
                     "l0_sublevels": sublevels, "files_per_level": levels,
                     "db_bytes": int(meta["db_bytes"]) if meta.get("db_bytes") else None},
            "expected_children_per_seek": expected_children,
            "summary": summary, "path_check": check, "problems": problems, "runs": runs}


def table(result):
    meta, tree = result["meta"], result["tree"]
    out = []
    out.append(f"== L0 read paths on one settled {meta.get('system')} tree: {int(meta.get('records', 0)):,} records "
               f"({meta.get('key_size')} + {meta.get('value_size')} bytes), Bloom {meta.get('bloom_bits')} bits, no drain")
    out.append(f"   L0: {tree['l0_files']} files, depth {fmt(tree['l0_depth'])}, {fmt(tree['l0_sublevels'])} sublevels; "
               f"files per level {' '.join(map(str, tree['files_per_level']))}; DB {fmt((tree['db_bytes'] or 0) / 2**20, 1)} MiB")
    resid = [r["page_cache_resident_pct"] for r in result["runs"] if r["page_cache_resident_pct"] is not None]
    out.append(f"   one thread, {meta.get('seconds')} s per run, perf_level {meta.get('perf_level')}, buffered reads: "
               f"data from the OS page cache (SSTs resident before the runs: "
               f"{fmt(min(resid), 1) + '–' + fmt(max(resid), 1) + '%' if resid else 'not measured'}), "
               f"{meta.get('block_cache')} block cache; runs alternate files, sublevels")
    e = result["expected_children_per_seek"]
    out.append(f"   a Seek's children: memtable + L0 + non-empty levels = {e['files']} (files), {fmt(e['sublevels'])} (sublevels)")
    out.append("")
    head = f"{'benchmark':<15} {'path':<10} {'runs':>4}  {'ops/s median (min–max)':<28}" + "".join(
        f"{label + '/op':>18}" for label, _ in SHOWN)
    out.append(head)
    for bench, s in result["summary"].items():
        for p in PATHS:
            if p not in s:
                continue
            o = s[p]["ops_per_s"]
            cells = f"{fmt(o['median'])} ({fmt(o['min'])}–{fmt(o['max'])})"
            line = f"{bench:<15} {p:<10} {s[p]['runs']:>4}  {cells:<28}"
            for label, _ in SHOWN:
                c = s[p]["per_op"].get(label)
                line += f"{(fmt(c['median'], 2) if c else '–'):>18}"
            out.append(line)
        r = s.get("ratio_sublevels_over_files")
        if r:
            pr = r["per_rep"]
            pairs = (f"; per pair {pr['median']:.2f}× ({pr['min']:.2f}–{pr['max']:.2f})" if pr else "")
            verdict = (f"target ≥ {r['target']}×: {r['verdict']}" if r["target"] is not None
                       else r["verdict"])
            out.append(f"{'':<15} sublevels / files: {r['of_medians']:.2f}× of the medians{pairs}; {verdict}")
    out.append("")
    out.append(f"path check: {'ok' if result['path_check']['ok'] else 'FAILED'}: {result['path_check']['message']}")
    for p in result["problems"]:
        out.append(f"warning: {p}")
    return "\n".join(out)


def main(argv):
    try:
        if len(argv) >= 3 and argv[1] == "tree" and len(argv) == 3:
            print(" ".join(map(str, tree_levels(argv[2]))))
            return 0
        if len(argv) == 4 and argv[1] == "line":
            run = parse_run(argv[2], argv[3])
            p = per_op(run)
            extra = ""
            if p:
                extra = ", " + ", ".join(f"{label} {get(p):.2f}/op" for label, get in SHOWN
                                         if get(p) is not None)
            found = f", {run['found']:,} of {run['looked_up']:,} found" if "found" in run else ""
            print(f"{run['ops_per_s']:,} ops/s over {run['seconds']:.1f} s{found}{extra}")
            return 0
        if len(argv) in (3, 5) and argv[1] == "summary":
            out_dir = argv[2]
            json_path = os.path.join(out_dir, "results.json")
            if len(argv) == 5:
                if argv[3] != "--json":
                    raise Usage(f"unknown argument '{argv[3]}' (summary OUT_DIR [--json PATH])")
                json_path = argv[4]
            if not os.path.isdir(out_dir):
                raise Usage(f"no directory {out_dir}")
            result = summarize(out_dir)
            with open(json_path, "w", encoding="utf-8") as f:
                json.dump(result, f, indent=1)
                f.write("\n")
            print(table(result))
            print(f"\nevery run: {json_path}")
            return 0 if result["path_check"]["ok"] else 3
        raise Usage(__doc__.strip())
    except Usage as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
