// The compaction layout a column family runs, as every decision of the fork
// asks it: stock leveled compaction, the paper's layout (one L0 file at a
// time) or the ranged layout (flushes split at guards, L0 compacted one key
// range at a time).
//
// A layout is chosen with compaction_pri (kVlsm, kVlsmRanged), which a live
// SetOptions may switch (patch 0003). The value is derived once per
// MutableCFOptions, in RefreshDerivedOptions (patch 0016), which every
// construction and every SetOptions runs; code that asks "is this ranged"
// reads MutableCFOptions::vlsm_layout and never compares priorities itself.
#pragma once

#include "rocksdb/advanced_options.h"

namespace ROCKSDB_NAMESPACE {

enum class VlsmLayout : unsigned char {
  kStock,       // any other compaction_pri: upstream's leveled compaction
  kSingleFile,  // kVlsm: L0 is a queue, the oldest file compacts alone
  kRanged,      // kVlsmRanged: split flushes, L0 compacted range by range
};

constexpr VlsmLayout VlsmLayoutOf(CompactionPri pri) {
  return pri == kVlsm         ? VlsmLayout::kSingleFile
         : pri == kVlsmRanged ? VlsmLayout::kRanged
                              : VlsmLayout::kStock;
}

// Either vLSM layout: vSSTs in L1, no intra-L0 compaction, the L0 order rule.
constexpr bool IsVlsmLayout(VlsmLayout layout) {
  return layout != VlsmLayout::kStock;
}

}  // namespace ROCKSDB_NAMESPACE
