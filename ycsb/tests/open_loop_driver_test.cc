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

}  // namespace
}  // namespace ycsb
