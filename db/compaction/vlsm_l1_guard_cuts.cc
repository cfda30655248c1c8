#include "db/compaction/vlsm_l1_guard_cuts.h"

#include <algorithm>
#include <utility>

#include "db/compaction/compaction.h"
#include "db/compaction/vlsm_picker.h"
#include "db/version_set.h"
#include "db/vlsm_flush_split.h"
#include "rocksdb/comparator.h"

namespace ROCKSDB_NAMESPACE {

L0GuardPartitioner::L0GuardPartitioner(std::vector<std::string> guards,
                                       const Comparator* ucmp,
                                       std::unique_ptr<SstPartitioner> user)
    : guards_(std::move(guards)), ucmp_(ucmp), user_(std::move(user)) {}

PartitionerResult L0GuardPartitioner::ShouldPartition(
    const PartitionerRequest& request) {
  if (user_ && user_->ShouldPartition(request) == kRequired) {
    return kRequired;
  }
  // Cut if a guard g has prev < g <= current: the first guard above the
  // last key written is at or below the key to come.
  const auto above = std::upper_bound(
      guards_.begin(), guards_.end(), *request.prev_user_key,
      [this](const Slice& key, const std::string& guard) {
        return ucmp_->CompareWithoutTimestamp(key, guard) < 0;
      });
  if (above != guards_.end() &&
      ucmp_->CompareWithoutTimestamp(*above, *request.current_user_key) <= 0) {
    return kRequired;
  }
  return kNotRequired;
}

bool L0GuardPartitioner::CanDoTrivialMove(const Slice& smallest_user_key,
                                          const Slice& largest_user_key) {
  // A moved file is not rewritten; see the header.
  return !user_ || user_->CanDoTrivialMove(smallest_user_key, largest_user_key);
}

std::unique_ptr<SstPartitioner> VlsmCutAtL0Guards(
    const Compaction& c, std::unique_ptr<SstPartitioner> user) {
  const ImmutableOptions& ioptions = *c.immutable_options();
  const MutableCFOptions& moptions = *c.mutable_cf_options();
  if (moptions.compaction_pri != kVlsmRanged ||
      ioptions.compaction_style != kCompactionStyleLevel ||
      c.output_level() != kVlsmVsstLevel || c.input_version() == nullptr ||
      ioptions.user_comparator->timestamp_size() > 0) {
    return user;
  }
  std::vector<std::string> guards =
      VlsmL0GuardsOf(moptions, ioptions, *c.input_version()->storage_info());
  if (guards.empty()) {
    return user;
  }
  return std::make_unique<L0GuardPartitioner>(
      std::move(guards), ioptions.user_comparator, std::move(user));
}

}  // namespace ROCKSDB_NAMESPACE
