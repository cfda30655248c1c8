// The L1 output cut rule of vLSM (docs/vlsm.md, spec 3.2): overlap-aware,
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
// A pure value type: no RocksDB state, so it is unit-tested on its own and
// costs two comparisons per key.
#pragma once

#include <cstdint>

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
  };

  // max_file_size = S_M (> 0), growth = f (>= 2). S_m = S_M / f, at least 1.
  VsstCutPolicy(uint64_t max_file_size, uint64_t growth);

  Decision BeforeKey(uint64_t current_file_size,
                     uint64_t overlap_with_key) const {
    if (current_file_size >= max_file_size_) {
      return Decision::kCutAtMaxSize;
    }
    if (current_file_size >= min_file_size_ &&
        overlap_with_key > overlap_bound_) {
      return Decision::kCutForOverlap;
    }
    return Decision::kKeep;
  }

  bool ShouldCutBefore(uint64_t current_file_size,
                       uint64_t overlap_with_key) const {
    return BeforeKey(current_file_size, overlap_with_key) != Decision::kKeep;
  }

  // A vSST whose L2 overlap is within the bound; L1->L2 prefers these.
  bool IsGood(uint64_t l2_overlap_bytes) const {
    return IsGoodVsst(l2_overlap_bytes, overlap_bound_);
  }

  uint64_t max_file_size() const { return max_file_size_; }
  uint64_t min_file_size() const { return min_file_size_; }
  uint64_t overlap_bound() const { return overlap_bound_; }

 private:
  uint64_t max_file_size_;  // S_M
  uint64_t min_file_size_;  // S_m = S_M / f
  uint64_t overlap_bound_;  // f * S_M
};

}  // namespace ROCKSDB_NAMESPACE
