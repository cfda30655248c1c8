#!/usr/bin/env python3
"""Is each system's debt estimate calibrated? Runs tools/vlsm_calibrate for
every system and key order side by side and judges the pairs (E, the
estimate after a flush; R, what the settle then read) by one rule:

  - median E/R over the pairs with R >= 32 MiB lies in [0.67, 1.5]
    (key orders that overwrite at random only: uniform, zipfian, hotset;
    with sequential keys and append streams trivial moves read nothing);
  - every pair's R - E <= max(RocksDB-IO's worst R - E in the same key
    order, 0.15 x the system's soft pending-compaction limit);
  - under the ranged layout, L0 after every settle <= (d - 1) memtables.
L0's peak bytes and depth are reported, not judged: this load writes flat
out, past any sustainable rate, and the bounds on them (peak L0 <=
max_bytes_for_level_base + the memtable budget, peak depth <= depth trigger
+ max_write_buffer_number) hold at loads up to 80% of RocksDB's rate, which
load_a.sh's open-loop runs measure.

  calibrate.py OUT_DIR [--build build] [--systems "rocksdb rocksdb-io
      vlsm-ranged-rs32-io"] [--keys "uniform sequential"] [--phases 5]
      (key orders: uniform sequential zipfian hotset streams, as
      tools/vlsm_calibrate.cc defines them)
      [--phase_keys 2000000] [--db DIR] [--judge-only]

--judge-only judges the .jsonl files already in OUT_DIR again, running
nothing; OUT_DIR may be a run packed in a committed page's raw.tar.xz
(docs/results/<page>/<run>), read from a temporary copy.

Writes OUT_DIR/<system>-<keys>.jsonl (the tool's output) and
OUT_DIR/calibration.json (the verdicts), and prints a table. Exits 1 if any
system fails a rule, 2 on bad input.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "eval"))
import systems  # noqa: E402
from results_archive import unpacked  # noqa: E402

MIB = 1 << 20
# Key orders whose writes overwrite at random, so that settles read what
# the estimate owes (the others' steps are mostly trivial moves).
RANDOM_ORDERS = ("uniform", "zipfian", "hotset")


def size(value):
    return int(systems.to_bytes(value))


def run(tool, system, keys, args, out_dir):
    vlsm, shared, own = systems.settings(system)
    opts = systems.rocksdb_options(shared, own)
    path = os.path.join(out_dir, f"{system}-{keys}.jsonl")
    if args.judge_only:
        with open(path) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        return [r for r in rows if "phase" in r], opts, vlsm
    cmd = [tool, f"--db={args.db}", "--options=" +
           ";".join(f"{k}={v}" for k, v in opts.items()),
           f"--keys={keys}", f"--phases={args.phases}",
           f"--phase_keys={args.phase_keys}"]
    if vlsm:
        cmd.append("--vlsm=" + ",".join(str(x) for x in vlsm[:3]) +
                   ("," + systems.l0_layout(vlsm)))
    print(f"== {system}, {keys} keys", file=sys.stderr, flush=True)
    with open(path, "w") as out:
        subprocess.run(cmd, stdout=out, check=True)
    with open(path) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return [r for r in rows if "phase" in r], opts, vlsm


def l0_bounds(opts):
    """(bytes, depth) a ranged L0 stays under while the estimate works: L1's
    target plus every memtable, and the depth trigger plus every memtable
    (a flush in flight for each)."""
    count = int(opts["max_write_buffer_number"])
    return (size(opts["max_bytes_for_level_base"]) + count * size(opts["write_buffer_size"]),
            int(opts["level0_file_num_compaction_trigger"]) + count)


def judge(system, keys, pairs, opts, vlsm, io_worst):
    soft = size(opts["soft_pending_compaction_bytes_limit"])
    shortfalls = [p["settle_read_bytes"] - p["estimate_bytes"] for p in pairs]
    ratios = [p["estimate_bytes"] / p["settle_read_bytes"] for p in pairs
              if p["settle_read_bytes"] >= 32 * MIB]
    bound = max(io_worst, 0.15 * soft)
    verdict = {"system": system, "keys": keys, "pairs": len(pairs),
               "pairs_r_at_least_32mib": len(ratios),
               "median_e_over_r": statistics.median(ratios) if ratios else None,
               "worst_r_minus_e_mib": max(shortfalls) / MIB,
               "r_minus_e_bound_mib": bound / MIB, "failed": []}
    if all("write_delayed_seconds" in p for p in pairs):
        # What vlsm_calibrate's flat-out writes met (the evaluation's pairs,
        # final_report.py's, and older .jsonl files do not carry them).
        verdict.update(
            write_seconds=sum(p["write_seconds"] for p in pairs),
            write_delayed_seconds=sum(p["write_delayed_seconds"] for p in pairs),
            write_stopped_seconds=sum(p["write_stopped_seconds"] for p in pairs),
            estimate_peak_mib=max(p["estimate_peak_bytes"] for p in pairs) / MIB)
    if keys in RANDOM_ORDERS:
        if not ratios:
            verdict["failed"].append("no pair with R >= 32 MiB")
        elif not 0.67 <= verdict["median_e_over_r"] <= 1.5:
            verdict["failed"].append("median E/R outside [0.67, 1.5]")
    if max(shortfalls) > bound:
        verdict["failed"].append("R - E over its bound")
    if vlsm and systems.l0_layout(vlsm) == "ranged":
        memtable = size(opts["write_buffer_size"])
        depth = int(opts["level0_file_num_compaction_trigger"])
        peak = max(p["l0_peak_bytes"] for p in pairs)
        peak_depth = max(p["l0_peak_depth"] for p in pairs)
        settled = max(p["l0_settled_bytes"] for p in pairs)
        verdict.update(l0_peak_mib=peak / MIB, l0_peak_depth=peak_depth,
                       l0_settled_mib=settled / MIB)
        bound_bytes, bound_depth = l0_bounds(opts)
        verdict.update(l0_peak_within_bound=peak <= bound_bytes,
                       l0_peak_depth_within_bound=peak_depth <= bound_depth)
        if settled > (depth - 1) * memtable:
            verdict["failed"].append("L0 after a settle over (d - 1) memtables")
    return verdict


def flat_out(v):
    """The flat-out columns of a verdict, or dashes where its run lacks them."""
    if "write_seconds" not in v:
        return f"{'-':>7} {'-':>6} {'-':>6} {'-':>7}"
    return (f"{v['write_seconds']:>7.1f} {v['write_delayed_seconds']:>6.1f} "
            f"{v['write_stopped_seconds']:>6.1f} {v['estimate_peak_mib']:>6.0f}M")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("out_dir")
    p.add_argument("--build", default="build")
    p.add_argument("--systems", default="rocksdb rocksdb-io vlsm-ranged-rs32-io")
    p.add_argument("--keys", default="uniform sequential")
    p.add_argument("--phases", type=int, default=5)
    p.add_argument("--phase_keys", type=int, default=2000000)
    p.add_argument("--db", default="/tmp/vlsm_calibrate_db")
    p.add_argument("--judge-only", action="store_true")
    args = p.parse_args()
    tool = os.path.join(args.build, "vlsm_calibrate")
    if not args.judge_only and not os.access(tool, os.X_OK):
        print(f"calibrate.py: no {tool}: build the tree first", file=sys.stderr)
        return 2
    names = args.systems.split()
    for name in names:
        if name not in systems.SYSTEMS:
            print(f"calibrate.py: unknown system {name}", file=sys.stderr)
            return 2
    # RocksDB-IO first: its worst R - E bounds the others'.
    order = sorted(names, key=lambda n: n != "rocksdb-io")
    if args.judge_only:
        args.out_dir = unpacked(args.out_dir)
    os.makedirs(args.out_dir, exist_ok=True)
    verdicts = []
    for keys in args.keys.split():
        io_worst = 0
        for name in order:
            pairs, opts, vlsm = run(tool, name, keys, args, args.out_dir)
            if name == "rocksdb-io":
                io_worst = max(x["settle_read_bytes"] - x["estimate_bytes"]
                               for x in pairs)
            verdicts.append(judge(name, keys, pairs, opts, vlsm, io_worst))
    with open(os.path.join(args.out_dir, "calibration.json"), "w") as f:
        json.dump(verdicts, f, indent=1)
    print(f"{'system':22} {'keys':10} {'pairs':>5} {'E/R':>6} "
          f"{'R-E max':>8} {'bound':>7}  L0 peak/depth/settled  "
          f"{'write s':>7} {'slow s':>6} {'stop s':>6} {'E peak':>7}  verdict")
    for v in verdicts:
        ratio = f"{v['median_e_over_r']:.2f}" if v["median_e_over_r"] else "-"
        l0 = (f"{v['l0_peak_mib']:.0f} MiB/{v['l0_peak_depth']}/"
              f"{v['l0_settled_mib']:.0f} MiB" if "l0_peak_mib" in v else "-")
        print(f"{v['system']:22} {v['keys']:10} {v['pairs']:>5} {ratio:>6} "
              f"{v['worst_r_minus_e_mib']:>7.0f}M {v['r_minus_e_bound_mib']:>6.0f}M"
              f"  {l0:22} {flat_out(v)}  {'; '.join(v['failed']) or 'pass'}")
    return 1 if any(v["failed"] for v in verdicts) else 0


if __name__ == "__main__":
    sys.exit(main())
