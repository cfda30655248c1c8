// mode=find-sustainable: the highest offered rate the store keeps up with.
//
// A rate is sustained when, over a short open-loop step at that rate, the
// store completed at least 99% of what was offered while it was offered and
// the backlog (generated - completed) did not keep growing. The search
// multiplies the rate by `factor` per step until a step fails, then bisects
// between the last sustained and the first failed rate.
#pragma once

#include <string>
#include <vector>

#include "open_loop_driver.h"

namespace ycsb {

struct SustainableSearchConfig {
  double start_ops_per_s = 10000;
  double factor = 1.25;
  double step_s = 5;
  int bisect_steps = 4;
  double max_ops_per_s = 1e8;
};

struct SustainableStep {
  double target_ops_per_s = 0;
  double offered_ops_per_s = 0;
  double achieved_ops_per_s = 0;  // during generation
  double backlog_growth_per_s = 0;
  double p99_us = 0;
  bool generator_limited = false;  // could not offer the target itself
  bool sustained = false;
};

struct SustainableResult {
  double sustainable_ops_per_s = 0;  // 0: not even the start rate
  bool generator_limited = false;
  std::vector<SustainableStep> steps;
  DriverResult best;  // the step at the sustainable rate
};

// True when one step's result counts as sustained at `target`.
bool IsSustained(const DriverResult& r, double target, bool* generator_limited);

SustainableResult FindSustainableRate(const SustainableSearchConfig& search,
                                      const DriverConfig& base,
                                      CoreWorkload* workload, DbBinding* db);

std::string SustainableJson(const SustainableResult& r);

}  // namespace ycsb
