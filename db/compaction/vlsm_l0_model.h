// L0 as the fork's decisions read it, built once per version.
//
// Every decision about L0 under the vLSM layouts looks at the same shape:
// L0's files as key spans, newest first; the spans' ends in key order (the
// sweep that depth, ranges and closures walk); L0's bytes; its depth. The
// score, the estimate of pending compaction bytes, the stall count, the DB
// properties, the flush split and the guard cuts used to rebuild it each
// time. A VlsmL0Model holds it for one version: VersionStorageInfo::
// PrepareForVersionAppend builds it (patch 0017) once the version's files
// are final, and a version's files never change after that.
//
// What a version does not fix stays out: which files take part in a running
// compaction (FileMetaData::being_compacted changes under a version when a
// compaction is picked or ends), and the live options (triggers, sizes).
// A decision adds those: SpansNow() copies the spans with the busy flags as
// they are now (the model holds the version's files, whose flags change),
// and the sweeps of the score, the estimate and the pick take ends() and
// leave busy spans out (SortedL0Ends' `all_ends`) instead of sorting L0
// again; the triggers come from the options (RangedL0TriggersOf).
//
//   L0 (newest first)      keys a ......... m ......... z
//     [0] #12 epoch 9           [c ..... h]
//     [1] #11 epoch 8                [f ......... q]
//     [2] #10 epoch 7      [a ... d]
//   ends():  a< c< d> f< h> q>   (< start, > end; at one key: exclusive
//                                  ends, then starts, then ends)
//   depth(): 2 (c..d and f..h lie under two files)
//
// Under kVlsmRanged the model also holds L0's sublevels, the sorted runs
// reads take (vlsm_l0_sublevels.h): built here, once per version, instead
// of at every read; on the write path outside the DB mutex (LogAndApply
// releases it before it prepares the new version). And it holds what L0's
// due steps owe at rest (RangedL0DebtAtRest, vlsm_l0_due.h) for the
// triggers in force when the version was prepared: the costly part of the
// estimate (every due range closed over older files, at every install and
// after every pick, under the mutex) is then a lookup. ScoreNow and DebtNow
// answer from the kept shape when they can and compute the rule afresh when
// they cannot (a busy file outside the owed ones, triggers changed by
// SetOptions): the same answer either way, which the tests check.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "db/compaction/vlsm_flush_split_keys.h"
#include "db/compaction/vlsm_l0_due.h"
#include "db/compaction/vlsm_l0_ranges.h"
#include "db/compaction/vlsm_l0_sublevels.h"
#include "memory/arena.h"
#include "options/vlsm_layout.h"

namespace ROCKSDB_NAMESPACE {

class VersionStorageInfo;
struct MutableCFOptions;

class VlsmL0Model {
 public:
  // l0: a version's L0, newest first, as VersionStorageInfo keeps it.
  // with_sublevels: build the sublevels reads take too.
  VlsmL0Model(const std::vector<FileMetaData*>& l0, const Comparator* ucmp,
              bool with_sublevels = false);

  // l0[i]'s span, every busy flag false.
  const std::vector<KeySpan>& spans() const { return spans_; }
  // The spans with their busy flags as they are now.
  std::vector<KeySpan> SpansNow() const;
  // The ends of every span, sorted (SortedL0Ends with busy files counted).
  const std::vector<L0End>& ends() const { return ends_; }
  uint64_t bytes() const { return bytes_; }
  // The most files over one user key, busy ones included: what a read of
  // the deepest key may search.
  int depth() const { return depth_; }
  // Whether the model was built from exactly these files (a version's files
  // are final once prepared; a synthetic version in a test may not be).
  bool Describes(const std::vector<FileMetaData*>& l0) const;
  // L0's sublevels, if the model was built with them, else null.
  const VlsmL0Sublevels* sublevels() const { return sublevels_.get(); }
  // How many sublevels L0 splits into (computed now if not built).
  int SublevelCount() const;

  // Keeps what L0's due steps owe at rest under `triggers`, with `below`
  // (the base level's files, sorted by key) as the level they move into.
  void KeepDebtAtRest(const std::vector<FileMetaData*>& below,
                      const RangedL0Triggers& triggers);
  // L0's score now (RangedL0Score over the spans with their busy flags
  // now).
  double ScoreNow(const RangedL0Triggers& triggers) const;
  // L0's term of the estimate now (RangedL0Debt), into `below`.
  L0DebtTerm DebtNow(const std::vector<FileMetaData*>& below,
                     const RangedL0Triggers& triggers) const;
  // Whether DebtNow would answer from the kept term (for tests and the
  // cost tool).
  bool DebtAtRestAnswers(const std::vector<FileMetaData*>& below,
                         const RangedL0Triggers& triggers) const;

 private:
  const Comparator* ucmp_;
  std::vector<const FileMetaData*> files_;
  std::vector<KeySpan> spans_;
  std::vector<L0End> ends_;
  uint64_t bytes_ = 0;
  int depth_ = 0;
  Arena arena_;  // the sublevels' briefs
  std::unique_ptr<VlsmL0Sublevels> sublevels_;
  // KeepDebtAtRest's answer and the level below it was computed against.
  std::unique_ptr<const L0DebtAtRest> debt_at_rest_;
  std::vector<const FileMetaData*> below_;
};

// The model the version holds (built when it was prepared), or one built now
// for a version that has none or whose L0 changed since (synthetic versions
// in tests, versions being assembled). Callers keep the pointer for the
// length of their decision.
std::shared_ptr<const VlsmL0Model> VlsmL0ModelOf(
    const VersionStorageInfo& vstorage);

// L0 as one decision sees it: the version's model, with which files are
// being compacted read once, when the decision starts (with the DB mutex
// held: the flags change under it). The pick, the drain and the cuts ask it
// their L0 questions rather than the pure functions with the spans, the
// comparator and the sorted ends passed by hand. (The score and the debt
// term ask the model itself, VlsmL0Model::ScoreNow and DebtNow: they skip the
// copy of the spans when no file is busy.)
class VlsmL0Now {
 public:
  explicit VlsmL0Now(const VersionStorageInfo& vstorage);

  // L0's spans newest first, busy flags as they were read.
  const std::vector<KeySpan>& spans() const { return spans_; }
  // The seeds of the steps due under `triggers`, files being compacted
  // left out (DueL0Seeds, vlsm_l0_due.h).
  std::vector<std::vector<size_t>> DueSeeds(
      const RangedL0Triggers& triggers) const;
  // Where a flush is cut over `below`, the guard level's spans
  // (FlushSplitKeys, vlsm_flush_split_keys.h).
  std::vector<std::string> FlushCuts(const std::vector<KeySpan>& below,
                                     const FlushSplitLimits& limits) const;
  // The guards over `below` (L0GuardKeys).
  std::vector<std::string> GuardKeys(const std::vector<KeySpan>& below,
                                     uint64_t min_piece_bytes) const;

 private:
  std::shared_ptr<const VlsmL0Model> model_;
  const Comparator* ucmp_;
  std::vector<KeySpan> spans_;
};

// The model a version being prepared keeps: built under the vLSM layouts,
// null under stock priorities (whose decisions never ask; the DB properties
// then build one on demand); under the ranged layout with the debt at rest
// for the triggers of `moptions`. Patch 0017 calls it from
// VersionStorageInfo::PrepareForVersionAppend, once the base level is known.
std::shared_ptr<const VlsmL0Model> BuildVlsmL0Model(
    const VersionStorageInfo& vstorage, const MutableCFOptions& moptions);

// Whether a version prepared under `layout` builds its sublevels: when its
// rules read L0 as sublevels, or a test forces them (VlsmL0ReadPath).
bool VlsmBuildsL0Sublevels(VlsmLayout layout);

// The sublevels a read of this version's L0 takes, or null to read L0 file
// by file (VlsmL0ReadPath, vlsm_l0_sublevels.h). The one choke point every
// read path (patch 0018: iterators, Get and MultiGet) asks.
const VlsmL0Sublevels* VlsmL0SublevelsForReads(
    const VersionStorageInfo& vstorage);

}  // namespace ROCKSDB_NAMESPACE
