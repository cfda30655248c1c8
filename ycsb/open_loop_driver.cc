#include "open_loop_driver.h"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
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
  SingleWriterHistogram per_op[kOpTypes];
  std::atomic<uint64_t> completed{0};
  std::atomic<int64_t> last_completion_ns{0};
  uint64_t not_found = 0;
  uint64_t errors = 0;
  std::string value;  // the value being written
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

  std::vector<std::unique_ptr<WorkerState>> workers;
  for (int i = 0; i < threads; i++) workers.emplace_back(new WorkerState);
  RequestQueue queue(threads);
  std::atomic<uint64_t> generated{0};
  std::atomic<int64_t> generation_end_ns{0};
  std::atomic<int> workers_running{threads};
  std::atomic<uint64_t> completed_at_generation_end{0};
  std::atomic<uint64_t> discarded{0};
  const size_t value_size = workload_->spec().value_size();
  // Values are windows into one buffer of random bytes, at a different
  // offset per request: incompressible (as YCSB's random values), so that
  // compression=... measures something, and no allocation per request.
  std::string random_bytes(value_size + (1 << 20), '\0');
  {
    Random64 rng(c.seed ^ 0x5eed);
    for (char& ch : random_bytes) ch = static_cast<char>(rng.Next());
  }

  const int64_t start_ns = SteadyNowNs() + 1000000;  // 1 ms to set up
  const int64_t deadline_ns =
      c.max_execution_s > 0
          ? start_ns + static_cast<int64_t>(c.max_execution_s * 1e9)
          : INT64_MAX;
  int64_t first_intended = 0, last_intended = 0;
  double max_lag_ns = 0;

  auto stopped = [&] { return c.stop && c.stop->load(std::memory_order_relaxed); };

  // Closed loop: workers draw requests themselves, one at a time.
  std::mutex closed_mu;
  auto next_closed = [&](Request* r) {
    std::lock_guard<std::mutex> l(closed_mu);
    uint64_t n = generated.load(std::memory_order_relaxed);
    if (n >= c.operation_count || SteadyNowNs() >= deadline_ns || stopped()) {
      return false;
    }
    *r = c.phase == Phase::kLoad ? workload_->NextLoad() : workload_->NextRun();
    r->intended_ns = SteadyNowNs();
    generated.store(n + 1, std::memory_order_relaxed);
    if (n == 0) first_intended = r->intended_ns;
    last_intended = r->intended_ns;
    return true;
  };

  auto execute = [&](WorkerState* w, const Request& r) {
    std::string key = workload_->KeyOf(r.key_number);
    std::string& value = w->value;
    if (IsWrite(r.op)) {
      size_t offset = (FnvHash64(r.intended_ns) ^ r.key_number) % (1 << 20);
      value.assign(random_bytes, offset, value_size);
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
    int64_t done = SteadyNowNs();
    w->per_op[static_cast<int>(r.op)].Record(
        static_cast<uint64_t>(std::max<int64_t>(0, done - r.intended_ns)));
    if (res == OpResult::kNotFound) w->not_found++;
    if (res == OpResult::kError) w->errors++;
    if (r.op == OpType::kInsert && res == OpResult::kOk) {
      workload_->AcknowledgeInsert(r.key_number);
    }
    w->completed.store(w->completed.load(std::memory_order_relaxed) + 1,
                       std::memory_order_relaxed);
    w->last_completion_ns.store(done, std::memory_order_relaxed);
  };

  std::vector<std::thread> pool;
  for (int i = 0; i < threads; i++) {
    WorkerState* w = workers[i].get();
    pool.emplace_back([&, w] {
      if (closed) {
        Request r;
        while (next_closed(&r)) execute(w, r);
      } else {
        std::vector<Request> batch;
        while (queue.PopBatch(&batch, c.worker_batch)) {
          for (const Request& r : batch) execute(w, r);
        }
      }
      workers_running.fetch_sub(1);
    });
  }

  std::thread generator;
  if (!closed) {
    generator = std::thread([&] {
      LowerTimerSlack();
      result.generator_priority_raised = RaiseOwnPriority();
      ArrivalSchedule schedule(start_ns, c.target_ops_per_s, c.poisson, c.seed);
      std::vector<Request> batch;
      batch.reserve(kMaxGeneratorBatch);
      const int64_t wake_ns = static_cast<int64_t>(c.wake_us) * 1000;
      uint64_t n = 0;
      int64_t next = schedule.Next();
      first_intended = next;
      while (n < c.operation_count && next < deadline_ns && !stopped()) {
        int64_t now = SteadyNowNs();
        batch.clear();
        while (next <= now && n < c.operation_count && next < deadline_ns &&
               batch.size() < kMaxGeneratorBatch) {
          Request r = c.phase == Phase::kLoad ? workload_->NextLoad()
                                              : workload_->NextRun();
          r.intended_ns = next;
          batch.push_back(r);
          last_intended = next;
          n++;
          next = schedule.Next();
        }
        if (!batch.empty()) {
          int64_t lag = now - batch.front().intended_ns;
          max_lag_ns = std::max(max_lag_ns, double(lag));
          result.generator_lag.Record(static_cast<uint64_t>(lag));
          queue.PushBatch(batch);
          generated.store(n, std::memory_order_relaxed);
        }
        if (batch.size() == kMaxGeneratorBatch) continue;  // behind: no sleep
        // Sleep at least one wake period (so a high rate costs one wake-up
        // per period, not per request), longer when the next request is
        // further away (so a low rate is issued on time).
        int64_t sleep_ns = std::max(next - SteadyNowNs(), wake_ns);
        std::this_thread::sleep_for(std::chrono::nanoseconds(sleep_ns));
      }
      generation_end_ns.store(SteadyNowNs());
      // What the store had completed when the offered load stopped: the
      // sustainability test compares this with what was offered.
      uint64_t done = 0;
      for (auto& w : workers) done += w->completed.load();
      completed_at_generation_end.store(done);
      if (c.discard_backlog_at_end) discarded.store(queue.DiscardAll());
      queue.Close();
    });
  }

  // Reporter: this thread, once per interval.
  auto snapshot = [&](LatencyHistogram* per_op, uint64_t* completed) {
    *completed = 0;
    for (auto& w : workers) {
      for (int t = 0; t < kOpTypes; t++) w->per_op[t].AddSnapshotTo(&per_op[t]);
      *completed += w->completed.load(std::memory_order_relaxed);
    }
  };
  std::vector<LatencyHistogram> prev(kOpTypes), cur(kOpTypes);
  uint64_t prev_completed = 0, prev_generated = 0;
  int64_t prev_tick = start_ns;
  const int64_t interval_ns =
      static_cast<int64_t>(std::max(0.05, c.status_interval_s) * 1e9);
  int64_t next_tick = start_ns + interval_ns;
  while (workers_running.load() > 0) {
    int64_t now = SteadyNowNs();
    if (now < next_tick) {
      std::this_thread::sleep_for(std::chrono::nanoseconds(
          std::min<int64_t>(next_tick - now, 20000000)));
      continue;
    }
    for (auto& h : cur) h.Clear();
    uint64_t completed = 0;
    snapshot(cur.data(), &completed);
    uint64_t gen = generated.load(std::memory_order_relaxed);
    IntervalStats s;
    double dt = (now - prev_tick) / 1e9;
    s.time_s = (now - start_ns) / 1e9;
    s.completed = completed - prev_completed;
    s.generated = gen - prev_generated;
    s.achieved_ops_per_s = s.completed / dt;
    s.offered_ops_per_s = s.generated / dt;
    s.queue_depth = queue.depth();
    s.outstanding = gen > completed ? gen - completed : 0;
    LatencyHistogram all_interval;
    for (int t = 0; t < kOpTypes; t++) {
      LatencyHistogram d = cur[t];
      d.SubtractEarlier(prev[t]);
      s.p99_us[t] = d.Percentile(99) / 1e3;
      all_interval.Merge(d);
    }
    s.p99_all_us = all_interval.Percentile(99) / 1e3;
    s.write_stalled = db_->WritesStalledSinceLastCall();
    result.max_queue_depth = std::max(result.max_queue_depth, s.queue_depth);
    result.intervals.push_back(s);
    if (on_interval) on_interval(s);
    if (c.progress) {
      fprintf(stderr,
              "[ycsb] %6.1f s  %9.0f ops/s (offered %9.0f)  queue %8llu  "
              "p99 us:",
              s.time_s, s.achieved_ops_per_s, s.offered_ops_per_s,
              static_cast<unsigned long long>(s.queue_depth));
      for (int t = 0; t < kOpTypes; t++) {
        if (s.p99_us[t] > 0) {
          fprintf(stderr, " %s %.0f", OpName(static_cast<OpType>(t)),
                  s.p99_us[t]);
        }
      }
      fprintf(stderr, "%s\n", s.write_stalled ? "  STALLED" : "");
    }
    std::swap(prev, cur);
    prev_completed = completed;
    prev_generated = gen;
    prev_tick = now;
    next_tick += interval_ns;
    if (next_tick <= now) next_tick = now + interval_ns;
  }
  if (generator.joinable()) generator.join();
  for (auto& t : pool) t.join();

  // Final figures from the complete histograms.
  int64_t last_done = start_ns;
  for (auto& w : workers) {
    for (int t = 0; t < kOpTypes; t++) w->per_op[t].AddSnapshotTo(&result.per_op[t]);
    result.completed += w->completed.load();
    result.not_found += w->not_found;
    result.errors += w->errors;
    last_done = std::max(last_done, w->last_completion_ns.load());
  }
  for (int t = 0; t < kOpTypes; t++) result.all.Merge(result.per_op[t]);
  result.max_queue_depth = std::max(result.max_queue_depth, queue.max_depth());
  result.generated = generated.load();
  result.discarded = discarded.load();
  result.first_intended_ns = first_intended;
  result.last_intended_ns = last_intended;
  result.generator_max_lag_us = max_lag_ns / 1e3;
  result.elapsed_s = std::max(1e-9, (last_done - start_ns) / 1e9);
  result.achieved_ops_per_s = result.completed / result.elapsed_s;
  if (closed) {
    result.generation_s = result.elapsed_s;
    result.completed_during_generation = result.completed;
  } else {
    int64_t gen_end = generation_end_ns.load();
    // The window the schedule covered: up to the last intended time plus
    // one spacing (a run of n requests spans n spacings).
    double span = (last_intended - start_ns) / 1e9 + 1.0 / c.target_ops_per_s;
    // A generator that fell behind the schedule took longer than the span:
    // then what it offered is what it managed in that time.
    result.generation_s = std::max(span, (gen_end - start_ns) / 1e9);
    result.completed_during_generation = completed_at_generation_end.load();
  }
  result.offered_ops_per_s = result.generated / result.generation_s;
  result.achieved_during_generation_ops_per_s =
      result.completed_during_generation / result.generation_s;

  // Backlog growth over the second half of the generation window.
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  int k = 0;
  for (const auto& s : result.intervals) {
    if (s.time_s < result.generation_s / 2 || s.time_s > result.generation_s) {
      continue;
    }
    sx += s.time_s;
    sy += double(s.outstanding);
    sxx += s.time_s * s.time_s;
    sxy += s.time_s * double(s.outstanding);
    k++;
  }
  if (k >= 2 && k * sxx - sx * sx > 0) {
    result.backlog_growth_per_s = (k * sxy - sx * sy) / (k * sxx - sx * sx);
  }
  return result;
}

}  // namespace ycsb
