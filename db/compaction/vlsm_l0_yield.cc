#include "db/compaction/vlsm_l0_yield.h"

#include <algorithm>

#include "db/column_family.h"
#include "db/compaction/compaction.h"
#include "db/compaction/compaction_picker.h"
#include "db/version_edit.h"
#include "db/version_set.h"

namespace ROCKSDB_NAMESPACE {

void VlsmL0Yield::Record(uint64_t l0_read, uint64_t below_read,
                         uint64_t written) {
  if (l0_read == 0) {
    return;
  }
  steps_[next_] = {l0_read, static_cast<int64_t>(written) -
                                static_cast<int64_t>(below_read)};
  next_ = (next_ + 1) % steps_.size();
  count_ = std::min(count_ + 1, steps_.size());
}

double VlsmL0Yield::InflowPerL0Byte() const {
  uint64_t l0_read = 0;
  int64_t added = 0;
  for (size_t i = 0; i < count_; ++i) {
    l0_read += steps_[i].l0_read;
    added += steps_[i].added;
  }
  if (l0_read == 0) {
    return kVlsmL0YieldMax;
  }
  const double yield =
      static_cast<double>(added) / static_cast<double>(l0_read);
  return std::max(kVlsmL0YieldMin, std::min(kVlsmL0YieldMax, yield));
}

void VlsmRecordL0Step(Compaction* c) {
  if (c->start_level() != 0 || c->output_level() == 0) {
    return;
  }
  uint64_t l0_read = 0;
  uint64_t below_read = 0;
  for (size_t i = 0; i < c->num_input_levels(); ++i) {
    (c->level(i) == 0 ? l0_read : below_read) += TotalFileSize(*c->inputs(i));
  }
  uint64_t written = 0;
  for (const auto& level_and_file : c->edit()->GetNewFiles()) {
    written += level_and_file.second.fd.GetFileSize();
  }
  c->column_family_data()->compaction_picker()->vlsm_l0_yield()->Record(
      l0_read, below_read, written);
}

void VlsmHandL0Yield(ColumnFamilyData* cfd, VersionStorageInfo* vstorage) {
  const CompactionPicker* picker = cfd->compaction_picker();
  vstorage->set_vlsm_l0_yield(picker != nullptr
                                  ? picker->vlsm_l0_yield().InflowPerL0Byte()
                                  : kVlsmL0YieldMax);
}

}  // namespace ROCKSDB_NAMESPACE
