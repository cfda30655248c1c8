// find-sustainable against stores of known capacity: one worker and a
// fixed 200 us service time can do at most 5000 requests/s; a store whose
// capacity drops after 20 s must not be credited with its first 20 s.
#include "sustainable_rate_search.h"

#include <chrono>
#include <mutex>
#include <thread>

#include "gtest/gtest.h"
#include "null_binding.h"

namespace ycsb {
namespace {

TEST(SustainableRateSearch, FindsAKnownCapacity) {
  NullBinding db(200000);  // spins 200 us per request
  WorkloadSpec spec;
  spec.record_count = 1000;
  spec.field_count = 1;
  spec.field_length = 10;
  CoreWorkload w(spec, 1);
  DriverConfig base;
  base.threads = 1;
  base.progress = false;
  SustainableSearchConfig search;
  search.start_ops_per_s = 1000;
  search.step_s = 1;  // a steady store: short steps are enough here
  search.bisect_steps = 4;
  SustainableResult r = FindSustainableRate(search, base, &w, &db);
  // Sustained below capacity, never above it; the search overshoots once
  // and bisects back. Wide bounds: on a shared machine the spinning store
  // gets less than a whole core, so its capacity can only be lower.
  EXPECT_GE(r.sustainable_ops_per_s, 1500);
  EXPECT_LE(r.sustainable_ops_per_s, 5000);
  ASSERT_GE(r.steps.size(), 3u);
  int failed = 0;
  for (const auto& s : r.steps) {
    if (s.target_ops_per_s > 5200) {
      EXPECT_FALSE(s.verdict.sustained) << s.target_ops_per_s;
    }
    failed += !s.verdict.sustained;
    // A failed step says why; a sustained one has nothing to say.
    EXPECT_EQ(s.verdict.sustained, s.verdict.why.empty()) << s.verdict.why;
  }
  EXPECT_GE(failed, 1);
  EXPECT_FALSE(r.generator_limited);
  EXPECT_GT(r.best.completed, 0u);
}

TEST(SustainableRateSearch, StepVerdictNamesEveryFailedCondition) {
  SustainableSearchConfig search;
  search.write_bytes_per_op = 100000;  // 100 MB/s written at 1000 ops/s
  DriverResult ok;
  ok.generation_s = 60;
  ok.offered_ops_per_s = 1000;
  ok.achieved_during_generation_ops_per_s = 995;
  ok.backlog_growth_per_s = 2;
  ok.backlog_at_generation_end = 500;
  ok.compaction_debt_rise_per_s = 4e6;  // 4% of what is written
  StepVerdict v = JudgeStep(ok, 1000, search);
  EXPECT_TRUE(v.sustained) << v.why;
  EXPECT_FALSE(v.generator_limited);
  EXPECT_EQ(v.why, "");

  DriverResult slow = ok;
  slow.achieved_during_generation_ops_per_s = 980;
  v = JudgeStep(slow, 1000, search);
  EXPECT_FALSE(v.sustained);
  EXPECT_NE(v.why.find("completed 980 ops/s"), std::string::npos) << v.why;

  DriverResult growing = ok;
  growing.backlog_growth_per_s = 50;
  v = JudgeStep(growing, 1000, search);
  EXPECT_FALSE(v.sustained);
  EXPECT_NE(v.why.find("backlog grew 50"), std::string::npos) << v.why;

  // Kept up on average but ended a few seconds behind: not bounded.
  DriverResult behind = ok;
  behind.backlog_at_generation_end = 3000;
  v = JudgeStep(behind, 1000, search);
  EXPECT_FALSE(v.sustained);
  EXPECT_NE(v.why.find("backlog at the end 3000"), std::string::npos) << v.why;

  // Every request served, by letting compaction fall behind.
  DriverResult deferring = ok;
  deferring.compaction_debt_rise_per_s = 20e6;  // 20% of what is written
  v = JudgeStep(deferring, 1000, search);
  EXPECT_FALSE(v.sustained);
  EXPECT_NE(v.why.find("compaction debt rose 20.00 MB/s above its first-half peak (limit 5.00"),
            std::string::npos) << v.why;

  // At a low rate one more file in the estimate is a steep slope: growth
  // within debt_tolerance_bytes over the fitted half step (64 MiB / 30 s,
  // 2.24 MB/s) is not counted as deferring; beyond it, it is.
  SustainableSearchConfig small = search;
  small.write_bytes_per_op = 224;  // 0.56 MB/s written at 2500 ops/s
  DriverResult slow_writes = ok;
  slow_writes.offered_ops_per_s = 2500;
  slow_writes.achieved_during_generation_ops_per_s = 2500;
  slow_writes.compaction_debt_rise_per_s = 0.45e6;  // 13.5 MB in 30 s
  v = JudgeStep(slow_writes, 2500, small);
  EXPECT_TRUE(v.sustained) << v.why;
  slow_writes.compaction_debt_rise_per_s = 3e6;  // 90 MB in 30 s
  v = JudgeStep(slow_writes, 2500, small);
  EXPECT_FALSE(v.sustained);
  EXPECT_NE(v.why.find("(limit 2.24 MB/s)"), std::string::npos) << v.why;

  DriverResult generator = ok;
  generator.offered_ops_per_s = 900;
  v = JudgeStep(generator, 1000, search);
  EXPECT_FALSE(v.sustained);
  EXPECT_TRUE(v.generator_limited);

  // A store that fails every request "keeps up" at any rate: failed
  // requests are not served ones. (Seen on a DB whose directory was removed
  // under it: 1.6 M "sustained" ops/s, every one an error.)
  DriverResult failing = ok;
  failing.errors = 3;
  v = JudgeStep(failing, 1000, search);
  EXPECT_FALSE(v.sustained);
  EXPECT_NE(v.why.find("3 requests failed"), std::string::npos) << v.why;

  // Two failures: both named.
  DriverResult both = deferring;
  both.backlog_growth_per_s = 50;
  v = JudgeStep(both, 1000, search);
  EXPECT_NE(v.why.find("backlog grew"), std::string::npos) << v.why;
  EXPECT_NE(v.why.find("compaction debt"), std::string::npos) << v.why;
}

// A step lasts at least two debt cycles at its rate, so the judged second
// half holds a whole one: at 10 K ops/s of 200 bytes (2 MB/s) a 256 MiB
// cycle takes 134 s, so the step is 268 s, not the 60 s asked; at 100 K
// ops/s the cycle is 13.4 s and 60 s already holds four.
TEST(SustainableRateSearch, StepsLastTwoDebtCycles) {
  SustainableSearchConfig search;
  search.step_s = 60;
  search.write_bytes_per_op = 200;
  search.cycle_bytes = 256 << 20;
  EXPECT_NEAR(StepSeconds(search, 10000), 2 * 268435456 / 2e6, 1e-6);
  EXPECT_DOUBLE_EQ(StepSeconds(search, 100000), 60);
  SustainableSearchConfig unknown = search;
  unknown.cycle_bytes = 0;  // no cycle known: the asked length
  EXPECT_DOUBLE_EQ(StepSeconds(unknown, 10000), 60);
  SustainableSearchConfig reads = search;
  reads.write_bytes_per_op = 0;  // a read-only mix writes no cycle
  EXPECT_DOUBLE_EQ(StepSeconds(reads, 10000), 60);
  // At 1000 ops/s the cycle would take 22 minutes: the cap holds the step
  // at max_step_s, and never below the asked length.
  EXPECT_DOUBLE_EQ(StepSeconds(search, 1000), search.max_step_s);
  SustainableSearchConfig low_cap = search;
  low_cap.max_step_s = 30;
  EXPECT_DOUBLE_EQ(StepSeconds(low_cap, 1000), 60);

  // The search runs its steps that long: 0.2 s asked, but 100 KB/s
  // written against a 100 KB cycle makes each step 2 s.
  NullBinding db;
  WorkloadSpec spec;
  spec.record_count = 1000;
  spec.field_count = 1;
  spec.field_length = 10;
  CoreWorkload w(spec, 1);
  DriverConfig base;
  base.threads = 1;
  base.progress = false;
  SustainableSearchConfig s;
  s.start_ops_per_s = 1000;
  s.max_ops_per_s = 1000;  // one step
  s.step_s = 0.2;
  s.write_bytes_per_op = 100;
  s.cycle_bytes = 100000;
  SustainableResult r = FindSustainableRate(s, base, &w, &db);
  ASSERT_EQ(r.steps.size(), 1u);
  EXPECT_GE(r.steps[0].step_s, 1.9);
  EXPECT_LE(r.steps[0].step_s, 2.5);
}

// One server whose capacity is `before` requests/s for the first
// drop_after_s of its life and `after` requests/s from then on (a store
// whose memtables and L0 absorb a burst, then meet compaction's pace).
class CapacityDropBinding : public DbBinding {
 public:
  CapacityDropBinding(double before, double after, double drop_after_s)
      : before_(before), after_(after),
        drop_after_ns_(static_cast<int64_t>(drop_after_s * 1e9)) {}
  OpResult Read(const std::string&) override { return Serve(); }
  OpResult Update(const std::string&, const std::string&) override { return Serve(); }
  OpResult Insert(const std::string&, const std::string&) override { return Serve(); }
  OpResult Scan(const std::string&, uint32_t) override { return Serve(); }
  OpResult ReadModifyWrite(const std::string&, const std::string&) override {
    return Serve();
  }

 private:
  // Requests are served one after another: each takes 1/capacity.
  OpResult Serve() {
    int64_t done;
    {
      std::lock_guard<std::mutex> l(mu_);
      int64_t now = SteadyNowNs();
      if (born_ns_ == 0) born_ns_ = now;
      double rate = now - born_ns_ < drop_after_ns_ ? before_ : after_;
      done = std::max(now, free_at_ns_) + static_cast<int64_t>(1e9 / rate);
      free_at_ns_ = done;
    }
    std::this_thread::sleep_for(std::chrono::nanoseconds(done - SteadyNowNs()));
    return OpResult::kOk;
  }
  const double before_, after_;
  const int64_t drop_after_ns_;
  std::mutex mu_;
  int64_t born_ns_ = 0;
  int64_t free_at_ns_ = 0;
};

// Short steps would credit this store with ~4000 ops/s: the first four
// 5 s steps (2000, 2500, 3125, 3906 ops/s) all end before its capacity
// drops. Steps of the default length see the drop within the first one.
TEST(SustainableRateSearch, CapacityThatDropsAfter20sIsNotCredited) {
  CapacityDropBinding db(4000, 1500, 20);
  WorkloadSpec spec;
  spec.record_count = 1000;
  spec.field_count = 1;
  spec.field_length = 10;
  CoreWorkload w(spec, 1);
  DriverConfig base;
  base.threads = 4;
  base.progress = false;
  SustainableSearchConfig search;  // default step length
  ASSERT_GE(search.step_s, 60);
  search.start_ops_per_s = 2000;
  search.bisect_steps = 1;  // 2000 fails, 1000 holds: two steps, ~2 min
  SustainableResult r = FindSustainableRate(search, base, &w, &db);
  EXPECT_GT(r.sustainable_ops_per_s, 0);
  EXPECT_LE(r.sustainable_ops_per_s, 1500);
  ASSERT_EQ(r.steps.size(), 2u);
  const StepVerdict& first = r.steps[0].verdict;
  EXPECT_FALSE(first.sustained);
  EXPECT_FALSE(first.generator_limited);
  // It failed on the backlog that built up after the drop.
  EXPECT_NE(first.why.find("backlog"), std::string::npos) << first.why;
  EXPECT_TRUE(r.steps[1].verdict.sustained) << r.steps[1].verdict.why;
}

}  // namespace
}  // namespace ycsb
