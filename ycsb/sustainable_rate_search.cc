#include "sustainable_rate_search.h"

#include <algorithm>
#include <cstdio>

#include "report.h"

namespace ycsb {

bool IsSustained(const DriverResult& r, double target, bool* generator_limited) {
  *generator_limited = r.offered_ops_per_s < 0.99 * target;
  bool kept_up = r.achieved_during_generation_ops_per_s >= 0.99 * target;
  bool backlog_flat = r.backlog_growth_per_s <= 0.01 * target;
  return !*generator_limited && kept_up && backlog_flat;
}

SustainableResult FindSustainableRate(const SustainableSearchConfig& search,
                                      const DriverConfig& base,
                                      CoreWorkload* workload, DbBinding* db) {
  SustainableResult out;
  auto run_step = [&](double rate) {
    DriverConfig c = base;
    c.target_ops_per_s = rate;
    c.max_execution_s = search.step_s;
    c.discard_backlog_at_end = true;
    // At least ~10 intervals per step, so the backlog's slope is fitted on
    // several points.
    c.status_interval_s = std::max(0.05, std::min(c.status_interval_s, search.step_s / 10));
    c.operation_count = static_cast<uint64_t>(rate * search.step_s) + 1;
    fprintf(stderr, "[ycsb] find-sustainable: step at %.0f ops/s\n", rate);
    OpenLoopDriver driver(c, workload, db);
    DriverResult r = driver.Run();
    SustainableStep s;
    s.target_ops_per_s = rate;
    s.offered_ops_per_s = r.offered_ops_per_s;
    s.achieved_ops_per_s = r.achieved_during_generation_ops_per_s;
    s.backlog_growth_per_s = r.backlog_growth_per_s;
    s.p99_us = r.all.Percentile(99) / 1e3;
    s.sustained = IsSustained(r, rate, &s.generator_limited);
    fprintf(stderr,
            "[ycsb] find-sustainable: %.0f ops/s -> achieved %.0f, backlog "
            "growth %.0f/s, p99 %.0f us: %s%s\n",
            rate, s.achieved_ops_per_s, s.backlog_growth_per_s, s.p99_us,
            s.sustained ? "sustained" : "NOT sustained",
            s.generator_limited ? " (generator limited)" : "");
    out.steps.push_back(s);
    if (s.sustained && rate > out.sustainable_ops_per_s) {
      out.sustainable_ops_per_s = rate;
      out.best = std::move(r);
    }
    if (s.generator_limited) out.generator_limited = true;
    return s.sustained;
  };

  double good = 0, bad = 0;
  double rate = search.start_ops_per_s;
  auto stopped = [&] { return base.stop && base.stop->load(); };
  while (rate <= search.max_ops_per_s && !stopped()) {
    if (run_step(rate)) {
      good = rate;
      rate *= search.factor;
    } else {
      bad = rate;
      break;
    }
  }
  if (bad > 0 && !stopped()) {
    // Bisect; below the start rate too, if even that failed.
    double lo = good, hi = bad;
    for (int i = 0; i < search.bisect_steps; i++) {
      double mid = (lo + hi) / 2;
      if (mid <= 0 || stopped()) break;
      if (run_step(mid)) {
        lo = mid;
      } else {
        hi = mid;
      }
    }
  }
  return out;
}

std::string SustainableJson(const SustainableResult& r) {
  JsonWriter j;
  j.BeginObject()
      .Field("sustainable_ops_per_s", r.sustainable_ops_per_s)
      .Field("generator_limited", r.generator_limited)
      .Field("criterion",
             "achieved >= 99% of offered while offered, backlog growth <= 1% "
             "of offered per second")
      .BeginArray("steps");
  for (const auto& s : r.steps) {
    j.BeginObject()
        .Field("target_ops_per_s", s.target_ops_per_s)
        .Field("offered_ops_per_s", s.offered_ops_per_s)
        .Field("achieved_ops_per_s", s.achieved_ops_per_s)
        .Field("backlog_growth_per_s", s.backlog_growth_per_s)
        .Field("p99_us", s.p99_us)
        .Field("generator_limited", s.generator_limited)
        .Field("sustained", s.sustained)
        .EndObject();
  }
  j.EndArray().EndObject();
  return j.str();
}

}  // namespace ycsb
