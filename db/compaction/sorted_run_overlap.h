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
// L2OverlapPerL1File is the one measure vLSM uses, for the L1->L2 picker
// (FileMetaData*) and the metrics census (SstFileMetaData) alike: by USER
// key, as RocksDB takes a compaction's inputs (GetOverlappingInputs). Worked
// example: L1 file [a .. k@100] and L2 file [k@5 .. kz]. By internal key the
// L1 file ends first (a newer version of "k" sorts before an older one), so
// it looks free of L2; but compacting it into L2 must take the L2 file that
// holds the older "k", so by user key it overlaps, and that is what it costs.
//
// `Keys` provides, for a file f of type File:
//   Smallest(f), Largest(f)  its first and last key,
//   Size(f)                  its bytes,
//   Compare(a, b)            < 0, 0, > 0 in the order the levels are sorted.
#pragma once

#include <cstdint>
#include <vector>

#include "db/version_edit.h"
#include "rocksdb/comparator.h"
#include "rocksdb/metadata.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"

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

// The user-key range and size of a file, for either file type.
class UserKeyRanges {
 public:
  explicit UserKeyRanges(const Comparator* ucmp) : ucmp_(ucmp) {}
  Slice Smallest(const FileMetaData* f) const { return f->smallest.user_key(); }
  Slice Largest(const FileMetaData* f) const { return f->largest.user_key(); }
  uint64_t Size(const FileMetaData* f) const { return f->fd.GetFileSize(); }
  Slice Smallest(const SstFileMetaData& f) const { return f.smallestkey; }
  Slice Largest(const SstFileMetaData& f) const { return f.largestkey; }
  uint64_t Size(const SstFileMetaData& f) const { return f.size; }
  int Compare(const Slice& a, const Slice& b) const {
    return ucmp_->Compare(a, b);
  }

 private:
  const Comparator* ucmp_;
};

template <typename File>
std::vector<uint64_t> L2OverlapPerL1File(const std::vector<File>& l1,
                                         const std::vector<File>& l2,
                                         const Comparator* ucmp) {
  return OverlapBytesPerFile(l1, l2, UserKeyRanges(ucmp));
}

}  // namespace ROCKSDB_NAMESPACE
