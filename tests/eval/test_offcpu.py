"""offcpu.py (issue 55's off-CPU evidence) on a made-up `perf script`
text: a write-group follower blocked then waiting for a core, a preempted
writer, an idle worker, a writer in uninterruptible sleep under a sync;
the wait sites, the wakers, the seconds and the window."""
import os
import subprocess
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
OFFCPU = os.path.join(ROOT, "scripts", "bench", "offcpu.py")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_json import run_with_json  # noqa: E402

KERNEL_FUTEX = ["__schedule", "schedule", "futex_do_wait", "__futex_wait",
                "futex_wait", "do_futex"]
FOLLOWER = ["__futex_abstimed_wait_common", "___pthread_cond_wait",
            "rocksdb::WriteThread::BlockingAwaitState",
            "rocksdb::WriteThread::AwaitState", "rocksdb::DBImpl::WriteImpl",
            "ycsb::RocksDbBinding::Put"]
WORKER_LOOP = ["__futex_abstimed_wait_common", "___pthread_cond_wait",
               "std::thread::_State_impl<std::thread::_Invoker<std::tuple<"
               "ycsb::OpenLoopDriver::Run(std::function<void (ycsb::IntervalStats "
               "const&)> const&)::{lambda()#1}> > >::_M_run"]


def event(comm, tid, time, name, trace, frames):
    lines = ["%s %d [000] %.6f: sched:%s: %s" % (comm, tid, time, name, trace)]
    lines += ["\t%16x %s" % (0xffffffff81000000 + i, f)
              for i, f in enumerate(frames)]
    return "\n".join(lines) + "\n\n"


def switch_out(tid, time, state, frames, next_comm="swapper/0", next_pid=0):
    return event("ycsb-worker", tid, time, "sched_switch",
                 "prev_comm=ycsb-worker prev_pid=%d prev_prio=120 prev_state=%s "
                 "==> next_comm=%s next_pid=%d next_prio=120"
                 % (tid, state, next_comm, next_pid), frames)


def switch_in(tid, time):
    return event("swapper/0", 0, time, "sched_switch",
                 "prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R "
                 "==> next_comm=ycsb-worker next_pid=%d next_prio=120" % tid,
                 ["__schedule"])


def wakeup(waker, waker_tid, tid, time, frames):
    return event(waker, waker_tid, time, "sched_wakeup",
                 "comm=ycsb-worker pid=%d prio=120 target_cpu=000" % tid, frames)


SCRIPT = "".join([
    # Worker 11, a write-group follower: blocked 10 ms, then 2 ms for a core.
    switch_out(11, 100.000, "S", KERNEL_FUTEX + FOLLOWER),
    wakeup("ycsb-worker", 12, 11, 100.010,
           ["try_to_wake_up", "rocksdb::WriteThread::SetState",
            "rocksdb::WriteThread::ExitAsBatchGroupLeader"]),
    switch_in(11, 100.012),
    # Worker 11 preempted for 5 ms by a compaction thread.
    switch_out(11, 100.020, "R", ["__schedule", "schedule",
                                  "rocksdb::MemTable::Add"],
               next_comm="rocksdb:low", next_pid=21),
    switch_in(11, 100.025),
    # Worker 13 idle for 0.5 s: waiting for a request.
    switch_out(13, 100.000, "S", KERNEL_FUTEX + WORKER_LOOP),
    wakeup("ycsb-generator", 14, 13, 100.500, ["try_to_wake_up", "pthread_cond_signal"]),
    switch_in(13, 100.501),
    # Worker 13, a second later, 100 ms in uninterruptible sleep under a sync.
    switch_out(13, 101.200, "D", ["__schedule", "schedule", "io_schedule",
                                  "folio_wait_bit_common", "fdatasync",
                                  "rocksdb::WritableFileWriter::SyncInternal",
                                  "rocksdb::DBImpl::WriteToWAL"]),
    wakeup("kworker/0:1", 3, 13, 101.300, ["try_to_wake_up", "blk_mq_end_request"]),
    switch_in(13, 101.300),
])


class OffCpuTest(unittest.TestCase):
    def run_offcpu(self, *args, script=SCRIPT):
        return run_with_json(OFFCPU, {"sched.txt": script}, args, target="sched.txt")

    def test_blocked_runq_preempted_idle(self):
        p, j = self.run_offcpu()
        self.assertEqual(p.returncode, 0, p.stderr)
        t = j["total"]
        self.assertEqual(j["threads"], 2)
        self.assertAlmostEqual(t["blocked_s"], 0.010 + 0.100, places=6)
        self.assertAlmostEqual(t["runq_s"], 0.002, places=6)
        self.assertAlmostEqual(t["preempted_s"], 0.005, places=6)
        self.assertAlmostEqual(t["idle_s"], 0.500, places=6)
        self.assertAlmostEqual(t["held_s"], 0.117, places=6)
        sites = {(s["ours"], s["kernel"]): s for s in t["sites"]}
        follower = sites[("rocksdb::WriteThread::BlockingAwaitState", "futex_do_wait")]
        self.assertAlmostEqual(follower["seconds"], 0.010, places=6)
        self.assertEqual(follower["waits"], 1)
        sync = sites[("rocksdb::WritableFileWriter::SyncInternal",
                      "folio_wait_bit_common")]
        self.assertAlmostEqual(sync["seconds"], 0.100, places=6)
        self.assertEqual(len(sites), 2)  # the idle wait is not a held site
        wakers = {w["waker"]: w["seconds"] for w in t["wakers"]}
        self.assertAlmostEqual(wakers["ycsb-worker: rocksdb::WriteThread::SetState"],
                               0.010, places=6)
        self.assertAlmostEqual(wakers["kworker/0:1: try_to_wake_up"], 0.100, places=6)
        # Seconds from the first event: the sync wait is in second 1.
        self.assertAlmostEqual(j["per_second"]["0"]["held_s"], 0.017, places=6)
        self.assertAlmostEqual(j["per_second"]["1"]["blocked_s"], 0.100, places=6)
        self.assertIn("BlockingAwaitState", p.stdout)
        # A preempted writer's time goes to the thread that took its core.
        self.assertEqual(t["preempted_by"], [{"thread": "rocksdb:low", "seconds": 0.005}])
        self.assertIn("preempted, by the thread that took the core", p.stdout)

    def test_window(self):
        p, j = self.run_offcpu("--from", "1", "--to", "2")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertAlmostEqual(j["total"]["blocked_s"], 0.100, places=6)
        self.assertAlmostEqual(j["total"]["runq_s"], 0.0, places=6)
        self.assertAlmostEqual(j["total"]["preempted_s"], 0.0, places=6)
        self.assertEqual(j["window_s"], [1.0, 2.0])

    def test_bad_input(self):
        p, _ = self.run_offcpu(script=event("other", 5, 1.0, "sched_switch",
                                            "prev_comm=other prev_pid=5 prev_prio=120 "
                                            "prev_state=S ==> next_comm=x next_pid=6 "
                                            "next_prio=120", ["__schedule"]))
        self.assertEqual(p.returncode, 2)
        self.assertIn("no thread named", p.stderr)
        p, _ = self.run_offcpu("--from", "3", "--to", "2")
        self.assertEqual(p.returncode, 2)
        self.assertIn("--to must be after --from", p.stderr)
        p = subprocess.run([sys.executable, OFFCPU, "/nonexistent/sched.txt"],
                           capture_output=True, text=True)
        self.assertEqual(p.returncode, 2)


if __name__ == "__main__":
    unittest.main()
