// What an L0 step adds to the level below it, per byte of L0 it reads: the
// debt estimate's inflow into the base level under the vLSM layouts.
//
// The estimate (VlsmEstimateCompactionBytes) owes L0's due steps and then
// the base level's bytes over its target, counting the L0 bytes those steps
// move in. Upstream's cascade counts every L0 byte as a byte added below. A
// step under updates adds far less: a key already in L1 (or twice in L0)
// is rewritten, not added. Measured in issue 52's calibration, Zipfian
// updates at the tenth pause (MiB):
//
//     before the settle   L0 148   L1 334   L2 1,245
//     after it            L0 0     L1 252   L2 1,370
//
// L1 and L2 together grew by 43 MiB for the 148 MiB of L0 drained: each L0
// byte added 0.29. The estimate counted all 148 into L1, owed L1's excess
// as 334 + 148 - 256 = 226 MiB to move down where 125 moved (L2's growth),
// and its E/R sat at 1.26-1.49 at every pause past the fourth (the bound
// issue 52 sets is 1.25).
//
// So the inflow is the L0 bytes due times the recent steps' yield, the
// bytes they added below over the L0 bytes they read (a ratio of sums, so
// a big step weighs more than a small one):
//
//     yield = sum (bytes written - bytes read from the level below)
//             / sum (bytes read from L0)
//     over the last kVlsmL0YieldSteps steps out of L0
//
// clamped to [0.5, 1] as issue 52 asks: never above 1 (a step cannot add
// more than it moves down), and never below one half, so that a workload
// turning from updates to inserts under-owes by at most half of one L0
// inflow until its steps are counted. With no step counted yet (a DB just
// opened) it is 1, upstream's. Only the inflow changes: L0's own term (what
// the due steps read) and the priced walk of each level are as before, and
// a level over its target is owed whatever the inflow.
//
// With the yield, the same calibration's E/R is 1.09 with Zipfian updates
// and 1.21 with uniform inserts (1.28 and 1.25 before; medians of three
// runs, docs/results/estimate-priced-1region), and the Zipfian estimate
// peaks under 1 GiB where it crossed it.
//
// The steps are counted per column family (in its CompactionPicker, patch
// 0025) when a compaction out of L0 installs its results, and when a file
// moves out of L0 trivially (it adds all its bytes: a yield of 1), under
// the DB mutex; intra-L0 compactions are not steps out of L0. Each new
// version takes the yield then in force (VersionSet::AppendVersion) and
// keeps it, so every estimate of that version uses the same yield.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class ColumnFamilyData;
class Compaction;
class VersionStorageInfo;

// How many recent L0 steps the yield is taken over: about two L0 cycles of
// the ranged layout (8 to 12 steps each), one of the paper's layout.
constexpr size_t kVlsmL0YieldSteps = 16;
// The clamp issue 52 sets.
constexpr double kVlsmL0YieldMin = 0.5;
constexpr double kVlsmL0YieldMax = 1.0;

// The recent L0 steps of one column family.
class VlsmL0Yield {
 public:
  // One step out of L0: the bytes it read from L0 and from the level it
  // wrote to, and the bytes it wrote. A step that read nothing from L0
  // (none is recorded) changes nothing.
  void Record(uint64_t l0_read, uint64_t below_read, uint64_t written);

  // The bytes the base level gains per L0 byte a due step moves, over the
  // recorded steps, clamped to [kVlsmL0YieldMin, kVlsmL0YieldMax]; 1 with
  // none recorded.
  double InflowPerL0Byte() const;

  size_t steps() const { return count_; }

 private:
  struct Step {
    uint64_t l0_read = 0;
    int64_t added = 0;  // written - below_read: negative if deletes win
  };
  std::array<Step, kVlsmL0YieldSteps> steps_{};
  size_t next_ = 0;   // where the next step goes (the oldest, once full)
  size_t count_ = 0;  // steps recorded, at most kVlsmL0YieldSteps
};

// Records `c` in its column family's VlsmL0Yield if it is a step out of L0
// into a lower level (not an intra-L0 compaction), with what it wrote taken
// from its edit: the table files it adds (a trivial move's are the files
// it moves; blob files are not in what it read, so not in what it wrote).
// Patch 0025 calls it from CompactionJob::InstallCompactionResults and from
// DBImpl::BackgroundCompaction's trivial move, under the DB mutex, once
// the edit holds the step's files and before the version it makes is
// appended.
void VlsmRecordL0Step(Compaction* c);  // not const: Compaction::edit()

// Gives `vstorage`, a version of `cfd` about to be appended, the yield then
// in force (1 for a column family without a compaction picker). Patch 0025
// calls it from VersionSet::AppendVersion, before the version's compaction
// score and estimate are computed.
void VlsmHandL0Yield(ColumnFamilyData* cfd, VersionStorageInfo* vstorage);

}  // namespace ROCKSDB_NAMESPACE
