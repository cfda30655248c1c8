// Drives a workload against a store, open loop (the default when a target
// rate is given) or closed loop.
//
// Open loop: one generator thread computes each request's *intended* start
// time from the schedule (constant spacing 1/target, or Poisson arrivals),
// and pushes every request whose time has come to an unbounded queue;
// `threads` workers pop and execute them synchronously and record
// latency = completion - intended start, so time a request spent waiting
// behind a stalled store counts (no coordinated omission). The generator
// does not spin: it sleeps wake_us between rounds and enqueues a whole
// round in one batch, so it leaves the CPU to the store; lateness of a wake
// only delays the hand-off, never moves the intended times.
//
// Closed loop: each worker issues its next request when the previous one
// completes; latency = service time. Kept for comparison.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <vector>

#include "core_workload.h"
#include "db_binding.h"
#include "latency_histogram.h"

namespace ycsb {

enum class Phase { kLoad, kRun };

// One interval's per-operation histograms (kOpTypes each, indexed by
// OpType), for interval logs such as HdrHistogram's. Valid during the call.
struct IntervalHistograms {
  double start_s = 0;   // since the run started
  double length_s = 0;
  double run_start_epoch_s = 0;  // wall clock at the run's start
  const LatencyHistogram* intended = nullptr;  // from the intended start
  const LatencyHistogram* service = nullptr;   // from the actual start
};

struct DriverConfig {
  Phase phase = Phase::kRun;
  uint64_t operation_count = 1000;
  double max_execution_s = 0;  // 0: until operation_count
  double target_ops_per_s = 0;  // 0: closed loop
  bool poisson = false;
  int threads = 1;
  uint64_t wake_us = 100;       // generator sleep between rounds
  double status_interval_s = 1.0;
  bool progress = true;         // a line on stderr per interval
  uint64_t seed = 1;            // Poisson arrivals
  // Drop requests still queued when generation ends instead of running
  // them (find-sustainable: an overloaded step need not drain).
  bool discard_backlog_at_end = false;
  // When set and true, stop generating (as at maxexecutiontime): the
  // requests already issued complete and the run reports normally.
  const std::atomic<bool>* stop = nullptr;
  // Called from the reporting thread after every status interval and once
  // more for the last, partial one, so that the intervals add up to the
  // whole run.
  std::function<void(const IntervalHistograms&)> on_interval_histograms;
};

// One reporting interval.
struct IntervalStats {
  double time_s = 0;  // end of the interval, since the run started
  uint64_t completed = 0;
  uint64_t generated = 0;
  double achieved_ops_per_s = 0;
  double offered_ops_per_s = 0;
  uint64_t queue_depth = 0;   // waiting in the queue at the end
  uint64_t outstanding = 0;   // generated - completed at the end
  double p99_us[kOpTypes] = {0, 0, 0, 0, 0};  // 0 when no such op
  double p99_all_us = 0;
  bool write_stalled = false;
  uint64_t disk_bytes = 0;             // DbBinding::DiskBytes at the end
  uint64_t compaction_debt_bytes = 0;  // DbBinding::CompactionDebtBytes
  // Per region, this interval's writes and what they spent their time on
  // (DbBinding::WriteBreakdownTotals' difference); empty when the store
  // does not measure it.
  std::vector<WriteBreakdown> write_breakdown;
};

struct DriverResult {
  bool closed_loop = false;
  double elapsed_s = 0;            // start to last completion
  double generation_s = 0;         // start to the last request generated
  uint64_t generated = 0;
  uint64_t completed = 0;
  uint64_t completed_during_generation = 0;
  uint64_t not_found = 0;
  uint64_t errors = 0;
  uint64_t discarded = 0;          // see discard_backlog_at_end
  double offered_ops_per_s = 0;    // generated / generation_s
  double achieved_ops_per_s = 0;   // completed / elapsed_s
  // completed_during_generation / generation_s: what the store kept up
  // with while load was offered (the sustainability test uses this).
  double achieved_during_generation_ops_per_s = 0;
  // Outstanding requests' growth (requests/s, least squares over the
  // intervals of the second half of the generation window).
  double backlog_growth_per_s = 0;
  uint64_t backlog_at_generation_end = 0;  // generated - completed then
  // Compaction debt: a store that keeps up with requests only by deferring
  // compaction is not sustaining the rate. Its fitted growth (bytes/s, as
  // above), its last reading in the window, and how far that last reading
  // rose above the highest of the window's first half, per second of the
  // second half: debt moves as a sawtooth (a flush adds a file at once, a
  // compaction removes many), which a fitted slope can read as growth when
  // the half ends on a tooth; a rise above every earlier peak cannot.
  double compaction_debt_growth_per_s = 0;
  uint64_t compaction_debt_bytes_end = 0;
  double compaction_debt_rise_per_s = 0;
  // The store's disk space: the largest interval reading and the reading
  // after the last request completed.
  uint64_t disk_bytes_peak = 0;
  uint64_t disk_bytes_end = 0;
  uint64_t max_queue_depth = 0;
  // Schedule check: intended times of the first and last request, and the
  // most a request was handed to the queue after its intended time.
  int64_t first_intended_ns = 0;
  int64_t last_intended_ns = 0;
  double generator_max_lag_us = 0;
  // Per generator round: hand-off time - intended time of the round's
  // first request (how late the generator woke). The latency floor.
  LatencyHistogram generator_lag;
  bool generator_priority_raised = false;  // nice -10 granted
  double generator_cpu_s = 0;  // the generator thread's own CPU time
  LatencyHistogram per_op[kOpTypes];  // from the intended start
  LatencyHistogram all;
  LatencyHistogram service_per_op[kOpTypes];  // from the actual start
  LatencyHistogram service_all;
  std::vector<IntervalStats> intervals;
  // Per region, the whole run's write breakdown (empty as above).
  std::vector<WriteBreakdown> write_breakdown;
};

int64_t SteadyNowNs();

// Runs to completion (all generated requests executed). The parts, in
// open_loop_driver.cc: RequestExecutor (one request, recorded),
// OpenLoopGenerator (the schedule, into the queue), the worker pool,
// IntervalReporter (the per-interval series) and FinishResult (the
// end-of-run figures).
class OpenLoopDriver {
 public:
  OpenLoopDriver(const DriverConfig& config, CoreWorkload* workload,
                 DbBinding* db);
  // on_interval is called from the calling thread once per status interval.
  DriverResult Run(
      const std::function<void(const IntervalStats&)>& on_interval = {});

 private:
  DriverConfig config_;
  CoreWorkload* workload_;
  DbBinding* db_;
};

}  // namespace ycsb
