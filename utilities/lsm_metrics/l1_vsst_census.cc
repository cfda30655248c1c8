// CensusL1Vssts: each L1 file against the L2 files its key range overlaps,
// good or poor by the picker's own measure and rule (L2OverlapPerL1File,
// IsGoodVsst).
#include <algorithm>

#include "db/compaction/sorted_run_overlap.h"
#include "db/compaction/vsst_cut_policy.h"
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
  const std::vector<uint64_t> overlaps = L2OverlapPerL1File(l1, l2, ucmp);
  for (size_t i = 0; i < l1.size(); ++i) {
    const SstFileMetaData& file = l1[i];
    const uint64_t overlap = overlaps[i];
    if (IsGoodVsst(overlap, overlap_bound)) {
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
