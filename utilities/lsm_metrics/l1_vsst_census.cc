// CensusL1Vssts: each L1 file against the L2 files its key range overlaps
// (OverlapBytesPerFile, the walk the L1->L2 picker uses too).
#include <algorithm>

#include "db/compaction/sorted_run_overlap.h"
#include "rocksdb/comparator.h"
#include "rocksdb/lsm_metrics.h"

namespace ROCKSDB_NAMESPACE {

namespace {
constexpr size_t kSizeBuckets = 64;
constexpr size_t kOverlapBuckets = 21;  // tenths of the bound; last is >= 2x

size_t Log2Bucket(uint64_t bytes) {
  size_t bucket = 0;
  while (bytes > 1) {
    bytes >>= 1;
    ++bucket;
  }
  return bucket;
}

size_t OverlapBucket(uint64_t overlap, uint64_t bound) {
  if (bound == 0) {
    return overlap == 0 ? 0 : kOverlapBuckets - 1;
  }
  const uint64_t tenths = overlap * 10 / bound;
  return static_cast<size_t>(std::min<uint64_t>(tenths, kOverlapBuckets - 1));
}
}  // namespace

L1VsstCensus CensusL1Vssts(const ColumnFamilyMetaData& meta,
                           const Comparator* ucmp, uint64_t overlap_bound) {
  L1VsstCensus census;
  census.overlap_bound = overlap_bound;
  census.size_log2_histogram.assign(kSizeBuckets, 0);
  census.overlap_tenths_histogram.assign(kOverlapBuckets, 0);
  if (meta.levels.size() < 2) {
    return census;
  }
  const auto& l1 = meta.levels[1].files;
  static const std::vector<SstFileMetaData> kNoFiles;
  const auto& l2 = meta.levels.size() > 2 ? meta.levels[2].files : kNoFiles;
  struct ByUserKey {
    const Comparator* ucmp;
    const std::string& Smallest(const SstFileMetaData& f) const { return f.smallestkey; }
    const std::string& Largest(const SstFileMetaData& f) const { return f.largestkey; }
    uint64_t Size(const SstFileMetaData& f) const { return f.size; }
    int Compare(const std::string& a, const std::string& b) const {
      return ucmp->Compare(a, b);
    }
  };
  const std::vector<uint64_t> overlaps = OverlapBytesPerFile(l1, l2, ByUserKey{ucmp});
  for (size_t i = 0; i < l1.size(); ++i) {
    const SstFileMetaData& file = l1[i];
    const uint64_t overlap = overlaps[i];
    if (overlap <= overlap_bound) {
      ++census.good;
      census.good_bytes += file.size;
    } else {
      ++census.poor;
      census.poor_bytes += file.size;
    }
    ++census.size_log2_histogram[Log2Bucket(file.size)];
    ++census.overlap_tenths_histogram[OverlapBucket(overlap, overlap_bound)];
  }
  return census;
}

}  // namespace ROCKSDB_NAMESPACE
