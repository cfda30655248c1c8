// vLSM compaction: one call to turn it on.
//
// vLSM (Xanthakis et al., "vLSM: Low tail latency and I/O amplification in
// LSM-based KV stores") shortens the compaction chains behind write stalls:
// L0 is compacted one file at a time, oldest first; SSTs are small (S_M);
// L1 is built of overlap-aware variable-size SSTs so that L1 -> L2 steps stay
// narrow although L2 is Phi times L1 (Phi > f). It is selected per column
// family with compaction_pri = kVlsm; ConfigureVlsm() sets that and every
// option it depends on. docs/vlsm.md explains each choice.
//
// A second L0 layout, compaction_pri = kVlsmRanged (experimental, issue 20),
// lets L0 hold several flushes and compacts it into L1 one key range at a
// time, so that steps stay narrow at a lower cost per byte flushed.
//
// No public struct changes layout: a program built against stock RocksDB
// 9.10 headers runs on this library unchanged.
#pragma once

#include <cstdint>

#include "rocksdb/options.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

// How L0 is compacted into L1.
enum class VlsmL0Layout : char {
  // The paper's: one L0 file per step, oldest first (compaction_pri=kVlsm).
  kSingleFile,
  // Experimental: L0 holds up to ranged_l0_depth flushes over any key; a
  // step takes the deepest key range of L0 with every older L0 file that
  // overlaps it, and the L1 files below (compaction_pri=kVlsmRanged).
  // Flushes are split by key range, at guards taken from L1's file
  // boundaries, so that a step takes one range of every flush in L0; write
  // stalls count L0's bytes in memtables' worth (docs/vlsm.md, "ranged L0").
  kRanged,
};

struct VlsmOptions {
  // S_M: the maximum SST size, and the memtable size. L1 vSSTs are between
  // S_M / f and S_M.
  uint64_t sst_size = 8 << 20;
  // f: the growth factor between every pair of levels except L1 -> L2.
  int growth = 8;
  // Phi: the growth factor L1 -> L2; a multiple of f (RocksDB's per-level
  // multipliers are integers).
  int l1_l2_growth = 32;
  VlsmL0Layout l0_layout = VlsmL0Layout::kSingleFile;
  // kRanged only: the L0 depth (flushes over one key) at which a range is
  // compacted. ConfigureVlsm sets level0_file_num_compaction_trigger to it;
  // under kVlsmRanged that trigger is compared with L0's depth (the most L0
  // files over one key), not with L0's file count. A range is compacted by
  // the time its L0 holds about its L1's bytes: the depth in force is at
  // most one more than L1's whole memtables' worth, so a fresh DB's first
  // steps are narrow too, and in a settled tree a depth above about
  // L1's target in memtables' worth (f with these sizes) is not reached.
  int ranged_l0_depth = 8;
};

// Sets, from (S_M, f, Phi) and the L0 layout:
//   compaction_style = kCompactionStyleLevel,
//   compaction_pri = kVlsm (kVlsmRanged for the ranged layout),
//   target_file_size_base = write_buffer_size = S_M,
//   target_file_size_multiplier = 1, max_write_buffer_number = 2,
//   max_bytes_for_level_base = f * S_M (L1),
//   max_bytes_for_level_multiplier = f,
//   max_bytes_for_level_multiplier_additional = {1, Phi / f, 1, ...}
//     (so L2 = Phi * L1 and every later level is f times the one above),
//   level_compaction_dynamic_level_bytes = false,
//   level0_file_num_compaction_trigger = 1 (ranged_l0_depth when ranged;
//     then also level0_slowdown_writes_trigger >= 2 * depth + 4 and
//     level0_stop_writes_trigger >= slowdown + 16, so writes do not slow
//     down before a range may compact; in that layout the two stall
//     triggers count L0's bytes in memtables' worth, write_buffer_size each),
//   max_compaction_bytes = (f + 2) * S_M (one file and the f + 1 files it
//     can overlap in the level below).
// num_levels is kept; it must be >= 3. On bad input returns InvalidArgument
// naming the rule broken, and leaves *cf_options unchanged.
Status ConfigureVlsm(ColumnFamilyOptions* cf_options,
                     const VlsmOptions& vlsm = VlsmOptions());

// OK, or InvalidArgument naming the option to change, for a column family
// that uses (or not) compaction_pri = kVlsm or kVlsmRanged. DB::Open,
// CreateColumnFamily and SetOptions run this same function.
Status CheckVlsmOptions(const ColumnFamilyOptions& cf_options);

// Whether `pri` is one of vLSM's layouts (kVlsm or kVlsmRanged): the rules
// the two share (vSSTs in L1, no intra-L0 compaction, the L0 order rule)
// apply.
inline bool IsVlsmCompactionPri(CompactionPri pri) {
  return pri == kVlsm || pri == kVlsmRanged;
}

// DB properties of a column family's L0 (DB::GetIntProperty, or GetProperty
// as decimal text), under every compaction_pri: what the ranged layout
// compacts and stalls on, so that a user can watch it.
struct VlsmProperties {
  // The most L0 files over any one user key: how many flushes (or L0
  // compaction outputs) a read of the deepest key may have to search.
  static constexpr const char* kL0Depth = "rocksdb.vlsm.l0-depth";
  // L0's bytes (the sum of its files' sizes).
  static constexpr const char* kL0Bytes = "rocksdb.vlsm.l0-bytes";
  // What level0_slowdown_writes_trigger and level0_stop_writes_trigger are
  // compared with: L0's file count, or under kVlsmRanged L0's bytes in
  // memtables' worth (write_buffer_size each, rounded up).
  static constexpr const char* kL0StallCount = "rocksdb.vlsm.l0-stall-count";
  // Under kVlsmRanged, the depth at which a range of L0 compacts now
  // (level0_file_num_compaction_trigger, or less while L1 is small); under
  // the other priorities, level0_file_num_compaction_trigger.
  static constexpr const char* kL0DepthTrigger =
      "rocksdb.vlsm.l0-depth-trigger";
};

}  // namespace ROCKSDB_NAMESPACE
