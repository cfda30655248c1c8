// The L1 output cut rule of vLSM (docs/design/paper-layout.md): overlap-aware,
// variable-size L1 SSTs ("vSSTs").
//
// Before key k joins the current L1 output file F, with
//   size   = estimated bytes of F so far,
//   ov(k)  = bytes of the L2 files overlapping [first key of F, k]
//            (k included: the look-ahead "as if k were in F"),
// F is closed before k iff
//   size >= S_M                         (hard maximum), or
//   size >= S_m and ov(k) > f * S_M     (growing F further would make a
//                                        future L1->L2 step too wide).
// A file closed on the second rule right at S_m is a *poor* vSST; a file
// whose L2 overlap stays within f * S_M is a *good* one. The bound keeps one
// L1->L2 step at most (f + 1) * S_M bytes although L2 is Phi times L1.
//
// The ranged layout (kVlsmRanged) adds a third rule, aligning L1's files
// with L2's:
//   size >= S_M / 2 and k crosses an L2 file boundary
//                                       (k is the first key past an L2
//                                        file's end or in its start).
// Why: an L1 file's L1->L2 step reads every L2 file its range touches, so
// an end that falls inside an L2 file reads the part of it outside F's range
// too: half an L2 file on average per unaligned end. With S_M files at L1
// and L2 (the RocksDB-shaped ranged tree) that is about one S_M of extra L2
// per S_M of L1 moved, as much as the whole overlap of a young L2.
// Example, S_M = 8 MiB, L2 twice L1's bytes in 8 MiB files, so each L2 file
// spans 4 MiB of L1's keys (positions: MiB of L1 output):
//   L2 files:       ..2)[2 ..... 6)[6 .... 10)[10 ... 14)[14 ... 18)[18..
//   L1, S_M cuts:   [0 ............. 8)[8 ............ 16)
//     the step of [8..16) reads the L2 files from 6 to 18: 24 MiB of L2
//     for the 16 MiB under its range;
//   L1, aligned:    [0 ...... 6)[6 .. 10)[10 . 14)[14 . 18)
//     a file closes at the first L2 boundary past S_M / 2 = 4 MiB, and
//     each step reads only the L2 under it (8 MiB for a 4 MiB file).
// RocksDB aligns its own outputs likewise (it pre-cuts at a grandparent
// boundary once a file holds 50% of the target size, plus 5% per boundary
// already crossed, up to 90%), which is part of why
// its L1->L2 steps read 1.5-1.9 bytes of L2 per L1 byte where the ranged
// layout without this rule read 2.3-2.7
// (docs/results/ranged-guard-cuts-1region-12M). The paper's layout keeps its
// two rules, as measured (issue 20 keeps that layout as it is).
//
// A pure value type: no RocksDB state, so it is unit-tested on its own and
// costs at most three comparisons per key.
#pragma once

#include <cstdint>
#include <optional>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

// The good/poor rule, the one definition the picker (VsstCutPolicy::IsGood)
// and the metrics census share; the overlap is L2OverlapPerL1File's
// (sorted_run_overlap.h).
inline bool IsGoodVsst(uint64_t l2_overlap_bytes, uint64_t overlap_bound) {
  return l2_overlap_bytes <= overlap_bound;
}

class VsstCutPolicy {
 public:
  enum class Decision {
    kKeep,             // add the key to the current file
    kCutAtMaxSize,     // close: the file reached S_M
    kCutForOverlap,    // close: the file is >= S_m and its L2 overlap would
                       // pass f * S_M with this key
    kCutAtL2Boundary,  // close (aligned policies): the file is >= S_M / 2
                       // and this key crosses an L2 file boundary
  };

  // max_file_size = S_M (> 0), growth = f (>= 2). S_m = S_M / f, at least 1.
  // align_with_l2: the third rule above (the ranged layout's).
  VsstCutPolicy(uint64_t max_file_size, uint64_t growth,
                bool align_with_l2 = false);

  // crosses_l2_boundary: the key is the first past an L2 file's last key
  // or the first in an L2 file (CompactionOutputs counts such crossings).
  Decision BeforeKey(uint64_t current_file_size, uint64_t overlap_with_key,
                     bool crosses_l2_boundary = false) const {
    if (current_file_size >= max_file_size_) {
      return Decision::kCutAtMaxSize;
    }
    if (current_file_size >= min_file_size_ &&
        overlap_with_key > overlap_bound_) {
      return Decision::kCutForOverlap;
    }
    if (align_with_l2_ && crosses_l2_boundary &&
        current_file_size >= max_file_size_ / 2) {
      return Decision::kCutAtL2Boundary;
    }
    return Decision::kKeep;
  }

  bool ShouldCutBefore(uint64_t current_file_size, uint64_t overlap_with_key,
                       bool crosses_l2_boundary = false) const {
    return BeforeKey(current_file_size, overlap_with_key,
                     crosses_l2_boundary) != Decision::kKeep;
  }

  // A vSST whose L2 overlap is within the bound; L1->L2 prefers these.
  bool IsGood(uint64_t l2_overlap_bytes) const {
    return IsGoodVsst(l2_overlap_bytes, overlap_bound_);
  }

  uint64_t max_file_size() const { return max_file_size_; }
  uint64_t min_file_size() const { return min_file_size_; }
  uint64_t overlap_bound() const { return overlap_bound_; }
  bool aligns_with_l2() const { return align_with_l2_; }

 private:
  uint64_t max_file_size_;  // S_M
  uint64_t min_file_size_;  // S_m = S_M / f
  uint64_t overlap_bound_;  // f * S_M
  bool align_with_l2_;
};

// The level vSSTs live in: the level L0 compacts into. vLSM (both layouts)
// requires level_compaction_dynamic_level_bytes=false, so it is always L1.
constexpr int kVlsmVsstLevel = 1;

class Compaction;
struct MutableCFOptions;

// The cut rule's parameters from the live options: S_M =
// target_file_size_base, f = max_bytes_for_level_multiplier; aligned with
// L2's files under the ranged layout.
VsstCutPolicy VsstCutPolicyFor(const MutableCFOptions& mutable_cf_options);

// The good-vSST bound f * S_M of a column family's options, as the cut rule
// takes it; the metrics census and vlsm_tree_report judge by this one.
uint64_t VsstOverlapBoundOf(uint64_t target_file_size_base,
                            double max_bytes_for_level_multiplier);

// The cut policy for the outputs of compaction c if they are vSSTs (a vLSM
// layout, output level L1, not a penultimate-level output); nullopt
// otherwise, and then the stock cut rules apply. Patch 0004 asks it where
// CompactionOutputs is set up.
std::optional<VsstCutPolicy> VsstOutputCutPolicy(const Compaction& c,
                                                 bool is_penultimate_level);

}  // namespace ROCKSDB_NAMESPACE
