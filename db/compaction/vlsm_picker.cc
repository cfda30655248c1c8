#include "db/compaction/vlsm_picker.h"

#include <algorithm>
#include <cstdint>

#include "db/compaction/compaction.h"
#include "db/compaction/compaction_picker.h"
#include "db/compaction/sorted_run_overlap.h"
#include "db/version_set.h"
#include "options/cf_options.h"

namespace ROCKSDB_NAMESPACE {

Status ValidateVlsmOptions(const ColumnFamilyOptions& cf_options) {
  if (cf_options.compaction_pri != kVlsm) {
    return Status::OK();
  }
  const char* kHint = " (ConfigureVlsm() in rocksdb/vlsm.h sets every option "
                      "vLSM needs)";
  if (cf_options.compaction_style != kCompactionStyleLevel) {
    return Status::InvalidArgument(
        "compaction_pri=kVlsm needs compaction_style=kCompactionStyleLevel",
        kHint);
  }
  if (cf_options.level_compaction_dynamic_level_bytes) {
    return Status::InvalidArgument(
        "compaction_pri=kVlsm needs level_compaction_dynamic_level_bytes="
        "false: dynamic level sizing ignores "
        "max_bytes_for_level_multiplier_additional, which sets Phi",
        kHint);
  }
  if (cf_options.num_levels < 3) {
    return Status::InvalidArgument(
        "compaction_pri=kVlsm needs num_levels >= 3 (L0, the vSST level L1 "
        "and L2)",
        kHint);
  }
  if (cf_options.max_bytes_for_level_multiplier < 2) {
    return Status::InvalidArgument(
        "compaction_pri=kVlsm needs max_bytes_for_level_multiplier (f) >= 2",
        kHint);
  }
  if (cf_options.target_file_size_base == 0) {
    return Status::InvalidArgument(
        "compaction_pri=kVlsm needs target_file_size_base (S_M) > 0", kHint);
  }
  return Status::OK();
}

VsstCutPolicy VsstCutPolicyFor(const MutableCFOptions& mutable_cf_options) {
  return VsstCutPolicy(
      mutable_cf_options.target_file_size_base,
      static_cast<uint64_t>(mutable_cf_options.max_bytes_for_level_multiplier));
}

std::optional<VsstCutPolicy> VsstCutPolicyForOutputsOf(
    const Compaction& c, bool is_penultimate_level) {
  if (c.mutable_cf_options()->compaction_pri != kVlsm || is_penultimate_level ||
      c.output_level() != kVlsmVsstLevel) {
    return std::nullopt;
  }
  return VsstCutPolicyFor(*c.mutable_cf_options());
}

bool PickOldestL0File(const std::string& cf_name, VersionStorageInfo* vstorage,
                      CompactionPicker* picker, int output_level,
                      int penultimate_level,
                      CompactionInputFiles* start_level_inputs) {
  start_level_inputs->clear();
  start_level_inputs->level = 0;
  const std::vector<FileMetaData*>& l0 = vstorage->LevelFiles(0);
  // One L0 compaction at a time: the head of the queue is either free or
  // already in the one running compaction.
  if (l0.empty() || !picker->level0_compactions_in_progress()->empty()) {
    return false;
  }
  FileMetaData* oldest = l0.back();  // L0 is kept newest first
  if (oldest->being_compacted) {
    return false;
  }
  start_level_inputs->files.push_back(oldest);

  // The L1 files in its range must not be in a running L1 -> L2 compaction,
  // and no running compaction may be writing into that range of L1.
  InternalKey smallest;
  InternalKey largest;
  picker->GetRange(*start_level_inputs, &smallest, &largest);
  CompactionInputFiles l1_inputs;
  l1_inputs.level = output_level;
  vstorage->GetOverlappingInputs(output_level, &smallest, &largest,
                                 &l1_inputs.files);
  if ((!l1_inputs.empty() &&
       !picker->ExpandInputsToCleanCut(cf_name, vstorage, &l1_inputs)) ||
      picker->FilesRangeOverlapWithCompaction({*start_level_inputs},
                                              output_level,
                                              penultimate_level)) {
    start_level_inputs->clear();
    return false;
  }
  return true;
}

void VlsmPutL0Last(int max_input_level, std::vector<double>* scores_by_level) {
  std::vector<double>& score = *scores_by_level;
  const double l0_score = std::max(score[0], 0.0);
  for (int level = 1; level <= max_input_level; ++level) {
    if (score[level] >= 1.0) {
      score[level] += l0_score;  // above L0, same order among themselves
    }
  }
}

std::vector<size_t> OrderL1FilesGoodFirst(
    const InternalKeyComparator& icmp,
    const std::vector<FileMetaData*>& l1_files,
    const std::vector<FileMetaData*>& l2_files, const VsstCutPolicy& policy) {
  struct Candidate {
    size_t index;
    bool good;
    double ratio;
  };
  std::vector<Candidate> candidates;
  candidates.reserve(l1_files.size());

  struct ByInternalKey {
    const InternalKeyComparator& icmp;
    const InternalKey& Smallest(const FileMetaData* f) const { return f->smallest; }
    const InternalKey& Largest(const FileMetaData* f) const { return f->largest; }
    uint64_t Size(const FileMetaData* f) const { return f->fd.GetFileSize(); }
    int Compare(const InternalKey& a, const InternalKey& b) const {
      return icmp.Compare(a, b);
    }
  };
  const std::vector<uint64_t> overlaps =
      OverlapBytesPerFile(l1_files, l2_files, ByInternalKey{icmp});
  for (size_t i = 0; i < l1_files.size(); ++i) {
    const uint64_t size = std::max<uint64_t>(l1_files[i]->fd.GetFileSize(), 1);
    candidates.push_back({i, policy.IsGood(overlaps[i]),
                          static_cast<double>(overlaps[i]) /
                              static_cast<double>(size)});
  }
  // Stable: equal keys keep key order, so ties go to the smaller key.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) {
                     if (a.good != b.good) {
                       return a.good;
                     }
                     return a.ratio < b.ratio;
                   });
  std::vector<size_t> order;
  order.reserve(candidates.size());
  for (const Candidate& c : candidates) {
    order.push_back(c.index);
  }
  return order;
}

}  // namespace ROCKSDB_NAMESPACE
