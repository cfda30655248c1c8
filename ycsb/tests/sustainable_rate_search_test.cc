// find-sustainable against a store of known capacity: one worker and a
// fixed 200 us service time can do at most 5000 requests/s.
#include "sustainable_rate_search.h"

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
  search.step_s = 1;
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
      EXPECT_FALSE(s.sustained) << s.target_ops_per_s;
    }
    failed += !s.sustained;
  }
  EXPECT_GE(failed, 1);
  EXPECT_FALSE(r.generator_limited);
  EXPECT_GT(r.best.completed, 0u);
}

TEST(SustainableRateSearch, StepVerdict) {
  DriverResult ok;
  ok.offered_ops_per_s = 1000;
  ok.achieved_during_generation_ops_per_s = 995;
  ok.backlog_growth_per_s = 2;
  bool limited = true;
  EXPECT_TRUE(IsSustained(ok, 1000, &limited));
  EXPECT_FALSE(limited);
  DriverResult slow = ok;
  slow.achieved_during_generation_ops_per_s = 980;
  EXPECT_FALSE(IsSustained(slow, 1000, &limited));
  DriverResult growing = ok;
  growing.backlog_growth_per_s = 50;
  EXPECT_FALSE(IsSustained(growing, 1000, &limited));
  DriverResult generator = ok;
  generator.offered_ops_per_s = 900;
  EXPECT_FALSE(IsSustained(generator, 1000, &limited));
  EXPECT_TRUE(limited);
}

}  // namespace
}  // namespace ycsb
