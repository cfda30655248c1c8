#!/usr/bin/env python3
"""The drain at rest's price (issue 40): tools/vlsm_bursts (write / pause /
write) on the ranged layout (--system, vlsm-ranged-rs32-io by default) with
the drain on and off, REPS times each, the configurations alternating.
The third configuration, ranged-drain-on-reads, also reads in the pauses
(--read-rate Gets a second, one thread), so the drain's read-paid steps
buy L0 files there (issue 54): what reads between bursts cost in bytes and
in the next burst's tail.

  bursts.py [--reps 3] [--out DIR] [--build build] [--db DIR]
            [--bursts 4] [--burst-seconds 20] [--pause-seconds 45]
            [--rate 50000] [--preload-keys 4000000] [--system NAME]
            [--configs ranged-drain-on,ranged-drain-off] [--read-rate 20000]
  bursts.py --summary-only --out DIR

Per run OUT/<config>-<rep>.jsonl (one line per burst, one summary line);
OUT/results.json and the table: per configuration, medians over the reps
(min-max) of the write P99 of the bursts after the first pause (the
drain, when on, ran in the pauses before them), the drain's bytes, and the
bytes moved (flush + compaction read + written) per byte written, the
settle at the end included. Bad input exits 2.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import systems  # noqa: E402

# name -> (drain at rest on, reads in the pauses)
CONFIGS = {"ranged-drain-on": (1, False), "ranged-drain-off": (0, False),
           "ranged-drain-on-reads": (1, True)}


def command(tool, drain, reads, args):
    vlsm, shared, own = systems.settings(args.system)
    opts = systems.rocksdb_options(shared, own)
    cmd = [tool, f"--db={args.db}", "--options=" + ";".join(f"{k}={v}" for k, v in opts.items()),
           f"--drain_at_rest={drain}", f"--bursts={args.bursts}",
           f"--burst_seconds={args.burst_seconds}", f"--pause_seconds={args.pause_seconds}",
           f"--rate={args.rate}", f"--preload_keys={args.preload_keys}",
           f"--pause_read_rate={args.read_rate if reads else 0}"]
    if vlsm:
        cmd.append("--vlsm=" + ",".join(str(x) for x in vlsm[:3]) + "," + systems.l0_layout(vlsm))
    return cmd


def spread(values):
    return {"median": statistics.median(values), "min": min(values), "max": max(values),
            "values": values} if values else None


def summarize(out):
    result = {}
    for name in CONFIGS:
        runs = []
        for f in sorted(os.listdir(out)):
            # <name>-<rep>.jsonl exactly: one name may prefix another's.
            if re.fullmatch(re.escape(name) + r"-\d+\.jsonl", f):
                with open(os.path.join(out, f)) as fh:
                    rows = [json.loads(l) for l in fh if l.strip()]
                runs.append(rows)
        if not runs:
            continue
        later = lambda rows: [r for r in rows if r.get("burst", 0) > 1]  # noqa: E731
        summ = [next(r for r in rows if r.get("summary")) for rows in runs]
        result[name] = {
            "runs": len(runs),
            "next_burst_p99_us": spread([statistics.median(r["p99_us"] for r in later(rows))
                                         for rows in runs]),
            "next_burst_worst_p99_us": spread([max(r["p99_us"] for r in later(rows)) for rows in runs]),
            "l0_depth_at_burst_start": spread([statistics.median(r["l0_depth_at_start"] for r in later(rows))
                                               for rows in runs]),
            # Older runs (before --pause_read_rate) did not read: 0.
            "pause_reads": spread([sum(r.get("pause_reads", 0) for r in rows if "burst" in r)
                                   for rows in runs]),
            "drain_bytes": spread([s["drain_bytes"] for s in summ]),
            "moved_per_user_byte": spread([s["moved_per_user_byte"] for s in summ]),
        }
    return result


def scaled(s, unit):
    """A spread in units of `unit` (its values list as it was)."""
    return s and {k: (v / unit if k != "values" else v) for k, v in s.items()}


def table(result):
    fmt = lambda s, d=0: "–" if not s else f"{s['median']:,.{d}f} ({s['min']:,.{d}f}–{s['max']:,.{d}f})"  # noqa: E731
    lines = ["| configuration | runs | write P99 of bursts 2.. (µs) | worst burst P99 (µs) | "
             "L0 depth at burst start | reads in the pauses (K) | drain bytes (MiB) | "
             "bytes moved per byte written |",
             "|---|---|---|---|---|---|---|---|"]
    for name, r in result.items():
        mib = scaled(r["drain_bytes"], 2**20)
        lines.append(f"| {name} | {r['runs']} | {fmt(r['next_burst_p99_us'])} | "
                     f"{fmt(r['next_burst_worst_p99_us'])} | {fmt(r['l0_depth_at_burst_start'])} | "
                     f"{fmt(scaled(r['pause_reads'], 1000))} | {fmt(mib)} | {fmt(r['moved_per_user_byte'], 3)} |")
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--out", default="build/bench/bursts")
    p.add_argument("--build", default="build")
    p.add_argument("--db", default="/tmp/vlsm_bursts_db")
    p.add_argument("--bursts", type=int, default=3)
    p.add_argument("--burst-seconds", type=int, default=15)
    p.add_argument("--pause-seconds", type=int, default=40)
    p.add_argument("--rate", type=int, default=50000)
    p.add_argument("--preload-keys", type=int, default=4000000)
    p.add_argument("--system", default="vlsm-ranged-rs32-io")
    p.add_argument("--configs", default="ranged-drain-on,ranged-drain-off")
    p.add_argument("--read-rate", type=int, default=20000)
    p.add_argument("--summary-only", action="store_true")
    args = p.parse_args()
    if min(args.reps, args.bursts, args.burst_seconds, args.rate, args.read_rate) < 1 or args.bursts < 2:
        print("error: --reps, --burst-seconds, --rate and --read-rate must be >= 1, --bursts >= 2",
              file=sys.stderr)
        return 2
    configs = args.configs.split(",")
    unknown = [c for c in configs if c not in CONFIGS]
    if unknown or not configs:
        print(f"error: --configs: unknown {unknown} (configurations: {', '.join(CONFIGS)})", file=sys.stderr)
        return 2
    try:
        vlsm = systems.settings(args.system)[0]
    except systems.Usage as e:
        print(f"error: --system: {e}", file=sys.stderr)
        return 2
    if not vlsm or systems.l0_layout(vlsm) != "ranged":
        print(f"error: --system {args.system} is not a ranged vLSM system (the drain is the ranged layout's)",
              file=sys.stderr)
        return 2
    tool = os.path.join(args.build, "vlsm_bursts")
    if not args.summary_only:
        if not os.access(tool, os.X_OK):
            print(f"error: {tool} is not built (cmake --build {args.build} --target vlsm_bursts)",
                  file=sys.stderr)
            return 2
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "commands.txt"), "a") as log:
            for rep in range(1, args.reps + 1):
                for name in configs:
                    cmd = command(tool, *CONFIGS[name], args)
                    log.write(f"{name}-{rep}: {' '.join(cmd)}\n")
                    log.flush()
                    print(f"== {name} rep {rep}", file=sys.stderr, flush=True)
                    with open(os.path.join(args.out, f"{name}-{rep}.jsonl"), "w") as fh:
                        subprocess.run(cmd, stdout=fh, check=True)
    result = summarize(args.out)
    with open(os.path.join(args.out, "results.json"), "w") as fh:
        json.dump(result, fh, indent=1)
    print(table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
