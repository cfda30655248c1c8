#!/usr/bin/env python3
"""A grown tree's check (issue 56): its record count, its levels and its
settled debt, read from the closed DB of every region, so that each run of
scripts/bench/eval/grown.sh starts from the tree the preload made.

  tree_check.py TREE_REPORT DB_DIR --regions N --records N [--levels N]
                [--expect CHECK.json] [--brief]

TREE_REPORT is build/vlsm_tree_report; DB_DIR holds region-0 ... region-N-1.
Prints the check as JSON: per level, files, bytes and entries summed over the
regions; the records (every entry: a settled tree of distinct inserted keys
holds each once) and the pending compaction bytes. Exits 1 naming the first
rule broken:
  - the entries are not --records (a record lost, or an unsettled overwrite);
  - a region owes compaction (pending bytes > 0: not settled);
  - a level from L1 to --levels - 1 (default 4) is empty: not grown;
  - with --expect, the check differs from CHECK.json (the preload's): the
    tree changed since it was made.
"""
import argparse
import json
import os
import subprocess
import sys


def region_report(tool, path):
    text = subprocess.run([tool, path], check=True, capture_output=True, text=True).stdout
    return json.loads(text)


def check(tool, db_dir, regions):
    levels = {}
    pending = 0
    for i in range(regions):
        report = region_report(tool, os.path.join(db_dir, f"region-{i}"))
        pending += report["pending_compaction_bytes"]
        for level in report["levels"]:
            total = levels.setdefault(level["level"], {"files": 0, "bytes": 0, "entries": 0})
            for key in total:
                total[key] += level[key]
    return {"regions": regions,
            "records": sum(level["entries"] for level in levels.values()),
            "pending_compaction_bytes": pending,
            "levels": [dict(level=n, **levels[n]) for n in sorted(levels)]}


def problems(result, records, deepest, expect):
    """The rules the tree breaks, first first."""
    found = []
    if result["records"] != records:
        found.append(f"{result['records']} entries where {records} records were loaded")
    if result["pending_compaction_bytes"]:
        found.append(f"not settled: {result['pending_compaction_bytes']} bytes of compaction pending")
    empty = [l["level"] for l in result["levels"] if 1 <= l["level"] <= deepest and not l["files"]]
    if len(result["levels"]) <= deepest or empty:
        found.append(f"not grown: L1 to L{deepest} must all hold files "
                     f"(empty: {', '.join(f'L{n}' for n in empty) or f'L{deepest}'})")
    if expect is not None and result != expect:
        found.append("the tree differs from its preload's check")
    return found


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("tree_report")
    p.add_argument("db_dir")
    p.add_argument("--regions", type=int, required=True)
    p.add_argument("--records", type=int, required=True)
    p.add_argument("--levels", type=int, default=5, help="num_levels (default 5: L0 to L4)")
    p.add_argument("--expect")
    p.add_argument("--brief", action="store_true", help="one line: each level's GiB")
    args = p.parse_args(argv[1:])
    try:
        result = check(args.tree_report, args.db_dir, args.regions)
    except (subprocess.CalledProcessError, OSError, ValueError, KeyError) as e:
        detail = getattr(e, "stderr", "") or str(e)
        print(f"error: {args.db_dir}: cannot read the tree: {detail.strip()}", file=sys.stderr)
        return 1
    expect = None
    if args.expect:
        with open(args.expect) as f:
            expect = json.load(f)
    if args.brief:
        print(", ".join(f"L{l['level']} {l['bytes'] / 2**30:.2f} GiB" for l in result["levels"]))
    else:
        print(json.dumps(result, indent=1))
    found = problems(result, args.records, args.levels - 1, expect)
    for problem in found:
        print(f"error: {args.db_dir}: {problem}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
