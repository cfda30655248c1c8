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
// A second L0 layout, compaction_pri = kVlsmRanged, lets L0 hold several
// flushes and compacts it into L1 one key range at a time, so that steps
// stay narrow at a lower cost per byte flushed. It is the recommended one:
// ConfigureVlsm(&cf_options, VlsmOptions::Ranged()) sets the configuration
// it was measured with. kVlsm (VlsmOptions()) reproduces the paper
// faithfully.
//
// No public struct changes layout: a program built against stock RocksDB
// 9.10 headers runs on this library unchanged.
#pragma once


#include <cstdint>
#include <string>

#include "rocksdb/options.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

// How L0 is compacted into L1.
enum class VlsmL0Layout : char {
  // The paper's: one L0 file per step, oldest first (compaction_pri=kVlsm).
  kSingleFile,
  // The recommended one (VlsmOptions::Ranged() sets it up as measured): L0
  // holds up to ranged_l0_depth flushes over any key; a step takes the
  // deepest key range of L0 with every older L0 file that overlaps it, and
  // the L1 files below (compaction_pri=kVlsmRanged).
  // Flushes are split by key range, at guards taken from L1's file
  // boundaries, so that a step takes one range of every flush in L0; write
  // stalls count L0's bytes in memtables' worth (docs/design/ranged-layout.md).
  kRanged,
};

struct VlsmOptions {
  // S_M: the maximum SST size, and the memtable size unless memtable_size
  // is set. L1 vSSTs are between S_M / f and S_M.
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

  // Sizes ConfigureVlsm otherwise derives. 0, the default, keeps what is in
  // parentheses, so VlsmOptions() configures the paper's tree unchanged.
  // write_buffer_size (sst_size).
  uint64_t memtable_size = 0;
  // max_write_buffer_number, >= 2 (2).
  int memtable_count = 0;
  // L1's target, max_bytes_for_level_base, >= sst_size (growth * sst_size).
  uint64_t l1_size = 0;
  // The pending-compaction limits (the caller's options keep theirs; so
  // "no limit", RocksDB's 0, is set on the options themselves).
  uint64_t soft_pending_compaction_bytes_limit = 0;
  uint64_t hard_pending_compaction_bytes_limit = 0;
  // kRanged only: level0_slowdown_writes_trigger (>= ranged_l0_depth) and
  // level0_stop_writes_trigger (> the slowdown trigger), in memtables' worth
  // of L0's bytes (derived from ranged_l0_depth: see ConfigureVlsm).
  int ranged_slowdown_trigger = 0;
  int ranged_stop_trigger = 0;

  // The recommended configuration: the ranged layout as it was measured
  // (system "vlsm-ranged-rs32-deep" of scripts/bench/systems.py). num_levels
  // is the caller's, as always.
  static VlsmOptions Ranged();
};

inline VlsmOptions VlsmOptions::Ranged() {
  VlsmOptions v;
  v.l0_layout = VlsmL0Layout::kRanged;
  // S_M 8 MiB, the paper's: small L1 files straddle a range's ends by
  // little, so a step reads little of L1 beyond its range.
  v.sst_size = 8 << 20;
  // RocksDB's level shape: L1 256 MiB, then 8x at every level (Phi = f).
  v.l1_size = 256 << 20;
  v.growth = 8;
  v.l1_l2_growth = 8;
  // 4 x 32 MiB: RocksDB's memtable budget (2 x 64 MiB); a larger flush is
  // cut into more ranges, so a range is narrower for the same L0 bytes.
  v.memtable_size = 32 << 20;
  v.memtable_count = 4;
  // Depth 8 x 32 MiB ~= L1's 256 MiB: a step costs about what RocksDB's
  // L0 -> L1 does while taking one key range.
  v.ranged_l0_depth = 8;
  // RocksDB's room before a stall: writes slow at 40 and stop at 72
  // memtables' worth of L0 (1.25 / 2.25 GiB, RocksDB's 20 / 36 files of
  // 64 MiB), and upstream's debt limits, 64 / 256 GiB. Steps fall due as
  // before (depth 8, L0's byte target 256 MiB), so they stay narrow; the
  // room only lets L0 and the debt absorb a spell where writes outrun
  // compaction, as RocksDB's do. Until issue 52 the preset stalled at
  // 17 / 21 and at RocksDB-IO's 1 / 2 GiB: on a device that halved
  // RocksDB's rate it then stalled 262 s at 80% of that rate where RocksDB
  // stalled none (docs/results/slow-device-1region-12M); with this room
  // it never stalled there, and on the evaluation's device it kept its
  // steps and tail (docs/results/preset-room-1region-12M).
  v.ranged_slowdown_trigger = 40;
  v.ranged_stop_trigger = 72;
  v.soft_pending_compaction_bytes_limit = uint64_t{64} << 30;
  v.hard_pending_compaction_bytes_limit = uint64_t{256} << 30;
  return v;
}

// Sets, from (S_M, f, Phi), the L0 layout and the sizes of VlsmOptions
// (a field left 0 gives the value in parentheses):
//   compaction_style = kCompactionStyleLevel,
//   compaction_pri = kVlsm (kVlsmRanged for the ranged layout),
//   target_file_size_base = S_M, target_file_size_multiplier = 1,
//   write_buffer_size = memtable_size (S_M),
//   max_write_buffer_number = memtable_count (2),
//   max_bytes_for_level_base = l1_size (f * S_M),
//   max_bytes_for_level_multiplier = f,
//   max_bytes_for_level_multiplier_additional = {1, Phi / f, 1, ...}
//     (so L2 = Phi * L1 and every later level is f times the one above),
//   level_compaction_dynamic_level_bytes = false,
//   level0_file_num_compaction_trigger = 1 (ranged_l0_depth when ranged;
//     then also level0_slowdown_writes_trigger = ranged_slowdown_trigger
//     (the larger of the options' value and 2 * depth + 4) and
//     level0_stop_writes_trigger = ranged_stop_trigger (the larger of the
//     options' value and slowdown + 16), so writes do not slow down before
//     a range may compact; in that layout the two stall triggers count L0's
//     bytes in memtables' worth, write_buffer_size each),
//   soft_pending_compaction_bytes_limit and
//     hard_pending_compaction_bytes_limit = the fields of those names
//     (the options' values),
//   max_compaction_bytes = (f + 2) * S_M (one file and the f + 1 files it
//     can overlap in the level below),
//   table_properties_collectors: the ranged layout's drain settings, one
//     VlsmDrainAtRest with the defaults unless one is there (see
//     VlsmDrainOptions).
// num_levels is kept; it must be >= 3. On bad input returns InvalidArgument
// naming the rule broken, and leaves *cf_options unchanged.
Status ConfigureVlsm(ColumnFamilyOptions* cf_options,
                     const VlsmOptions& vlsm = VlsmOptions());

// The names of the two L0 layouts as tools and settings files take them:
// "single" (VlsmL0Layout::kSingleFile) and "ranged" (kRanged).
// ParseVlsmL0Layout: otherwise InvalidArgument whose message
// ("is single or ranged, got 'x'") follows the caller's flag name.
Status ParseVlsmL0Layout(const std::string& name, VlsmL0Layout* layout);
const char* VlsmL0LayoutName(VlsmL0Layout layout);

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

// The drain at rest (compaction_pri = kVlsmRanged;
// docs/design/ranged-layout.md, "The drain at rest"): once a column family
// is at rest (no flush for max(min seconds, flush intervals x the recent
// interval between flushes), or DB::WaitForCompact called) and
// no compaction is due, L0 is compacted into L1 in bounded steps until no
// key lies under more than one L0 file; a flush stops it. Steps are tagged
// CompactionReason::kVlsmDrainAtRest. Its settings travel in the options
// system as one registered object, VlsmDrainAtRest, in
// table_properties_collectors (ColumnFamilyOptions keeps upstream's layout,
// so it has no field for them; the object collects nothing). ConfigureVlsm
// puts one with the defaults into the ranged layout's options; an options
// string or OPTIONS file sets them:
//   table_properties_collectors={id=VlsmDrainAtRest;vlsm_drain_at_rest=false}
// On an open DB, SetOptions changes them (the DB's own copy, which
// GetOptions hands out: change them only through SetOptions), and GetOptions
// and the OPTIONS file show them:
//   db->SetOptions(cf, {{VlsmDrainOptions::kEnabled, "false"}});
// Options without the object drain with the defaults (SetOptions still
// changes them, for that open only). Stock RocksDB skips the object when it
// reads such an OPTIONS file.
struct VlsmDrainOptions {
  // "true" (the default) or "false".
  static constexpr const char* kEnabled = "vlsm_drain_at_rest";
  // Seconds without a flush before a rest (default 30).
  static constexpr const char* kMinQuietSeconds = "vlsm_rest_min_seconds";
  // Recent flush intervals without a flush before a rest (default 8).
  static constexpr const char* kFlushIntervals = "vlsm_rest_flush_intervals";
};

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
  // memtables' worth (write_buffer_size each, rounded up); the latter also
  // under any other priority while L0 still holds a split flush (after
  // leaving the ranged layout), so that its pieces do not stop writes.
  static constexpr const char* kL0StallCount = "rocksdb.vlsm.l0-stall-count";
  // Under kVlsmRanged, the depth at which a range of L0 compacts now
  // (level0_file_num_compaction_trigger, or less while L1 is small); under
  // the other priorities, level0_file_num_compaction_trigger.
  static constexpr const char* kL0DepthTrigger =
      "rocksdb.vlsm.l0-depth-trigger";
  // How many sorted runs of disjoint files ("sublevels") L0 splits into,
  // each file one above the newest older file it overlaps. Under
  // kVlsmRanged a read of L0 searches at most this many files, one per
  // sublevel; under the other priorities reads search L0 file by file, and
  // this is what reading it by sublevels would cost. At least the depth.
  static constexpr const char* kL0Sublevels = "rocksdb.vlsm.l0-sublevels";
  // How many times, in this process (every DB and column family), a column
  // family under a vLSM layout had writes that may wait on compaction (a
  // pending-compaction estimate above zero, or L0 one memtable short of the
  // slowdown trigger) with no compaction due or running to end the wait,
  // checked at every install of a new version. Each is a bug: 0 is the only
  // right value. Builds with assertions stop at the first.
  static constexpr const char* kLivenessBreaks = "rocksdb.vlsm.liveness-breaks";
};

}  // namespace ROCKSDB_NAMESPACE
