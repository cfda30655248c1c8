// Write stalls under the vLSM layouts: what the stall triggers count, L0's
// term of the estimate of pending compaction bytes (which the soft and hard
// limits and the write delay read), and the liveness rule that keeps every
// wait ended by a compaction. Each is reached from upstream by one call
// (patches 0004, 0013, 0015). Spec: docs/vlsm.md.
#pragma once

#include "db/compaction/vlsm_l0_due.h"

namespace ROCKSDB_NAMESPACE {

class Logger;
class VersionStorageInfo;
struct MutableCFOptions;

// The count the write stall triggers (level0_slowdown_writes_trigger,
// level0_stop_writes_trigger) and every other reader of
// VersionStorageInfo::l0_delay_trigger_count compare: stock's L0 file count,
// except under the ranged layout, where it is L0's bytes in memtables' worth
// (L0MemtablesWorth). There a flush adds several files, and with uniform keys
// every range deepens together: a file count would stall N times too early,
// and a depth count would hold a stall until all N ranges were compacted,
// one wide step's worth of work. Bytes fall with every ranged step, so a
// stall ends once the steps have freed one memtable's worth. Patch 0004
// calls it from VersionStorageInfo::CalculateBaseBytes with stock's count
// (L0's files, or under universal compaction every sorted run); the write
// controller, the DB property and the flush listeners (patch 0013) all read
// the count it sets, VersionStorageInfo::l0_delay_trigger_count().
int VlsmL0StallCount(const VersionStorageInfo& vstorage,
                     const MutableCFOptions& moptions, int stock_count);

// L0's term of the estimate of pending compaction bytes
// (VersionStorageInfo::EstimateCompactionBytesNeeded, patch 0015): the L0
// bytes that move into the base level, and the base-level bytes that
// compaction rewrites; the estimate carries the first on into the levels
// below by their fan-out. Under stock priorities and kVlsm, stock's term:
// once L0 reaches level0_file_num_compaction_trigger files or
// max_bytes_for_level_base bytes, all of L0 and all of the base level.
// Under the ranged layout, range by range (RangedL0Debt): the due steps' L0 and
// the base-level files they rewrite, each once, with a running step's files
// counted until it installs; nothing while no step is due.
//
// Why. RocksDB documents the estimate as the bytes compaction must rewrite to
// bring every level under its target. L0's target is its trigger, and the
// ranged layout's trigger is per range: a range below its depth owes nothing
// (as stock's L0 below its file trigger), and a due range owes its own step,
// not all of L0 and L1. Owed RocksDB's way, the layout's estimate is several
// times what the next settle reads (docs/results/estimate-calibration-1region
// has the figures); the limits then slow writes for work no compaction would
// do, and each ranged step leaves RocksDB's sum as it was, so a write delay
// never sees progress.
L0DebtTerm VlsmL0DebtTermOf(const VersionStorageInfo& vstorage,
                            const MutableCFOptions& moptions);

// The L0 compaction trigger upstream's compaction speed-up compares L0's
// stall count against, with the slowdown trigger
// (GetL0FileCountForCompactionSpeedup, in RecalculateWriteStallConditions;
// patch 0013): level0_file_num_compaction_trigger, but under the vLSM layouts
// at most level0_slowdown_writes_trigger. Upstream assumes the first is at
// most the second (SanitizeOptions makes it so at open, and a debug build
// asserts it there), but SetOptions may set them either way, and under the
// ranged layout they count different things (a depth, and L0's bytes in
// memtables' worth), so either order is a configuration a user may mean.
int VlsmL0SpeedupTrigger(const MutableCFOptions& moptions);

// The liveness rule of the vLSM layouts, checked at every install of a new
// version (patch 0013, ColumnFamilyData::RecalculateWriteStallConditions):
// when writes may wait on compaction (the estimate of pending compaction
// bytes is above zero, or L0's stall count is at most one below the slowdown
// trigger, where Flush() waits), a compaction is due (some level's score is
// >= 1) or one is running (some file is being compacted). A state that
// breaks it could leave writers and Flush() waiting for good. Logs an error
// to `logger` when broken; nothing under stock priorities or with auto
// compactions disabled. Returns whether the rule holds.
//
// Why a log line and no assertion. The check reads the scores the version
// holds, and some states report a break by design, with no automatic
// compaction meant to run: a background error has stopped the DB, a manual
// compaction holds the picker, or a compaction failed or was cancelled (at
// shutdown) and released its files without new scores (upstream computes
// them at the next install). Tests that own their workload read the LOG for
// the line instead (vlsm_liveness_test); assertions in the test tree fired
// in exactly those states (io_error_test, db_stress reopening, the crash
// test's manual compactions).
bool VlsmCheckLiveness(const VersionStorageInfo& vstorage,
                       const MutableCFOptions& moptions, Logger* logger);

}  // namespace ROCKSDB_NAMESPACE
