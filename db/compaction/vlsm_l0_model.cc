#include "db/compaction/vlsm_l0_model.h"

#include <algorithm>

#include "db/compaction/vlsm_layout_rules.h"
#include "db/compaction/vlsm_picker.h"
#include "db/version_set.h"
#include "options/cf_options.h"

namespace ROCKSDB_NAMESPACE {

VlsmL0Model::VlsmL0Model(const std::vector<FileMetaData*>& l0,
                         const Comparator* ucmp, bool with_sublevels)
    : ucmp_(ucmp), files_(l0.begin(), l0.end()), spans_(SpansOf(l0)) {
  for (KeySpan& s : spans_) {
    s.busy = false;
    bytes_ += s.bytes;
  }
  ends_ = SortedL0Ends(spans_, ucmp, /*count_busy=*/true);
  depth_ = MaxDepth(spans_, ucmp, /*count_busy=*/true, &ends_);
  if (with_sublevels) {
    sublevels_ = BuildVlsmL0Sublevels(l0, spans_, ucmp, &arena_);
  }
}

int VlsmL0Model::SublevelCount() const {
  if (sublevels_ != nullptr) {
    return static_cast<int>(sublevels_->newest_first.size());
  }
  return L0SublevelCount(AssignL0Sublevels(spans_, ucmp_));
}

std::vector<KeySpan> VlsmL0Model::SpansNow() const {
  std::vector<KeySpan> spans = spans_;
  for (size_t i = 0; i < spans.size(); ++i) {
    spans[i].busy = files_[i]->being_compacted;
  }
  return spans;
}

namespace {

bool AnyBusy(const std::vector<const FileMetaData*>& files) {
  return std::any_of(files.begin(), files.end(), [](const FileMetaData* f) {
    return f->being_compacted;
  });
}

bool SameFiles(const std::vector<const FileMetaData*>& kept,
               const std::vector<FileMetaData*>& files) {
  return kept.size() == files.size() &&
         std::equal(kept.begin(), kept.end(), files.begin());
}

}  // namespace

void VlsmL0Model::KeepDebtAtRest(const std::vector<FileMetaData*>& below,
                                 const RangedL0Triggers& triggers) {
  below_.assign(below.begin(), below.end());
  debt_at_rest_ = std::make_unique<const L0DebtAtRest>(
      RangedL0DebtAtRest(spans_, SpansOf(below), ucmp_, triggers, &ends_));
}

double VlsmL0Model::ScoreNow(const RangedL0Triggers& triggers) const {
  if (!AnyBusy(files_)) {
    // Every file counts: the shape kept, no sweep.
    return RangedL0ScoreOfShape(depth_, bytes_, triggers);
  }
  return RangedL0Score(SpansNow(), ucmp_, triggers, &ends_);
}

bool VlsmL0Model::DebtAtRestAnswers(const std::vector<FileMetaData*>& below,
                                    const RangedL0Triggers& triggers) const {
  if (debt_at_rest_ == nullptr || !(debt_at_rest_->triggers == triggers) ||
      !SameFiles(below_, below)) {
    return false;
  }
  // A busy file already owed adds nothing (vlsm_l0_due.h).
  for (size_t i = 0; i < files_.size(); ++i) {
    if (files_[i]->being_compacted && !debt_at_rest_->owed[i]) {
      return false;
    }
  }
  return true;
}

L0DebtTerm VlsmL0Model::DebtNow(const std::vector<FileMetaData*>& below,
                                const RangedL0Triggers& triggers) const {
  if (DebtAtRestAnswers(below, triggers)) {
    return debt_at_rest_->term;
  }
  return RangedL0Debt(SpansNow(), SpansOf(below), ucmp_, triggers, &ends_);
}

bool VlsmL0Model::Describes(const std::vector<FileMetaData*>& l0) const {
  if (l0.size() != files_.size()) {
    return false;
  }
  for (size_t i = 0; i < l0.size(); ++i) {
    if (l0[i] != files_[i]) {
      return false;
    }
  }
  return true;
}

std::shared_ptr<const VlsmL0Model> VlsmL0ModelOf(
    const VersionStorageInfo& vstorage) {
  const std::vector<FileMetaData*>& l0 = vstorage.LevelFiles(0);
  std::shared_ptr<const VlsmL0Model> kept = vstorage.vlsm_l0_model();
  if (kept != nullptr && kept->Describes(l0)) {
    return kept;
  }
  return std::make_shared<const VlsmL0Model>(l0, vstorage.user_comparator());
}

VlsmL0Now::VlsmL0Now(const VersionStorageInfo& vstorage)
    : model_(VlsmL0ModelOf(vstorage)),
      ucmp_(vstorage.user_comparator()),
      spans_(model_->SpansNow()) {}

std::vector<std::vector<size_t>> VlsmL0Now::DueSeeds(
    const RangedL0Triggers& triggers) const {
  return DueL0Seeds(spans_, ucmp_, triggers, /*count_busy=*/false,
                    &model_->ends());
}

std::vector<std::string> VlsmL0Now::FlushCuts(
    const std::vector<KeySpan>& below, const FlushSplitLimits& limits) const {
  return FlushSplitKeys(spans_, below, ucmp_, limits);
}

std::vector<std::string> VlsmL0Now::GuardKeys(const std::vector<KeySpan>& below,
                                              uint64_t min_piece_bytes) const {
  return L0GuardKeys(spans_, below, ucmp_, min_piece_bytes);
}

std::shared_ptr<const VlsmL0Model> BuildVlsmL0Model(
    const VersionStorageInfo& vstorage, const MutableCFOptions& moptions) {
  const VlsmLayout layout = moptions.vlsm_layout;
  const bool with_sublevels = VlsmBuildsL0Sublevels(layout);
  if (!IsVlsmLayout(layout) && !with_sublevels) {
    return nullptr;
  }
  auto model = std::make_shared<VlsmL0Model>(
      vstorage.LevelFiles(0), vstorage.user_comparator(), with_sublevels);
  const int base = vstorage.base_level();
  if (VlsmLayoutRulesOf(layout).OwesL0ByRange() &&
      !vstorage.LevelFiles(0).empty() &&
      base >= 1 && base < vstorage.num_levels()) {
    model->KeepDebtAtRest(vstorage.LevelFiles(base),
                          RangedL0TriggersOf(vstorage, moptions));
  }
  return model;
}

bool VlsmBuildsL0Sublevels(VlsmLayout layout) {
  // Under kVlsmRanged always, even while kFiles is forced: a test then reads
  // one version both ways.
  return VlsmLayoutRulesOf(layout).ReadsL0AsSublevels() ||
         VlsmL0ReadPathForTest() == VlsmL0ReadPath::kSublevels;
}

const VlsmL0Sublevels* VlsmL0SublevelsForReads(
    const VersionStorageInfo& vstorage) {
  const std::shared_ptr<const VlsmL0Model>& model = vstorage.vlsm_l0_model();
  if (model == nullptr || model->sublevels() == nullptr ||
      VlsmL0ReadPathForTest() == VlsmL0ReadPath::kFiles) {
    return nullptr;
  }
  return model->sublevels();
}

}  // namespace ROCKSDB_NAMESPACE
