#!/usr/bin/env python3
"""Where a process's named threads (ycsb_vlsm's writers: `ycsb-worker`)
spent their time off the CPU, second by second (issue 55, item 2).

Reads the text of `perf script` over a recording of sched:sched_switch and
sched:sched_wakeup with call stacks (scripts/bench/offcpu.sh makes it) and
follows each thread of the given name through its switches:

  off CPU ... woken ... on CPU
  |<-- blocked -->|<- runq ->|

* blocked: from the switch out to the wakeup, charged to the WAIT SITE, the
  switch-out stack: the first frame of ours (rocksdb::, ycsb::) under the
  C library, with the kernel function the thread slept in (futex_wait,
  io_schedule, balance_dirty_pages, ...);
* runq: from the wakeup to the switch in, waiting for a core; a thread
  switched out while runnable (preempted, prev_state R) waits for a core
  the whole time;
* the WAKER: the thread that woke it (its name and first frame of ours), so
  a writer waiting on the DB mutex or a condition names who let it go;
* for a preemption, the thread that TOOK THE CORE (the switch's next_comm:
  RocksDB names its pools' threads rocksdb:low and rocksdb:high), so a
  writer that loses its core to a compaction says so.

A worker waiting for a request (ycsb::RequestQueue::Pop) is idle, not
held: that site is reported as `idle` and left out of the held totals.

  offcpu.py SCRIPT.txt [--comm ycsb-worker] [--json OUT.json] [--top 12]
            [--from S] [--to S]

Prints the totals per wait site and per waker, then one line per second
(times from the recording's first event): on-CPU estimate is not given
(sched_switch sees only the switches); held = blocked (not idle) + runq.
--from/--to restrict the totals to a window (seconds from the start), e.g.
a dip. Exit 2 on bad input.
"""
import argparse
import collections
import json
import re
import sys

HEADER = re.compile(
    r"^\s*(?P<comm>.+?)\s+(?P<tid>\d+)\s+\[(?P<cpu>\d+)\]\s+"
    r"(?P<time>\d+\.\d+):\s+(?P<event>[\w:]+):\s*(?P<trace>.*)$")
SWITCH = re.compile(
    r"prev_comm=(?P<prev_comm>.+?) prev_pid=(?P<prev_pid>\d+) .*?"
    r"prev_state=(?P<state>\S+) ==> next_comm=(?P<next_comm>.+?) "
    r"next_pid=(?P<next_pid>\d+)")
WAKEUP = re.compile(r"comm=(?P<comm>.+?) pid=(?P<pid>\d+)")
FRAME = re.compile(r"^\s+[0-9a-f]+\s+(?P<sym>.+?)(?:\s+\((?P<dso>[^)]*)\))?$")

# Kernel functions that are the scheduler itself: the wait site's kernel
# part is the first frame below them.
SCHED_FRAMES = ("__schedule", "schedule", "schedule_timeout", "preempt_schedule",
                "schedule_hrtimeout", "io_schedule", "__cond_resched",
                "preempt_schedule_common", "__traceiter", "finish_task_switch")
OURS = ("rocksdb::", "ycsb::")
IDLE_SITES = ("ycsb::RequestQueue::Pop",)
WORKER_LOOP = "ycsb::OpenLoopDriver::Run"


def parse_events(lines):
    """Yields (time, event, comm, tid, trace, frames)."""
    head = None
    frames = []
    for line in lines:
        line = line.rstrip("\n")
        m = HEADER.match(line)
        if m:
            if head:
                yield head + (frames,)
            head = (float(m["time"]), m["event"], m["comm"], int(m["tid"]),
                    m["trace"])
            frames = []
        elif head and line.strip():
            f = FRAME.match(line)
            if f:
                frames.append(f["sym"])
    if head:
        yield head + (frames,)


def clean(sym):
    sym = re.sub(r"\+0x[0-9a-f]+$", "", sym)
    sym = sym.replace("(anonymous namespace)", "{anon}")
    # Drop argument lists and template arguments: one site per function.
    sym = re.sub(r"\(.*$", "", sym)
    return sym


def our_frame(frames):
    for f in frames:
        s = clean(f)
        if s.startswith(OURS):
            return s
        if WORKER_LOOP in f:
            # The worker's own loop, its queue inlined: waiting for a request.
            return IDLE_SITES[0]
    return None


def kernel_wait(frames):
    """The first kernel frame below the scheduler's own, if any."""
    seen_sched = False
    for f in frames:
        s = clean(f)
        if s in SCHED_FRAMES or s.startswith("__traceiter"):
            seen_sched = True
            continue
        if seen_sched:
            return s
    return None


def site_of(frames):
    ours = our_frame(frames) or "(no frame of ours)"
    k = kernel_wait(frames) or "?"
    return ours, k


class Accumulator:
    def __init__(self):
        self.blocked = collections.Counter()   # (ours, kernel) -> s
        self.count = collections.Counter()
        self.runq = 0.0
        self.preempted = 0.0
        self.wakers = collections.Counter()    # waker -> s of blocked time
        self.preempted_by = collections.Counter()  # thread name -> s preempted
        self.idle = 0.0

    def add_block(self, site, seconds, waker):
        if site[0].startswith(IDLE_SITES):
            self.idle += seconds
            return
        self.blocked[site] += seconds
        self.count[site] += 1
        if waker:
            self.wakers[waker] += seconds

    def held(self):
        return sum(self.blocked.values()) + self.runq + self.preempted

    def to_json(self, top):
        return {
            "held_s": round(self.held(), 6),
            "blocked_s": round(sum(self.blocked.values()), 6),
            "runq_s": round(self.runq, 6),
            "preempted_s": round(self.preempted, 6),
            "idle_s": round(self.idle, 6),
            "sites": [{"ours": o, "kernel": k, "seconds": round(s, 6),
                       "waits": self.count[(o, k)]}
                      for (o, k), s in self.blocked.most_common(top)],
            "wakers": [{"waker": w, "seconds": round(s, 6)}
                       for w, s in self.wakers.most_common(top)],
            "preempted_by": [{"thread": n, "seconds": round(s, 6)}
                             for n, s in self.preempted_by.most_common(top)],
        }


def analyse(lines, comm, window=None, top=12):
    out_at = {}      # tid -> (time, state, site, the thread switched in)
    woken_at = {}    # tid -> (time, waker)
    total = Accumulator()
    per_second = collections.defaultdict(Accumulator)
    start = None
    threads = set()
    for t, event, ev_comm, ev_tid, trace, frames in parse_events(lines):
        if start is None:
            start = t
        rel = t - start
        if event.endswith("sched_wakeup") or event.endswith("sched_waking"):
            m = WAKEUP.search(trace)
            if m and m["comm"] == comm:
                waker = "%s: %s" % (ev_comm, our_frame(frames) or
                                    (clean(frames[0]) if frames else "?"))
                woken_at[int(m["pid"])] = (t, waker)
            continue
        if not event.endswith("sched_switch"):
            continue
        m = SWITCH.search(trace)
        if not m:
            continue
        if m["prev_comm"] == comm:
            tid = int(m["prev_pid"])
            threads.add(tid)
            out_at[tid] = (t, m["state"], site_of(frames), m["next_comm"])
            woken_at.pop(tid, None)
        if m["next_comm"] == comm:
            tid = int(m["next_pid"])
            threads.add(tid)
            if tid not in out_at:
                continue
            t_out, state, site, taker = out_at.pop(tid)
            wake = woken_at.pop(tid, None)
            accs = [per_second[int(t_out - start)]]
            if window is None or window[0] <= t_out - start < window[1]:
                accs.append(total)
            for acc in accs:
                if state.startswith("R"):
                    acc.preempted += t - t_out
                    acc.preempted_by[taker] += t - t_out
                elif wake and wake[0] >= t_out:
                    acc.add_block(site, wake[0] - t_out, wake[1])
                    if not site[0].startswith(IDLE_SITES):
                        acc.runq += t - wake[0]
                else:  # woken before the recording saw it: all blocked
                    acc.add_block(site, t - t_out, None)
    return start, threads, total, per_second


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("script", help="perf script output (offcpu.sh's sched.txt)")
    p.add_argument("--comm", default="ycsb-worker")
    p.add_argument("--json")
    p.add_argument("--top", type=int, default=12)
    p.add_argument("--from", dest="from_s", type=float)
    p.add_argument("--to", dest="to_s", type=float)
    a = p.parse_args()
    window = None
    if a.from_s is not None or a.to_s is not None:
        window = (a.from_s or 0.0, a.to_s if a.to_s is not None else float("inf"))
        if window[1] <= window[0]:
            p.error("--to must be after --from")
    try:
        with open(a.script, errors="replace") as f:
            start, threads, total, per_second = analyse(f, a.comm, window, a.top)
    except OSError as e:
        print("offcpu.py: %s" % e, file=sys.stderr)
        sys.exit(2)
    if not threads:
        print("offcpu.py: no thread named %r switched in %s" % (a.comm, a.script),
              file=sys.stderr)
        sys.exit(2)
    span = "the whole recording" if window is None else \
        "%.1f-%.1f s" % window
    print("%d threads named %s; %s: held %.3f s (blocked %.3f, waiting for a "
          "core after a wakeup %.3f, preempted %.3f), idle %.3f s"
          % (len(threads), a.comm, span, total.held(), sum(total.blocked.values()),
             total.runq, total.preempted, total.idle))
    print("\nblocked, by wait site (first frame of ours | kernel):")
    for (o, k), s in total.blocked.most_common(a.top):
        print("  %8.3f s %7d waits  %s | %s" % (s, total.count[(o, k)], o, k))
    print("\nblocked, by waker:")
    for w, s in total.wakers.most_common(a.top):
        print("  %8.3f s  %s" % (s, w))
    print("\npreempted, by the thread that took the core:")
    for n, s in total.preempted_by.most_common(a.top):
        print("  %8.3f s  %s" % (s, n))
    print("\nper second: held = blocked + runq + preempted (s, summed over "
          "threads); top site")
    for sec in sorted(per_second):
        acc = per_second[sec]
        site = acc.blocked.most_common(1)
        print("  %4d  held %6.3f  blocked %6.3f  runq %6.3f  preempted %6.3f  %s"
              % (sec, acc.held(), sum(acc.blocked.values()), acc.runq,
                 acc.preempted, "%s | %s" % site[0][0] if site else ""))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"comm": a.comm, "threads": len(threads),
                       "window_s": list(window) if window else None,
                       "total": total.to_json(a.top),
                       "per_second": {str(s): per_second[s].to_json(3)
                                      for s in sorted(per_second)}},
                      f, indent=1)


if __name__ == "__main__":
    main()
