// The key choosers of YCSB's core workload, written from their definitions
// (Gray et al., "Quickly generating billion-record synthetic databases",
// SIGMOD 1994, for the Zipfian). Not thread-safe: in this harness only the
// one request generator thread draws keys.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

namespace ycsb {

// xoshiro256** seeded through splitmix64: fast, good enough for workloads.
class Random64 {
 public:
  explicit Random64(uint64_t seed);
  uint64_t Next();
  // Uniform in [0, 1).
  double NextDouble() { return (Next() >> 11) * (1.0 / 9007199254740992.0); }
  // Uniform in [0, n), n > 0 (multiply-shift, bias below 2^-64 * n).
  uint64_t Uniform(uint64_t n) {
    return static_cast<uint64_t>(
        (static_cast<unsigned __int128>(Next()) * n) >> 64);
  }

 private:
  uint64_t s_[4];
};

// 64-bit FNV-1a over the 8 bytes of v: YCSB's way of scattering key numbers
// (insertorder=hashed) and of scrambling Zipfian ranks.
uint64_t FnvHash64(uint64_t v);

// zeta(n, theta) = sum_{i=1..n} i^-theta. Exact summation up to a million
// terms; beyond that Euler-Maclaurin on the tail (error far below 1e-9), so
// that n = 10^10 costs microseconds.
double Zeta(uint64_t n, double theta);

class KeyChooser {
 public:
  virtual ~KeyChooser() = default;
  // A key number in [0, item_count) of the chooser's current key space.
  virtual uint64_t Next(Random64* rng) = 0;
};

// Uniform over [lo, lo + count).
class UniformChooser : public KeyChooser {
 public:
  UniformChooser(uint64_t lo, uint64_t count) : lo_(lo), count_(count) {}
  uint64_t Next(Random64* rng) override { return lo_ + rng->Uniform(count_); }

 private:
  uint64_t lo_, count_;
};

// Zipfian over ranks [0, items): rank 0 most popular, P(rank i) is
// proportional to (i + 1)^-theta. The item count may grow (SetItemCount),
// as it does for "latest"; zeta is then extended incrementally.
class ZipfianChooser : public KeyChooser {
 public:
  static constexpr double kDefaultTheta = 0.99;  // YCSB's constant
  explicit ZipfianChooser(uint64_t items, double theta = kDefaultTheta);
  uint64_t Next(Random64* rng) override;
  void SetItemCount(uint64_t items);
  uint64_t item_count() const { return items_; }
  double zeta_n() const { return zeta_n_; }

 private:
  void Recompute();
  uint64_t items_;
  double theta_, alpha_, zeta2_, zeta_n_, eta_, half_pow_theta_;
};

// YCSB's "zipfian" request distribution: Zipfian ranks over a fixed, huge
// space (10^10 items) hashed onto [0, items), so the popular keys are
// scattered rather than clustered at the start, and the popularity of each
// rank does not change as records are inserted.
class ScrambledZipfianChooser : public KeyChooser {
 public:
  static constexpr uint64_t kRankSpace = 10000000000ull;
  explicit ScrambledZipfianChooser(uint64_t items,
                                   double theta = ZipfianChooser::kDefaultTheta);
  uint64_t Next(Random64* rng) override;
  void SetItemCount(uint64_t items) { items_ = items; }

 private:
  uint64_t items_;
  ZipfianChooser ranks_;
};

// Recently inserted keys are the most popular: newest - Zipfian rank, over
// the keys known to exist (*inserted is the count, read at each draw).
class LatestChooser : public KeyChooser {
 public:
  LatestChooser(const std::atomic<uint64_t>* inserted, double theta =
                    ZipfianChooser::kDefaultTheta);
  uint64_t Next(Random64* rng) override;

 private:
  const std::atomic<uint64_t>* inserted_;
  ZipfianChooser ranks_;
};

// A hot set (the first data_fraction of [lo, lo + count)) gets
// opn_fraction of the draws; the rest go uniformly to the cold keys.
class HotspotChooser : public KeyChooser {
 public:
  HotspotChooser(uint64_t lo, uint64_t count, double data_fraction,
                 double opn_fraction);
  uint64_t Next(Random64* rng) override;
  uint64_t hot_count() const { return hot_; }

 private:
  uint64_t lo_, count_, hot_;
  double opn_fraction_;
};

}  // namespace ycsb
