#include "db/compaction/vlsm_l1_guard_cuts.h"

#include <algorithm>
#include <utility>

#include "db/compaction/compaction.h"
#include "db/compaction/vsst_cut_policy.h"
#include "db/version_set.h"
#include "db/compaction/vlsm_flush_split_keys.h"
#include "db/compaction/vlsm_layout_rules.h"
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
  // last key written is at or below the key to come. This runs for every
  // key of every compaction into L1, and the keys of one output arrive
  // ascending, so next_ (the first guard above the last key seen) only
  // moves forward: three comparisons a key, not a search. A caller that goes
  // back (none does) gets a search.
  auto less = [this](const Slice& a, const Slice& b) {
    return ucmp_->CompareWithoutTimestamp(a, b) < 0;
  };
  const Slice& prev = *request.prev_user_key;
  if (next_ > 0 && less(prev, guards_[next_ - 1])) {
    next_ = std::upper_bound(guards_.begin(), guards_.end(), prev,
                             [&](const Slice& key, const std::string& guard) {
                               return less(key, guard);
                             }) -
            guards_.begin();
  }
  while (next_ < guards_.size() && !less(prev, guards_[next_])) {
    ++next_;
  }
  if (next_ < guards_.size() &&
      !less(*request.current_user_key, guards_[next_])) {
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
  if (!VlsmLayoutRulesOf(moptions.vlsm_layout).CutsL1AtL0Guards() ||
      ioptions.compaction_style != kCompactionStyleLevel ||
      c.output_level() != kVlsmVsstLevel || c.input_version() == nullptr ||
      ioptions.user_comparator->timestamp_size() > 0) {
    return user;
  }
  std::vector<std::string> guards =
      VlsmL0GuardsOf(moptions, *c.input_version()->storage_info());
  if (guards.empty()) {
    return user;
  }
  return std::make_unique<L0GuardPartitioner>(
      std::move(guards), ioptions.user_comparator, std::move(user));
}

}  // namespace ROCKSDB_NAMESPACE
