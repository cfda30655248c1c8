#include "db/compaction/vlsm_l0_model.h"

#include <algorithm>

#include "db/version_set.h"

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
  if (!with_sublevels) {
    return;
  }
  const std::vector<int> sublevel = AssignL0Sublevels(spans_, ucmp);
  assert(L0SublevelsKeepEpochOrder(spans_, sublevel, ucmp));
  const int count = L0SublevelCount(sublevel);
  // Each sublevel's files in key order: disjoint in user keys, so ordering
  // by smallest user key orders them as a level is (FindFileInRange).
  std::vector<std::vector<FileMetaData*>> runs(count);
  for (size_t i = 0; i < l0.size(); ++i) {
    runs[sublevel[i]].push_back(l0[i]);
  }
  const UserKeyLess less{ucmp};
  sublevels_ = std::make_unique<VlsmL0Sublevels>();
  sublevels_->newest_first.resize(count);
  for (int s = 0; s < count; ++s) {
    std::vector<FileMetaData*>& run = runs[s];
    std::sort(run.begin(), run.end(),
              [&](const FileMetaData* a, const FileMetaData* b) {
                return less(a->smallest.user_key(), b->smallest.user_key());
              });
    DoGenerateLevelFilesBrief(&sublevels_->newest_first[count - 1 - s], run,
                              &arena_);
  }
  sublevels_->oldest_file = l0.empty() ? nullptr : l0.back();
}

int VlsmL0Model::SublevelCount() const {
  if (sublevels_ != nullptr) {
    return static_cast<int>(sublevels_->newest_first.size());
  }
  return L0SublevelCount(AssignL0Sublevels(spans_, ucmp_));
}

std::vector<KeySpan> VlsmL0Model::SpansNow(
    const std::vector<FileMetaData*>& l0) const {
  std::vector<KeySpan> spans = spans_;
  for (size_t i = 0; i < spans.size(); ++i) {
    spans[i].busy = l0[i]->being_compacted;
  }
  return spans;
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

std::shared_ptr<const VlsmL0Model> BuildVlsmL0Model(
    const VersionStorageInfo& vstorage, VlsmLayout layout) {
  const bool with_sublevels = VlsmBuildsL0Sublevels(layout);
  if (!IsVlsmLayout(layout) && !with_sublevels) {
    return nullptr;
  }
  return std::make_shared<const VlsmL0Model>(
      vstorage.LevelFiles(0), vstorage.user_comparator(), with_sublevels);
}

}  // namespace ROCKSDB_NAMESPACE
