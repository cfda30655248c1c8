// Key choosers against their definitions. Tolerances are statistical
// (several standard deviations), so a wrong chooser fails while a right one
// passes with overwhelming probability; seeds are fixed besides.
#include "key_generators.h"

#include <atomic>
#include <cmath>
#include <map>
#include <vector>

#include "core_workload.h"
#include "gtest/gtest.h"

namespace ycsb {
namespace {

// |observed - expected| within k binomial standard deviations.
void ExpectFrequency(uint64_t hits, uint64_t draws, double p, double k = 5,
                     const char* what = "") {
  double sd = std::sqrt(draws * p * (1 - p));
  EXPECT_NEAR(double(hits), draws * p, k * sd + 1) << what;
}

TEST(KeyGenerators, ZetaMatchesDirectSummation) {
  double direct = 0;
  for (uint64_t i = 3000000; i >= 1; i--) direct += std::pow(double(i), -0.99);
  EXPECT_NEAR(Zeta(3000000, 0.99), direct, 1e-9 * direct);
  EXPECT_NEAR(Zeta(2, 0.99), 1 + std::pow(2.0, -0.99), 1e-12);
  // Beyond direct summation: zeta grows like the integral of x^-theta.
  double z10 = Zeta(10000000000ull, 0.99);
  EXPECT_GT(z10, 26.0);
  EXPECT_LT(z10, 27.0);
}

TEST(KeyGenerators, UniformIsFlat) {
  // Chi-square over 100 cells, 99 degrees of freedom: 99.9th percentile
  // of the distribution is about 149.
  Random64 rng(11);
  UniformChooser u(1000, 100);
  std::vector<uint64_t> cells(100, 0);
  const uint64_t n = 1000000;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t k = u.Next(&rng);
    ASSERT_GE(k, 1000u);
    ASSERT_LT(k, 1100u);
    cells[k - 1000]++;
  }
  double chi2 = 0, e = n / 100.0;
  for (uint64_t c : cells) chi2 += (c - e) * (c - e) / e;
  EXPECT_LT(chi2, 149);
}

TEST(KeyGenerators, ZipfianTopRanksFollowTheLaw) {
  const uint64_t items = 10000, n = 2000000;
  const double theta = 0.99;
  Random64 rng(12);
  ZipfianChooser z(items, theta);
  std::vector<uint64_t> hits(items, 0);
  for (uint64_t i = 0; i < n; i++) hits[z.Next(&rng)]++;
  double zn = Zeta(items, theta);
  // Ranks 0 and 1 are exact in Gray's method; later ranks come from a
  // continuous approximation of the CDF that over-weights ranks 2..5 by up
  // to ~19% (YCSB's generator has the same bias), so they get a relative
  // bound, and the aggregate law a tighter absolute one below.
  ExpectFrequency(hits[0], n, 1 / zn, 5, "rank 0");
  ExpectFrequency(hits[1], n, std::pow(2.0, -theta) / zn, 5, "rank 1");
  for (int r = 2; r < 10; r++) {
    double p = std::pow(r + 1.0, -theta) / zn;
    EXPECT_NEAR(hits[r], n * p, 0.25 * n * p) << "rank " << r;
  }
  // Skew: the top 1% of ranks take about half of the draws
  // (zeta(100) / zeta(10000) for theta 0.99).
  uint64_t top = 0;
  for (int r = 0; r < 100; r++) top += hits[r];
  double want = Zeta(100, theta) / zn;
  EXPECT_NEAR(double(top) / n, want, 0.03);
  uint64_t top10 = 0;
  for (int r = 0; r < 10; r++) top10 += hits[r];
  EXPECT_NEAR(double(top10) / n, Zeta(10, theta) / zn, 0.03);
}

TEST(KeyGenerators, ScrambledZipfianHottestKeyNearTheory) {
  // Rank 0 of the 10^10-rank space lands on one key; its share is
  // 1 / zeta(10^10) (plus the rare other ranks hashing to it).
  const uint64_t items = 100000, n = 2000000;
  Random64 rng(13);
  ScrambledZipfianChooser z(items);
  std::map<uint64_t, uint64_t> hits;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t k = z.Next(&rng);
    ASSERT_LT(k, items);
    hits[k]++;
  }
  uint64_t best = 0, best_key = 0;
  for (auto& kv : hits) {
    if (kv.second > best) {
      best = kv.second;
      best_key = kv.first;
    }
  }
  EXPECT_EQ(best_key, FnvHash64(0) % items);
  double p = 1 / Zeta(ScrambledZipfianChooser::kRankSpace, 0.99);
  EXPECT_NEAR(double(best) / n, p, 0.1 * p);
  // Scrambled: the hottest keys are spread out, not the first ones.
  EXPECT_NE(best_key, 0u);
}

TEST(KeyGenerators, LatestFavoursRecentInserts) {
  std::atomic<uint64_t> inserted{10000};
  Random64 rng(14);
  LatestChooser latest(&inserted);
  const uint64_t n = 1000000;
  uint64_t newest = 0, recent = 0;
  for (uint64_t i = 0; i < n; i++) {
    uint64_t k = latest.Next(&rng);
    ASSERT_LT(k, 10000u);
    if (k == 9999) newest++;
    if (k >= 9900) recent++;
  }
  double zn = Zeta(10000, 0.99);
  ExpectFrequency(newest, n, 1 / zn, 5, "newest key");
  EXPECT_NEAR(double(recent) / n, Zeta(100, 0.99) / zn, 0.03);
  // After more inserts the newest key moves with them.
  inserted = 20000;
  uint64_t newer = 0;
  for (uint64_t i = 0; i < 100000; i++) newer += latest.Next(&rng) >= 10000;
  EXPECT_GT(newer, 85000u);
}

TEST(KeyGenerators, HotspotSendsItsFractionToTheHotSet) {
  Random64 rng(15);
  HotspotChooser h(0, 100000, 0.2, 0.8);
  EXPECT_EQ(h.hot_count(), 20000u);
  const uint64_t n = 1000000;
  uint64_t hot = 0;
  for (uint64_t i = 0; i < n; i++) hot += h.Next(&rng) < 20000;
  ExpectFrequency(hot, n, 0.8, 5, "hot share");
}

TEST(KeyGenerators, CoreWorkloadOperationMix) {
  WorkloadSpec s;
  s.record_count = 1000;
  s.proportion[0] = 0.5;   // read
  s.proportion[1] = 0.2;   // update
  s.proportion[2] = 0.1;   // insert
  s.proportion[3] = 0.1;   // scan
  s.proportion[4] = 0.1;   // read-modify-write
  CoreWorkload w(s, 5);
  const uint64_t n = 200000;
  uint64_t counts[kOpTypes] = {0, 0, 0, 0, 0};
  uint64_t next_insert = 1000;
  for (uint64_t i = 0; i < n; i++) {
    Request r = w.NextRun();
    counts[static_cast<int>(r.op)]++;
    if (r.op == OpType::kInsert) {
      EXPECT_EQ(r.key_number, next_insert++);
    } else {
      EXPECT_LT(r.key_number, 1000u);
    }
    if (r.op == OpType::kScan) {
      EXPECT_GE(r.scan_length, 1u);
      EXPECT_LE(r.scan_length, s.max_scan_length);
    }
  }
  for (int t = 0; t < kOpTypes; t++) {
    ExpectFrequency(counts[t], n, s.proportion[t], 5, OpName(static_cast<OpType>(t)));
  }
  // The load phase inserts every record once, in order of key number.
  CoreWorkload load(s, 5);
  for (uint64_t i = 0; i < 1000; i++) EXPECT_EQ(load.NextLoad().key_number, i);
}

}  // namespace
}  // namespace ycsb
