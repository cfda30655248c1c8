// Where L0 is cut in the ranged L0 layout (issue 20;
// docs/design/ranged-layout.md, "Guards"): the guards, and the user keys each
// flush is cut at, as pure functions over the KeySpans of vlsm_l0_ranges.h
// (FlushSplitKeys, L0GuardKeys), and the same asked of a version
// (VlsmFlushCutsOf, VlsmL0GuardsOf). The flush writes its pieces where
// VlsmFlushCutsOf says (db/vlsm_flush_split.h); the guards among the cuts cut
// L1's outputs too (vlsm_l1_guard_cuts.h). Every decision about where L0 is
// cut is here; db/ only writes the pieces.
//
// Why guards. A ranged step takes one key range of L0, every flush's piece
// of it (vlsm_l0_ranges.h). A flush's cuts are *guards* that stay put while
// L0 holds data around them, so that the pieces of successive flushes line
// up: if they straddled each other, the closure over older overlapping files
// (OlderOverlapClosure) would chain ranges into one wide step.
//
// A flush is cut in three steps (vlsm_flush_split_keys.cc):
//  1. Candidates: the guards, and the L1 boundaries (the first key of every
//     L1 file but the first) where a cut splits nothing L0 keeps together.
//     The guards are where L0's ranges start (L0RangesOf), slivers aside,
//     and where a run being compacted starts, each moved down to the L1
//     boundary below it if L0 holds nothing in between.
//  2. Weights: the bytes the flush is expected to put between neighbouring
//     candidates, spread as the data below it is: each L1 file's bytes and
//     one flush's share of each of L0's ranges, at their first keys.
//  3. Thinning, from the left: every guard with data below it is cut, and
//     any other candidate once the piece since the last cut and everything
//     above it are each expected to hold the smallest piece,
//     max(flush_bytes / max_pieces, min_piece_bytes) on the weights' scale.
//
// Worked example. A flush of 8 MiB, pieces of at least 1 MiB, at most 64.
// L0 holds two flushes cut in two (1 MiB a piece); L1 holds six files:
//
//   keys        a b c d e f g h i j k l m n o p q r s t u v w x y z
//   L0 flush 2  [-----------]     [-----------]
//   L0 flush 1    [-----------]     [-------]
//   L1          [-----] [-----] [---------------] [---] [-] [-----]
//   L1 MiB         2       2            2           1    1     2
//   guards      ^               ^
//   candidates  ^               ^                 ^     ^   ^
//   cuts                        ^                 ^         ^
//   pieces      [-------------] [---------------] [-------] [-----]
//   weights            5                3             2        2
//
//  1. L0's ranges start at a (L0's first key) and at j (the first start
//     after a file ends): guards a and j. L0 holds nothing in [i, j), so j
//     moves down to L1's boundary i: the guards are a and i. L1's boundary
//     e is no candidate (two flushes hold keys on both sides of it); r, u
//     and w are (L0 holds nothing in their files). Candidates: a i r u w.
//  2. In MiB, each L1 file and each of L0's ranges (2 MiB written by 2
//     flushes: 1) in the interval that holds its first key:
//
//        below a   [a, i)      [i, r)   [r, u)   [u, w)   w and up
//        0         2 + 2 + 1   2 + 1    1        1        2         = 12
//
//     The smallest piece: max(12 / 64, 12 * 1 / 8) = 1.5.
//  3. a: nothing below it, not cut. i: a guard with data below it, cut.
//     r: 3 since i and 4 above it, cut. u: 1 since r, not cut. w: 1 + 1 = 2
//     since r and 2 above it, cut. The four pieces are expected to hold 5,
//     3, 2 and 2 twelfths of the flush. (L0GuardKeys gives a and i.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "db/compaction/vlsm_l0_ranges.h"
#include "rocksdb/comparator.h"
#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

struct ImmutableCFOptions;
struct MutableCFOptions;
class VersionStorageInfo;

// How a flush may be cut.
struct FlushSplitLimits {
  uint64_t flush_bytes = 0;      // what the flush is expected to write
  uint64_t min_piece_bytes = 0;  // no piece expected smaller (S_M / 8)
  size_t max_pieces = 1;         // no more pieces per flush
};

// The user keys at which a flush is cut, ascending: the first piece holds
// the keys below keys[0], piece i the keys in [keys[i-1], keys[i]), the last
// the keys from keys.back() up. Empty: one piece. `l0` is L0 in its order;
// `l1` the first level below L0 that has files, by key (VlsmGuardLevel: L1,
// or while L1 is empty a deeper one). With no such level (`l1` empty), with
// max_pieces <= 1 or with flush_bytes 0, the flush is not cut.
//
// Files being compacted block no cut and weigh nothing: they are leaving L0,
// and if a whole flush being compacted blocked the cuts, every flush written
// meanwhile would be whole too, and the layout would never split again. The
// guards are cut whatever the weights say (unless there are more of them
// than max_pieces: then they thin too), or the ranges would coarsen flush by
// flush, each flush's wider piece merging L0's ranges for the next.
std::vector<std::string> FlushSplitKeys(const std::vector<KeySpan>& l0,
                                        const std::vector<KeySpan>& l1,
                                        const Comparator* ucmp,
                                        const FlushSplitLimits& limits);

// The guards FlushSplitKeys keeps cut (ascending; before it thins them for
// the piece cap): where flushes written now are cut whatever the weights
// say. With the same `min_piece_bytes` as the flush's limits. Ranged L0 -> L1
// steps cut their L1 outputs at these keys too (VlsmCutAtL0Guards), so that
// L1's files line up with L0's ranges: a step over a range then rewrites the
// L1 files under that range and no more.
std::vector<std::string> L0GuardKeys(const std::vector<KeySpan>& l0,
                                     const std::vector<KeySpan>& l1,
                                     const Comparator* ucmp,
                                     uint64_t min_piece_bytes);

// Over a version: the same decisions, with L0 as the version's L0 model
// holds it (busy flags as they are now) and the level below from the
// version. Call them with the DB mutex held: which L0 files are being
// compacted changes under it.

// No flush is cut into more pieces than this (Pebble caps a flush at about 4x
// its size-based file count for the same reason: a huge L1 must not turn one
// flush into thousands of tiny files).
constexpr size_t kVlsmMaxFlushPieces = 64;

// No piece of a flush is expected smaller than this (S_M / 8), and a range
// of L0 whose flushes wrote less than an eighth of it each is a sliver, not
// a guard (SliverBytes in vlsm_flush_split_keys.cc).
uint64_t VlsmMinFlushPieceBytes(const MutableCFOptions& moptions);

// The level guards are taken from: L1, or while L1 is empty the first level
// below it with files; num_levels() if every level below L0 is empty.
int VlsmGuardLevel(const VersionStorageInfo& base);

// Where a flush of `flush_bytes` starting on `base` is cut (FlushSplitKeys
// with the limits above; empty: one file). Cuts only under kVlsmRanged with
// level compaction; which flushes stay whole whatever the layout (blob
// files, timestamps, atomic flush) is the flush's to say
// (VlsmFlushSplitKeysFor, db/vlsm_flush_split.h).
std::vector<std::string> VlsmFlushCutsOf(const MutableCFOptions& moptions,
                                         const ImmutableCFOptions& ioptions,
                                         const VersionStorageInfo& base,
                                         uint64_t flush_bytes);

// The guards of `base` (L0GuardKeys): where a flush starting on it is cut
// whatever the weights say, and where ranged L0 -> L1 steps cut their L1
// outputs (vlsm_l1_guard_cuts.h).
std::vector<std::string> VlsmL0GuardsOf(const MutableCFOptions& moptions,
                                        const VersionStorageInfo& base);

}  // namespace ROCKSDB_NAMESPACE
