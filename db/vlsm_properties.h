// The DB properties of L0 that vLSM's ranged layout compacts and stalls on
// (VlsmProperties in include/rocksdb/vlsm.h). Patch 0012 adds them to
// InternalStats' property table; each handler there is one call to
// VlsmL0PropertyValue, under the DB mutex, as every int property's is.
#pragma once

#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class VersionStorageInfo;
struct MutableCFOptions;

enum class VlsmL0Figure {
  kDepth,
  kBytes,
  kStallCount,
  kDepthTrigger,
  kSublevels,
  // Not of L0: VlsmLivenessBreaks (db/vlsm_write_stalls.h), process-wide.
  kLivenessBreaks
};

// One figure of the column family's current version, as VlsmProperties
// describes it.
uint64_t VlsmL0PropertyValue(VlsmL0Figure figure,
                             const VersionStorageInfo& vstorage,
                             const MutableCFOptions& moptions);

}  // namespace ROCKSDB_NAMESPACE
