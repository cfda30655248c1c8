// Log-linear latency histograms (HdrHistogram-style), in nanoseconds.
//
// Every power-of-two range [2^k, 2^(k+1)) is split into kSubBuckets equal
// buckets, so a bucket is at most 1/128 of its lower bound wide: reporting
// a bucket's midpoint is within 0.4% of any value in it, from 1 ns up to
// kMaxTrackable (2^44 ns, about 4.9 h). Larger values are clamped (and the
// exact max is still kept).
//
// Two types share the bucket layout:
//   LatencyHistogram        plain counters: merging, percentiles, reports.
//   SingleWriterHistogram   one recording thread, any number of readers.
//     The owner records with relaxed load + store (no lock, no atomic
//     read-modify-write); a reporter takes cumulative snapshots at any time
//     and gets per-interval histograms as the difference of two snapshots.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ycsb {

class LatencyHistogram {
 public:
  static constexpr int kSubBucketBits = 7;
  static constexpr uint64_t kSubBuckets = uint64_t{1} << kSubBucketBits;
  static constexpr int kMaxValueBits = 44;
  static constexpr uint64_t kMaxTrackable = (uint64_t{1} << kMaxValueBits) - 1;
  // Values below 2 * kSubBuckets each have their own bucket; every later
  // power of two adds kSubBuckets buckets.
  static constexpr size_t kBucketCount =
      (kMaxValueBits - kSubBucketBits + 1) * kSubBuckets;

  static size_t BucketOf(uint64_t value_ns);
  static uint64_t BucketLow(size_t bucket);
  static uint64_t BucketWidth(size_t bucket);
  // The value reported for a bucket: its midpoint.
  static uint64_t BucketValue(size_t bucket);

  LatencyHistogram();

  void Record(uint64_t value_ns);
  void Merge(const LatencyHistogram& other);
  // this -= earlier, for two cumulative snapshots of the same recorder.
  // max becomes the top of the highest non-empty bucket of the difference.
  void SubtractEarlier(const LatencyHistogram& earlier);
  void Clear();

  uint64_t Count() const { return count_; }
  uint64_t Max() const { return max_; }
  uint64_t Min() const;
  double Mean() const { return count_ ? static_cast<double>(sum_) / count_ : 0; }
  // The smallest recorded value v (as its bucket's midpoint, clamped to
  // [min, max]) such that at least percentile% of the samples are <= v.
  // 0 when empty.
  uint64_t Percentile(double percentile) const;

  const std::vector<uint64_t>& buckets() const { return buckets_; }

 private:
  friend class SingleWriterHistogram;
  std::vector<uint64_t> buckets_;
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t max_ = 0;
};

// Summary as reported (microseconds, floating point).
struct LatencySummary {
  uint64_t count = 0;
  double mean_us = 0;
  double p50_us = 0;
  double p90_us = 0;
  double p99_us = 0;
  double p999_us = 0;
  double p9999_us = 0;
  double max_us = 0;
};
LatencySummary Summarize(const LatencyHistogram& h);

class SingleWriterHistogram {
 public:
  SingleWriterHistogram();

  // Owner thread only.
  void Record(uint64_t value_ns) {
    size_t b = LatencyHistogram::BucketOf(value_ns);
    Bump(&buckets_[b], 1);
    Bump(&count_, 1);
    Bump(&sum_, value_ns);
    if (value_ns > max_.load(std::memory_order_relaxed)) {
      max_.store(value_ns, std::memory_order_relaxed);
    }
  }

  // Any thread: adds the cumulative counts so far to *out. A snapshot taken
  // while the owner records may be off by the records in flight; counts
  // never go backwards.
  void AddSnapshotTo(LatencyHistogram* out) const;

 private:
  // Single writer: a plain increment is enough; the atomic type only makes
  // the concurrent reads well-defined.
  static void Bump(std::atomic<uint64_t>* c, uint64_t by) {
    c->store(c->load(std::memory_order_relaxed) + by,
             std::memory_order_relaxed);
  }
  std::unique_ptr<std::atomic<uint64_t>[]> buckets_;
  std::atomic<uint64_t> count_{0};
  std::atomic<uint64_t> sum_{0};
  std::atomic<uint64_t> max_{0};
};

}  // namespace ycsb
