// ConfigureVlsm(): the public one-call setup of include/rocksdb/vlsm.h.
#include <string>
#include <vector>

#include "db/compaction/vlsm_picker.h"
#include "rocksdb/vlsm.h"

namespace ROCKSDB_NAMESPACE {

namespace {

Status CheckVlsmParameters(const VlsmOptions& vlsm, int num_levels) {
  if (vlsm.sst_size == 0) {
    return Status::InvalidArgument("vLSM sst_size (S_M) must be > 0");
  }
  if (vlsm.growth < 2) {
    return Status::InvalidArgument("vLSM growth (f) must be >= 2, got " +
                                   std::to_string(vlsm.growth));
  }
  if (vlsm.l1_l2_growth < vlsm.growth || vlsm.l1_l2_growth % vlsm.growth != 0) {
    return Status::InvalidArgument(
        "vLSM l1_l2_growth (Phi) must be a positive multiple of growth (f): "
        "Phi = " + std::to_string(vlsm.l1_l2_growth) +
        ", f = " + std::to_string(vlsm.growth));
  }
  // L1 = f * S_M and L2 = Phi * L1 must fit in 64 bits.
  const uint64_t kMax = ~uint64_t{0};
  const uint64_t f = static_cast<uint64_t>(vlsm.growth);
  const uint64_t phi = static_cast<uint64_t>(vlsm.l1_l2_growth);
  if (vlsm.sst_size > kMax / (f + 2) || vlsm.sst_size * f > kMax / phi) {
    return Status::InvalidArgument("vLSM sst_size (S_M) is too large: " +
                                   std::to_string(vlsm.sst_size));
  }
  if (num_levels < 3) {
    return Status::InvalidArgument(
        "vLSM needs num_levels >= 3 (L0, the vSST level L1 and L2), got " +
        std::to_string(num_levels));
  }
  return Status::OK();
}

}  // namespace

Status ConfigureVlsm(ColumnFamilyOptions* cf_options, const VlsmOptions& vlsm) {
  if (cf_options == nullptr) {
    return Status::InvalidArgument("ConfigureVlsm: cf_options is null");
  }
  Status s = CheckVlsmParameters(vlsm, cf_options->num_levels);
  if (!s.ok()) {
    return s;
  }
  const uint64_t f = static_cast<uint64_t>(vlsm.growth);
  ColumnFamilyOptions o = *cf_options;  // committed only if all is well
  o.compaction_style = kCompactionStyleLevel;
  o.compaction_pri = kVlsm;
  o.target_file_size_base = vlsm.sst_size;
  o.target_file_size_multiplier = 1;
  o.write_buffer_size = static_cast<size_t>(vlsm.sst_size);
  o.max_write_buffer_number = 2;
  o.max_bytes_for_level_base = f * vlsm.sst_size;
  o.max_bytes_for_level_multiplier = static_cast<double>(vlsm.growth);
  o.max_bytes_for_level_multiplier_additional.assign(
      static_cast<size_t>(o.num_levels), 1);
  // additional[1] scales L2 relative to L1 (on top of f).
  o.max_bytes_for_level_multiplier_additional[1] =
      vlsm.l1_l2_growth / vlsm.growth;
  o.level_compaction_dynamic_level_bytes = false;
  o.level0_file_num_compaction_trigger = 1;
  o.max_compaction_bytes = (f + 2) * vlsm.sst_size;
  s = ValidateVlsmOptions(o);
  if (s.ok()) {
    *cf_options = o;
  }
  return s;
}

Status CheckVlsmOptions(const ColumnFamilyOptions& cf_options) {
  return ValidateVlsmOptions(cf_options);
}

}  // namespace ROCKSDB_NAMESPACE
