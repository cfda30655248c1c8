#include "db/compaction/vlsm_layout_rules.h"

#include <algorithm>
#include <cassert>

#include "db/compaction/compaction_picker.h"
#include "db/compaction/vlsm_l0_model.h"
#include "db/compaction/vlsm_picker.h"
#include "db/version_set.h"
#include "options/cf_options.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// The level L0 moves into, or -1 with one level only (then the estimate
// adds nothing below L0).
int BaseLevelOf(const VersionStorageInfo& vstorage) {
  const int base = vstorage.base_level();
  return base >= 1 && base < vstorage.num_levels() ? base : -1;
}

// kVlsm: L0 is a queue of whole flushes, the oldest compacting alone; its
// score ranks below every level over its target. Everything else is
// stock's.
class PaperRules : public VlsmLayoutRules {
 public:
  void ScoreL0(const VersionStorageInfo& /*vstorage*/,
               const MutableCFOptions& /*moptions*/, int max_input_level,
               std::vector<double>* scores_by_level) const override {
    VlsmPutL0Last(max_input_level, scores_by_level);
  }
  bool PickL0(const VlsmL0PickRequest& request, bool /*due_only*/,
              CompactionInputFiles* inputs) const override {
    return PickOldestL0File(request, inputs);
  }
  bool L0IsAQueue() const override { return true; }
};

// kVlsmRanged: L0 is cut by key range, and every L0 question is asked of
// the version's L0 model range by range (vlsm_l0_due.h).
class RangedRules : public VlsmLayoutRules {
 public:
  void ScoreL0(const VersionStorageInfo& vstorage,
               const MutableCFOptions& moptions, int /*max_input_level*/,
               std::vector<double>* scores_by_level) const override {
    (*scores_by_level)[0] = RangedL0ScoreOf(vstorage, moptions);
  }
  bool L0DueNow(const VersionStorageInfo& vstorage,
                const MutableCFOptions& moptions) const override {
    return !vstorage.LevelFiles(0).empty() &&
           RangedL0ScoreOf(vstorage, moptions) >= 1;
  }
  bool PickL0(const VlsmL0PickRequest& request, bool due_only,
              CompactionInputFiles* inputs) const override {
    return PickRangedL0(request, inputs, due_only);
  }
  int L0StallCount(const VersionStorageInfo& vstorage,
                   const MutableCFOptions& moptions,
                   int /*stock_count*/) const override {
    return L0MemtablesWorth(VlsmL0ModelOf(vstorage)->bytes(),
                            moptions.write_buffer_size);
  }
  L0DebtTerm L0Debt(const VersionStorageInfo& vstorage,
                    const MutableCFOptions& moptions) const override {
    const int base = BaseLevelOf(vstorage);
    if (vstorage.LevelFiles(0).empty() || base < 0) {
      return {};
    }
    return VlsmL0ModelOf(vstorage)->DebtNow(
        vstorage.LevelFiles(base), RangedL0TriggersOf(vstorage, moptions));
  }
  int L0Trigger(const VersionStorageInfo& vstorage,
                const MutableCFOptions& moptions) const override {
    return VlsmRangedDepthTriggerOf(vstorage, moptions);
  }
  bool SplitsFlushes() const override { return true; }
  bool CutsL1AtL0Guards() const override { return true; }
  bool AlignsL1WithL2() const override { return true; }
  bool ReadsL0AsSublevels() const override { return true; }
  bool DrainsAtRest() const override { return true; }
  bool OwesL0ByRange() const override { return true; }
};

}  // namespace

bool VlsmLayoutRules::L0DueNow(const VersionStorageInfo& vstorage,
                               const MutableCFOptions& moptions) const {
  // Stock's L0 score, over the files not being compacted: their count over
  // the file trigger, or their bytes over L1's target.
  int free_files = 0;
  uint64_t free_bytes = 0;
  for (const FileMetaData* f : vstorage.LevelFiles(0)) {
    if (!f->being_compacted) {
      ++free_files;
      free_bytes += f->compensated_file_size;
    }
  }
  return free_files > 0 &&
         (free_files >= moptions.level0_file_num_compaction_trigger ||
          free_bytes >= moptions.max_bytes_for_level_base);
}

bool VlsmLayoutRules::PickL0(const VlsmL0PickRequest& /*request*/,
                             bool /*due_only*/,
                             CompactionInputFiles* inputs) const {
  assert(false);  // RocksDB picks stock's L0 compactions
  inputs->clear();
  return false;
}

int VlsmLayoutRules::L0StallCount(const VersionStorageInfo& vstorage,
                                  const MutableCFOptions& moptions,
                                  int stock_count) const {
  // Files, unless L0 still holds a split flush's pieces: after a switch
  // away from the ranged layout they would stop writes as files
  // (VlsmL0StallCount, db/vlsm_write_stalls.h).
  const std::vector<FileMetaData*>& l0 = vstorage.LevelFiles(0);
  if (!L0HoldsASplitFlush(l0)) {
    return stock_count;
  }
  return L0MemtablesWorth(TotalFileSize(l0), moptions.write_buffer_size);
}

L0DebtTerm VlsmLayoutRules::L0Debt(const VersionStorageInfo& vstorage,
                                   const MutableCFOptions& moptions) const {
  // Stock's test and sums, as EstimateCompactionBytesNeeded had them.
  const std::vector<FileMetaData*>& l0 = vstorage.LevelFiles(0);
  const uint64_t l0_bytes = TotalFileSize(l0);
  if (static_cast<int>(l0.size()) <
          moptions.level0_file_num_compaction_trigger &&
      l0_bytes < moptions.max_bytes_for_level_base) {
    return {};
  }
  const int base = BaseLevelOf(vstorage);
  return {l0_bytes, base >= 0 ? vstorage.NumLevelBytes(base) : 0};
}

int VlsmLayoutRules::L0Trigger(const VersionStorageInfo& /*vstorage*/,
                               const MutableCFOptions& moptions) const {
  return moptions.level0_file_num_compaction_trigger;
}

int VlsmRangedDepthTriggerOf(const VersionStorageInfo& vstorage,
                             const MutableCFOptions& moptions) {
  return RangedDepthTrigger(
      moptions.level0_file_num_compaction_trigger,
      vstorage.num_levels() > 1 ? vstorage.NumLevelBytes(1) : 0,
      moptions.write_buffer_size);
}

RangedL0Triggers RangedL0TriggersOf(const VersionStorageInfo& vstorage,
                                    const MutableCFOptions& moptions) {
  RangedL0Triggers t;
  t.depth = VlsmRangedDepthTriggerOf(vstorage, moptions);
  // The most L0 may hold before Flush() waits (see the header).
  const uint64_t flush_waits_above =
      static_cast<uint64_t>(
          std::max(moptions.level0_slowdown_writes_trigger - 2, 1)) *
      std::max<uint64_t>(moptions.write_buffer_size, 1);
  t.byte_target =
      std::min<uint64_t>(moptions.max_bytes_for_level_base, flush_waits_above);
  return t;
}

double RangedL0ScoreOf(const VersionStorageInfo& vstorage,
                       const MutableCFOptions& moptions) {
  return VlsmL0ModelOf(vstorage)->ScoreNow(
      RangedL0TriggersOf(vstorage, moptions));
}

const VlsmLayoutRules& VlsmLayoutRulesOf(VlsmLayout layout) {
  // Never destroyed: a background thread may ask after main returns.
  static const VlsmLayoutRules* const kStock = new VlsmLayoutRules();
  static const VlsmLayoutRules* const kPaper = new PaperRules();
  static const VlsmLayoutRules* const kRanged = new RangedRules();
  switch (layout) {
    case VlsmLayout::kSingleFile:
      return *kPaper;
    case VlsmLayout::kRanged:
      return *kRanged;
    case VlsmLayout::kStock:
      break;
  }
  return *kStock;
}

}  // namespace ROCKSDB_NAMESPACE
