// The driver's reason to exist: latency counted from the intended start, so
// a store that stalls is charged for every request that waited (no
// coordinated omission); and the offered rate is the one asked for.
// Bounds are ratios with wide margins: this runs on a noisy 2-core machine.
#include "open_loop_driver.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <thread>

#include "gtest/gtest.h"
#include "null_binding.h"

namespace ycsb {
namespace {

// A store that stalls once for stall_ms, starting at its stall_at-th call:
// every call arriving during the stall waits until it ends (as writers wait
// for a write stall). Otherwise instant.
class StallOnceBinding : public DbBinding {
 public:
  StallOnceBinding(uint64_t stall_at, int64_t stall_ms)
      : stall_at_(stall_at), stall_ns_(stall_ms * 1000000) {}
  OpResult Read(const std::string&) override { return Call(); }
  OpResult Update(const std::string&, const std::string&) override { return Call(); }
  OpResult Insert(const std::string&, const std::string&) override { return Call(); }
  OpResult Scan(const std::string&, uint32_t) override { return Call(); }
  OpResult ReadModifyWrite(const std::string&, const std::string&) override {
    return Call();
  }
  int64_t stall_start_ns() const { return stall_start_.load(); }

 private:
  OpResult Call() {
    uint64_t n = ++calls_;
    if (n == stall_at_) stall_start_.store(SteadyNowNs());
    int64_t start = stall_start_.load();
    if (start > 0) {
      int64_t until = start + stall_ns_;
      int64_t now = SteadyNowNs();
      if (now < until) std::this_thread::sleep_for(std::chrono::nanoseconds(until - now));
    }
    return OpResult::kOk;
  }
  const uint64_t stall_at_;
  const int64_t stall_ns_;
  std::atomic<uint64_t> calls_{0};
  std::atomic<int64_t> stall_start_{0};
};

WorkloadSpec ReadOnlySpec() {
  WorkloadSpec s;
  s.record_count = 1000;
  s.proportion[0] = 1;
  s.proportion[1] = 0;
  s.field_count = 1;
  s.field_length = 10;
  return s;
}

uint64_t CountAtLeast(const LatencyHistogram& h, uint64_t ns) {
  uint64_t n = 0;
  for (size_t b = LatencyHistogram::BucketOf(ns); b < LatencyHistogram::kBucketCount; b++) {
    n += h.buckets()[b];
  }
  return n;
}

TEST(OpenLoopDriver, StallIsChargedToEveryRequestThatWaited) {
  const double rate = 2000;        // requests/s
  const int64_t stall_ms = 1000;   // one stall of 1 s, about 1 s in
  StallOnceBinding db(2000, stall_ms);
  CoreWorkload w(ReadOnlySpec(), 1);
  DriverConfig c;
  c.target_ops_per_s = rate;
  c.operation_count = 8000;  // 4 s
  c.threads = 2;
  c.progress = false;
  DriverResult r = OpenLoopDriver(c, &w, &db).Run();
  ASSERT_EQ(r.completed, 8000u);
  const LatencyHistogram& h = r.all;
  // The request that hit the stall waited all of it.
  EXPECT_GE(h.Max(), 1000000000u * 99 / 100);
  // About rate * 1 s requests were issued during the stall; each waited
  // (stall end - its intended time): spread evenly over (0, 1 s).
  const double during = rate * stall_ms / 1000.0;
  auto at_least_ms = [&](int ms) { return double(CountAtLeast(h, ms * 1000000ull)); };
  EXPECT_NEAR(at_least_ms(100), during * 0.9, during * 0.9 * 0.3);
  EXPECT_NEAR(at_least_ms(500), during * 0.5, during * 0.5 * 0.3);
  double q1 = at_least_ms(250) - at_least_ms(500);
  double q2 = at_least_ms(500) - at_least_ms(750);
  EXPECT_NEAR(q1, during * 0.25, during * 0.25 * 0.4);
  EXPECT_NEAR(q2, during * 0.25, during * 0.25 * 0.4);
  // A quarter of all requests waited in the stall: P90 is well above 0.
  EXPECT_GT(h.Percentile(90), 100000000u);
  // The backlog existed and drained.
  EXPECT_GT(r.max_queue_depth, during * 0.3);

  // The same store and stall, closed loop: only the requests in flight when
  // the stall began (one per thread) see it. This is the difference a
  // coordinated-omission-free client makes.
  StallOnceBinding db2(2000, stall_ms);
  CoreWorkload w2(ReadOnlySpec(), 1);
  c.target_ops_per_s = 0;
  DriverResult closed = OpenLoopDriver(c, &w2, &db2).Run();
  EXPECT_TRUE(closed.closed_loop);
  EXPECT_EQ(closed.completed, 8000u);
  EXPECT_LE(CountAtLeast(closed.all, 100000000), 2u);
  EXPECT_GE(closed.all.Max(), 1000000000u * 9 / 10);
  EXPECT_GT(at_least_ms(100), 100 * double(CountAtLeast(closed.all, 100000000)));
}

// A store where the first calls wait at a gate (a full stall: a backlog
// builds up behind them), and the first call after the gate opens is held
// for hold_ms on its own (one slow request: a read that misses every
// cache). Everything else is instant.
class GateThenOneSlowBinding : public DbBinding {
 public:
  GateThenOneSlowBinding(int gated_calls, int64_t gate_ms, int64_t hold_ms)
      : gated_calls_(gated_calls), gate_ns_(gate_ms * 1000000),
        hold_ns_(hold_ms * 1000000) {}
  OpResult Read(const std::string&) override { return Call(); }
  OpResult Update(const std::string&, const std::string&) override { return Call(); }
  OpResult Insert(const std::string&, const std::string&) override { return Call(); }
  OpResult Scan(const std::string&, uint32_t) override { return Call(); }
  OpResult ReadModifyWrite(const std::string&, const std::string&) override {
    return Call();
  }

 private:
  OpResult Call() {
    uint64_t n = ++calls_;
    int64_t first = 0;
    if (n == 1) first_call_ns_.store(SteadyNowNs());
    while ((first = first_call_ns_.load()) == 0) std::this_thread::yield();
    if (n <= static_cast<uint64_t>(gated_calls_)) {
      SleepUntil(first + gate_ns_);
    } else if (n == static_cast<uint64_t>(gated_calls_) + 1) {
      SleepUntil(SteadyNowNs() + hold_ns_);
    }
    return OpResult::kOk;
  }
  static void SleepUntil(int64_t t) {
    int64_t now = SteadyNowNs();
    if (now < t) std::this_thread::sleep_for(std::chrono::nanoseconds(t - now));
  }
  const int gated_calls_;
  const int64_t gate_ns_, hold_ns_;
  std::atomic<uint64_t> calls_{0};
  std::atomic<int64_t> first_call_ns_{0};
};

// One slow request delays only itself: the requests queued behind it in
// time go to the other, idle workers. A worker that took a batch of
// requests at once would make the ones batched with it wait the whole hold
// (head-of-line blocking a client with independent connections does not
// have).
TEST(OpenLoopDriver, OneSlowRequestDelaysOnlyItself) {
  const int threads = 4;
  const double rate = 2000;
  const int64_t gate_ms = 200, hold_ms = 1000;
  // Every worker's first call waits at the gate, so ~gate_ms * rate
  // requests queue up; the first call after the gate is held.
  GateThenOneSlowBinding db(threads, gate_ms, hold_ms);
  CoreWorkload w(ReadOnlySpec(), 1);
  DriverConfig c;
  c.target_ops_per_s = rate;
  c.operation_count = 6000;  // 3 s: the hold ends well before the run
  c.threads = threads;
  c.progress = false;
  DriverResult r = OpenLoopDriver(c, &w, &db).Run();
  ASSERT_EQ(r.completed, 6000u);
  // The gate made a backlog, so batching (if any) had requests to batch.
  EXPECT_GE(r.max_queue_depth, rate * gate_ms / 1000 / 2);
  // Only the held request waited anything like the hold: the gated ones
  // waited at most the gate, everything else drained at once.
  EXPECT_EQ(CountAtLeast(r.all, (hold_ms / 2) * 1000000ull), 1u);
  // And it is charged the whole hold plus its time in the queue: it was
  // the (threads + 1)-th request, intended a few ms in, and started when
  // the gate opened.
  const double queued_ms = gate_ms - 1000.0 * (threads + 1) / rate;
  EXPECT_GE(r.all.Max(), static_cast<uint64_t>((hold_ms + 0.9 * queued_ms) * 1e6));
}

TEST(OpenLoopDriver, IntendedTimesStayOnSchedule) {
  NullBinding db;
  CoreWorkload w(ReadOnlySpec(), 1);
  DriverConfig c;
  c.target_ops_per_s = 30000;
  c.operation_count = 30000;
  c.threads = 2;
  c.progress = false;
  DriverResult r = OpenLoopDriver(c, &w, &db).Run();
  EXPECT_EQ(r.generated, 30000u);
  EXPECT_EQ(r.completed, 30000u);
  // Constant spacing: the last intended time is exactly (n - 1) spacings
  // after the first, however late the generator woke.
  int64_t want = std::llround(29999 * (1e9 / 30000));
  EXPECT_NEAR(double(r.last_intended_ns - r.first_intended_ns), double(want), 2.0);
}

TEST(OpenLoopDriver, AchievedRateMatchesOfferedWithANullStore) {
  for (double rate : {1000.0, 20000.0, 200000.0}) {
    NullBinding db;
    CoreWorkload w(ReadOnlySpec(), 1);
    DriverConfig c;
    c.target_ops_per_s = rate;
    c.operation_count = static_cast<uint64_t>(rate * 4);  // 4 s
    c.threads = 2;
    c.progress = false;
    DriverResult r = OpenLoopDriver(c, &w, &db).Run();
    EXPECT_EQ(r.completed, c.operation_count);
    EXPECT_NEAR(r.offered_ops_per_s, rate, rate * 0.01) << rate;
    EXPECT_NEAR(r.achieved_ops_per_s, rate, rate * 0.01) << rate;
    EXPECT_NEAR(r.achieved_during_generation_ops_per_s, rate, rate * 0.01) << rate;
    EXPECT_EQ(r.all.Count(), c.operation_count);
    fprintf(stderr, "rate %.0f: achieved %.0f, p99 %.1f us, generator lag max %.0f us\n",
            rate, r.achieved_ops_per_s, r.all.Percentile(99) / 1e3,
            r.generator_max_lag_us);
  }
}

TEST(OpenLoopDriver, PoissonArrivalsKeepTheMeanRate) {
  NullBinding db;
  CoreWorkload w(ReadOnlySpec(), 1);
  DriverConfig c;
  c.target_ops_per_s = 20000;
  c.operation_count = 40000;
  c.poisson = true;
  c.threads = 2;
  c.progress = false;
  DriverResult r = OpenLoopDriver(c, &w, &db).Run();
  EXPECT_EQ(r.completed, 40000u);
  // Mean gap over 40000 exponential gaps: relative sd 0.5%.
  double span_s = (r.last_intended_ns - r.first_intended_ns) / 1e9;
  EXPECT_NEAR(39999 / span_s, 20000, 20000 * 0.03);
}

TEST(OpenLoopDriver, MaxExecutionTimeBoundsTheRun) {
  NullBinding db;
  CoreWorkload w(ReadOnlySpec(), 1);
  DriverConfig c;
  c.target_ops_per_s = 1000;
  c.operation_count = 1000000;  // would take 1000 s
  c.max_execution_s = 1.0;
  c.progress = false;
  DriverResult r = OpenLoopDriver(c, &w, &db).Run();
  EXPECT_NEAR(double(r.completed), 1000, 20);
  EXPECT_LT(r.elapsed_s, 5);
}

TEST(OpenLoopDriver, PerIntervalSeriesIsReported) {
  NullBinding db;
  CoreWorkload w(ReadOnlySpec(), 1);
  DriverConfig c;
  c.target_ops_per_s = 5000;
  c.operation_count = 10000;  // 2 s
  c.status_interval_s = 0.25;
  c.progress = false;
  int calls = 0;
  DriverResult r = OpenLoopDriver(c, &w, &db).Run([&](const IntervalStats&) { calls++; });
  EXPECT_GE(calls, 5);
  EXPECT_EQ(calls, static_cast<int>(r.intervals.size()));
  uint64_t sum = 0;
  for (const auto& s : r.intervals) sum += s.completed;
  EXPECT_LE(sum, r.completed);
  EXPECT_GE(sum, r.completed * 8 / 10);
}

// The interval histograms (for interval logs) cover the whole run once:
// their counts add up to the run's, the last partial interval included;
// service time never exceeds latency from the intended start.
TEST(OpenLoopDriver, IntervalHistogramsAddUpToTheRun) {
  StallOnceBinding db(1500, 300);  // some queueing, so the two differ
  CoreWorkload w(ReadOnlySpec(), 1);
  DriverConfig c;
  c.target_ops_per_s = 3000;
  c.operation_count = 6000;  // 2 s: the last interval is partial
  c.threads = 2;
  c.status_interval_s = 0.3;
  c.progress = false;
  LatencyHistogram intended, service;
  double last_end_s = 0, gaps = 0;
  c.on_interval_histograms = [&](const IntervalHistograms& h) {
    gaps += std::abs(h.start_s - last_end_s);
    last_end_s = h.start_s + h.length_s;
    EXPECT_GT(h.run_start_epoch_s, 1.6e9);  // a wall-clock time
    for (int t = 0; t < kOpTypes; t++) {
      intended.Merge(h.intended[t]);
      service.Merge(h.service[t]);
    }
  };
  DriverResult r = OpenLoopDriver(c, &w, &db).Run();
  EXPECT_EQ(intended.Count(), r.completed);
  EXPECT_EQ(service.Count(), r.completed);
  EXPECT_EQ(r.service_all.Count(), r.completed);
  EXPECT_LT(gaps, 1e-6);  // contiguous intervals
  EXPECT_GE(last_end_s, r.elapsed_s - 0.01);
  // Queued requests waited before their service began: latency from the
  // intended start is the larger, by the stall.
  EXPECT_GE(r.all.Max(), 290000000u);
  EXPECT_LE(r.service_all.Percentile(50), r.all.Percentile(50));
  EXPECT_LT(r.service_all.Percentile(90), r.all.Percentile(90));
}

// A store whose gauges read 1 MB more disk and 2 MB more debt per call.
class GrowingGaugesBinding : public NullBinding {
 public:
  uint64_t DiskBytes() override { return (++disk_calls_) * 1000000; }
  uint64_t CompactionDebtBytes() override { return (++debt_calls_) * 2000000; }

 private:
  std::atomic<uint64_t> disk_calls_{0}, debt_calls_{0};
};

// The store's gauges are read once per interval: the series carries them,
// the run keeps the disk peak, and the debt's growth is fitted per second.
TEST(OpenLoopDriver, StoreGaugesAreSampledEveryInterval) {
  GrowingGaugesBinding db;
  CoreWorkload w(ReadOnlySpec(), 1);
  DriverConfig c;
  c.target_ops_per_s = 2000;
  c.operation_count = 4000;  // 2 s
  c.status_interval_s = 0.1;
  c.progress = false;
  DriverResult r = OpenLoopDriver(c, &w, &db).Run();
  ASSERT_GE(r.intervals.size(), 10u);
  for (size_t i = 1; i < r.intervals.size(); i++) {
    EXPECT_EQ(r.intervals[i].disk_bytes, r.intervals[i - 1].disk_bytes + 1000000);
  }
  // One more reading after the last request: the end, and the peak.
  EXPECT_EQ(r.disk_bytes_end, r.intervals.back().disk_bytes + 1000000);
  EXPECT_EQ(r.disk_bytes_peak, r.disk_bytes_end);
  // 2 MB per 0.1 s interval, fitted and as the rise above the first
  // half's peak.
  EXPECT_NEAR(r.compaction_debt_growth_per_s, 20e6, 20e6 * 0.15);
  EXPECT_NEAR(r.compaction_debt_rise_per_s, 20e6, 20e6 * 0.15);
  EXPECT_GT(r.compaction_debt_bytes_end, 0u);
}

// Debt as RocksDB's estimate moves: up a file at a time, down in a
// compaction. A run that ends on a tooth is not growing its debt: the
// last reading does not rise above the first half's peak.
class SawtoothDebtBinding : public NullBinding {
 public:
  uint64_t CompactionDebtBytes() override {
    return (calls_++ % 5) * 10000000;  // 0, 10, 20, 30, 40 MB, 0, ...
  }

 private:
  std::atomic<uint64_t> calls_{0};
};

TEST(OpenLoopDriver, SawtoothDebtDoesNotRise) {
  SawtoothDebtBinding db;
  CoreWorkload w(ReadOnlySpec(), 1);
  DriverConfig c;
  c.target_ops_per_s = 2000;
  c.operation_count = 4000;  // 2 s
  c.status_interval_s = 0.1;
  c.progress = false;
  DriverResult r = OpenLoopDriver(c, &w, &db).Run();
  ASSERT_GE(r.intervals.size(), 10u);
  EXPECT_EQ(r.compaction_debt_rise_per_s, 0);
}

}  // namespace
}  // namespace ycsb
