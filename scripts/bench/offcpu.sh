#!/usr/bin/env bash
# Off-CPU evidence for issue 55: where the writers of a running ycsb_vlsm
# wait, named by the kernel and by our own frames.
#
# Records, for SECONDS, every scheduler switch into or out of a thread
# named COMM (ycsb_vlsm names its workers `ycsb-worker`) and every wakeup
# of one, system-wide, with call stacks (DWARF unwinding of each stack's
# first 4 KiB: the C library's futex and condition-variable frames have no
# frame pointers, so a frame-pointer chain stops there), then reads them with
# scripts/bench/offcpu.py: per wait site (the switch-out stack's first
# frame of ours and the kernel function it slept in), per waker (who let
# the thread go), per thread that took a preempted writer's core, and per
# second. A wakeup is recorded on the waker's CPU,
# so the recording is system-wide (-a), filtered on the thread name.
#
#   OUT/sched.txt.xz   perf script's text (every event and stack)
#   OUT/offcpu.txt     offcpu.py's report;  OUT/offcpu.json  the same as JSON
#   OUT/command.txt    what ran
#
# usage: scripts/bench/offcpu.sh [--seconds S] [--out DIR] [--comm NAME]
#                                 [--record-only]
#        scripts/bench/offcpu.sh --analyse DIR [--comm NAME]
#   --seconds S     how long to record (default 20)
#   --out DIR       results (default build/bench/offcpu-<time>); new or empty
#   --comm NAME     the threads followed (default ycsb-worker)
#   --record-only   stop after recording (OUT/perf.data): perf script takes
#                   about a core-minute per 5 s recorded, which a run still
#                   going would feel; --analyse OUT afterwards
#   --analyse DIR   read DIR/perf.data (a --record-only recording)
# Recording costs the writers too: every switch copies 4 KiB of stack.
# Compare runs recorded alike, not a recorded run with a plain one.
# Start it while the run is in the part you want to see, e.g. beside
# scripts/bench/eval/ycsb_run.sh. Needs perf and root (or
# perf_event_paranoid <= -1). Exit 2: bad input or no perf; 1: perf failed.
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
seconds=20
out=""
comm=ycsb-worker
record_only=0
analyse=""
stack_bytes=4096
die_usage() { echo "offcpu.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) [ $# -ge 2 ] || die_usage "--seconds needs a value"; seconds=$2; shift 2 ;;
    --out) [ $# -ge 2 ] || die_usage "--out needs a value"; out=$2; shift 2 ;;
    --comm) [ $# -ge 2 ] || die_usage "--comm needs a value"; comm=$2; shift 2 ;;
    --record-only) record_only=1; shift ;;
    --analyse) [ $# -ge 2 ] || die_usage "--analyse needs a directory"; analyse=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die_usage "unknown argument '$1'" ;;
  esac
done
[[ "$seconds" =~ ^[0-9]+$ && "$seconds" -gt 0 ]] || die_usage "--seconds must be a whole number > 0, got '$seconds'"
[[ "$comm" =~ ^[A-Za-z0-9_.-]{1,15}$ ]] || die_usage "--comm must be a thread name (up to 15 of [A-Za-z0-9_.-]), got '$comm'"
command -v perf >/dev/null || die_usage "perf is not installed (Debian: linux-perf)"
record() {
  out=${out:-$VLSM_ROOT/build/bench/offcpu-$(date +%H%M%S)}
  if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then die_usage "--out $out exists and is not empty"; fi
  mkdir -p "$out"
  local cmd=(perf record -q -a --call-graph "dwarf,$stack_bytes" -m 1024 -o "$out/perf.data"
    -e sched:sched_switch --filter "prev_comm == \"$comm\" || next_comm == \"$comm\""
    -e sched:sched_wakeup --filter "comm == \"$comm\""
    -- sleep "$seconds")
  printf '%q ' "${cmd[@]}" > "$out/command.txt"; echo >> "$out/command.txt"
  echo "offcpu.sh: recording $seconds s of $comm threads' switches into $out" >&2
  "${cmd[@]}" || { echo "offcpu.sh: perf record failed" >&2; exit 1; }
}
if [ -n "$analyse" ]; then
  [ "$record_only" = 0 ] || die_usage "--analyse and --record-only exclude each other"
  [ -f "$analyse/perf.data" ] || die_usage "--analyse $analyse holds no perf.data"
  out=$analyse
else
  record
  if [ "$record_only" = 1 ]; then
    echo "offcpu.sh: recorded $out/perf.data; then: $0 --analyse $out --comm $comm" >&2
    exit 0
  fi
fi
nice -n 19 perf script --no-inline -i "$out/perf.data" -F comm,tid,cpu,time,event,trace,ip,sym \
  > "$out/sched.txt" 2> "$out/perf-script.err" || { echo "offcpu.sh: perf script failed (see $out/perf-script.err)" >&2; exit 1; }
rm -f "$out/perf.data"
python3 "$VLSM_ROOT/scripts/bench/offcpu.py" "$out/sched.txt" --comm "$comm" \
  --json "$out/offcpu.json" > "$out/offcpu.txt" || { echo "offcpu.sh: offcpu.py failed" >&2; exit 1; }
xz -T1 "$out/sched.txt"
head -40 "$out/offcpu.txt"
echo "offcpu.sh: $out/offcpu.txt, offcpu.json, sched.txt.xz" >&2
