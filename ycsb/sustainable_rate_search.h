// mode=find-sustainable: the highest offered rate the store keeps up with,
// not for a few seconds but for a step long enough (60 s by default) to
// outlast its memtables, its L0 and its write controller's patience.
//
// A step at rate R is sustained when, over the step:
//   - no request failed (a failing store answers fast at any rate);
//   - the generator offered R (else the harness, not the store, limited);
//   - the store completed at least 99% of what was offered while offered;
//   - the backlog (generated - completed) stayed bounded: its growth over
//     the second half is at most 1% of R per second, and at the end it
//     holds at most max_backlog_s seconds of load;
//   - the store did not keep up by deferring compaction: its compaction
//     debt at the end is above its peak in the step's first half by at
//     most max_debt_growth of the bytes written in the second half, or by
//     debt_tolerance_bytes if that is more (the estimate moves a whole file
//     at a time; a sawtooth ending on a tooth is not growth).
// A step lasts step_s, or longer at rates where the store's debt cycle
// (cycle_bytes written, from a flush to the L0 compaction it makes due)
// takes longer: then cycles_per_step cycles, so the judged second half
// holds a whole one. Without that, a store whose L0 holds more bytes before
// a compaction could be judged on a half step with no compaction in it,
// and its searched rate would not compare with another store's.
// Each failed step's report says which of these failed, with the figures.
// The search multiplies the rate by `factor` per step until a step fails,
// then bisects between the last sustained and the first failed rate.
#pragma once

#include <string>
#include <vector>

#include "open_loop_driver.h"

namespace ycsb {

struct SustainableSearchConfig {
  double start_ops_per_s = 10000;
  double factor = 1.25;
  double step_s = 60;
  int bisect_steps = 4;
  double max_ops_per_s = 1e8;
  double max_backlog_s = 1.0;
  double max_debt_growth = 0.05;
  double debt_tolerance_bytes = 64 << 20;
  // Bytes the workload writes per operation on average (write share x
  // record size): the scale debt growth is judged against.
  double write_bytes_per_op = 0;
  // Bytes written per debt cycle (RocksDbConfig::DebtCycleBytes; when
  // several stores' rates are compared, the largest of theirs); 0: unknown.
  double cycle_bytes = 0;
  double cycles_per_step = 2;
  // The cycles never make a step longer than this (a bisection below a
  // failed start rate would otherwise run steps of half an hour at 1 GiB
  // cycles); a step cut by it says so in its report (step_s < cycles).
  double max_step_s = 1200;
};

// How long a step at `rate` lasts: step_s, or cycles_per_step debt cycles
// at that rate if that is longer, at most max_step_s (never below step_s).
double StepSeconds(const SustainableSearchConfig& search, double rate);

struct StepVerdict {
  bool sustained = false;
  bool generator_limited = false;  // could not offer the target itself
  std::string why;  // every failed condition with its figures; "" if none
};

// One step's result at `target` against the conditions above.
StepVerdict JudgeStep(const DriverResult& r, double target,
                      const SustainableSearchConfig& search);

struct SustainableStep {
  double target_ops_per_s = 0;
  double offered_ops_per_s = 0;
  double achieved_ops_per_s = 0;  // during generation
  double backlog_growth_per_s = 0;
  uint64_t backlog_at_end = 0;
  double debt_growth_bytes_per_s = 0;  // fitted, for the record
  double debt_rise_bytes_per_s = 0;    // what is judged
  double p99_us = 0;
  double step_s = 0;
  StepVerdict verdict;
};

struct SustainableResult {
  double sustainable_ops_per_s = 0;  // 0: not even the start rate
  bool generator_limited = false;
  std::vector<SustainableStep> steps;
  DriverResult best;  // the step at the sustainable rate
  uint64_t operations = 0;  // completed over all steps
};

SustainableResult FindSustainableRate(const SustainableSearchConfig& search,
                                      const DriverConfig& base,
                                      CoreWorkload* workload, DbBinding* db);

std::string SustainableJson(const SustainableResult& r,
                            const SustainableSearchConfig& search);

}  // namespace ycsb
