// Write stalls under the vLSM layouts: what the stall triggers count, L0's
// term of the estimate of pending compaction bytes (which the soft and hard
// limits and the write delay read), and the liveness rule that keeps every
// wait ended by a compaction. Each is reached from upstream by one call
// (patches 0004, 0013, 0015). Spec: docs/vlsm.md.
#pragma once

#include <cstdint>
#include <vector>

#include "db/compaction/vlsm_l0_due.h"

namespace ROCKSDB_NAMESPACE {

class Logger;
class VersionStorageInfo;
struct FileMetaData;
struct ImmutableOptions;
struct MutableCFOptions;

// The count the write stall triggers (level0_slowdown_writes_trigger,
// level0_stop_writes_trigger) and every other reader of
// VersionStorageInfo::l0_delay_trigger_count compare: stock's L0 file count,
// except under the ranged layout, where it is L0's bytes in memtables' worth
// (L0MemtablesWorth). There a flush adds several files, and with uniform keys
// every range deepens together: a file count would stall N times too early,
// and a depth count would hold a stall until all N ranges were compacted,
// one wide step's worth of work. Bytes fall with every ranged step, so a
// stall ends once the steps have freed one memtable's worth.
//
// The same count applies under every other priority of level compaction
// while L0 holds a split flush (L0HoldsASplitFlush: two L0 files of one
// epoch), as it does after leaving the ranged layout, live or by reopening
// with stock options: a load leaves hundreds of pieces in L0, a few
// memtables' worth, and counted as files they stopped writes (stop trigger
// 28 or 36) until one wide L0 -> L1 step had run. An L0 stock wrote has one
// file per epoch (a flush, an ingestion or an intra-L0 compaction each
// write one), so stock's count is unchanged there.
//
// Patch 0004 calls it from VersionStorageInfo::CalculateBaseBytes with
// stock's count (L0's files, or under universal compaction every sorted
// run, which stays as it is); the write controller, the DB property and
// the flush listeners (patch 0013) all read the count it sets,
// VersionStorageInfo::l0_delay_trigger_count().
int VlsmL0StallCount(const VersionStorageInfo& vstorage,
                     const ImmutableOptions& ioptions,
                     const MutableCFOptions& moptions, int stock_count);


// Sets the version's L0 stall count again (VlsmL0StallCount) under the
// options its scores are computed with. Why: VersionStorageInfo::
// CalculateBaseBytes sets it (patch 0004) under the options the version was
// prepared with, and a flush or compaction that began before a SetOptions
// switching compaction_pri prepares its version under the old ones; the
// count was then a file count while the scores and the estimate were the
// ranged layout's, and writes slowed on a count no ranged step lowers.
// Patch 0021 calls it first in ComputeCompactionScore. Under level
// compaction and a stock priority it sets the same file count; under other
// compaction styles it does nothing (their count is not L0's files).
void VlsmRescoreL0StallCount(VersionStorageInfo* vstorage,
                             const ImmutableOptions& ioptions,
                             const MutableCFOptions& moptions);

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

// Whether `level` has compaction work due now, by the rule its score is
// computed by (VersionStorageInfo::ComputeCompactionScore, with
// VlsmAdjustCompactionScores), over the files not being compacted now:
// under the ranged layout L0 by RangedL0Score (the rule the ranged pick and
// L0's debt term ask, vlsm_l0_due.h), otherwise L0 by stock's file trigger
// and max_bytes_for_level_base; a level below by its bytes against its
// target (dynamic level sizing is off under vLSM). Computed from the files
// as they are, not read from the scores the version holds, which go stale
// when a compaction fails or is cancelled and releases its files (upstream
// computes them again only at the next install).
bool VlsmLevelDueNow(const VersionStorageInfo& vstorage,
                     const MutableCFOptions& moptions, int level);

// The liveness rule of the vLSM layouts, checked at every install of a new
// version (patch 0013, ColumnFamilyData::RecalculateWriteStallConditions):
// when writes may wait on compaction (the estimate of pending compaction
// bytes is above zero; or L0's stall count is at the slowdown trigger, or
// one below it and at least L0's compaction trigger, where Flush() waits),
// some level has work due now (VlsmLevelDueNow) or a compaction is running
// (some file is being compacted). Before it calls a state broken it
// computes the estimate again, as the version's may be stale (upstream
// does not score a version again after a compaction fails at shutdown). A state that breaks it could leave writers and Flush()
// waiting for good: the estimate owes work no rule makes due, or a stall
// trigger counts what no step lowers. Nothing is checked under stock
// priorities or with auto compactions disabled. Returns whether the rule
// holds.
//
// A break is a bug, and is reported three ways: an error line in `logger`;
// the process-wide count VlsmLivenessBreaks (the DB property
// VlsmProperties::kLivenessBreaks), for release builds; and in builds with
// assertions, an assertion failure, unless a test that breaks the rule on
// purpose says so through the sync point "VlsmCheckLiveness:Broken" (its
// argument a bool*, set true to expect the break).
//
// Why the due rule is computed here and not read from the scores: an
// earlier check read them, and reported breaks in states where they were
// stale (after a failed or cancelled compaction); it could only log.
bool VlsmCheckLiveness(const VersionStorageInfo& vstorage,
                       const MutableCFOptions& moptions, Logger* logger);

// How many times VlsmCheckLiveness found the rule broken in this process.
uint64_t VlsmLivenessBreaks();

}  // namespace ROCKSDB_NAMESPACE
