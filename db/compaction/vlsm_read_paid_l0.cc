#include "db/compaction/vlsm_read_paid_l0.h"

#include <algorithm>
#include <utility>

#include "db/version_edit.h"
#include "db/version_set.h"

namespace ROCKSDB_NAMESPACE {

uint64_t VlsmReadsThatPayAStep(uint64_t max_compaction_bytes) {
  return std::max<uint64_t>(max_compaction_bytes / kVlsmL0ReadBytes, 1);
}

std::vector<std::vector<size_t>> ReadPaidSeedsOf(
    const VersionStorageInfo& vstorage, uint64_t max_compaction_bytes,
    const std::unordered_set<uint64_t>& declined) {
  const uint64_t needed = VlsmReadsThatPayAStep(max_compaction_bytes);
  const std::vector<FileMetaData*>& l0 = vstorage.LevelFiles(0);
  // (reads, index), to sort the most read first.
  std::vector<std::pair<uint64_t, size_t>> paid;
  for (size_t i = 0; i < l0.size(); ++i) {
    const FileMetaData& f = *l0[i];
    const uint64_t reads =
        f.stats.num_reads_sampled.load(std::memory_order_relaxed);
    if (reads >= needed && !f.being_compacted &&
        declined.count(f.fd.GetNumber()) == 0) {
      paid.emplace_back(reads, i);
    }
  }
  std::stable_sort(paid.begin(), paid.end(),
                   [](const std::pair<uint64_t, size_t>& a,
                      const std::pair<uint64_t, size_t>& b) {
                     return a.first > b.first;
                   });
  std::vector<std::vector<size_t>> seeds;
  seeds.reserve(paid.size());
  for (const auto& p : paid) {
    seeds.push_back({p.second});
  }
  return seeds;
}

}  // namespace ROCKSDB_NAMESPACE
