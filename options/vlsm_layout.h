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
//
// The public API names the same layouts twice, because it has two doors:
// compaction_pri (kVlsm, kVlsmRanged), which options strings and upstream's
// options system carry, and VlsmL0Layout (rocksdb/vlsm.h), which
// ConfigureVlsm takes and which has no "stock" (ConfigureVlsm always turns a
// vLSM layout on). This enum is the one the fork decides with; the three
// conversions below are the only places the three spellings meet.
#pragma once

#include "rocksdb/advanced_options.h"
#include "rocksdb/vlsm.h"

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

constexpr VlsmLayout VlsmLayoutOf(VlsmL0Layout l0_layout) {
  return l0_layout == VlsmL0Layout::kRanged ? VlsmLayout::kRanged
                                            : VlsmLayout::kSingleFile;
}

// The compaction_pri that selects a layout (kVlsm, kVlsmRanged; stock's is
// the caller's own, so it has none: kMinOverlappingRatio, upstream's default,
// stands for it).
constexpr CompactionPri CompactionPriOf(VlsmLayout layout) {
  return layout == VlsmLayout::kSingleFile ? kVlsm
         : layout == VlsmLayout::kRanged   ? kVlsmRanged
                                           : kMinOverlappingRatio;
}

// Either vLSM layout: vSSTs in L1, no intra-L0 compaction, the L0 order rule.
constexpr bool IsVlsmLayout(VlsmLayout layout) {
  return layout != VlsmLayout::kStock;
}

}  // namespace ROCKSDB_NAMESPACE
