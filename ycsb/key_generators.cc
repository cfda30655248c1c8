#include "key_generators.h"

#include <algorithm>
#include <cmath>

namespace ycsb {

namespace {
uint64_t SplitMix64(uint64_t* x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
}  // namespace

Random64::Random64(uint64_t seed) {
  for (auto& s : s_) s = SplitMix64(&seed);
}

uint64_t Random64::Next() {
  uint64_t result = Rotl(s_[1] * 5, 7) * 9;
  uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = Rotl(s_[3], 45);
  return result;
}

uint64_t FnvHash64(uint64_t v) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < 8; i++) {
    h ^= v & 0xff;
    h *= 0x100000001b3ull;
    v >>= 8;
  }
  return h;
}

double Zeta(uint64_t n, double theta) {
  constexpr uint64_t kExactTerms = 1000000;
  double sum = 0;
  uint64_t exact = std::min(n, kExactTerms);
  // Smallest terms first for accuracy.
  for (uint64_t i = exact; i >= 1; i--) sum += std::pow(double(i), -theta);
  if (n <= kExactTerms) return sum;
  // Euler-Maclaurin for sum_{i=m+1..n} f(i), f(x) = x^-theta:
  //   integral_m^n f + (f(n) - f(m)) / 2 + (f'(n) - f'(m)) / 12.
  double m = double(kExactTerms), N = double(n);
  double integral = theta == 1.0
                        ? std::log(N / m)
                        : (std::pow(N, 1 - theta) - std::pow(m, 1 - theta)) /
                              (1 - theta);
  auto f = [&](double x) { return std::pow(x, -theta); };
  auto df = [&](double x) { return -theta * std::pow(x, -theta - 1); };
  return sum + integral + (f(N) - f(m)) / 2 + (df(N) - df(m)) / 12;
}

ZipfianChooser::ZipfianChooser(uint64_t items, double theta)
    : items_(std::max<uint64_t>(items, 1)), theta_(theta) {
  zeta2_ = Zeta(2, theta_);
  zeta_n_ = Zeta(items_, theta_);
  Recompute();
}

void ZipfianChooser::Recompute() {
  alpha_ = 1.0 / (1.0 - theta_);
  eta_ = (1 - std::pow(2.0 / items_, 1 - theta_)) / (1 - zeta2_ / zeta_n_);
  half_pow_theta_ = 1 + std::pow(0.5, theta_);
}

void ZipfianChooser::SetItemCount(uint64_t items) {
  items = std::max<uint64_t>(items, 1);
  if (items == items_) return;
  if (items > items_ && items - items_ < 100000) {
    for (uint64_t i = items_ + 1; i <= items; i++) {
      zeta_n_ += std::pow(double(i), -theta_);
    }
  } else {
    zeta_n_ = Zeta(items, theta_);
  }
  items_ = items;
  Recompute();
}

uint64_t ZipfianChooser::Next(Random64* rng) {
  // Gray et al.: invert an approximation of the Zipfian CDF; ranks 0 and 1
  // are handled exactly.
  double u = rng->NextDouble();
  double uz = u * zeta_n_;
  if (uz < 1.0) return 0;
  if (uz < half_pow_theta_) return std::min<uint64_t>(1, items_ - 1);
  auto r = static_cast<uint64_t>(items_ *
                                 std::pow(eta_ * u - eta_ + 1, alpha_));
  return std::min(r, items_ - 1);
}

ScrambledZipfianChooser::ScrambledZipfianChooser(uint64_t items, double theta)
    : items_(std::max<uint64_t>(items, 1)), ranks_(kRankSpace, theta) {}

uint64_t ScrambledZipfianChooser::Next(Random64* rng) {
  return FnvHash64(ranks_.Next(rng)) % items_;
}

LatestChooser::LatestChooser(const std::atomic<uint64_t>* inserted,
                             double theta)
    : inserted_(inserted),
      ranks_(std::max<uint64_t>(inserted->load(std::memory_order_relaxed), 1),
             theta) {}

uint64_t LatestChooser::Next(Random64* rng) {
  uint64_t n = std::max<uint64_t>(inserted_->load(std::memory_order_relaxed), 1);
  ranks_.SetItemCount(n);
  return n - 1 - ranks_.Next(rng);
}

HotspotChooser::HotspotChooser(uint64_t lo, uint64_t count,
                               double data_fraction, double opn_fraction)
    : lo_(lo),
      count_(std::max<uint64_t>(count, 1)),
      opn_fraction_(opn_fraction) {
  hot_ = static_cast<uint64_t>(count_ * data_fraction);
  hot_ = std::min(std::max<uint64_t>(hot_, 1), count_);
}

uint64_t HotspotChooser::Next(Random64* rng) {
  bool hot = rng->NextDouble() < opn_fraction_ || hot_ == count_;
  if (hot) return lo_ + rng->Uniform(hot_);
  return lo_ + hot_ + rng->Uniform(count_ - hot_);
}

}  // namespace ycsb
