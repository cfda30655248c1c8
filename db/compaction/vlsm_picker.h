// vLSM compaction's picks (compaction_pri = kVlsm or kVlsmRanged): which
// compaction runs next where it differs from stock leveled compaction, each
// reached from upstream code by one small hook (patches 0004, 0008).
// Spec: docs/vlsm.md. The other rooms: the L0 order rule every compaction
// keeps (vlsm_l0_order.h), the vSST cut rule (vsst_cut_policy.h), write
// stalls and the debt estimate (db/vlsm_write_stalls.h), live switches
// (options/vlsm_live_switch.h), L0's model (vlsm_l0_model.h).
//
//   L0 -> L1   the paper's layout: PickOldestL0File: L0 is a FIFO queue;
//              exactly the oldest L0 file is compacted, with the L1 files it
//              overlaps. The ranged layout: PickRangedL0, one key range of
//              L0 at a time (vlsm_l0_due.h). Never L0 -> L0. PickVlsmL0Inputs
//              picks what L0's score proposed (patch 0004, where upstream
//              picks a file to compact); VlsmTakeL0Pick makes every other
//              proposal that starts in L0 the layout's pick.
//   L1 -> L2   OrderL1FilesGoodFirst: good vSSTs by ascending overlap ratio,
//              then the rest by ratio, so a free file is always found.
//   Priority   VlsmAdjustCompactionScores. The paper's layout: VlsmPutL0Last,
//              every level from L1 down that is over its target compacts
//              before L0 -> L1. The ranged layout: L0 is due by its ranges'
//              depth or its bytes (RangedL0TriggersOf).
//   L2+        stock leveled behaviour (kMinOverlappingRatio order).
#pragma once

#include <string>
#include <vector>

#include "db/compaction/vlsm_l0_due.h"
#include "db/compaction/vlsm_layout_rules.h"
#include "db/compaction/vsst_cut_policy.h"
#include "rocksdb/advanced_options.h"
#include "rocksdb/listener.h"

namespace ROCKSDB_NAMESPACE {

class CompactionPicker;
class InternalKeyComparator;
class VersionStorageInfo;
struct CompactionInputFiles;
struct FileMetaData;
struct ImmutableOptions;
struct MutableCFOptions;

// Fills start_level_inputs with exactly the oldest L0 file and returns true
// when that compaction may start now: no other L0 compaction runs, and
// neither the file nor the L1 files it overlaps take part in a running
// compaction. Otherwise returns false with start_level_inputs cleared: the
// queue waits for its head, it never skips it.
bool PickOldestL0File(const VlsmL0PickRequest& request,
                      CompactionInputFiles* start_level_inputs);

// The ranged layout's L0 -> L1 pick (compaction_pri = kVlsmRanged;
// vlsm_l0_due.h). Tries the seeds of the due steps in their order
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
bool PickRangedL0(const VlsmL0PickRequest& request,
                  CompactionInputFiles* start_level_inputs,
                  bool due_only = true);

// The step PickRangedL0 and the drain at rest (vlsm_drain_at_rest.h) both
// take: tries `seeds` (ascending indexes into `spans`, vstorage's L0 as
// SpansNow gives it) in their order; a step's L0 inputs are a seed and
// every older L0 file that overlaps it (OlderOverlapClosure). The first
// step whose files, and L1 files (to a clean cut), are free and whose range
// no running compaction writes into output_level, fills start_level_inputs
// (newest first) and returns true. max_input_bytes > 0 bounds a step's
// input (its L0 and L1 bytes): a seed over it is tried with fewer of its
// files, oldest kept, down to its oldest alone, and skipped if even that is
// over. *must_wait (if given) is set when a step was passed over only
// because files it needs are busy. *over_bound (if given, and nothing is
// picked) is set to the input bytes of the smallest step passed over for
// max_input_bytes (its L0 bytes alone if those were over), 0 if none.
bool PickL0StepFromSeeds(const VlsmL0PickRequest& request,
                         const std::vector<KeySpan>& spans,
                         const std::vector<std::vector<size_t>>& seeds,
                         uint64_t max_input_bytes,
                         CompactionInputFiles* start_level_inputs,
                         bool* must_wait = nullptr,
                         uint64_t* over_bound = nullptr);

// The L0 pick of the layout moptions.vlsm_layout names (its rules' PickL0,
// vlsm_layout_rules.h: the paper's PickOldestL0File, the ranged layout's
// PickRangedL0), same result; patch 0004 calls it with the builder's fields.
bool PickVlsmL0Inputs(const MutableCFOptions& moptions,
                      const std::string& cf_name, VersionStorageInfo* vstorage,
                      CompactionPicker* picker, int output_level,
                      int penultimate_level,
                      CompactionInputFiles* start_level_inputs,
                      bool due_only = true);

// The request of an L0 step into the base level, with the penultimate level
// Compaction::EvaluatePenultimateLevel gives such a step: what VlsmTakeL0Pick
// and the drain at rest (VlsmPickDrainStep) pick with. The request refers to
// cf_name and moptions: use it within the call that has them (a temporary
// name would dangle, hence the deleted overload).
VlsmL0PickRequest VlsmBaseLevelPickRequest(const std::string& cf_name,
                                           VersionStorageInfo* vstorage,
                                           CompactionPicker* picker,
                                           const ImmutableOptions& ioptions,
                                           const MutableCFOptions& moptions);
VlsmL0PickRequest VlsmBaseLevelPickRequest(std::string&& cf_name,
                                           VersionStorageInfo* vstorage,
                                           CompactionPicker* picker,
                                           const ImmutableOptions& ioptions,
                                           const MutableCFOptions& moptions) =
    delete;

// The choke point of every automatic pick that starts in L0 under a vLSM
// layout, called where the pick's first files are chosen and before anything
// grows them. Work L0's score proposed (*reason kLevelL0FilesNum) is the
// layout's pick already: PickVlsmL0Inputs made it where upstream picks the
// file to compact (patch 0004), and it is kept as it is, not computed again;
// so is a step of the drain at rest (*reason kVlsmDrainAtRest,
// VlsmPickDrainStep).
// Any other proposal (a file marked for compaction, bottommost, TTL,
// periodic or blob-GC work) becomes the layout's pick going to the base
// level, or nothing: returns false with start_level_inputs cleared, and the
// proposal waits for its turn. Marked, TTL and periodic work thus still
// happens, in L0 order. *reason becomes kLevelL0FilesNum when the pick is
// not the proposed files.
bool VlsmTakeL0Pick(const std::string& cf_name, VersionStorageInfo* vstorage,
                    CompactionPicker* picker, const ImmutableOptions& ioptions,
                    const MutableCFOptions& mutable_cf_options,
                    int* output_level, CompactionInputFiles* start_level_inputs,
                    CompactionReason* reason);

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

// The vLSM layouts' changes to one version's compaction scores (indexed by
// level, before upstream sorts them; patch 0004 calls it from
// ComputeCompactionScore): VlsmPutL0Last under the paper's layout; under the
// ranged one L0's score is RangedL0Score (vlsm_l0_due.h) over the files not
// being compacted and RangedL0TriggersOf: L0's depth over the depth trigger,
// or its bytes over the byte target, whichever is more, so >= 1 exactly when
// a step is due. (Stock's L0 score counts files, and a split flush is
// several: it would fire after a few flushes.) The other levels score as
// stock.
void VlsmAdjustCompactionScores(const VersionStorageInfo& vstorage,
                                const MutableCFOptions& moptions,
                                int max_input_level,
                                std::vector<double>* scores_by_level);

}  // namespace ROCKSDB_NAMESPACE
