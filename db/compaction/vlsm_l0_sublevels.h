// L0 read as sublevels: sorted runs of disjoint files, newest first.
//
// Why. Upstream reads L0 file by file: an iterator opens one table iterator
// per L0 file and seeks every one of them on every Seek, and Get walks every
// L0 file comparing its bounds (Version::AddIteratorsForLevel, FilePicker).
// That suits RocksDB's L0 of a few whole flushes. The ranged layout keeps
// hundreds of small pieces in L0 (each flush split at L1's guards), and a
// scan then seeks hundreds of files where it needs to seek only as many as
// cover its key. Cut into sublevels, L0 reads like a stack of levels: one
// lazily opening LevelIterator per sublevel, and in Get one binary search per
// sublevel, as every level below L0 is read.
//
// The rule. Take L0's files oldest first (files_[0] is newest first by
// epoch; files of one epoch, the pieces of one flush or the outputs of one
// compaction, in its fixed tie order: sequence numbers, then file number).
// A file goes one sublevel above the highest sublevel holding a file it
// overlaps, or into sublevel 0. Overlap compares user keys without
// timestamps, both ends included, so files that only touch (one ends at a
// key another starts at, or ends at a range tombstone's exclusive end) also
// stack: that costs a sublevel now and then and never a wrong read.
//
//   L0 (newest first)     keys a ...... g ...... p ...... z
//     #14 epoch 9               [c ...... i]               sublevel 2
//     #13 epoch 8                        [k ... r]         sublevel 1
//     #12 epoch 8         [a .. e]                         sublevel 1
//     #11 epoch 7                 [g .......... s]         sublevel 0
//     #10 epoch 7         [a .. e]                         sublevel 0
//     #9  epoch 7                                 [t .. z] sublevel 0
//   #10 #9 #11 start sublevel 0 (disjoint); #12 overlaps #10 (sublevel 0)
//   and #13 overlaps #11, so both go to 1; #14 overlaps #12 (1) and #11
//   (0): one above the higher, 2. Reads search 2, 1, 0, then L1: three
//   sorted runs where upstream searches six files.
//
// Why reads stay correct (the rules upstream's readers rely on):
//  - Within a sublevel files are sorted and share no user key, as
//    LevelIterator and FindFileInRange require of a level.
//  - Two files holding one user key overlap, so the newer (larger epoch, and
//    L0's order gives it the larger sequence numbers for that key) sits in
//    the higher sublevel: searching sublevels newest first meets a key's
//    versions newest first, as searching L0's files newest first does.
//    Get stops at the first version found, or once a range tombstone covers
//    the key (max_covering_tombstone_seq): both need exactly that order.
//  - MergingIterator takes a range tombstone from a newer child to cover
//    every key of an older child outright. A tombstone is truncated to its
//    file's bounds, so it covers a key in an older sublevel only where its
//    file overlaps that key's file: that file is the newer one, in a higher
//    sublevel, added to the merging iterator earlier.
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include "db/compaction/vlsm_l0_ranges.h"
#include "db/version_edit.h"
#include "options/vlsm_layout.h"

namespace ROCKSDB_NAMESPACE {

class Arena;

// The sublevel of each span (l0 newest first, as files_[0]); 0 is the
// oldest. O(n * S * log n) for n files in S sublevels.
std::vector<int> AssignL0Sublevels(const std::vector<KeySpan>& l0,
                                   const Comparator* ucmp);

// How many sublevels an assignment uses (0 for an empty L0).
int L0SublevelCount(const std::vector<int>& sublevels);

// Whether files sharing a user key are ordered by sublevel as by epoch (the
// newer strictly higher): the property reads depend on, checked in debug
// builds whenever a version builds its sublevels. O(n^2).
bool L0SublevelsKeepEpochOrder(const std::vector<KeySpan>& l0,
                               const std::vector<int>& sublevels,
                               const Comparator* ucmp);

// L0 as reads see it: its sublevels newest first, each with the brief of its
// files in key order (what a level's LevelIterator and FilePicker read), and
// the oldest L0 file (the last in files_[0]), which upstream's Get treats as
// L0's last file when it decides whether to skip a filter
// (optimize_filters_for_hits).
struct VlsmL0Sublevels {
  std::vector<LevelFilesBrief> newest_first;
  const FileMetaData* oldest_file = nullptr;
};

// Which path reads of L0 take. A test-only switch: kAuto is the product.
//  kAuto       sublevels under kVlsmRanged, file by file otherwise;
//  kSublevels  sublevels under every layout (versions prepared while it is
//              set build them), so upstream's read tests run on them;
//  kFiles      file by file, upstream's path, under every layout.
// The path is chosen at each read, so a test reads one version both ways
// (under kVlsmRanged, versions always hold their sublevels). The first value
// comes from the environment variable VLSM_L0_READ_PATH (auto, sublevels or
// files), for binaries that cannot call the setter (upstream's tests,
// db_bench); an unknown value is reported on stderr and ignored.
enum class VlsmL0ReadPath { kAuto, kSublevels, kFiles };
void VlsmSetL0ReadPathForTest(VlsmL0ReadPath path);
VlsmL0ReadPath VlsmL0ReadPathForTest();

// Get's next L0 file (patch 0018, FilePicker): from sublevel *next on,
// newest first, the file of the first sublevel that may hold a version of
// `ikey`'s user key visible at its sequence number; *next moves past that
// sublevel; null once past the oldest. Within a sublevel no two files share
// a user key, so a sublevel has at most one such file.
//
// The files it returns are the ones a search of each sublevel as a level
// finds (FindFile on largest internal keys, then the key within the file's
// user-key bounds), with user-key comparisons: a bytewise memcmp where the
// comparator is BytewiseComparator, no virtual call, and one internal-key
// comparison only when the key equals a file's largest user key (a file
// whose last version of the key is newer than the read holds no visible
// version of it). Each comparison is counted in the perf context's
// user_key_comparison_count, as upstream's level searches count theirs.
//
//   sublevel 1 (newer):  [a .. c]  [f .. h]  [m .. p]
//   sublevel 0 (older):  [b ....... g]  [k ....... q]
//   Get(g): in sublevel 1 the first file ending at or after g is [f .. h],
//   and g >= f: it is probed. In sublevel 0 it is [b .. g], which ends at g:
//   probed only if its last version of g is at or below the read's sequence
//   number; otherwise sublevel 0 has nothing for g ([k .. q] starts past it).
const FdWithKeyRange* VlsmNextL0FileFor(const VlsmL0Sublevels& sublevels,
                                        const Comparator* ucmp,
                                        const InternalKeyComparator& icmp,
                                        const Slice& ikey, size_t* next);

// MultiGet's search of one sublevel (patch 0018, FilePickerMultiGet): the
// index in `run` of the file that may hold a visible version of ikey's user
// key, as VlsmNextL0FileFor decides it for Get; run.num_files if none.
size_t VlsmL0RunFileFor(const LevelFilesBrief& run, const Comparator* ucmp,
                        const InternalKeyComparator& icmp, const Slice& ikey);

// L0's sublevels for a version's L0 (`l0` newest first, `spans` their
// spans): the briefs allocated in `arena`, which must outlive them. Checks,
// in debug builds, that the sublevels keep the epoch order. The version's L0
// model builds them once (VlsmL0Model::sublevels, which reads take through
// VlsmL0SublevelsForReads).
std::unique_ptr<VlsmL0Sublevels> BuildVlsmL0Sublevels(
    const std::vector<FileMetaData*>& l0, const std::vector<KeySpan>& spans,
    const Comparator* ucmp, Arena* arena);

}  // namespace ROCKSDB_NAMESPACE
