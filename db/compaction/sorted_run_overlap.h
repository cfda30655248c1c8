// OverlapBytesPerFile: for each file of one level, the bytes of the files of
// the level below whose key ranges intersect it; the "overlap" that vLSM's
// good/poor vSST rule (vsst_cut_policy.h) bounds.
//
// Both levels are sorted runs (files sorted by key, disjoint within the
// level), so one forward walk over the lower level serves every upper file:
// a lower file that ends before an upper file starts cannot overlap any later
// upper file either. A lower file that straddles two upper files counts for
// both, as either one's compaction would rewrite it.
//
// The picker walks FileMetaData* by internal key and the metrics census
// walks SstFileMetaData by user key, so key access is a parameter. `Keys`
// provides, for a file f of type File:
//   Smallest(f), Largest(f)  its first and last key,
//   Size(f)                  its bytes,
//   Compare(a, b)            < 0, 0, > 0 in the order the levels are sorted.
#pragma once

#include <cstdint>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

template <typename File, typename Keys>
std::vector<uint64_t> OverlapBytesPerFile(const std::vector<File>& upper,
                                          const std::vector<File>& lower,
                                          const Keys& keys) {
  std::vector<uint64_t> overlap(upper.size(), 0);
  size_t first_candidate = 0;
  for (size_t i = 0; i < upper.size(); ++i) {
    while (first_candidate < lower.size() &&
           keys.Compare(keys.Largest(lower[first_candidate]),
                        keys.Smallest(upper[i])) < 0) {
      ++first_candidate;
    }
    for (size_t k = first_candidate;
         k < lower.size() &&
         keys.Compare(keys.Smallest(lower[k]), keys.Largest(upper[i])) <= 0;
         ++k) {
      overlap[i] += keys.Size(lower[k]);
    }
  }
  return overlap;
}

}  // namespace ROCKSDB_NAMESPACE
