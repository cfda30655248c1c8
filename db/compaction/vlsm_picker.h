// vLSM compaction (compaction_pri = kVlsm or kVlsmRanged): the decisions
// that differ from stock leveled compaction, each reached from upstream code
// by one small hook (patches/0004-*, 0008-*). Spec: docs/vlsm.md.
//
//   L0 -> L1   kVlsm: PickOldestL0File: L0 is a FIFO queue; exactly the
//              oldest L0 file is compacted, with the L1 files it overlaps.
//              kVlsmRanged: PickRangedL0, one key range of L0 at a time
//              (vlsm_l0_ranges.h). Never L0 -> L0. VlsmTakeL0Pick makes
//              every automatic pick that starts in L0 the layout's pick
//              (PickVlsmL0Inputs), whatever proposed it; VlsmCheckL0Order
//              checks every compaction at registration.
//   L1 outputs VsstCutPolicyFor: overlap-aware vSSTs (vsst_cut_policy.h).
//   L1 -> L2   OrderL1FilesGoodFirst: good vSSTs by ascending overlap ratio,
//              then the rest by ratio, so a free file is always found.
//   Priority   VlsmAdjustCompactionScores. kVlsm: VlsmPutL0Last, every
//              level from L1 down that is over its target compacts before
//              L0 -> L1. kVlsmRanged: L0 compacts at its depth trigger.
//   L2+        stock leveled behaviour (kMinOverlappingRatio order).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "db/compaction/vlsm_l0_due.h"
#include "db/compaction/vsst_cut_policy.h"
#include "rocksdb/advanced_options.h"
#include "rocksdb/options.h"
#include "rocksdb/status.h"
#include "rocksdb/vlsm.h"

namespace ROCKSDB_NAMESPACE {

class Comparator;
class Compaction;
class Logger;
class CompactionPicker;
class InternalKeyComparator;
class VersionStorageInfo;
struct CompactionInputFiles;
struct FileMetaData;
struct MutableCFOptions;
struct ImmutableOptions;
struct MutableCFOptions;

// The level vSSTs live in: the level L0 compacts into. vLSM (both layouts)
// requires
// level_compaction_dynamic_level_bytes=false, so it is always L1.
constexpr int kVlsmVsstLevel = 1;

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

// The cut rule's parameters from the live options: S_M =
// target_file_size_base, f = max_bytes_for_level_multiplier; aligned with
// L2's files under kVlsmRanged.
VsstCutPolicy VsstCutPolicyFor(const MutableCFOptions& mutable_cf_options);

// The good-vSST bound f * S_M of a column family's options, as the cut rule
// takes it; the metrics census and vlsm_tree_report judge by this one.
uint64_t VsstOverlapBoundOf(uint64_t target_file_size_base,
                            double max_bytes_for_level_multiplier);

// The cut policy for the outputs of compaction c if they are vSSTs (vLSM
// mode, output level L1, not a penultimate-level output); nullopt otherwise,
// and then the stock cut rules apply.
std::optional<VsstCutPolicy> VsstCutPolicyForOutputsOf(
    const Compaction& c, bool is_penultimate_level);

// Fills start_level_inputs with exactly the oldest L0 file and returns true
// when that compaction may start now: no other L0 compaction runs, and
// neither the file nor the L1 files it overlaps take part in a running
// compaction. Otherwise returns false with start_level_inputs cleared: the
// queue waits for its head, it never skips it.
bool PickOldestL0File(const std::string& cf_name, VersionStorageInfo* vstorage,
                      CompactionPicker* picker, int output_level,
                      int penultimate_level,
                      CompactionInputFiles* start_level_inputs);

// The ranged L0 layout's L0 -> L1 pick (compaction_pri = kVlsmRanged;
// vlsm_l0_ranges.h). Tries the seeds of the due steps in their order
// (DueL0Seeds over RangedL0TriggersOf: the rule L0's score and the debt
// estimate ask too); a step's inputs are its seed and every older L0 file
// that overlaps them (OlderOverlapClosure), so no older version is left in
// L0, where reads would find it before the newer one moved to L1
// (VlsmCheckL0Order). The first step whose inputs and L1 files (to a clean
// cut) are free, and whose key range no running compaction writes into
// output_level, is taken: busy steps are skipped, not waited for. Fills
// start_level_inputs in L0 order (newest first) and returns true; false,
// with it cleared, when no step is due, none may start now, or another L0
// compaction runs (one at a time, as kVlsm). With due_only = false (work
// proposed by a marked file, TTL or periodic compaction), when no step is
// due every range may go, deepest first.
bool PickRangedL0(const std::string& cf_name, VersionStorageInfo* vstorage,
                  CompactionPicker* picker,
                  const MutableCFOptions& moptions, int output_level,
                  int penultimate_level,
                  CompactionInputFiles* start_level_inputs,
                  bool due_only = true);

// The L0 pick of the layout moptions.compaction_pri names (kVlsm:
// PickOldestL0File; kVlsmRanged: PickRangedL0), same arguments and result.
bool PickVlsmL0Inputs(const MutableCFOptions& moptions,
                      const std::string& cf_name,
                      VersionStorageInfo* vstorage, CompactionPicker* picker,
                      int output_level, int penultimate_level,
                      CompactionInputFiles* start_level_inputs,
                      bool due_only = true);

// The choke point of every automatic pick that starts in L0 under a vLSM
// layout, called where the pick's first files are chosen and before anything
// grows them. Whatever proposed the pick (the L0 score, a file marked for
// compaction, bottommost, TTL, periodic or blob-GC work), it becomes the
// layout's pick going to the base level (PickVlsmL0Inputs), or nothing:
// returns false with start_level_inputs cleared, and the proposal waits for
// its turn. Marked, TTL and periodic work thus still happens, in L0 order.
// *reason becomes kLevelL0FilesNum when the pick is not the proposed files.
bool VlsmTakeL0Pick(const std::string& cf_name, VersionStorageInfo* vstorage,
                    CompactionPicker* picker, const ImmutableOptions& ioptions,
                    const MutableCFOptions& mutable_cf_options,
                    int* output_level, CompactionInputFiles* start_level_inputs,
                    CompactionReason* reason);

// The L0 order rule of the vLSM layouts for a compaction about to start.
// Reads search L0 newest file first, then L1, L2, ...; a compaction that
// moves an L0 file's keys to L1 while an older L0 file that overlaps it stays
// behind makes the older versions shadow the newer (issue 19: a lost update).
// So, under kVlsm and kVlsmRanged:
//  - L0 never compacts into L0;
//  - under kVlsm, an automatic compaction takes exactly the oldest L0 file;
//  - any compaction that takes an L0 file takes every older L0 file whose key
//    range overlaps it (CompactRange does; CompactFiles adds every older L0
//    file, as upstream does for every compaction_pri).
// And under every compaction_pri (a column family may switch away from
// kVlsmRanged with split flushes in L0): a compaction into L0 takes all the
// L0 files of an epoch it takes one of. The pieces of one split flush share
// its epoch, and L0 -> L0 output takes its inputs' smallest epoch: with some
// of a flush's pieces left behind it would overlap them at the same epoch,
// which VersionBuilder rejects as corruption.
// l0_newest_first is the version's L0, as a VersionStorageInfo keeps it.
// InvalidArgument naming the files when a rule is broken; OK for
// compactions without L0 inputs.
Status VlsmCheckL0Order(CompactionPri pri,
                        const std::vector<CompactionInputFiles>& inputs,
                        int output_level,
                        const std::vector<FileMetaData*>& l0_newest_first,
                        bool automatic, const Comparator* ucmp);

// The same for a built compaction, as CompactionPicker::RegisterCompaction
// checks every compaction that starts (ingestion's placeholder compactions
// have no real inputs and pass).
Status VlsmCheckL0Order(const Compaction& c);

// CompactionPicker::RegisterCompaction's admission of c (patch 0008): true if
// c keeps the L0 order rule (VlsmCheckL0Order). The vLSM layouts' automatic
// picks keep it by construction and CompactFiles checks it first, so under
// them a refusal is a bug: an assertion in debug builds. Stock intra-L0 picks
// may break the epoch rule after a switch away from kVlsmRanged: refused, they
// wait until L0 -> L1 has taken the flush's pieces. Every refusal is logged
// to `logger`, c's files are released, and false tells the caller to drop c.
bool VlsmAdmitCompaction(Compaction* c, Logger* logger);

// The order in which L1 -> L2 considers L1 files (indexes into l1_files):
// good vSSTs (L2 overlap <= f * S_M, measured by user key as the census
// does: L2OverlapPerL1File) by ascending overlap ratio
// (overlapping L2 bytes / file size), then the poor ones by ascending ratio.
// Ties go to the smaller key. l1_files and l2_files are sorted by key, as in
// a VersionStorageInfo; one merge-like walk, O(|L1| + |L2|) plus the sort.
std::vector<size_t> OrderL1FilesGoodFirst(
    const InternalKeyComparator& icmp,
    const std::vector<FileMetaData*>& l1_files,
    const std::vector<FileMetaData*>& l2_files, const VsstCutPolicy& policy);

// Adjusts the compaction scores of one version (indexed by level, before
// upstream sorts them) so that every level from L1 down whose score is >= 1
// (over its target) ranks above L0, keeping upstream's order among those
// levels. Why: with level0_file_num_compaction_trigger = 1, L0's score is its
// file count and outranks every size-based score, so with few compaction
// threads L1 and L2 never get a turn. A ballooning L1 makes each L0 -> L1
// step (which rewrites the L1 range it covers, usually all of L1) wider and
// slower; a ballooning L2 makes L1 files overlap more of it, so vSSTs turn
// poor and L1 -> L2 steps grow. Draining the levels first keeps every step
// narrow; L0 is the queue that absorbs writes meanwhile, and its slowdown and
// stop triggers keep their meaning.
void VlsmPutL0Last(int max_input_level, std::vector<double>* scores_by_level);

// The ranged layout's L0 score (RangedL0Score in vlsm_l0_due.h over
// RangedL0TriggersOf): L0's depth over the files not being compacted over
// the depth trigger, or their bytes over the byte target, whichever is more;
// >= 1 exactly when a step is due. Stock's L0 score counts files (a split
// flush is several), so it would fire after a few flushes.
double VlsmRangedL0Score(const VersionStorageInfo& vstorage,
                         const MutableCFOptions& moptions);

// When L0 work falls due under kVlsmRanged, from the version and options:
// - depth: RangedDepthTrigger over L1's bytes (level0_file_num_compaction_
//   trigger, which ConfigureVlsm sets to ranged_l0_depth, or less while L1
//   is small, so that a fresh DB's steps start narrow);
// - byte_target: max_bytes_for_level_base (L1's target, as stock's L0 score
//   counts L0's bytes), but at most (level0_slowdown_writes_trigger - 2)
//   memtables' worth. Why the cap: Flush() waits while one more memtable in
//   L0 would reach the slowdown trigger (WaitUntilFlushWouldNotStallWrites:
//   stall count + 1 >= slowdown, that is L0 > (slowdown - 2) memtables), and
//   writes slow at the trigger itself: L0 must be due before either, or they
//   wait for a compaction nobody schedules. With sequential keys the depth
//   stays 1, and this is what makes L0 due.
RangedL0Triggers RangedL0TriggersOf(const VersionStorageInfo& vstorage,
                                    const MutableCFOptions& moptions);

// The depth trigger in force for the version (RangedDepthTrigger over L1's
// bytes): the one computation the triggers and the DB property share.
int VlsmRangedDepthTriggerOf(const VersionStorageInfo& vstorage,
                             const MutableCFOptions& moptions);

// The vLSM layouts' changes to one version's compaction scores (indexed by
// level, before upstream sorts them; patch 0004 calls it from
// ComputeCompactionScore): VlsmPutL0Last under kVlsm, VlsmRangedL0Score for
// L0 under kVlsmRanged (which scores the other levels as stock).
void VlsmAdjustCompactionScores(const VersionStorageInfo& vstorage,
                                const MutableCFOptions& moptions,
                                int max_input_level,
                                std::vector<double>* scores_by_level);

// The count the write stall triggers (level0_slowdown_writes_trigger,
// level0_stop_writes_trigger) and every other reader of
// VersionStorageInfo::l0_delay_trigger_count compare: stock's L0 file count,
// except under kVlsmRanged, where it is L0's bytes in memtables' worth
// (L0MemtablesWorth). There a flush adds several files, and with uniform keys
// every range deepens together: a file count would stall N times too early,
// and a depth count would hold a stall until all N ranges were compacted,
// one wide step's worth of work. Bytes fall with every ranged step, so a
// stall ends once the steps have freed one memtable's worth. Patch 0004
// calls it from VersionStorageInfo::CalculateBaseBytes.
int VlsmL0StallCount(const MutableCFOptions& moptions,
                     const std::vector<FileMetaData*>& l0, int stock_count);

// L0's term of the estimate of pending compaction bytes
// (VersionStorageInfo::EstimateCompactionBytesNeeded, patch 0015): the L0
// bytes that move into the base level, and the base-level bytes that
// compaction rewrites; the estimate carries the first on into the levels
// below by their fan-out. Under stock priorities and kVlsm, stock's term:
// once L0 reaches level0_file_num_compaction_trigger files or
// max_bytes_for_level_base bytes, all of L0 and all of the base level.
// Under kVlsmRanged, range by range (RangedL0Debt): the due steps' L0 and the
// base-level files they rewrite, each once, with a running step's files
// counted until it installs; nothing while no step is due.
//
// Why. RocksDB documents the estimate as the bytes compaction must rewrite to
// bring every level under its target. L0's target is its trigger, and the
// ranged layout's trigger is per range: a range below its depth owes nothing
// (as stock's L0 below its file trigger), and a due range owes its own step,
// not all of L0 and L1. Owed RocksDB's way, the layout's estimate was about
// 3x what the next settle read (issue 20's runs); the limits then slowed
// writes for work no compaction would do, and each ranged step left
// RocksDB's sum as it was, so a write delay never saw progress.
L0DebtTerm VlsmL0DebtTermOf(const VersionStorageInfo& vstorage,
                            const MutableCFOptions& moptions);

// The liveness rule of the vLSM layouts, checked at every install of a new
// version (patch 0013, ColumnFamilyData::RecalculateWriteStallConditions):
// when writes may wait on compaction (the estimate of pending compaction
// bytes is above zero, or L0's stall count is at most one below the slowdown
// trigger, where Flush() waits), a compaction is due (some level's score is
// >= 1) or one is running (some file is being compacted). A state that
// breaks it could leave writers and Flush() waiting for good. Logs an error
// to `logger` (and fails an assertion in debug builds) when broken; nothing
// under stock priorities or with auto compactions disabled. Returns whether
// the rule holds.
bool VlsmCheckLiveness(const VersionStorageInfo& vstorage,
                       const MutableCFOptions& moptions, Logger* logger);

// L0's count against the stall triggers as VlsmL0StallCount gives it, for
// the write-stall flags every flush listener is told (patch 0013, in
// DBImpl::NotifyOnFlushBegin and NotifyOnFlushCompleted): stock's file count
// there would tell a listener of the ranged layout that writes slow down
// after a few split flushes, while they do not.
int VlsmL0StallCountOf(const VersionStorageInfo& vstorage,
                       const MutableCFOptions& moptions);

}  // namespace ROCKSDB_NAMESPACE
