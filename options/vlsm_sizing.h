// CheckVlsmSizing: is (S_M, f, Phi), with the sizes VlsmOptions may set
// and this num_levels, a tree ConfigureVlsm can build? The input check of
// ConfigureVlsm(), kept apart from CheckVlsmOptions() (rocksdb/vlsm.h),
// which judges finished ColumnFamilyOptions.
//
// A message names the parameters it is about through a VlsmParameterNamer
// supplied by the caller, so each caller says them the way its user typed
// them: ConfigureVlsm() as the VlsmOptions fields ("growth (f)"),
// db_bench_vlsm as its flags ("--vlsm_growth (f)"). Nobody rewrites another
// caller's text.
#pragma once

#include <string>

#include "rocksdb/status.h"
#include "rocksdb/vlsm.h"

namespace ROCKSDB_NAMESPACE {

enum class VlsmParameter {
  kSstSize,
  kGrowth,
  kL1L2Growth,
  kNumLevels,
  kRangedL0Depth,
  kL0Layout,
  kMemtableSize,
  kMemtableCount,
  kL1Size,
  kSoftPendingCompactionBytesLimit,
  kHardPendingCompactionBytesLimit,
  kRangedSlowdownTrigger,
  kRangedStopTrigger
};

using VlsmParameterNamer = std::string (*)(VlsmParameter);

// "sst_size (S_M)", "growth (f)", "l1_l2_growth (Phi)", "num_levels", and
// the other VlsmOptions fields by their names ("l1_size (L1)").
std::string VlsmOptionsFieldName(VlsmParameter parameter);

// OK, or InvalidArgument stating the first rule broken, in `name`'s words.
Status CheckVlsmSizing(const VlsmOptions& vlsm, int num_levels,
                       VlsmParameterNamer name);

}  // namespace ROCKSDB_NAMESPACE
