#include "db/compaction/vsst_cut_policy.h"

#include <algorithm>
#include <limits>

namespace ROCKSDB_NAMESPACE {

VsstCutPolicy::VsstCutPolicy(uint64_t max_file_size, uint64_t growth,
                             bool align_with_l2)
    : max_file_size_(std::max<uint64_t>(max_file_size, 1)),
      min_file_size_(std::max<uint64_t>(
          max_file_size_ / std::max<uint64_t>(growth, 1), 1)),
      // Saturate rather than wrap for absurd inputs (options are validated,
      // but this type must never misbehave on its own).
      overlap_bound_(growth != 0 && max_file_size_ >
                                        std::numeric_limits<uint64_t>::max() /
                                            growth
                         ? std::numeric_limits<uint64_t>::max()
                         : max_file_size_ * growth),
      align_with_l2_(align_with_l2) {}

}  // namespace ROCKSDB_NAMESPACE
