#include "sustainable_rate_search.h"

#include <algorithm>
#include <cstdio>

#include "report.h"

namespace ycsb {

namespace {

std::string Format(const char* fmt, double a, double b) {
  char buf[200];
  snprintf(buf, sizeof(buf), fmt, a, b);
  return buf;
}

void Append(std::string* why, const std::string& reason) {
  if (!why->empty()) *why += "; ";
  *why += reason;
}

}  // namespace

StepVerdict JudgeStep(const DriverResult& r, double target,
                      const SustainableSearchConfig& search) {
  StepVerdict v;
  if (r.offered_ops_per_s < 0.99 * target) {
    v.generator_limited = true;
    Append(&v.why, Format("the generator offered only %.0f of %.0f ops/s",
                          r.offered_ops_per_s, target));
  }
  if (r.achieved_during_generation_ops_per_s < 0.99 * target) {
    Append(&v.why, Format("completed %.0f ops/s while %.0f were offered",
                          r.achieved_during_generation_ops_per_s, target));
  }
  if (r.backlog_growth_per_s > 0.01 * target) {
    Append(&v.why, Format("backlog grew %.0f requests/s (limit %.0f)",
                          r.backlog_growth_per_s, 0.01 * target));
  }
  const double max_backlog = search.max_backlog_s * target;
  if (double(r.backlog_at_generation_end) > max_backlog) {
    Append(&v.why, Format("backlog at the end %.0f requests (limit %.0f)",
                          double(r.backlog_at_generation_end), max_backlog));
  }
  if (r.errors > 0) {
    Append(&v.why, std::to_string(r.errors) + " requests failed");
  }
  // Debt may grow by a share of what is written, or by the tolerance over
  // the half step, whichever is more: RocksDB's
  // estimate moves in whole files (a flush adds one to L0 at once), so at a
  // low rate one file's step looks like fast growth.
  const double written_per_s = search.write_bytes_per_op * target;
  const double half_step_s = r.generation_s / 2;
  const double max_debt_growth = std::max(
      search.max_debt_growth * written_per_s,
      half_step_s > 0 ? search.debt_tolerance_bytes / half_step_s : 0.0);
  if (r.compaction_debt_rise_per_s > max_debt_growth) {
    Append(&v.why,
           Format("compaction debt rose %.2f MB/s above its first-half peak "
                  "(limit %.2f MB/s)",
                  r.compaction_debt_rise_per_s / 1e6, max_debt_growth / 1e6));
  }
  v.sustained = v.why.empty();
  return v;
}

double StepSeconds(const SustainableSearchConfig& search, double rate) {
  const double written_per_s = rate * search.write_bytes_per_op;
  if (search.cycle_bytes <= 0 || written_per_s <= 0) return search.step_s;
  const double cycles = search.cycles_per_step * search.cycle_bytes / written_per_s;
  return std::max(search.step_s, std::min(cycles, search.max_step_s));
}

SustainableResult FindSustainableRate(const SustainableSearchConfig& search,
                                      const DriverConfig& base,
                                      CoreWorkload* workload, DbBinding* db) {
  SustainableResult out;
  auto run_step = [&](double rate) {
    const double step_s = StepSeconds(search, rate);
    DriverConfig c = base;
    c.target_ops_per_s = rate;
    c.max_execution_s = step_s;
    c.discard_backlog_at_end = true;
    // At least ~10 intervals per step, so trends are fitted on several
    // points.
    c.status_interval_s =
        std::max(0.05, std::min(c.status_interval_s, step_s / 10));
    c.operation_count = static_cast<uint64_t>(rate * step_s) + 1;
    fprintf(stderr, "[ycsb] find-sustainable: step of %.0f s at %.0f ops/s\n",
            step_s, rate);
    OpenLoopDriver driver(c, workload, db);
    DriverResult r = driver.Run();
    SustainableStep s;
    s.target_ops_per_s = rate;
    s.offered_ops_per_s = r.offered_ops_per_s;
    s.achieved_ops_per_s = r.achieved_during_generation_ops_per_s;
    s.backlog_growth_per_s = r.backlog_growth_per_s;
    s.backlog_at_end = r.backlog_at_generation_end;
    s.debt_growth_bytes_per_s = r.compaction_debt_growth_per_s;
    s.debt_rise_bytes_per_s = r.compaction_debt_rise_per_s;
    s.p99_us = r.all.Percentile(99) / 1e3;
    s.step_s = r.generation_s;
    s.verdict = JudgeStep(r, rate, search);
    out.operations += r.completed;
    fprintf(stderr,
            "[ycsb] find-sustainable: %.0f ops/s -> achieved %.0f, p99 %.0f "
            "us: %s%s\n",
            rate, s.achieved_ops_per_s, s.p99_us,
            s.verdict.sustained ? "sustained" : "NOT sustained: ",
            s.verdict.why.c_str());
    out.steps.push_back(s);
    if (s.verdict.sustained && rate > out.sustainable_ops_per_s) {
      out.sustainable_ops_per_s = rate;
      out.best = std::move(r);
    }
    if (s.verdict.generator_limited) out.generator_limited = true;
    return s.verdict.sustained;
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

std::string SustainableJson(const SustainableResult& r,
                            const SustainableSearchConfig& search) {
  JsonWriter j;
  j.BeginObject()
      .Field("sustainable_ops_per_s", r.sustainable_ops_per_s)
      .Field("generator_limited", r.generator_limited)
      .Field("step_s", search.step_s)
      .Field("criterion",
             "over a step: no request failed; offered >= 99% of target; completed >= 99% of "
             "offered while offered; backlog growth <= 1% of target per "
             "second and backlog at the end <= max_backlog_s of load; "
             "compaction debt's rise at the end above its first-half peak "
             "<= max(max_debt_growth x bytes written in the second half, "
             "debt_tolerance_bytes); a step lasts max(step_s, "
             "cycles_per_step x cycle_bytes / bytes written per second)")
      .Field("max_backlog_s", search.max_backlog_s)
      .Field("max_debt_growth", search.max_debt_growth)
      .Field("debt_tolerance_bytes", search.debt_tolerance_bytes)
      .Field("write_bytes_per_op", search.write_bytes_per_op)
      .Field("cycle_bytes", search.cycle_bytes)
      .Field("cycles_per_step", search.cycles_per_step)
      .Field("max_step_s", search.max_step_s)
      .BeginArray("steps");
  for (const auto& s : r.steps) {
    j.BeginObject()
        .Field("target_ops_per_s", s.target_ops_per_s)
        .Field("step_s", s.step_s)
        .Field("offered_ops_per_s", s.offered_ops_per_s)
        .Field("achieved_ops_per_s", s.achieved_ops_per_s)
        .Field("backlog_growth_per_s", s.backlog_growth_per_s)
        .Field("backlog_at_end", s.backlog_at_end)
        .Field("compaction_debt_growth_bytes_per_s", s.debt_growth_bytes_per_s)
        .Field("compaction_debt_rise_bytes_per_s", s.debt_rise_bytes_per_s)
        .Field("p99_us", s.p99_us)
        .Field("generator_limited", s.verdict.generator_limited)
        .Field("sustained", s.verdict.sustained)
        .Field("why_not", s.verdict.why)
        .EndObject();
  }
  j.EndArray().EndObject();
  return j.str();
}

}  // namespace ycsb
