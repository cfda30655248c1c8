// What L0 -> L1 work the ranged layout owes now (compaction_pri =
// kVlsmRanged), as pure functions over the L0Spans of vlsm_l0_ranges.h. The
// one answer that L0's compaction score, the ranged pick (PickRangedL0) and
// the estimate of pending compaction bytes (VlsmL0DebtTermOf) all take, so
// that the estimate owes exactly what the picker will do.
//
// Two rules make a step due:
//  - Depth. Where `depth` L0 files (the trigger in force, RangedDepthTrigger)
//    cover one key, the files covering it are a due seed. Uniform keys reach
//    it range by range.
//  - Bytes. While L0 holds `byte_target` bytes or more, its oldest ranges are
//    due, oldest first, until what stays is under the target. Sequential
//    keys and append streams never deepen L0 (each flush lands beside the
//    last), so only bytes can say such an L0 is full; stock RocksDB's L0
//    score counts L0's bytes over L1's target the same way.
// A due seed's step is its files and every older L0 file that overlaps them
// (OlderOverlapClosure): the L0 order rule.
//
// Worked example. Depth trigger 3, byte target 8 MiB; sizes in MiB, L0
// newest first:
//
//     epoch 4   [a .. f] 1   [g .. o] 1
//     epoch 3   [a .. f] 1   [g .. o] 1
//     epoch 2   [a .. f] 1                [p .. z] 4
//     epoch 1                             [p .. z] 4
//
// [a .. f] is three deep: due by depth. L0 holds 13 MiB, 10 without
// [a .. f]: over the target, so the oldest range, [p .. z] (its oldest file
// is epoch 1), is due by bytes. 2 MiB stay, under the target, and [g .. o]
// (two deep) waits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "db/compaction/vlsm_l0_ranges.h"
#include "rocksdb/comparator.h"

namespace ROCKSDB_NAMESPACE {

// When L0 work falls due.
struct RangedL0Triggers {
  int depth = 1;             // files over one key (RangedDepthTrigger)
  uint64_t byte_target = 0;  // L0 bytes; 0: no byte rule

  bool operator==(const RangedL0Triggers& o) const {
    return depth == o.depth && byte_target == o.byte_target;
  }
};

// The seeds of the due steps (each ascending indexes into l0, the files
// over one key), in the order the picker tries them: due by depth, deepest
// first, then on equal depth the oldest epoch among them first; then due by
// bytes, oldest first (the oldest epoch among them), a seed whose step the
// seeds before it already take left out. count_busy: whether files in a running
// compaction count (for the estimate: a running step is still owed, as
// RocksDB's own estimate counts them) or not (for the pick and the score: what
// a new step may take). Empty when nothing is due. `all_ends` here and below:
// L0's ends sorted before, as SortedL0Ends (vlsm_l0_ranges.h) takes them.
std::vector<std::vector<size_t>> DueL0Seeds(
    const std::vector<KeySpan>& l0, const Comparator* ucmp,
    const RangedL0Triggers& triggers, bool count_busy,
    const std::vector<L0End>* all_ends = nullptr);

// L0's compaction score: the deepest key over the depth trigger, or L0's
// bytes over the byte target, whichever is more; over files not being
// compacted. It is >= 1 exactly when DueL0Seeds(count_busy = false) is not
// empty.
double RangedL0Score(const std::vector<KeySpan>& l0, const Comparator* ucmp,
                     const RangedL0Triggers& triggers,
                     const std::vector<L0End>* all_ends = nullptr);
// The same score from L0's shape: `max_depth` files over its deepest key and
// `bytes` in all, the files being compacted left out of both.
double RangedL0ScoreOfShape(int max_depth, uint64_t bytes,
                            const RangedL0Triggers& triggers);

// L0's term of the estimate of pending compaction bytes: the L0 bytes of
// the due steps (busy files counted), each file once, and the bytes of the
// level-below files those steps rewrite (every file of `below`, sorted by
// key, that overlaps the key range of a due step), each once however many
// steps reach it. Zero when nothing is due.
struct L0DebtTerm {
  uint64_t l0_bytes = 0;     // moves into the level below
  uint64_t below_bytes = 0;  // rewritten there
};

// What the due steps owe, kept per version. Busy files enter the term in
// one way only: a running step is owed until it installs, due or not now.
// The due steps themselves count busy files as present (count_busy), so
// what they owe depends on L0's files and the triggers alone: a version
// computes it once, outside the DB mutex (RangedL0DebtAtRest, kept by
// VlsmL0Model), and the term under the mutex is that answer whenever every
// busy file is already among the owed ones, as a running step's files are
// while it stays due. (Owed files are a closure, everything reachable from
// the due seeds through older overlapping files; a busy file inside it adds
// nothing reachable.) RangedL0Debt computes the term afresh, with the busy
// flags as they are now.
struct L0DebtAtRest {
  RangedL0Triggers triggers;  // what it was computed for
  std::vector<bool> owed;     // by index into l0: in a due step
  L0DebtTerm term;            // the term with no busy file outside `owed`
};
L0DebtAtRest RangedL0DebtAtRest(const std::vector<KeySpan>& l0,
                                const std::vector<KeySpan>& below,
                                const Comparator* ucmp,
                                const RangedL0Triggers& triggers,
                                const std::vector<L0End>* all_ends = nullptr);
L0DebtTerm RangedL0Debt(const std::vector<KeySpan>& l0,
                        const std::vector<KeySpan>& below,
                        const Comparator* ucmp,
                        const RangedL0Triggers& triggers,
                        const std::vector<L0End>* all_ends = nullptr);

}  // namespace ROCKSDB_NAMESPACE
