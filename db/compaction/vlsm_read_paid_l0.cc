#include "db/compaction/vlsm_read_paid_l0.h"

#include <algorithm>
#include <limits>

#include "db/version_edit.h"
#include "db/version_set.h"

namespace ROCKSDB_NAMESPACE {

uint64_t VlsmReadPaidBytes(const FileMetaData& file) {
  const uint64_t reads =
      file.stats.num_reads_sampled.load(std::memory_order_relaxed);
  return reads > std::numeric_limits<uint64_t>::max() / kVlsmL0ReadBytes
             ? std::numeric_limits<uint64_t>::max()
             : reads * kVlsmL0ReadBytes;
}

std::vector<VlsmReadPaidSeed> ReadPaidSeedsOf(
    const VersionStorageInfo& vstorage, const VlsmDeclinedReadSteps& declined) {
  const std::vector<FileMetaData*>& l0 = vstorage.LevelFiles(0);
  std::vector<VlsmReadPaidSeed> seeds;
  for (size_t i = 0; i < l0.size(); ++i) {
    const FileMetaData& f = *l0[i];
    const uint64_t budget = VlsmReadPaidBytes(f);
    if (f.being_compacted || budget == 0 || budget < f.fd.GetFileSize()) {
      continue;
    }
    const auto d = declined.find(f.fd.GetNumber());
    if (d != declined.end() && budget < d->second) {
      continue;  // declined, and its step not yet paid
    }
    seeds.push_back({i, budget});
  }
  std::stable_sort(seeds.begin(), seeds.end(),
                   [](const VlsmReadPaidSeed& a, const VlsmReadPaidSeed& b) {
                     return a.budget > b.budget;
                   });
  return seeds;
}

}  // namespace ROCKSDB_NAMESPACE
