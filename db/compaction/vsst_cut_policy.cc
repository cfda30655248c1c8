#include "db/compaction/vsst_cut_policy.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "db/compaction/compaction.h"
#include "db/compaction/vlsm_layout_rules.h"
#include "options/cf_options.h"

namespace ROCKSDB_NAMESPACE {

VsstCutPolicy::VsstCutPolicy(uint64_t max_file_size, uint64_t growth,
                             bool align_with_l2)
    : max_file_size_(std::max<uint64_t>(max_file_size, 1)),
      min_file_size_(std::max<uint64_t>(
          max_file_size_ / std::max<uint64_t>(growth, 1), 1)),
      // Saturate rather than wrap for absurd inputs (options are validated,
      // but this type must never misbehave on its own).
      overlap_bound_(growth != 0 &&
                             max_file_size_ >
                                 std::numeric_limits<uint64_t>::max() / growth
                         ? std::numeric_limits<uint64_t>::max()
                         : max_file_size_ * growth),
      align_with_l2_(align_with_l2) {}

namespace {
// S_M and f of any column family's options, as the cut rule takes them.
VsstCutPolicy VsstCutPolicyFromSizes(uint64_t target_file_size_base,
                                     double max_bytes_for_level_multiplier,
                                     bool align_with_l2 = false) {
  // f as a whole number (both vLSM layouts refuse a fraction:
  // CheckVlsmOptions); a stock DB's fraction rounds down here, for every
  // user alike.
  const double f = max_bytes_for_level_multiplier;
  const uint64_t growth =
      std::isfinite(f) && f >= 1 && f < 1e18 ? static_cast<uint64_t>(f) : 1;
  return VsstCutPolicy(target_file_size_base, growth, align_with_l2);
}
}  // namespace

uint64_t VsstOverlapBoundOf(uint64_t target_file_size_base,
                            double max_bytes_for_level_multiplier) {
  return VsstCutPolicyFromSizes(target_file_size_base,
                                max_bytes_for_level_multiplier)
      .overlap_bound();
}

VsstCutPolicy VsstCutPolicyFor(const MutableCFOptions& mutable_cf_options) {
  // The ranged layout aligns L1's files with L2's (vsst_cut_policy.h); the
  // paper's layout keeps its two rules.
  return VsstCutPolicyFromSizes(
      mutable_cf_options.target_file_size_base,
      mutable_cf_options.max_bytes_for_level_multiplier,
      VlsmLayoutRulesOf(mutable_cf_options.vlsm_layout).AlignsL1WithL2());
}

std::optional<VsstCutPolicy> VsstOutputCutPolicy(const Compaction& c,
                                                 bool is_penultimate_level) {
  if (!IsVlsmLayout(c.mutable_cf_options()->vlsm_layout) ||
      is_penultimate_level || c.output_level() != kVlsmVsstLevel) {
    return std::nullopt;
  }
  return VsstCutPolicyFor(*c.mutable_cf_options());
}

}  // namespace ROCKSDB_NAMESPACE
