#!/usr/bin/env python3
"""SIGKILLs crash_writer at random moments, mostly inside vLSM compactions,
and runs its verifier after every kill (see crash_writer.cc for what is
checked and what RocksDB promises in each mode).

  crash_driver.py --writer BIN --dir DIR --mode sync|nosync --kills N [--seed S]

Kill moments: 70 % of rounds have the writer SIGKILL itself 0-2 ms after
the first compaction of one kind begins (alternately L0->L1 and L1->L2; a
64 KiB compaction lasts milliseconds, less than this script's reaction time);
30 % are killed by this script at a uniform random time 0.05-1.5 s after the
DB opened. Whether a compaction was really running at the kill is read back
from the writer's begin/end lines, and counted. Exit 0 = every round verified.
"""
import argparse
import os
import random
import selectors
import shutil
import signal
import subprocess
import sys
import time

# A round waiting for a compaction that does not come kills anyway after this.
WAIT_FOR_COMPACTION_S = 20


def run_round(args, rng, round_no, stats):
    db = os.path.join(args.dir, "db")
    ack = os.path.join(args.dir, "ack.log")
    cmd = [args.writer, "write", db, ack, args.mode, str(rng.getrandbits(63))]
    in_compaction = rng.random() < 0.7
    if in_compaction:
        target = "L0->L1" if round_no % 2 == 0 else "L1->L2"
        cmd.append(f"{target}:{rng.randrange(0, 2000)}")
    writer = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sel = selectors.DefaultSelector()
    sel.register(writer.stdout, selectors.EVENT_READ)
    buf = b""
    lines = []

    def pump(timeout):
        nonlocal buf
        if sel.select(timeout):
            chunk = os.read(writer.stdout.fileno(), 65536)
            if not chunk:
                return False
            buf += chunk
            *done, buf = buf.split(b"\n")
            lines.extend(x.decode() for x in done)
        return True

    def wait_for(pred, timeout):
        deadline = time.monotonic() + timeout
        seen = len(lines)
        while time.monotonic() < deadline:
            while seen < len(lines):
                if pred(lines[seen]):
                    return True
                seen += 1
            if writer.poll() is not None and not pump(0):
                return False
            pump(min(0.05, max(0.0, deadline - time.monotonic())))
        return False

    ready = wait_for(lambda l: l == "ready", 60)
    if not ready and writer.poll() != -signal.SIGKILL:
        writer.kill()
        _, err = writer.communicate()
        sys.exit(f"round {round_no}: writer did not open the DB: {err.decode()}")
    # (Not ready but SIGKILLed: the self-kill hit a compaction that DB::Open's
    # recovery started, before the writer wrote anything. Still a kill to verify.)
    if not ready:
        plan = "self-kill during open"
    elif in_compaction:
        # The writer kills itself; if no such compaction comes, we kill it.
        try:
            writer.wait(WAIT_FOR_COMPACTION_S)
        except subprocess.TimeoutExpired:
            pass
        plan = "self-kill in " + target
    else:
        wait_for(lambda l: False, rng.uniform(0.05, 1.5))
        plan = "random"
    if writer.poll() is not None and writer.returncode != -signal.SIGKILL:
        _, err = writer.communicate()
        sys.exit(f"round {round_no}: writer exited by itself ({writer.returncode}): "
                 f"{err.decode()}")
    if writer.poll() is None:
        writer.send_signal(signal.SIGKILL)
    out, err = writer.communicate()
    # Lines written before the kill are still in the pipe.
    for x in (buf + out).split(b"\n"):
        if x:
            lines.append(x.decode())
    running = {}
    for l in lines:
        parts = l.split()
        if parts[0] == "begin":
            running[parts[1]] = parts[2]
        elif parts[0] == "end":
            running.pop(parts[1], None)
    kinds = sorted(set(running.values()))
    stats["kills"] += 1
    for k in kinds:
        stats["during " + k] = stats.get("during " + k, 0) + 1
    if not kinds:
        stats["no compaction running"] = stats.get("no compaction running", 0) + 1

    verify = subprocess.run([args.writer, "verify", db, ack],
                            capture_output=True, text=True)
    summary = verify.stdout.strip()
    if verify.returncode != 0:
        print(verify.stderr[-4000:], file=sys.stderr)
        sys.exit(f"round {round_no} ({plan}, running: {kinds or 'none'}): "
                 f"verification FAILED: {summary}")
    if "in-flight batch applied" in summary:
        stats["in-flight batch applied"] = stats.get("in-flight batch applied", 0) + 1
    if args.verbose or round_no % 10 == 0 or round_no == args.kills:
        print(f"round {round_no}/{args.kills} ({plan}; running: "
              f"{', '.join(kinds) or 'no compaction'}): {summary}", flush=True)
    stats["last"] = summary


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--writer", required=True)
    p.add_argument("--dir", required=True)
    p.add_argument("--mode", choices=["sync", "nosync"], required=True)
    p.add_argument("--kills", type=int, default=20)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--verbose", action="store_true")
    args = p.parse_args()
    seed = args.seed if args.seed is not None else random.SystemRandom().getrandbits(32)
    rng = random.Random(seed)
    shutil.rmtree(args.dir, ignore_errors=True)
    os.makedirs(args.dir)
    print(f"crash_driver: mode {args.mode}, {args.kills} kills, seed {seed}", flush=True)
    stats = {"kills": 0}
    for i in range(1, args.kills + 1):
        run_round(args, rng, i, stats)
    last = stats.pop("last", "")
    print(f"PASS: {args.mode}: survived {stats.pop('kills')} SIGKILLs "
          f"({', '.join(f'{k}: {v}' for k, v in sorted(stats.items()))}); last: {last}")


if __name__ == "__main__":
    main()
