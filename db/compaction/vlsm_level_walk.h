// The estimate of pending compaction bytes from L1 down, priced as the
// vLSM picker pays it (compaction_pri = kVlsm or kVlsmRanged).
//
// Upstream's estimate (VersionStorageInfo::EstimateCompactionBytesNeeded)
// charges a level's bytes over its target at the level ratio: every byte
// moved down reads (1 + next / this) bytes, the mean overlap of the level's
// files with the next level. The vLSM picker does not pay the mean. At L1 it
// takes good vSSTs first (OrderL1FilesGoodFirst: least L2 under them first),
// and below L1 kMinOverlappingRatio ranks first the files with nothing under
// them, which move without a byte read (trivial moves). Over the committed
// ranged runs an L1 -> L2 step read about 2.8 bytes per byte moved where the
// ratio charged 6.8, and every L2 -> L3 step was a trivial move where it
// charged 1.1 to 2.0: the estimate owed about twice what the settle then
// read, and the soft limit slowed writes for work no compaction would do.
//
// So each level's excess is priced by walking its files in the order the
// picker takes them (VersionStorageInfo::FilesByCompactionPri), each file
// costing its bytes plus the bytes of the next level it overlaps (by user
// key, as a compaction takes its inputs: L2OverlapPerL1File), or nothing
// when it moves trivially, until the walked bytes cover the excess. A file
// moves trivially as Compaction::IsTrivialMove decides for one file: the
// two levels' files are written alike (the same compression for both, one
// data path), it overlaps nothing in the next level, and it and the level
// after that under it take at most max_compaction_bytes. What the walk
// moves flows into the next level. Past the level's last file (an inflow
// larger than the level) the rest is priced at upstream's ratio, and at
// nothing when the next level is empty, as upstream prices it.
//
// Worked example. L1 target 8 MiB, L2 holds 35 MiB, under its target; L3
// is empty; L1 in pick order (MiB):
//
//     file  size  L2 under it  costs
//     A     2     0            0    (moves trivially)
//     B     2     3            5
//     C     2     12           14
//     D     2     20           22
//
// L1 holds 8 and L0's due steps owe 4 into it: 12 over a target of 8, so 4
// must leave. The walk takes A and B: 4 moved, 5 read. Upstream's ratio
// charges 4 x (1 + 35 / 12), about 15.7. L2 then holds 35 + 4, still
// under its target: nothing more is owed.
//
// What the walk leaves out (vlsm_picker_test's PricedLevelsTest runs it
// against the picker where none of this arises):
//   - it is the version's, static: L1 files that the due L0 steps will
//     grow are priced as they are now;
//   - the picker skips a file whose range in the next level a running
//     compaction writes, and takes a later one;
//   - the picker merges start-level neighbours into one compaction where
//     they add no next-level file (SetupOtherInputs, clean cuts); the walk
//     prices them one by one;
//   - it grows a would-be trivial move by up to three neighbours with
//     nothing under them before it checks the level after
//     (TryExtendNonL0TrivialMove), so a grown move that then fails that
//     check rewrites neighbours the walk prices at nothing;
//   - a user SstPartitioner that refuses a move, and per-key placement,
//     are not asked;
//   - below L1 upstream sorts only the first 50 files of a level by
//     kMinOverlappingRatio (kNumberFilesToSort); the walk follows that
//     order, the rest in key order, as the picker does for that version.
//
// Cost. The walks' prefix sums are built once per version, when it is
// prepared (patch 0020, outside the DB mutex, beside the picker's order);
// under the mutex the estimate is one binary search per level.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "db/compaction/vlsm_l0_due.h"

namespace ROCKSDB_NAMESPACE {

class VersionStorageInfo;
struct FileMetaData;
struct ImmutableOptions;
struct MutableCFOptions;

// One level's files in the order the picker takes them, as prefix sums:
// after its first k files, moved[k] bytes have left the level and read[k]
// bytes were read to move them (a trivially moved file reads none).
struct VlsmLevelWalk {
  std::vector<uint64_t> moved{0};
  std::vector<uint64_t> read{0};

  // Appends the next file of the walk: its bytes and what it reads.
  void Add(uint64_t file_bytes, uint64_t read_bytes);
};

// What compacting one file of a level reads: nothing when it moves
// trivially (next_overlap 0 and file_bytes + grandparent_overlap at most
// max_compaction_bytes, as Compaction::IsTrivialMove decides), else the
// file and the next level's bytes it overlaps.
uint64_t VlsmFileStepReadBytes(uint64_t file_bytes, uint64_t next_overlap,
                               uint64_t grandparent_overlap,
                               uint64_t max_compaction_bytes);

// The walk of one level: `files` sorted by key as a version keeps them,
// `order` the picker's order over them (indexes into `files`; empty, or of
// another size, when the version has none: then key order), `next` and
// `grandparents` the two levels below (the second empty past the last
// level), sorted by key. moves_allowed: whether a file of this level can
// move to the next at all (VlsmTrivialMovesAllowed); if not, every file
// pays its bytes and its overlap.
VlsmLevelWalk BuildVlsmLevelWalk(const std::vector<FileMetaData*>& files,
                                 const std::vector<int>& order,
                                 const std::vector<FileMetaData*>& next,
                                 const std::vector<FileMetaData*>& grandparents,
                                 const Comparator* ucmp,
                                 uint64_t max_compaction_bytes,
                                 bool moves_allowed = true);

// Whether a file of `level` can move trivially into level + 1 at all, by
// what Compaction::IsTrivialMove asks of the whole compaction: one data
// path (`data_paths`, the column family's cf_paths), and the same
// compression for both levels (GetCompressionType's rule: bottommost_
// compression for the last non-empty level and below, else
// compression_per_level, else compression).
bool VlsmTrivialMovesAllowed(const VersionStorageInfo& vstorage,
                             const MutableCFOptions& moptions, int level,
                             size_t data_paths);

// What the fewest files, taken in the walk's order, whose bytes reach
// `need` move and read; all the level's files when they do not reach it.
struct PricedMove {
  uint64_t moved = 0;
  uint64_t read = 0;
};
PricedMove PriceLevelExcess(const VlsmLevelWalk& walk, uint64_t need);

// Every compacted level's walk (L1 to the second last; L0's own term is
// L0DebtTerm's), for one version.
class VlsmLevelWalks {
 public:
  // orders[level]: the picker's order of the level's files (the version's
  // files_by_compaction_pri_, which the version hands out only once it is
  // finalized); a level without one is walked in key order.
  // data_paths: the column family's cf_paths (VlsmTrivialMovesAllowed).
  VlsmLevelWalks(const VersionStorageInfo& vstorage,
                 const std::vector<std::vector<int>>& orders,
                 const MutableCFOptions& moptions, size_t data_paths);
  // The walk of `level`; an empty walk for L0, the last level and levels
  // out of range.
  const VlsmLevelWalk& level(int level) const;

 private:
  std::vector<VlsmLevelWalk> levels_;
  VlsmLevelWalk empty_;
};

// The walks a version being prepared keeps: built under the vLSM layouts,
// null under stock priorities, whose estimate is upstream's. Patch 0020
// calls it from VersionStorageInfo::PrepareForVersionAppend, after the
// picker's order (`orders`, one per level) is built.
std::shared_ptr<const VlsmLevelWalks> BuildVlsmLevelWalks(
    const VersionStorageInfo& vstorage,
    const std::vector<std::vector<int>>& orders,
    const ImmutableOptions& ioptions, const MutableCFOptions& moptions);

// The walks the version holds, or, for a version that has none (prepared
// under a stock priority: by a flush or compaction that began before a live
// switch to a vLSM layout), ones built now in key order: the picker's order of such a version is stock's, and the version
// may not be finalized yet (ComputeCompactionScore runs before), when it
// does not hand the order out; with one data path assumed.
std::shared_ptr<const VlsmLevelWalks> VlsmLevelWalksOf(
    const VersionStorageInfo& vstorage, const MutableCFOptions& moptions);

// The estimate of pending compaction bytes under a vLSM layout: L0's term
// (`l0`, VlsmL0DebtTermOf), then from the base level down each level's
// excess over its target, after the inflow from the level above, priced by
// its walk. L0's inflow into the base level is its due bytes times the
// version's vlsm_l0_yield (what recent L0 steps added below per L0 byte,
// db/compaction/vlsm_l0_yield.h). Patch 0020 calls it from EstimateCompactionBytesNeeded in
// place of upstream's cascade, whose shape it keeps.
uint64_t VlsmEstimateCompactionBytes(const VersionStorageInfo& vstorage,
                                     const MutableCFOptions& moptions,
                                     const L0DebtTerm& l0);

}  // namespace ROCKSDB_NAMESPACE
