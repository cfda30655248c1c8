// Ranged L0 layout (issue 20, item 1): L1 compaction outputs are cut at
// L0's guards, the keys where flushes are cut (L0GuardKeys in
// vlsm_flush_split_keys.h), so that L1's files line up with L0's ranges.
//
// Why. A step over one range of L0 rewrites every L1 file its pieces
// overlap. An L1 file that straddles a guard lies under two ranges, and each
// step over either range rewrites all of it, the other range's part too.
// Guards move down to L1's boundaries where they can (AlignGuardsWithL1),
// but a guard stays where L0 holds data below it, and there only a cut in
// L1 gives the two ranges separate files.
//
// Worked example. L1 holds one file [a .. z]; L0's ranges start at "a" and
// "m" (guard "m"). A step over [a .. l] takes L0's pieces there and L1's
// file [a .. z], and writes
//
//     without the cut:  [a ................ z]   the step over [m .. z]
//                                                 rewrites all of it again
//     with the cut:     [a ...... l] [m ... z]   the step over [m .. z]
//                                                 rewrites only its half
//
// The cut is taken even when the piece before it is small (a key or two of
// an L1 file that reached just past the guard): a small L1 file under a
// range is merged by the next step over that range, while an uncut one is
// rewritten by the steps over both.
//
// Kept as stock: trivial moves (a file moved whole is not rewritten, and
// the cut would cost a rewrite to gain a boundary that the next step over
// the range makes anyway), every output level but L1, every layout but
// kVlsmRanged, and user-defined timestamps (guards are plain user keys, as
// for split flushes). A column family's own sst_partitioner_factory still
// cuts where it says: either may cut.
//
// Patch 0014 hooks Compaction::CreateSstPartitioner, which the compaction's
// outputs (CompactionOutputs::ShouldStopBefore asks it before the vSST cut)
// and its trivial-move test both call with the DB mutex held.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rocksdb/sst_partitioner.h"

namespace ROCKSDB_NAMESPACE {

class Comparator;
class Compaction;

// Cuts an output file before the first key at or above each guard, and
// wherever `user` (may be null) requires a cut.
class L0GuardPartitioner : public SstPartitioner {
 public:
  // `guards` ascending by `ucmp`.
  L0GuardPartitioner(std::vector<std::string> guards, const Comparator* ucmp,
                     std::unique_ptr<SstPartitioner> user);
  const char* Name() const override { return "VlsmL0GuardPartitioner"; }
  PartitionerResult ShouldPartition(const PartitionerRequest& request) override;
  bool CanDoTrivialMove(const Slice& smallest_user_key,
                        const Slice& largest_user_key) override;

 private:
  std::vector<std::string> guards_;
  const Comparator* ucmp_;
  size_t next_ = 0;  // the first guard above the last key asked about
  std::unique_ptr<SstPartitioner> user_;
};

// The partitioner for compaction `c`'s outputs: `user` (from the column
// family's sst_partitioner_factory; may be null) unless `c` writes L1 under
// kVlsmRanged, then an L0GuardPartitioner over the guards of `c`'s input
// version. With the DB mutex held: the guards depend on which L0 files are
// being compacted.
std::unique_ptr<SstPartitioner> VlsmCutAtL0Guards(
    const Compaction& c, std::unique_ptr<SstPartitioner> user);

}  // namespace ROCKSDB_NAMESPACE
