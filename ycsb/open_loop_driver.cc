#include "open_loop_driver.h"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <mutex>
#include <thread>

#include "request_queue.h"

namespace ycsb {

int64_t SteadyNowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

namespace {

// The most requests one generator round hands over: when the generator is
// behind (asked for more than it can make), this keeps batches bounded.
constexpr size_t kMaxGeneratorBatch = 4096;

// Everything one worker records; only that worker writes it.
struct WorkerState {
  SingleWriterHistogram intended[kOpTypes];  // completion - intended start
  SingleWriterHistogram service[kOpTypes];   // completion - actual start
  std::atomic<uint64_t> completed{0};
  std::atomic<int64_t> last_completion_ns{0};
  uint64_t not_found = 0;
  uint64_t errors = 0;
  std::string value;  // the value being written
};

// What the parts of one run share. The generator (or, closed loop, the
// workers) writes the schedule figures; they are read after every thread
// has joined.
struct RunState {
  explicit RunState(int threads) {
    for (int i = 0; i < threads; i++) workers.emplace_back(new WorkerState);
  }
  uint64_t Completed() const {
    uint64_t n = 0;
    for (auto& w : workers) n += w->completed.load(std::memory_order_relaxed);
    return n;
  }

  std::vector<std::unique_ptr<WorkerState>> workers;
  RequestQueue queue;
  int64_t start_ns = 0;
  int64_t deadline_ns = INT64_MAX;
  std::atomic<uint64_t> generated{0};
  std::atomic<int> workers_running{0};
  std::atomic<int64_t> generation_end_ns{0};
  std::atomic<uint64_t> completed_at_generation_end{0};
  std::atomic<uint64_t> discarded{0};
  int64_t first_intended = 0;
  int64_t last_intended = 0;
  double max_lag_ns = 0;
  LatencyHistogram generator_lag;
  bool generator_priority_raised = false;
  double generator_cpu_s = 0;
};

// The schedule of intended start times: exact multiples of the spacing, or
// a Poisson process; independent of when the generator actually wakes.
class ArrivalSchedule {
 public:
  ArrivalSchedule(int64_t start_ns, double rate, bool poisson, uint64_t seed)
      : start_ns_(start_ns),
        spacing_ns_(1e9 / rate),
        poisson_(poisson),
        rng_(seed) {}
  int64_t Next() {
    int64_t t;
    if (poisson_) {
      t = start_ns_ + static_cast<int64_t>(offset_ns_);
      offset_ns_ += -std::log(1.0 - rng_.NextDouble()) * spacing_ns_;
    } else {
      // From the index, not by accumulation: no drift over billions.
      t = start_ns_ + static_cast<int64_t>(
                          std::llround(static_cast<long double>(index_) *
                                       spacing_ns_));
    }
    index_++;
    return t;
  }

 private:
  int64_t start_ns_;
  double spacing_ns_;
  bool poisson_;
  Random64 rng_;
  uint64_t index_ = 0;
  double offset_ns_ = 0;
};

// Runs one request against the store and records its latency (from the
// intended start) and service time (from the actual start) in the
// worker's own histograms.
class RequestExecutor {
 public:
  RequestExecutor(CoreWorkload* workload, DbBinding* db, uint64_t seed)
      : workload_(workload),
        db_(db),
        value_size_(workload->spec().value_size()),
        // Values are windows into one buffer of random bytes, at a
        // different offset per request: incompressible (as YCSB's random
        // values), so that compression=... measures something, and no
        // allocation per request.
        random_bytes_(value_size_ + kWindows, '\0') {
    Random64 rng(seed ^ 0x5eed);
    for (char& ch : random_bytes_) ch = static_cast<char>(rng.Next());
  }

  void Execute(WorkerState* w, const Request& r) const {
    const int64_t started = SteadyNowNs();
    std::string key = workload_->KeyOf(r.key_number);
    std::string& value = w->value;
    if (IsWrite(r.op)) {
      size_t offset = (FnvHash64(r.intended_ns) ^ r.key_number) % kWindows;
      value.assign(random_bytes_, offset, value_size_);
    }
    OpResult res = OpResult::kOk;
    switch (r.op) {
      case OpType::kRead: res = db_->Read(key); break;
      case OpType::kUpdate: res = db_->Update(key, value); break;
      case OpType::kInsert: res = db_->Insert(key, value); break;
      case OpType::kScan: res = db_->Scan(key, r.scan_length); break;
      case OpType::kReadModifyWrite:
        res = db_->ReadModifyWrite(key, value);
        break;
    }
    const int64_t done = SteadyNowNs();
    const int op = static_cast<int>(r.op);
    w->intended[op].Record(
        static_cast<uint64_t>(std::max<int64_t>(0, done - r.intended_ns)));
    w->service[op].Record(static_cast<uint64_t>(done - started));
    if (res == OpResult::kNotFound) w->not_found++;
    if (res == OpResult::kError) w->errors++;
    if (r.op == OpType::kInsert && res == OpResult::kOk) {
      workload_->AcknowledgeInsert(r.key_number);
    }
    w->completed.store(w->completed.load(std::memory_order_relaxed) + 1,
                       std::memory_order_relaxed);
    w->last_completion_ns.store(done, std::memory_order_relaxed);
  }

 private:
  static constexpr size_t kWindows = 1 << 20;
  CoreWorkload* workload_;
  DbBinding* db_;
  size_t value_size_;
  std::string random_bytes_;
};

Request NextRequest(const DriverConfig& c, CoreWorkload* workload) {
  return c.phase == Phase::kLoad ? workload->NextLoad() : workload->NextRun();
}

bool StopRequested(const DriverConfig& c) {
  return c.stop && c.stop->load(std::memory_order_relaxed);
}

// Closed loop: workers draw requests themselves, one at a time, stamped
// with the time they are drawn.
class ClosedLoopSource {
 public:
  ClosedLoopSource(const DriverConfig& c, CoreWorkload* workload,
                   RunState* run)
      : c_(c), workload_(workload), run_(run) {}
  bool Next(Request* r) {
    std::lock_guard<std::mutex> l(mu_);
    uint64_t n = run_->generated.load(std::memory_order_relaxed);
    if (n >= c_.operation_count || SteadyNowNs() >= run_->deadline_ns ||
        StopRequested(c_)) {
      return false;
    }
    *r = NextRequest(c_, workload_);
    r->intended_ns = SteadyNowNs();
    run_->generated.store(n + 1, std::memory_order_relaxed);
    if (n == 0) run_->first_intended = r->intended_ns;
    run_->last_intended = r->intended_ns;
    return true;
  }

 private:
  const DriverConfig& c_;
  CoreWorkload* workload_;
  RunState* run_;
  std::mutex mu_;
};

void LowerTimerSlack() {
  // The default 50 us timer slack would make every 100 us sleep ~150 us.
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
}

// The generator sleeps almost all the time, but when it wakes it should
// not wait behind workers and compactions for a core: its lateness is
// charged to the store. Best effort (needs CAP_SYS_NICE); false if refused.
bool RaiseOwnPriority() {
  return setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)),
                     -10) == 0;
}

double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

// Open loop: the generator thread's body. Wakes every wake_us (or when the
// next request is due, if later), hands every request whose intended time
// has passed to the queue in one batch, and records how late it woke
// (generator lag: the harness's own floor).
void RunOpenLoopGenerator(const DriverConfig& c, CoreWorkload* workload,
                          RunState* run) {
  LowerTimerSlack();
  run->generator_priority_raised = RaiseOwnPriority();
  ArrivalSchedule schedule(run->start_ns, c.target_ops_per_s, c.poisson,
                           c.seed);
  std::vector<Request> batch;
  batch.reserve(kMaxGeneratorBatch);
  const int64_t wake_ns = static_cast<int64_t>(c.wake_us) * 1000;
  uint64_t n = 0;
  int64_t next = schedule.Next();
  run->first_intended = next;
  auto more = [&] {
    return n < c.operation_count && next < run->deadline_ns;
  };
  while (more() && !StopRequested(c)) {
    int64_t now = SteadyNowNs();
    batch.clear();
    while (next <= now && more() && batch.size() < kMaxGeneratorBatch) {
      Request r = NextRequest(c, workload);
      r.intended_ns = next;
      batch.push_back(r);
      run->last_intended = next;
      n++;
      next = schedule.Next();
    }
    if (!batch.empty()) {
      int64_t lag = now - batch.front().intended_ns;
      run->max_lag_ns = std::max(run->max_lag_ns, double(lag));
      run->generator_lag.Record(static_cast<uint64_t>(lag));
      run->queue.PushBatch(batch);
      run->generated.store(n, std::memory_order_relaxed);
    }
    if (batch.size() == kMaxGeneratorBatch) continue;  // behind: no sleep
    // Sleep at least one wake period (so a high rate costs one wake-up per
    // period, not per request), longer when the next request is further
    // away (so a low rate is issued on time).
    int64_t sleep_ns = std::max(next - SteadyNowNs(), wake_ns);
    std::this_thread::sleep_for(std::chrono::nanoseconds(sleep_ns));
  }
  run->generation_end_ns.store(SteadyNowNs());
  // What the store had completed when the offered load stopped: the
  // sustainability test compares this with what was offered.
  run->completed_at_generation_end.store(run->Completed());
  if (c.discard_backlog_at_end) run->discarded.store(run->queue.DiscardAll());
  run->queue.Close();
  run->generator_cpu_s = ThreadCpuSeconds();
}

// The per-interval series: once per status interval, the interval's
// completions, offered load, queue, P99 per operation, the store's stall
// flag and gauges; plus the interval histograms for interval logs.
class IntervalReporter {
 public:
  IntervalReporter(const DriverConfig& c, DbBinding* db, RunState* run,
                   DriverResult* result,
                   std::vector<WriteBreakdown> writes_at_start)
      : c_(c), db_(db), run_(run), result_(result),
        prev_intended_(kOpTypes), cur_intended_(kOpTypes),
        prev_service_(kOpTypes), cur_service_(kOpTypes),
        prev_writes_(std::move(writes_at_start)),
        prev_tick_(run->start_ns) {
    // The wall clock at start_ns, for logs that carry absolute times.
    run_start_epoch_s_ =
        std::chrono::duration<double>(
            std::chrono::system_clock::now().time_since_epoch())
            .count() +
        (run->start_ns - SteadyNowNs()) / 1e9;
  }

  // One interval ending now.
  IntervalStats Tick(int64_t now) {
    uint64_t completed = TakeSnapshot();
    uint64_t gen = run_->generated.load(std::memory_order_relaxed);
    IntervalStats s;
    double dt = (now - prev_tick_) / 1e9;
    s.time_s = (now - run_->start_ns) / 1e9;
    s.completed = completed - prev_completed_;
    s.generated = gen - prev_generated_;
    s.achieved_ops_per_s = s.completed / dt;
    s.offered_ops_per_s = s.generated / dt;
    s.queue_depth = run_->queue.depth();
    s.outstanding = gen > completed ? gen - completed : 0;
    LatencyHistogram intended[kOpTypes], all_interval;
    for (int t = 0; t < kOpTypes; t++) {
      intended[t] = IntervalOf(cur_intended_[t], prev_intended_[t]);
      s.p99_us[t] = intended[t].Percentile(99) / 1e3;
      all_interval.Merge(intended[t]);
    }
    s.p99_all_us = all_interval.Percentile(99) / 1e3;
    s.write_stalled = db_->WritesStalledSinceLastCall();
    s.disk_bytes = db_->DiskBytes();
    s.compaction_debt_bytes = db_->CompactionDebtBytes();
    s.write_breakdown = WritesSincePreviousTick();
    result_->max_queue_depth = std::max(result_->max_queue_depth, s.queue_depth);
    result_->disk_bytes_peak = std::max(result_->disk_bytes_peak, s.disk_bytes);
    EmitHistograms(now, intended);
    Advance(now, completed, gen);
    return s;
  }

  // The remainder after the last full interval, for the interval logs only
  // (the series keeps whole intervals).
  void Finish(int64_t now) {
    if (!c_.on_interval_histograms) return;
    TakeSnapshot();
    LatencyHistogram intended[kOpTypes];
    for (int t = 0; t < kOpTypes; t++) {
      intended[t] = IntervalOf(cur_intended_[t], prev_intended_[t]);
    }
    EmitHistograms(now, intended);
  }

 private:
  uint64_t TakeSnapshot() {
    for (auto& h : cur_intended_) h.Clear();
    for (auto& h : cur_service_) h.Clear();
    for (auto& w : run_->workers) {
      for (int t = 0; t < kOpTypes; t++) {
        w->intended[t].AddSnapshotTo(&cur_intended_[t]);
        w->service[t].AddSnapshotTo(&cur_service_[t]);
      }
    }
    return run_->Completed();
  }

  std::vector<WriteBreakdown> WritesSincePreviousTick() {
    std::vector<WriteBreakdown> now = db_->WriteBreakdownTotals();
    std::vector<WriteBreakdown> interval(now.size());
    for (size_t i = 0; i < now.size() && i < prev_writes_.size(); i++) {
      interval[i] = now[i].Minus(prev_writes_[i]);
    }
    prev_writes_ = std::move(now);
    return interval;
  }

  static LatencyHistogram IntervalOf(const LatencyHistogram& cur,
                                     const LatencyHistogram& prev) {
    LatencyHistogram d = cur;
    d.SubtractEarlier(prev);
    return d;
  }

  // intended: this interval's latency histograms, already taken by the
  // caller; service time's are taken here, only when someone wants them.
  void EmitHistograms(int64_t now, const LatencyHistogram* intended) {
    if (!c_.on_interval_histograms) return;
    LatencyHistogram service[kOpTypes];
    for (int t = 0; t < kOpTypes; t++) {
      service[t] = IntervalOf(cur_service_[t], prev_service_[t]);
    }
    IntervalHistograms h;
    h.start_s = (prev_tick_ - run_->start_ns) / 1e9;
    h.length_s = (now - prev_tick_) / 1e9;
    h.run_start_epoch_s = run_start_epoch_s_;
    h.intended = intended;
    h.service = service;
    c_.on_interval_histograms(h);
  }

  void Advance(int64_t now, uint64_t completed, uint64_t generated) {
    std::swap(prev_intended_, cur_intended_);
    std::swap(prev_service_, cur_service_);
    prev_completed_ = completed;
    prev_generated_ = generated;
    prev_tick_ = now;
  }

  const DriverConfig& c_;
  DbBinding* db_;
  RunState* run_;
  DriverResult* result_;
  std::vector<LatencyHistogram> prev_intended_, cur_intended_;
  std::vector<LatencyHistogram> prev_service_, cur_service_;
  std::vector<WriteBreakdown> prev_writes_;
  uint64_t prev_completed_ = 0, prev_generated_ = 0;
  int64_t prev_tick_;
  double run_start_epoch_s_ = 0;
};

void PrintProgress(const IntervalStats& s) {
  fprintf(stderr,
          "[ycsb] %6.1f s  %9.0f ops/s (offered %9.0f)  queue %8llu  "
          "p99 us:",
          s.time_s, s.achieved_ops_per_s, s.offered_ops_per_s,
          static_cast<unsigned long long>(s.queue_depth));
  for (int t = 0; t < kOpTypes; t++) {
    if (s.p99_us[t] > 0) {
      fprintf(stderr, " %s %.0f", OpName(static_cast<OpType>(t)), s.p99_us[t]);
    }
  }
  fprintf(stderr, "%s\n", s.write_stalled ? "  STALLED" : "");
}

// Least-squares slope of y(time) over the intervals in [from_s, to_s]; 0
// with fewer than two points.
template <typename Y>
double SlopeOver(const std::vector<IntervalStats>& intervals, double from_s,
                 double to_s, Y y) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int k = 0;
  for (const auto& s : intervals) {
    if (s.time_s < from_s || s.time_s > to_s) continue;
    double v = y(s);
    sx += s.time_s;
    sy += v;
    sxx += s.time_s * s.time_s;
    sxy += s.time_s * v;
    k++;
  }
  if (k < 2 || k * sxx - sx * sx <= 0) return 0;
  return (k * sxy - sx * sy) / (k * sxx - sx * sx);
}

// The end-of-run figures, from the complete histograms and the series.
void FinishResult(const DriverConfig& c, DbBinding* db, RunState* run,
                  const std::vector<WriteBreakdown>& writes_at_start,
                  DriverResult* result) {
  int64_t last_done = run->start_ns;
  for (auto& w : run->workers) {
    for (int t = 0; t < kOpTypes; t++) {
      w->intended[t].AddSnapshotTo(&result->per_op[t]);
      w->service[t].AddSnapshotTo(&result->service_per_op[t]);
    }
    result->completed += w->completed.load();
    result->not_found += w->not_found;
    result->errors += w->errors;
    last_done = std::max(last_done, w->last_completion_ns.load());
  }
  for (int t = 0; t < kOpTypes; t++) {
    result->all.Merge(result->per_op[t]);
    result->service_all.Merge(result->service_per_op[t]);
  }
  result->max_queue_depth =
      std::max(result->max_queue_depth, run->queue.max_depth());
  result->generated = run->generated.load();
  result->discarded = run->discarded.load();
  result->first_intended_ns = run->first_intended;
  result->last_intended_ns = run->last_intended;
  result->generator_max_lag_us = run->max_lag_ns / 1e3;
  result->generator_lag = run->generator_lag;
  result->generator_priority_raised = run->generator_priority_raised;
  result->generator_cpu_s = run->generator_cpu_s;
  result->disk_bytes_end = db->DiskBytes();
  result->write_breakdown = db->WriteBreakdownTotals();
  for (size_t i = 0; i < result->write_breakdown.size() &&
                     i < writes_at_start.size(); i++) {
    result->write_breakdown[i] = result->write_breakdown[i].Minus(writes_at_start[i]);
  }
  result->disk_bytes_peak =
      std::max(result->disk_bytes_peak, result->disk_bytes_end);
  result->elapsed_s = std::max(1e-9, (last_done - run->start_ns) / 1e9);
  result->achieved_ops_per_s = result->completed / result->elapsed_s;
  if (result->closed_loop) {
    result->generation_s = result->elapsed_s;
    result->completed_during_generation = result->completed;
  } else {
    int64_t gen_end = run->generation_end_ns.load();
    // The window the schedule covered: up to the last intended time plus
    // one spacing (a run of n requests spans n spacings).
    double span = (run->last_intended - run->start_ns) / 1e9 +
                  1.0 / c.target_ops_per_s;
    // A generator that fell behind the schedule took longer than the span:
    // then what it offered is what it managed in that time.
    result->generation_s = std::max(span, (gen_end - run->start_ns) / 1e9);
    result->completed_during_generation = run->completed_at_generation_end.load();
  }
  result->offered_ops_per_s = result->generated / result->generation_s;
  result->achieved_during_generation_ops_per_s =
      result->completed_during_generation / result->generation_s;
  result->backlog_at_generation_end =
      result->generated > result->completed_during_generation
          ? result->generated - result->completed_during_generation
          : 0;

  // Trends over the second half of the generation window: the first half
  // includes the start-up (empty caches, a memtable filling).
  const double from = result->generation_s / 2, to = result->generation_s;
  result->backlog_growth_per_s =
      SlopeOver(result->intervals, from, to,
                [](const IntervalStats& s) { return double(s.outstanding); });
  result->compaction_debt_growth_per_s =
      SlopeOver(result->intervals, from, to, [](const IntervalStats& s) {
        return double(s.compaction_debt_bytes);
      });
  uint64_t first_half_peak = 0;
  for (const auto& s : result->intervals) {
    if (s.time_s < from) first_half_peak = std::max(first_half_peak, s.compaction_debt_bytes);
    if (s.time_s <= to) result->compaction_debt_bytes_end = s.compaction_debt_bytes;
  }
  if (to - from > 0 && result->compaction_debt_bytes_end > first_half_peak) {
    result->compaction_debt_rise_per_s =
        double(result->compaction_debt_bytes_end - first_half_peak) / (to - from);
  }
}

}  // namespace

OpenLoopDriver::OpenLoopDriver(const DriverConfig& config,
                               CoreWorkload* workload, DbBinding* db)
    : config_(config), workload_(workload), db_(db) {}

DriverResult OpenLoopDriver::Run(
    const std::function<void(const IntervalStats&)>& on_interval) {
  const DriverConfig& c = config_;
  const bool closed = c.target_ops_per_s <= 0;
  const int threads = std::max(1, c.threads);
  DriverResult result;
  result.closed_loop = closed;
  RunState run(threads);
  run.start_ns = SteadyNowNs() + 1000000;  // 1 ms to set up
  if (c.max_execution_s > 0) {
    run.deadline_ns = run.start_ns + static_cast<int64_t>(c.max_execution_s * 1e9);
  }
  RequestExecutor executor(workload_, db_, c.seed);
  const std::vector<WriteBreakdown> writes_at_start = db_->WriteBreakdownTotals();
  ClosedLoopSource closed_source(c, workload_, &run);

  // The worker pool: closed loop, each draws its own next request; open
  // loop, each takes the oldest queued request, one at a time.
  run.workers_running.store(threads);
  std::vector<std::thread> pool;
  for (int i = 0; i < threads; i++) {
    WorkerState* w = run.workers[i].get();
    pool.emplace_back([&, w] {
      // Named, so that perf and top can pick the workers out
      // (scripts/bench/offcpu.sh).
      prctl(PR_SET_NAME, "ycsb-worker", 0, 0, 0);
      Request r;
      if (closed) {
        while (closed_source.Next(&r)) executor.Execute(w, r);
      } else {
        while (run.queue.Pop(&r)) executor.Execute(w, r);
      }
      run.workers_running.fetch_sub(1);
    });
  }
  std::thread generator;
  if (!closed) {
    generator = std::thread([&] {
      prctl(PR_SET_NAME, "ycsb-generator", 0, 0, 0);
      RunOpenLoopGenerator(c, workload_, &run);
    });
  }

  // This thread reports, once per interval, until the workers are done.
  IntervalReporter reporter(c, db_, &run, &result, writes_at_start);
  const int64_t interval_ns =
      static_cast<int64_t>(std::max(0.05, c.status_interval_s) * 1e9);
  int64_t next_tick = run.start_ns + interval_ns;
  while (run.workers_running.load() > 0) {
    int64_t now = SteadyNowNs();
    if (now < next_tick) {
      std::this_thread::sleep_for(std::chrono::nanoseconds(
          std::min<int64_t>(next_tick - now, 20000000)));
      continue;
    }
    IntervalStats s = reporter.Tick(now);
    result.intervals.push_back(s);
    if (on_interval) on_interval(s);
    if (c.progress) PrintProgress(s);
    next_tick += interval_ns;
    if (next_tick <= now) next_tick = now + interval_ns;
  }
  if (generator.joinable()) generator.join();
  for (auto& t : pool) t.join();
  reporter.Finish(SteadyNowNs());
  FinishResult(c, db_, &run, writes_at_start, &result);
  return result;
}

}  // namespace ycsb
