#include "latency_histogram.h"

#include <algorithm>
#include <cmath>

namespace ycsb {

size_t LatencyHistogram::BucketOf(uint64_t v) {
  if (v > kMaxTrackable) v = kMaxTrackable;
  if (v < 2 * kSubBuckets) return static_cast<size_t>(v);
  // v in [2^top, 2^(top+1)), top >= kSubBucketBits + 1; shifting by
  // (top - kSubBucketBits) leaves kSubBucketBits + 1 significant bits.
  int top = 63 - __builtin_clzll(v);
  int shift = top - kSubBucketBits;
  uint64_t sub = (v >> shift) - kSubBuckets;  // in [0, kSubBuckets)
  return static_cast<size_t>((shift + 1) * kSubBuckets + sub);
}

uint64_t LatencyHistogram::BucketLow(size_t bucket) {
  if (bucket < 2 * kSubBuckets) return bucket;
  uint64_t shift = bucket / kSubBuckets - 1;
  uint64_t sub = bucket % kSubBuckets;
  return (kSubBuckets + sub) << shift;
}

uint64_t LatencyHistogram::BucketWidth(size_t bucket) {
  if (bucket < 2 * kSubBuckets) return 1;
  return uint64_t{1} << (bucket / kSubBuckets - 1);
}

uint64_t LatencyHistogram::BucketValue(size_t bucket) {
  return BucketLow(bucket) + (BucketWidth(bucket) - 1) / 2;
}

LatencyHistogram::LatencyHistogram() : buckets_(kBucketCount, 0) {}

void LatencyHistogram::Record(uint64_t v) {
  buckets_[BucketOf(v)]++;
  count_++;
  sum_ += v;
  max_ = std::max(max_, v);
}

void LatencyHistogram::Merge(const LatencyHistogram& other) {
  for (size_t i = 0; i < kBucketCount; i++) buckets_[i] += other.buckets_[i];
  count_ += other.count_;
  sum_ += other.sum_;
  max_ = std::max(max_, other.max_);
}

void LatencyHistogram::SubtractEarlier(const LatencyHistogram& earlier) {
  size_t top = 0;
  bool any = false;
  for (size_t i = 0; i < kBucketCount; i++) {
    uint64_t e = earlier.buckets_[i];
    buckets_[i] = buckets_[i] > e ? buckets_[i] - e : 0;
    if (buckets_[i]) {
      top = i;
      any = true;
    }
  }
  count_ = count_ > earlier.count_ ? count_ - earlier.count_ : 0;
  sum_ = sum_ > earlier.sum_ ? sum_ - earlier.sum_ : 0;
  uint64_t top_value = any ? BucketLow(top) + BucketWidth(top) - 1 : 0;
  max_ = std::min(max_, top_value);
}

void LatencyHistogram::Clear() {
  std::fill(buckets_.begin(), buckets_.end(), 0);
  count_ = sum_ = max_ = 0;
}

uint64_t LatencyHistogram::Min() const {
  for (size_t i = 0; i < kBucketCount; i++) {
    if (buckets_[i]) return BucketLow(i);
  }
  return 0;
}

uint64_t LatencyHistogram::Percentile(double percentile) const {
  if (count_ == 0) return 0;
  double p = std::min(100.0, std::max(0.0, percentile));
  // Rank of the sample asked for, 1-based: ceil(p% of count), at least 1.
  uint64_t rank = static_cast<uint64_t>(std::ceil(p / 100.0 * count_));
  rank = std::max<uint64_t>(1, std::min(rank, count_));
  if (rank == count_) return max_;  // the largest sample is kept exactly
  uint64_t seen = 0;
  for (size_t i = 0; i < kBucketCount; i++) {
    seen += buckets_[i];
    if (seen >= rank) {
      return std::min(std::max(BucketValue(i), Min()), max_);
    }
  }
  return max_;
}

LatencySummary Summarize(const LatencyHistogram& h) {
  LatencySummary s;
  s.count = h.Count();
  s.mean_us = h.Mean() / 1e3;
  s.p50_us = h.Percentile(50) / 1e3;
  s.p90_us = h.Percentile(90) / 1e3;
  s.p99_us = h.Percentile(99) / 1e3;
  s.p999_us = h.Percentile(99.9) / 1e3;
  s.p9999_us = h.Percentile(99.99) / 1e3;
  s.max_us = h.Max() / 1e3;
  return s;
}

SingleWriterHistogram::SingleWriterHistogram()
    : buckets_(new std::atomic<uint64_t>[LatencyHistogram::kBucketCount]) {
  for (size_t i = 0; i < LatencyHistogram::kBucketCount; i++) {
    buckets_[i].store(0, std::memory_order_relaxed);
  }
}

void SingleWriterHistogram::AddSnapshotTo(LatencyHistogram* out) const {
  uint64_t n = 0;
  for (size_t i = 0; i < LatencyHistogram::kBucketCount; i++) {
    uint64_t c = buckets_[i].load(std::memory_order_relaxed);
    out->buckets_[i] += c;
    n += c;
  }
  // Count from the buckets so percentiles and count agree in a snapshot.
  out->count_ += n;
  out->sum_ += sum_.load(std::memory_order_relaxed);
  out->max_ = std::max(out->max_, max_.load(std::memory_order_relaxed));
}

}  // namespace ycsb
