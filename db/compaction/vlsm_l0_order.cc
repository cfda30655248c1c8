#include "db/compaction/vlsm_l0_order.h"

#include <cassert>
#include <string>
#include <unordered_set>

#include "db/compaction/compaction.h"
#include "db/compaction/vlsm_l0_ranges.h"
#include "db/compaction/vlsm_layout_rules.h"
#include "db/version_edit.h"
#include "options/cf_options.h"
#include "options/compaction_pri_name.h"
#include "options/vlsm_layout.h"
#include "rocksdb/env.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// An L0 file that is not in `taken` but shares an epoch with one that is;
// null if none. (Epoch 0 is unknown, as in DBs from before epochs.)
const FileMetaData* L0FileOfATakenEpochLeftBehind(
    const std::vector<FileMetaData*>& taken,
    const std::vector<FileMetaData*>& l0) {
  const std::unordered_set<const FileMetaData*> in(taken.begin(), taken.end());
  std::unordered_set<uint64_t> epochs;
  for (const FileMetaData* f : taken) {
    if (f->epoch_number != kUnknownEpochNumber) {
      epochs.insert(f->epoch_number);
    }
  }
  for (const FileMetaData* f : l0) {
    if (in.count(f) == 0 && epochs.count(f->epoch_number) != 0) {
      return f;
    }
  }
  return nullptr;
}

std::string FileNumbers(const std::vector<FileMetaData*>& files) {
  std::string out;
  for (const FileMetaData* f : files) {
    out += (out.empty() ? "#" : ", #") + std::to_string(f->fd.GetNumber());
  }
  return out;
}

}  // namespace

Status VlsmCheckL0Order(VlsmLayout layout,
                        const std::vector<CompactionInputFiles>& inputs,
                        int output_level,
                        const std::vector<FileMetaData*>& l0_newest_first,
                        bool automatic, const Comparator* ucmp) {
  const CompactionInputFiles* l0_inputs = nullptr;
  for (const CompactionInputFiles& in : inputs) {
    if (in.level == 0 && !in.empty()) {
      l0_inputs = &in;
    }
  }
  if (l0_inputs == nullptr) {
    return Status::OK();
  }
  auto taken = [l0_inputs] {
    return "L0 file(s) " + FileNumbers(l0_inputs->files);
  };
  if (output_level == 0) {
    const FileMetaData* left =
        L0FileOfATakenEpochLeftBehind(l0_inputs->files, l0_newest_first);
    if (left != nullptr) {
      return Status::InvalidArgument(
          "a compaction into L0 takes " + taken() + " but not L0 file #" +
          std::to_string(left->fd.GetNumber()) + " of the same epoch (" +
          std::to_string(left->epoch_number) +
          "; the pieces of one split flush): take all of them or none");
    }
  }
  if (!IsVlsmLayout(layout)) {
    return Status::OK();
  }
  // Named only when a rule is broken: this runs at every registration.
  auto rule = [layout] {
    return "compaction_pri=" + CompactionPriName(CompactionPriOf(layout));
  };
  if (output_level == 0) {
    return Status::InvalidArgument(rule() + " never compacts L0 into L0 (" +
                                   taken() + "): compact into L1 instead");
  }
  // The paper's layout is a queue; the ranged layout's picks are any range
  // closed over older overlapping files, which the walk below checks.
  if (automatic && VlsmLayoutRulesOf(layout).L0IsAQueue() &&
      (l0_inputs->size() != 1 || l0_newest_first.empty() ||
       l0_inputs->files[0] != l0_newest_first.back())) {
    return Status::InvalidArgument(
        rule() +
        ": an automatic compaction takes exactly the "
        "oldest L0 file (" +
        (l0_newest_first.empty() ? std::string("none")
                                 : FileNumbers({l0_newest_first.back()})) +
        "), not " + taken());
  }
  // Walk L0 from the oldest file up: an input is out of order if an older
  // file that overlaps it stays in L0.
  const std::unordered_set<const FileMetaData*> in_set(l0_inputs->files.begin(),
                                                       l0_inputs->files.end());
  std::vector<const FileMetaData*> older_left_behind;
  for (auto it = l0_newest_first.rbegin(); it != l0_newest_first.rend(); ++it) {
    const FileMetaData* f = *it;
    if (in_set.count(f) == 0) {
      older_left_behind.push_back(f);
      continue;
    }
    for (const FileMetaData* older : older_left_behind) {
      if (SpansOverlap(SpanOf(*f), SpanOf(*older), ucmp)) {
        return Status::InvalidArgument(
            rule() + ": the compaction takes L0 file #" +
            std::to_string(f->fd.GetNumber()) + " but not the older L0 file #" +
            std::to_string(older->fd.GetNumber()) +
            " whose key range overlaps it; reads would then find the older "
            "versions first");
      }
    }
  }
  return Status::OK();
}

Status VlsmCheckL0Order(const Compaction& c) {
  if (c.compaction_reason() == CompactionReason::kExternalSstIngestion) {
    return Status::OK();
  }
  std::vector<CompactionInputFiles> inputs(c.num_input_levels());
  for (size_t i = 0; i < inputs.size(); ++i) {
    inputs[i].level = c.level(i);
    inputs[i].files = *c.inputs(i);
  }
  return VlsmCheckL0Order(c.mutable_cf_options()->vlsm_layout, inputs,
                          c.output_level(), c.input_vstorage()->LevelFiles(0),
                          !c.is_manual_compaction(),
                          c.immutable_options()->user_comparator);
}

bool VlsmAdmitCompaction(Compaction* c, Logger* logger) {
  const Status order = VlsmCheckL0Order(*c);
  if (order.ok()) {
    return true;
  }
  // Log, not ROCKS_LOG_ERROR: that macro cuts upstream's source directory off
  // __FILE__ by its length, past the end of a shorter path outside it.
  Log(InfoLogLevel::ERROR_LEVEL, logger, "Refused compaction: %s",
      order.ToString().c_str());
  // Only the vLSM layouts' picks keep every rule by construction.
  assert(!IsVlsmLayout(c->mutable_cf_options()->vlsm_layout));
  c->MarkFilesBeingCompacted(false);
  return false;
}

}  // namespace ROCKSDB_NAMESPACE
