// Live switches of compaction_pri (SetOptions on an open column family, made
// possible by patch 0003): which moves are allowed, checked where
// ColumnFamilyData::SetOptions takes the new options.
#pragma once

#include "rocksdb/advanced_options.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

// A live switch of compaction_pri (SetOptions on an open column family, made
// possible by patch 0003): OK when the value stays, or when it moves among
// kVlsm, kVlsmRanged and the column family's home priority, the stock
// priority it opened with (kMinOverlappingRatio if it opened with a vLSM
// layout). Every such move keeps the L0 order rule: each of the three takes
// every older overlapping L0 file along (kVlsm by taking the oldest).
// InvalidArgument naming both priorities otherwise: upstream never switched a
// live column family between its own priorities (compaction_pri was
// immutable), and only these pairs are tested here (kRoundRobin, say, keeps
// compaction cursors).
Status CheckLiveCompactionPriSwitch(CompactionPri opened, CompactionPri from,
                                    CompactionPri to);

// The stock priority a column family that opened with `opened` switches to
// and from the vLSM layouts: `opened` itself, or kMinOverlappingRatio for a
// vLSM layout.
CompactionPri LiveSwitchHome(CompactionPri opened);

}  // namespace ROCKSDB_NAMESPACE
