#include "db/vlsm_properties.h"

#include "db/compaction/vlsm_l0_model.h"
#include "db/compaction/vlsm_layout_rules.h"
#include "db/version_set.h"
#include "db/vlsm_write_stalls.h"
#include "options/cf_options.h"
#include "rocksdb/vlsm.h"

namespace ROCKSDB_NAMESPACE {

uint64_t VlsmL0PropertyValue(VlsmL0Figure figure,
                             const VersionStorageInfo& vstorage,
                             const MutableCFOptions& moptions) {
  switch (figure) {
    case VlsmL0Figure::kDepth:
      // Files being compacted count: they are still searched by reads.
      return static_cast<uint64_t>(VlsmL0ModelOf(vstorage)->depth());
    case VlsmL0Figure::kBytes:
      return vstorage.NumLevelBytes(0);
    case VlsmL0Figure::kStallCount:
      // Set with the version (VlsmL0StallCount, patch 0004): the count the
      // write controller used for it.
      return static_cast<uint64_t>(vstorage.l0_delay_trigger_count());
    case VlsmL0Figure::kDepthTrigger:
      return static_cast<uint64_t>(VlsmLayoutRulesOf(moptions.vlsm_layout)
                                       .L0Trigger(vstorage, moptions));
    case VlsmL0Figure::kSublevels:
      return static_cast<uint64_t>(VlsmL0ModelOf(vstorage)->SublevelCount());
    case VlsmL0Figure::kLivenessBreaks:
      return VlsmLivenessBreaks();
  }
  return 0;
}

}  // namespace ROCKSDB_NAMESPACE
