// The histogram's promises: <= 1% relative error from 1 us to 1 h,
// percentiles close to the exact order statistics, merging per-thread
// histograms equals one histogram of everything, interval differences.
#include "latency_histogram.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace ycsb {
namespace {

double RelErr(double got, double want) { return std::fabs(got - want) / want; }

// The exact percentile as LatencyHistogram defines it: the sample of rank
// ceil(p% * n).
uint64_t ExactPercentile(std::vector<uint64_t> v, double p) {
  std::sort(v.begin(), v.end());
  size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * v.size()));
  rank = std::max<size_t>(1, std::min(rank, v.size()));
  return v[rank - 1];
}

TEST(LatencyHistogram, RelativeErrorBelowOnePercentFrom1usTo1h) {
  const double lo = 1e3, hi = 3.6e12 * 1.2;  // ns: 1 us .. 1.2 h
  double worst = 0;
  for (double v = lo; v <= hi; v *= 1.0007) {
    auto value = static_cast<uint64_t>(v);
    size_t b = LatencyHistogram::BucketOf(value);
    ASSERT_LE(LatencyHistogram::BucketLow(b), value);
    ASSERT_LT(value, LatencyHistogram::BucketLow(b) + LatencyHistogram::BucketWidth(b));
    worst = std::max(worst, RelErr(LatencyHistogram::BucketValue(b), value));
  }
  EXPECT_LT(worst, 0.01);
  // And through the public path, including the clamping to min/max.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> exp10(3, std::log10(hi));
  for (int i = 0; i < 20000; i++) {
    auto value = static_cast<uint64_t>(std::pow(10.0, exp10(rng)));
    LatencyHistogram h;
    h.Record(value);
    h.Record(value + value / 300);  // a neighbour, so min/max clamping is not all
    EXPECT_LT(RelErr(h.Percentile(50), value), 0.01) << value;
  }
}

TEST(LatencyHistogram, BucketsAreContiguous) {
  for (size_t b = 0; b + 1 < LatencyHistogram::kBucketCount; b++) {
    ASSERT_EQ(LatencyHistogram::BucketLow(b) + LatencyHistogram::BucketWidth(b),
              LatencyHistogram::BucketLow(b + 1)) << b;
    ASSERT_EQ(LatencyHistogram::BucketOf(LatencyHistogram::BucketLow(b)), b);
  }
  // Above the trackable range values are clamped into the last bucket.
  EXPECT_EQ(LatencyHistogram::BucketOf(UINT64_MAX), LatencyHistogram::kBucketCount - 1);
}

TEST(LatencyHistogram, KnownData) {
  LatencyHistogram h;
  for (uint64_t ms = 1; ms <= 100; ms++) h.Record(ms * 1000000);
  EXPECT_EQ(h.Count(), 100u);
  EXPECT_LT(RelErr(h.Percentile(50), 50e6), 0.01);
  EXPECT_LT(RelErr(h.Percentile(90), 90e6), 0.01);
  EXPECT_LT(RelErr(h.Percentile(99), 99e6), 0.01);
  EXPECT_EQ(h.Percentile(100), 100000000u);
  EXPECT_EQ(h.Max(), 100000000u);
  EXPECT_DOUBLE_EQ(h.Mean(), 50.5e6);
  LatencyHistogram empty;
  EXPECT_EQ(empty.Percentile(99), 0u);
  EXPECT_EQ(empty.Count(), 0u);
}

void ExpectPercentilesMatch(const std::vector<uint64_t>& samples) {
  LatencyHistogram h;
  for (uint64_t v : samples) h.Record(v);
  for (double p : {1.0, 10.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0}) {
    double want = ExactPercentile(samples, p);
    EXPECT_LT(RelErr(h.Percentile(p), want), 0.01) << "p" << p;
  }
  EXPECT_EQ(h.Max(), *std::max_element(samples.begin(), samples.end()));
}

TEST(LatencyHistogram, PercentilesOfUniformSamples) {
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<uint64_t> d(1000, 50000000);
  std::vector<uint64_t> v(200000);
  for (auto& x : v) x = d(rng);
  ExpectPercentilesMatch(v);
}

TEST(LatencyHistogram, PercentilesOfHeavyTailedSamples) {
  // Log-normal around 100 us with a tail into seconds, plus rare
  // multi-second stalls: what a store with write stalls looks like.
  std::mt19937_64 rng(2);
  std::lognormal_distribution<double> d(std::log(1e5), 1.5);
  std::uniform_real_distribution<double> u(0, 1);
  std::vector<uint64_t> v(300000);
  for (auto& x : v) {
    x = static_cast<uint64_t>(d(rng)) + 1000;
    if (u(rng) < 0.001) x = static_cast<uint64_t>(1e9 + u(rng) * 5e9);
  }
  ExpectPercentilesMatch(v);
}

TEST(LatencyHistogram, MergeEqualsOneHistogramOfAllSamples) {
  std::mt19937_64 rng(3);
  std::lognormal_distribution<double> d(std::log(2e5), 2.0);
  LatencyHistogram all, parts[4];
  for (int i = 0; i < 100000; i++) {
    auto v = static_cast<uint64_t>(d(rng));
    all.Record(v);
    parts[i % 4].Record(v);
  }
  LatencyHistogram merged;
  for (auto& p : parts) merged.Merge(p);
  EXPECT_EQ(merged.buckets(), all.buckets());
  EXPECT_EQ(merged.Count(), all.Count());
  EXPECT_EQ(merged.Max(), all.Max());
  EXPECT_DOUBLE_EQ(merged.Mean(), all.Mean());
  for (double p : {50.0, 99.0, 99.99}) EXPECT_EQ(merged.Percentile(p), all.Percentile(p));
}

TEST(SingleWriterHistogram, SnapshotsAndIntervals) {
  SingleWriterHistogram w;
  for (uint64_t i = 1; i <= 1000; i++) w.Record(i * 1000);  // 1..1000 us
  LatencyHistogram first;
  w.AddSnapshotTo(&first);
  EXPECT_EQ(first.Count(), 1000u);
  for (int i = 0; i < 500; i++) w.Record(5000000);  // 5 ms each
  LatencyHistogram second;
  w.AddSnapshotTo(&second);
  EXPECT_EQ(second.Count(), 1500u);
  LatencyHistogram interval = second;
  interval.SubtractEarlier(first);
  EXPECT_EQ(interval.Count(), 500u);
  EXPECT_LT(RelErr(interval.Percentile(1), 5e6), 0.01);
  EXPECT_LT(RelErr(interval.Max(), 5e6), 0.01);
  EXPECT_DOUBLE_EQ(interval.Mean(), 5e6);
}

}  // namespace
}  // namespace ycsb
