// The public vLSM setup of include/rocksdb/vlsm.h: ConfigureVlsm() builds a
// column family's options from (S_M, f, Phi); CheckVlsmOptions() judges any
// column family's options, and is the check DB::Open, CreateColumnFamily and
// SetOptions run (patch 0002), so users and the DB refuse the same things.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "options/compaction_pri_name.h"
#include "options/vlsm_drain_settings.h"
#include "options/vlsm_layout.h"
#include "options/vlsm_sizing.h"
#include "rocksdb/vlsm.h"

namespace ROCKSDB_NAMESPACE {

std::string VlsmOptionsFieldName(VlsmParameter parameter) {
  switch (parameter) {
    case VlsmParameter::kSstSize:
      return "sst_size (S_M)";
    case VlsmParameter::kGrowth:
      return "growth (f)";
    case VlsmParameter::kL1L2Growth:
      return "l1_l2_growth (Phi)";
    case VlsmParameter::kNumLevels:
      return "num_levels";
    case VlsmParameter::kRangedL0Depth:
      return "ranged_l0_depth";
    case VlsmParameter::kL0Layout:
      return "l0_layout";
    case VlsmParameter::kMemtableSize:
      return "memtable_size";
    case VlsmParameter::kMemtableCount:
      return "memtable_count";
    case VlsmParameter::kL1Size:
      return "l1_size (L1)";
    case VlsmParameter::kSoftPendingCompactionBytesLimit:
      return "soft_pending_compaction_bytes_limit";
    case VlsmParameter::kHardPendingCompactionBytesLimit:
      return "hard_pending_compaction_bytes_limit";
    case VlsmParameter::kRangedSlowdownTrigger:
      return "ranged_slowdown_trigger";
    case VlsmParameter::kRangedStopTrigger:
      return "ranged_stop_trigger";
  }
  return "?";
}

Status CheckVlsmSizing(const VlsmOptions& vlsm, int num_levels,
                       VlsmParameterNamer name) {
  using P = VlsmParameter;
  if (vlsm.sst_size == 0) {
    return Status::InvalidArgument("vLSM " + name(P::kSstSize) +
                                   " must be > 0");
  }
  if (vlsm.growth < 2) {
    return Status::InvalidArgument("vLSM " + name(P::kGrowth) +
                                   " must be >= 2, got " +
                                   std::to_string(vlsm.growth));
  }
  if (vlsm.l1_l2_growth < vlsm.growth || vlsm.l1_l2_growth % vlsm.growth != 0) {
    // RocksDB's per-level multipliers (additional[1] = Phi / f) are integers.
    return Status::InvalidArgument(
        "vLSM " + name(P::kL1L2Growth) + " must be a positive multiple of " +
        name(P::kGrowth) + ": Phi = " + std::to_string(vlsm.l1_l2_growth) +
        ", f = " + std::to_string(vlsm.growth));
  }
  // L1 = f * S_M, L2 = Phi * L1 and max_compaction_bytes = (f + 2) * S_M
  // must fit in 64 bits.
  const uint64_t kMax = ~uint64_t{0};
  const uint64_t f = static_cast<uint64_t>(vlsm.growth);
  const uint64_t phi = static_cast<uint64_t>(vlsm.l1_l2_growth);
  if (vlsm.sst_size > kMax / (f + 2) || vlsm.sst_size * f > kMax / phi) {
    return Status::InvalidArgument("vLSM " + name(P::kSstSize) +
                                   " is too large: " +
                                   std::to_string(vlsm.sst_size));
  }
  // The stall triggers ConfigureVlsm derives from the depth (2 * depth + 4,
  // then + 16) must fit RocksDB's int triggers.
  constexpr int kMaxRangedL0Depth = 1 << 20;
  if (vlsm.l0_layout == VlsmL0Layout::kRanged &&
      (vlsm.ranged_l0_depth < 1 || vlsm.ranged_l0_depth > kMaxRangedL0Depth)) {
    return Status::InvalidArgument(
        "vLSM " + name(P::kRangedL0Depth) + " must be >= 1 and <= " +
        std::to_string(kMaxRangedL0Depth) + ", got " +
        std::to_string(vlsm.ranged_l0_depth));
  }
  // The sizes that override ConfigureVlsm's derived values (0: derived).
  if (static_cast<uint64_t>(static_cast<size_t>(vlsm.memtable_size)) !=
      vlsm.memtable_size) {
    return Status::InvalidArgument("vLSM " + name(P::kMemtableSize) +
                                   " is too large: " +
                                   std::to_string(vlsm.memtable_size));
  }
  if (vlsm.memtable_count != 0 && vlsm.memtable_count < 2) {
    // RocksDB would raise it to 2 unasked: a flush needs a second memtable
    // to take writes meanwhile.
    return Status::InvalidArgument("vLSM " + name(P::kMemtableCount) +
                                   " must be >= 2 (or 0 for 2), got " +
                                   std::to_string(vlsm.memtable_count));
  }
  if (vlsm.l1_size != 0 && vlsm.l1_size < vlsm.sst_size) {
    return Status::InvalidArgument(
        "vLSM " + name(P::kL1Size) + " must be >= " + name(P::kSstSize) +
        " (or 0 for f * S_M): L1 = " + std::to_string(vlsm.l1_size) +
        ", S_M = " + std::to_string(vlsm.sst_size));
  }
  if (vlsm.l1_size > kMax / phi) {  // L2 = Phi * L1
    return Status::InvalidArgument("vLSM " + name(P::kL1Size) +
                                   " is too large: " +
                                   std::to_string(vlsm.l1_size));
  }
  if (vlsm.soft_pending_compaction_bytes_limit != 0 &&
      vlsm.hard_pending_compaction_bytes_limit != 0 &&
      vlsm.hard_pending_compaction_bytes_limit <
          vlsm.soft_pending_compaction_bytes_limit) {
    return Status::InvalidArgument(
        "vLSM " + name(P::kHardPendingCompactionBytesLimit) + " must be >= " +
        name(P::kSoftPendingCompactionBytesLimit) + ": " +
        std::to_string(vlsm.hard_pending_compaction_bytes_limit) + " < " +
        std::to_string(vlsm.soft_pending_compaction_bytes_limit));
  }
  // Counts of memtables; the bound keeps a derived stop trigger (slowdown
  // + 16) within RocksDB's int triggers.
  constexpr int kMaxRangedStallTrigger = 1 << 24;
  for (P trigger : {P::kRangedSlowdownTrigger, P::kRangedStopTrigger}) {
    const int value = trigger == P::kRangedSlowdownTrigger
                          ? vlsm.ranged_slowdown_trigger
                          : vlsm.ranged_stop_trigger;
    if (value == 0) {
      continue;
    }
    if (vlsm.l0_layout != VlsmL0Layout::kRanged) {
      return Status::InvalidArgument(
          "vLSM " + name(trigger) + " is for the ranged L0 layout only (" +
          name(P::kL0Layout) + "); leave it 0 for the paper's");
    }
    if (value < 0 || value > kMaxRangedStallTrigger) {
      return Status::InvalidArgument(
          "vLSM " + name(trigger) + " must be >= 0 (0: derived) and <= " +
          std::to_string(kMaxRangedStallTrigger) + ", got " +
          std::to_string(value));
    }
  }
  if (vlsm.ranged_slowdown_trigger != 0 &&
      vlsm.ranged_slowdown_trigger < vlsm.ranged_l0_depth) {
    // RocksDB would raise it to level0_file_num_compaction_trigger unasked:
    // writes would slow down before a range may compact.
    return Status::InvalidArgument(
        "vLSM " + name(P::kRangedSlowdownTrigger) + " must be >= " +
        name(P::kRangedL0Depth) + ": " +
        std::to_string(vlsm.ranged_slowdown_trigger) + " < " +
        std::to_string(vlsm.ranged_l0_depth));
  }
  if (vlsm.ranged_slowdown_trigger != 0 && vlsm.ranged_stop_trigger != 0 &&
      vlsm.ranged_stop_trigger <= vlsm.ranged_slowdown_trigger) {
    return Status::InvalidArgument(
        "vLSM " + name(P::kRangedStopTrigger) + " must be > " +
        name(P::kRangedSlowdownTrigger) + ": " +
        std::to_string(vlsm.ranged_stop_trigger) + " <= " +
        std::to_string(vlsm.ranged_slowdown_trigger));
  }
  if (num_levels < 3) {
    return Status::InvalidArgument(
        "vLSM needs " + name(P::kNumLevels) +
        " >= 3 (L0, the vSST level L1 and L2), got " +
        std::to_string(num_levels));
  }
  return Status::OK();
}

Status ParseVlsmL0Layout(const std::string& name, VlsmL0Layout* layout) {
  for (VlsmL0Layout l : {VlsmL0Layout::kSingleFile, VlsmL0Layout::kRanged}) {
    if (name == VlsmL0LayoutName(l)) {
      *layout = l;
      return Status::OK();
    }
  }
  // Callers name their flag or setting in front ("--vlsm_l0 is ...").
  return Status::InvalidArgument("is single or ranged, got '" + name + "'");
}

const char* VlsmL0LayoutName(VlsmL0Layout layout) {
  return layout == VlsmL0Layout::kRanged ? "ranged" : "single";
}

Status ConfigureVlsm(ColumnFamilyOptions* cf_options, const VlsmOptions& vlsm) {
  if (cf_options == nullptr) {
    return Status::InvalidArgument("ConfigureVlsm: cf_options is null");
  }
  Status s =
      CheckVlsmSizing(vlsm, cf_options->num_levels, &VlsmOptionsFieldName);
  if (!s.ok()) {
    return s;
  }
  const uint64_t f = static_cast<uint64_t>(vlsm.growth);
  ColumnFamilyOptions o = *cf_options;  // committed only if all is well
  o.compaction_style = kCompactionStyleLevel;
  const bool ranged = vlsm.l0_layout == VlsmL0Layout::kRanged;
  o.compaction_pri = CompactionPriOf(VlsmLayoutOf(vlsm.l0_layout));
  o.target_file_size_base = vlsm.sst_size;
  o.target_file_size_multiplier = 1;
  o.write_buffer_size = static_cast<size_t>(
      vlsm.memtable_size != 0 ? vlsm.memtable_size : vlsm.sst_size);
  o.max_write_buffer_number =
      vlsm.memtable_count != 0 ? vlsm.memtable_count : 2;
  o.max_bytes_for_level_base =
      vlsm.l1_size != 0 ? vlsm.l1_size : f * vlsm.sst_size;
  o.max_bytes_for_level_multiplier = static_cast<double>(vlsm.growth);
  o.max_bytes_for_level_multiplier_additional.assign(
      static_cast<size_t>(o.num_levels), 1);
  // additional[1] scales L2 relative to L1 (on top of f).
  o.max_bytes_for_level_multiplier_additional[1] =
      vlsm.l1_l2_growth / vlsm.growth;
  o.level_compaction_dynamic_level_bytes = false;
  o.level0_file_num_compaction_trigger = ranged ? vlsm.ranged_l0_depth : 1;
  if (ranged) {
    // L0's stall triggers (memtables' worth of L0's bytes under this
    // layout): unless given, kept well above the depth at which a range
    // compacts.
    o.level0_slowdown_writes_trigger =
        vlsm.ranged_slowdown_trigger != 0
            ? vlsm.ranged_slowdown_trigger
            : std::max(o.level0_slowdown_writes_trigger,
                       2 * vlsm.ranged_l0_depth + 4);
    o.level0_stop_writes_trigger =
        vlsm.ranged_stop_trigger != 0
            ? vlsm.ranged_stop_trigger
            : std::max(o.level0_stop_writes_trigger,
                       o.level0_slowdown_writes_trigger + 16);
    // Only a given stop trigger can be below a derived slowdown trigger.
    if (o.level0_stop_writes_trigger <= o.level0_slowdown_writes_trigger) {
      return Status::InvalidArgument(
          "vLSM " + VlsmOptionsFieldName(VlsmParameter::kRangedStopTrigger) +
          " must be > the slowdown trigger, " +
          std::to_string(o.level0_slowdown_writes_trigger) + ", got " +
          std::to_string(o.level0_stop_writes_trigger));
    }
  }
  if (vlsm.soft_pending_compaction_bytes_limit != 0) {
    o.soft_pending_compaction_bytes_limit =
        vlsm.soft_pending_compaction_bytes_limit;
  }
  if (vlsm.hard_pending_compaction_bytes_limit != 0) {
    o.hard_pending_compaction_bytes_limit =
        vlsm.hard_pending_compaction_bytes_limit;
  }
  // One limit given, the other the options': RocksDB would lower the soft
  // limit to the hard one unasked.
  if ((vlsm.soft_pending_compaction_bytes_limit != 0 ||
       vlsm.hard_pending_compaction_bytes_limit != 0) &&
      o.hard_pending_compaction_bytes_limit != 0 &&
      o.hard_pending_compaction_bytes_limit <
          o.soft_pending_compaction_bytes_limit) {
    const VlsmParameter given =
        vlsm.hard_pending_compaction_bytes_limit != 0
            ? VlsmParameter::kHardPendingCompactionBytesLimit
            : VlsmParameter::kSoftPendingCompactionBytesLimit;
    return Status::InvalidArgument(
        "vLSM " + VlsmOptionsFieldName(given) +
        " would leave the hard pending-compaction limit below the soft: " +
        std::to_string(o.hard_pending_compaction_bytes_limit) + " < " +
        std::to_string(o.soft_pending_compaction_bytes_limit));
  }
  o.max_compaction_bytes = (f + 2) * vlsm.sst_size;
  if (ranged) {
    // The drain at rest's settings, in the options system: options strings
    // and OPTIONS files carry them (options/vlsm_drain_settings.h).
    AddVlsmDrainSettings(&o);
  }
  s = CheckVlsmOptions(o);
  if (s.ok()) {
    *cf_options = o;
  }
  return s;
}

Status CheckVlsmOptions(const ColumnFamilyOptions& cf_options) {
  // Two would each claim the drain's settings; the column family reads one.
  const int drain_settings =
      CountVlsmDrainSettings(cf_options.table_properties_collector_factories);
  if (drain_settings > 1) {
    return Status::InvalidArgument(
        "table_properties_collectors holds " + std::to_string(drain_settings) +
        " " + VlsmDrainAtRestSettings::kClassName() +
        " objects (the drain at rest's settings): keep one");
  }
  if (!IsVlsmCompactionPri(cf_options.compaction_pri)) {
    return Status::OK();
  }
  // Every message names the value the column family uses.
  const std::string pri =
      "compaction_pri=" + CompactionPriName(cf_options.compaction_pri);
  const char* kHint = " (ConfigureVlsm() in rocksdb/vlsm.h sets every option "
                      "vLSM needs)";
  if (cf_options.compaction_style != kCompactionStyleLevel) {
    return Status::InvalidArgument(
        pri + " needs compaction_style=kCompactionStyleLevel",
        kHint);
  }
  if (cf_options.level_compaction_dynamic_level_bytes) {
    return Status::InvalidArgument(
        pri + " needs level_compaction_dynamic_level_bytes="
        "false: dynamic level sizing ignores "
        "max_bytes_for_level_multiplier_additional, which sets Phi",
        kHint);
  }
  if (cf_options.num_levels < 3) {
    return Status::InvalidArgument(
        pri + " needs num_levels >= 3 (L0, the vSST level L1 "
        "and L2)",
        kHint);
  }
  const double f = cf_options.max_bytes_for_level_multiplier;
  if (!std::isfinite(f) || f < 2 || std::floor(f) != f) {
    // VsstCutPolicyFor() takes f as an integer (S_m = S_M / f, the bound
    // f * S_M): a fraction would silently be cut off.
    return Status::InvalidArgument(
        pri + " needs max_bytes_for_level_multiplier (f) to be "
        "a whole number >= 2, got " + std::to_string(f),
        kHint);
  }
  if (cf_options.target_file_size_base == 0) {
    return Status::InvalidArgument(
        pri + " needs target_file_size_base (S_M) > 0", kHint);
  }
  return Status::OK();
}

}  // namespace ROCKSDB_NAMESPACE
