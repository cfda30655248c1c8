#include "db/compaction/vlsm_level_walk.h"

#include <algorithm>

#include "db/compaction/sorted_run_overlap.h"
#include "db/version_set.h"
#include "options/cf_options.h"
#include "test_util/sync_point.h"

namespace ROCKSDB_NAMESPACE {

void VlsmLevelWalk::Add(uint64_t file_bytes, uint64_t read_bytes) {
  moved.push_back(moved.back() + file_bytes);
  read.push_back(read.back() + read_bytes);
}

uint64_t VlsmFileStepReadBytes(uint64_t file_bytes, uint64_t next_overlap,
                               uint64_t grandparent_overlap,
                               uint64_t max_compaction_bytes) {
  const bool trivial_move =
      next_overlap == 0 &&
      file_bytes + grandparent_overlap <= max_compaction_bytes;
  return trivial_move ? 0 : file_bytes + next_overlap;
}

VlsmLevelWalk BuildVlsmLevelWalk(const std::vector<FileMetaData*>& files,
                                 const std::vector<int>& order,
                                 const std::vector<FileMetaData*>& next,
                                 const std::vector<FileMetaData*>& grandparents,
                                 const Comparator* ucmp,
                                 uint64_t max_compaction_bytes,
                                 bool moves_allowed) {
  const std::vector<uint64_t> next_overlap =
      L2OverlapPerL1File(files, next, ucmp);
  const std::vector<uint64_t> grandparent_overlap =
      L2OverlapPerL1File(files, grandparents, ucmp);
  const bool ordered = order.size() == files.size();
  VlsmLevelWalk walk;
  walk.moved.reserve(files.size() + 1);
  walk.read.reserve(files.size() + 1);
  for (size_t i = 0; i < files.size(); ++i) {
    const size_t f = ordered ? static_cast<size_t>(order[i]) : i;
    const uint64_t bytes = files[f]->fd.GetFileSize();
    walk.Add(bytes, moves_allowed
                        ? VlsmFileStepReadBytes(bytes, next_overlap[f],
                                                grandparent_overlap[f],
                                                max_compaction_bytes)
                        : bytes + next_overlap[f]);
  }
  return walk;
}

PricedMove PriceLevelExcess(const VlsmLevelWalk& walk, uint64_t need) {
  if (need == 0) {
    return {};
  }
  // The first prefix that moves `need` bytes, or the whole level.
  const auto it =
      std::lower_bound(walk.moved.begin(), walk.moved.end(), need);
  const size_t k = it == walk.moved.end()
                       ? walk.moved.size() - 1
                       : static_cast<size_t>(it - walk.moved.begin());
  return {walk.moved[k], walk.read[k]};
}

bool VlsmTrivialMovesAllowed(const VersionStorageInfo& vstorage,
                             const MutableCFOptions& moptions, int level,
                             size_t data_paths) {
  if (data_paths > 1) {
    return false;  // the output's path depends on sizes the walk does not know
  }
  // The compression a file written to level l gets: GetCompressionType's
  // rule (compaction_picker.h), stated here because that function reads the
  // version's non-empty level count, which a version hands out only once
  // finalized, after it is prepared and scored.
  int last_non_empty = 0;
  for (int l = vstorage.num_levels() - 1; l > 0; --l) {
    if (!vstorage.LevelFiles(l).empty()) {
      last_non_empty = l;
      break;
    }
  }
  const int base = vstorage.base_level();
  const std::vector<CompressionType>& per_level =
      moptions.compression_per_level;
  auto compression_of = [&](int l) {
    if (moptions.bottommost_compression != kDisableCompressionOption &&
        l >= last_non_empty) {
      return moptions.bottommost_compression;
    }
    if (per_level.empty()) {
      return moptions.compression;
    }
    const int idx = l == 0 ? 0 : l - base + 1;
    const int last = static_cast<int>(per_level.size()) - 1;
    return per_level[static_cast<size_t>(std::max(0, std::min(idx, last)))];
  };
  return compression_of(level) == compression_of(level + 1);
}

VlsmLevelWalks::VlsmLevelWalks(const VersionStorageInfo& vstorage,
                               const std::vector<std::vector<int>>& orders,
                               const MutableCFOptions& moptions,
                               size_t data_paths) {
  const int levels = vstorage.num_levels();
  levels_.resize(static_cast<size_t>(std::max(levels, 0)));
  static const std::vector<FileMetaData*> kNoFiles;
  static const std::vector<int> kKeyOrder;
  // The last level is never compacted; the picker orders no file there.
  for (int level = 1; level + 1 < levels; ++level) {
    const size_t l = static_cast<size_t>(level);
    levels_[l] = BuildVlsmLevelWalk(
        vstorage.LevelFiles(level), l < orders.size() ? orders[l] : kKeyOrder,
        vstorage.LevelFiles(level + 1),
        level + 2 < levels ? vstorage.LevelFiles(level + 2) : kNoFiles,
        vstorage.user_comparator(), moptions.max_compaction_bytes,
        VlsmTrivialMovesAllowed(vstorage, moptions, level, data_paths));
  }
}

const VlsmLevelWalk& VlsmLevelWalks::level(int level) const {
  if (level < 1 || static_cast<size_t>(level) >= levels_.size()) {
    return empty_;
  }
  return levels_[static_cast<size_t>(level)];
}

std::shared_ptr<const VlsmLevelWalks> BuildVlsmLevelWalks(
    const VersionStorageInfo& vstorage,
    const std::vector<std::vector<int>>& orders,
    const ImmutableOptions& ioptions, const MutableCFOptions& moptions) {
  if (!IsVlsmLayout(moptions.vlsm_layout)) {
    return nullptr;
  }
  return std::make_shared<const VlsmLevelWalks>(vstorage, orders, moptions,
                                                ioptions.cf_paths.size());
}

std::shared_ptr<const VlsmLevelWalks> VlsmLevelWalksOf(
    const VersionStorageInfo& vstorage, const MutableCFOptions& moptions) {
  const std::shared_ptr<const VlsmLevelWalks>& kept =
      vstorage.vlsm_level_walks();
  if (kept != nullptr) {
    return kept;
  }
  return std::make_shared<const VlsmLevelWalks>(
      vstorage, std::vector<std::vector<int>>(), moptions, /*data_paths=*/1);
}

uint64_t VlsmEstimateCompactionBytes(const VersionStorageInfo& vstorage,
                                     const MutableCFOptions& moptions,
                                     const L0DebtTerm& l0) {
  uint64_t owed = l0.l0_bytes;
  // What the level above moves in: from L0, the due bytes at what the
  // recent L0 steps added below per L0 byte (vlsm_l0_yield.h).
  uint64_t inflow = static_cast<uint64_t>(static_cast<double>(l0.l0_bytes) *
                                          vstorage.vlsm_l0_yield());
  const std::shared_ptr<const VlsmLevelWalks> walks =
      VlsmLevelWalksOf(vstorage, moptions);
  const int base = vstorage.base_level();
  for (int level = base; level >= 1 && level <= vstorage.MaxInputLevel();
       ++level) {
    const uint64_t level_bytes = vstorage.NumLevelBytes(level);
    if (level == base) {
      owed += l0.below_bytes;  // the base-level bytes L0's steps rewrite
    }
    const uint64_t size = level_bytes + inflow;
    const uint64_t target = vstorage.MaxBytesForLevel(level);
    inflow = 0;
    if (size <= target) {
      continue;
    }
    const uint64_t need = size - target;
    const PricedMove walked = PriceLevelExcess(walks->level(level), need);
    owed += walked.read;
    inflow = walked.moved;
    if (walked.moved < need) {
      // Past the level's files: upstream's ratio for the rest, nothing when
      // the next level is empty (the rest moves trivially).
      const uint64_t rest = need - walked.moved;
      const uint64_t next_bytes = vstorage.NumLevelBytes(level + 1);
      if (next_bytes > 0) {
        owed += static_cast<uint64_t>(
            static_cast<double>(rest) *
            (static_cast<double>(next_bytes) / static_cast<double>(size) + 1));
      }
      inflow += rest;
    }
  }
  // Tests that break the liveness rule on purpose owe more here
  // (vlsm_picker_test, vlsm_liveness_test).
  TEST_SYNC_POINT_CALLBACK("VlsmEstimateCompactionBytes:Owed", &owed);
  return owed;
}

}  // namespace ROCKSDB_NAMESPACE
