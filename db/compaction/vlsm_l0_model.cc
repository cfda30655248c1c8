#include "db/compaction/vlsm_l0_model.h"

#include <algorithm>

#include "db/version_set.h"

namespace ROCKSDB_NAMESPACE {

VlsmL0Model::VlsmL0Model(const std::vector<FileMetaData*>& l0,
                         const Comparator* ucmp)
    : files_(l0.begin(), l0.end()), spans_(SpansOf(l0)) {
  for (KeySpan& s : spans_) {
    s.busy = false;
    bytes_ += s.bytes;
  }
  ends_ = SortedL0Ends(spans_, ucmp, /*count_busy=*/true);
  depth_ = MaxDepth(spans_, ucmp, /*count_busy=*/true, &ends_);
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
  if (!IsVlsmLayout(layout)) {
    return nullptr;
  }
  return std::make_shared<const VlsmL0Model>(vstorage.LevelFiles(0),
                                             vstorage.user_comparator());
}

}  // namespace ROCKSDB_NAMESPACE
