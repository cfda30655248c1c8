// What differs between the fork's three layouts, one object each: stock
// (upstream's leveled compaction), the paper's (compaction_pri = kVlsm: L0
// a queue, one file a step) and the ranged one (kVlsmRanged: flushes split
// at guards, L0 compacted one key range at a time). VlsmLayoutRulesOf picks
// the object once from the layout value the options derive
// (MutableCFOptions::vlsm_layout, options/vlsm_layout.h); the hooks and the
// rooms ask it instead of branching on the layout themselves, so what a
// layout does is read in one class, and what it shares with another is
// inherited, not repeated:
//
//                   stock             paper (kVlsm)  ranged (kVlsmRanged)
//   L0's score      files / trigger   ranks last     depth or bytes over the
//                                                    triggers, per range
//   L0 due now      files or bytes    (stock's)      RangedL0Score >= 1
//                   over the trigger
//   the L0 pick     upstream's        the oldest     a due range, closed over
//                                     file (a queue) older overlapping files
//   stall count     L0's files (bytes (stock's)      L0's bytes in memtables'
//                   if split flushes)                worth
//   L0's debt term  all of L0 and the (stock's)      the due steps' L0 and the
//                   base level, once                 L1 files they rewrite
//                   due
//   L0's trigger    file count        (stock's)      the depth in force
//   cuts by key     none              none           flushes, L1 outputs, vSSTs
//   range                                            aligned with L2, reads by
//                                                    sublevel, drain at rest
//
// Whether the fork decides a layout's compactions at all (the vSST cut, the
// level walks, the L0 order rule, the liveness check) is the layout value's
// own predicate, IsVlsmLayout, which the patches ask. The rules hold no
// state: the version, the options and the picker a decision reads are
// passed in (the L0 pick's in one VlsmL0PickRequest).
#pragma once

#include <string>
#include <vector>

#include "db/compaction/vlsm_l0_due.h"
#include "options/vlsm_layout.h"

namespace ROCKSDB_NAMESPACE {

class CompactionPicker;
class VersionStorageInfo;
struct CompactionInputFiles;
struct MutableCFOptions;

// What an L0 pick reads: the compaction builder's fields, passed once. It
// refers to them (the name, the options): it lives within one pick.
struct VlsmL0PickRequest {
  const std::string& cf_name;
  VersionStorageInfo* vstorage;
  CompactionPicker* picker;
  const MutableCFOptions& moptions;
  int output_level;       // the base level
  int penultimate_level;  // Compaction::EvaluatePenultimateLevel's
};

// Stock's rules; the other layouts override what they change.
class VlsmLayoutRules {
 public:
  virtual ~VlsmLayoutRules() = default;

  // L0's part of one version's compaction scores (indexed by level, before
  // upstream sorts them; VlsmAdjustCompactionScores).
  virtual void ScoreL0(const VersionStorageInfo& /*vstorage*/,
                       const MutableCFOptions& /*moptions*/,
                       int /*max_input_level*/,
                       std::vector<double>* /*scores_by_level*/) const {}

  // Whether a step out of L0 is due now, from L0's files as they are (those
  // being compacted left out): the rule L0's score is computed by.
  virtual bool L0DueNow(const VersionStorageInfo& vstorage,
                        const MutableCFOptions& moptions) const;

  // The layout's automatic L0 pick into request.output_level (see
  // PickVlsmL0Inputs); false, with *inputs cleared, when none may start.
  // Stock has none: RocksDB picks, and every caller asks IsVlsmLayout first
  // (asserted; a release build gets false).
  virtual bool PickL0(const VlsmL0PickRequest& request, bool due_only,
                      CompactionInputFiles* inputs) const;
  // Whether an automatic step out of L0 takes exactly the oldest L0 file
  // (the L0 order rule checks it: VlsmCheckL0Order).
  virtual bool L0IsAQueue() const { return false; }

  // The count the write stall triggers compare under level compaction
  // (VlsmL0StallCount); stock_count is L0's file count.
  virtual int L0StallCount(const VersionStorageInfo& vstorage,
                           const MutableCFOptions& moptions,
                           int stock_count) const;

  // L0's term of the estimate of pending compaction bytes
  // (VlsmL0DebtTermOf).
  virtual L0DebtTerm L0Debt(const VersionStorageInfo& vstorage,
                            const MutableCFOptions& moptions) const;

  // What L0's compaction trigger counts to now (the DB property
  // VlsmProperties::kL0DepthTrigger): files, or the ranged layout's depth.
  virtual int L0Trigger(const VersionStorageInfo& vstorage,
                        const MutableCFOptions& moptions) const;

  // The ranged layout's cuts of L0 by key range, each asked where it is
  // applied: flushes split at the guards (VlsmFlushCutsOf); L1's outputs
  // cut at them (VlsmCutAtL0Guards); L1's vSSTs aligned with L2's files
  // (VsstCutPolicyFor); L0 read as sublevels (VlsmBuildsL0Sublevels);
  // L0 drained at rest (VlsmDrainEnabled); and L0's debt owed range by
  // range, kept with the version's L0 model (BuildVlsmL0Model).
  virtual bool SplitsFlushes() const { return false; }
  virtual bool CutsL1AtL0Guards() const { return false; }
  virtual bool AlignsL1WithL2() const { return false; }
  virtual bool ReadsL0AsSublevels() const { return false; }
  virtual bool DrainsAtRest() const { return false; }
  virtual bool OwesL0ByRange() const { return false; }
};

// The ranged layout's triggers and score, which its rules, its pick, the
// version's L0 model and the DB property ask.

// When L0 work falls due under the ranged layout, from the version and the
// options:
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

// L0's compaction score under the ranged layout (RangedL0Score over the
// files not being compacted, RangedL0TriggersOf): what ComputeCompactionScore
// sets and what the liveness check asks (VlsmLevelDueNow), read from the
// version's L0 model.
double RangedL0ScoreOf(const VersionStorageInfo& vstorage,
                       const MutableCFOptions& moptions);

// The depth trigger in force for the version (RangedDepthTrigger over L1's
// bytes): the one computation the triggers and the DB property share.
int VlsmRangedDepthTriggerOf(const VersionStorageInfo& vstorage,
                             const MutableCFOptions& moptions);

// The rules of `layout`: one object per layout, for the process's life.
const VlsmLayoutRules& VlsmLayoutRulesOf(VlsmLayout layout);

}  // namespace ROCKSDB_NAMESPACE
