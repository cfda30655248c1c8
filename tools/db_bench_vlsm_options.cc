#include "tools/db_bench_vlsm_options.h"

#include <functional>

#include "options/compaction_pri_name.h"
#include "options/vlsm_presets.h"
#include "options/vlsm_sizing.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// The --vlsm_* flag (or db_bench flag) that sets each vLSM parameter: the
// names CheckVlsmSizing() uses in db_bench_vlsm's messages.
std::string FlagName(VlsmParameter parameter) {
  switch (parameter) {
    case VlsmParameter::kSstSize:
      return "--vlsm_sst_size (S_M)";
    case VlsmParameter::kGrowth:
      return "--vlsm_growth (f)";
    case VlsmParameter::kL1L2Growth:
      return "--vlsm_phi (Phi)";
    case VlsmParameter::kNumLevels:
      return "--num_levels";
    case VlsmParameter::kRangedL0Depth:
      return "--vlsm_ranged_l0_depth";
    case VlsmParameter::kL0Layout:
      return "--vlsm_l0";
    // No flag sets these VlsmOptions fields (db_bench's own flags, such as
    // --write_buffer_size, override ConfigureVlsm's values instead): they
    // stay 0, and are named as the fields if ever checked.
    case VlsmParameter::kMemtableSize:
    case VlsmParameter::kMemtableCount:
    case VlsmParameter::kL1Size:
    case VlsmParameter::kSoftPendingCompactionBytesLimit:
    case VlsmParameter::kHardPendingCompactionBytesLimit:
    case VlsmParameter::kRangedSlowdownTrigger:
    case VlsmParameter::kRangedStopTrigger:
      return VlsmOptionsFieldName(parameter);
  }
  return "?";
}

// One db_bench flag and the option field(s) it sets.
struct OwnedFlag {
  const char* flag;
  std::function<void(const Options& from, Options* to)> copy;
  std::function<std::string(const Options&)> show;
};

const std::vector<OwnedFlag>& OwnedFlags() {
  static const std::vector<OwnedFlag> kFlags = {
      {"write_buffer_size",
       [](const Options& f, Options* t) { t->write_buffer_size = f.write_buffer_size; },
       [](const Options& o) { return std::to_string(o.write_buffer_size); }},
      {"max_write_buffer_number",
       [](const Options& f, Options* t) { t->max_write_buffer_number = f.max_write_buffer_number; },
       [](const Options& o) { return std::to_string(o.max_write_buffer_number); }},
      {"target_file_size_base",
       [](const Options& f, Options* t) { t->target_file_size_base = f.target_file_size_base; },
       [](const Options& o) { return std::to_string(o.target_file_size_base); }},
      {"target_file_size_multiplier",
       [](const Options& f, Options* t) { t->target_file_size_multiplier = f.target_file_size_multiplier; },
       [](const Options& o) { return std::to_string(o.target_file_size_multiplier); }},
      {"max_bytes_for_level_base",
       [](const Options& f, Options* t) { t->max_bytes_for_level_base = f.max_bytes_for_level_base; },
       [](const Options& o) { return std::to_string(o.max_bytes_for_level_base); }},
      {"max_bytes_for_level_multiplier",
       [](const Options& f, Options* t) { t->max_bytes_for_level_multiplier = f.max_bytes_for_level_multiplier; },
       [](const Options& o) { return std::to_string(o.max_bytes_for_level_multiplier); }},
      {"max_bytes_for_level_multiplier_additional",
       [](const Options& f, Options* t) {
         t->max_bytes_for_level_multiplier_additional =
             f.max_bytes_for_level_multiplier_additional;
       },
       [](const Options& o) {
         std::string s;
         for (int m : o.max_bytes_for_level_multiplier_additional) {
           s += (s.empty() ? "" : ",") + std::to_string(m);
         }
         return s;
       }},
      {"level_compaction_dynamic_level_bytes",
       [](const Options& f, Options* t) {
         t->level_compaction_dynamic_level_bytes = f.level_compaction_dynamic_level_bytes;
       },
       [](const Options& o) {
         return std::string(o.level_compaction_dynamic_level_bytes ? "true" : "false");
       }},
      {"level0_file_num_compaction_trigger",
       [](const Options& f, Options* t) {
         t->level0_file_num_compaction_trigger = f.level0_file_num_compaction_trigger;
       },
       [](const Options& o) { return std::to_string(o.level0_file_num_compaction_trigger); }},
      {"level0_slowdown_writes_trigger",
       [](const Options& f, Options* t) {
         t->level0_slowdown_writes_trigger = f.level0_slowdown_writes_trigger;
       },
       [](const Options& o) { return std::to_string(o.level0_slowdown_writes_trigger); }},
      {"level0_stop_writes_trigger",
       [](const Options& f, Options* t) {
         t->level0_stop_writes_trigger = f.level0_stop_writes_trigger;
       },
       [](const Options& o) { return std::to_string(o.level0_stop_writes_trigger); }},
      {"max_compaction_bytes",
       [](const Options& f, Options* t) { t->max_compaction_bytes = f.max_compaction_bytes; },
       [](const Options& o) { return std::to_string(o.max_compaction_bytes); }},
      {"compaction_pri",
       [](const Options& f, Options* t) { t->compaction_pri = f.compaction_pri; },
       [](const Options& o) { return std::to_string(static_cast<int>(o.compaction_pri)); }},
      {"compaction_style",
       [](const Options& f, Options* t) { t->compaction_style = f.compaction_style; },
       [](const Options& o) { return std::to_string(static_cast<int>(o.compaction_style)); }},
  };
  return kFlags;
}

}  // namespace

Status VlsmOptionsFromFlags(const VlsmFlagValues& flags, VlsmOptions* out) {
  if (!flags.vlsm) {
    for (const char* name : {"vlsm_sst_size", "vlsm_growth", "vlsm_phi",
                             "vlsm_l0", "vlsm_ranged_l0_depth",
                             "vlsm_preset"}) {
      if (flags.explicit_flags.count(name) > 0) {
        return Status::InvalidArgument(std::string("--") + name +
                                       " has no effect without --vlsm");
      }
    }
  }
  if (flags.explicit_flags.count("vlsm_preset") > 0) {
    for (const char* name : {"vlsm_sst_size", "vlsm_growth", "vlsm_phi",
                             "vlsm_l0", "vlsm_ranged_l0_depth"}) {
      if (flags.explicit_flags.count(name) > 0) {
        return Status::InvalidArgument(
            std::string("--") + name + " conflicts with --vlsm_preset=" +
            flags.preset + " (which sets it); drop one of them");
      }
    }
    VlsmOptions preset;
    const Status named = VlsmPresetNamed(flags.preset, &preset);
    if (!named.ok()) {
      return Status::InvalidArgument(std::string("--vlsm_preset ") +
                                     named.getState());
    }
    const Status s = CheckVlsmSizing(preset, flags.num_levels, &FlagName);
    if (!s.ok()) {
      return s;
    }
    *out = preset;
    return Status::OK();
  }
  VlsmOptions vlsm;
  vlsm.sst_size = flags.sst_size;
  vlsm.growth = flags.growth;
  vlsm.l1_l2_growth = flags.phi;
  Status parsed = ParseVlsmL0Layout(flags.l0, &vlsm.l0_layout);
  if (!parsed.ok()) {
    return Status::InvalidArgument(std::string("--vlsm_l0 ") +
                                   parsed.getState());
  }
  if (vlsm.l0_layout == VlsmL0Layout::kRanged) {
    vlsm.ranged_l0_depth = flags.ranged_l0_depth;
  } else if (flags.explicit_flags.count("vlsm_ranged_l0_depth") > 0) {
    return Status::InvalidArgument(
        "--vlsm_ranged_l0_depth has no effect without --vlsm_l0=ranged");
  }
  Status s = CheckVlsmSizing(vlsm, flags.num_levels, &FlagName);
  if (!s.ok()) {
    return s;
  }
  *out = vlsm;
  return Status::OK();
}

const std::vector<std::string>& VlsmOwnedBenchFlags() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const OwnedFlag& f : OwnedFlags()) {
      names.push_back(f.flag);
    }
    return names;
  }();
  return kNames;
}

Status ApplyVlsmToBenchOptions(const VlsmOptions& vlsm,
                               const std::set<std::string>& explicit_bench_flags,
                               Options* options,
                               std::vector<std::string>* notes) {
  const Options users = *options;
  // Checked first in the flags' words; ConfigureVlsm() then refuses nothing
  // for these reasons.
  Status s = CheckVlsmSizing(vlsm, options->num_levels, &FlagName);
  if (s.ok()) {
    s = ConfigureVlsm(options, vlsm);
  }
  if (!s.ok()) {
    return s;
  }
  const Options configured = *options;
  for (const OwnedFlag& f : OwnedFlags()) {
    if (explicit_bench_flags.count(f.flag) == 0) {
      continue;
    }
    const std::string vlsm_value = f.show(*options);
    f.copy(users, options);
    if (f.show(*options) != vlsm_value) {
      notes->push_back("--" + std::string(f.flag) + "=" + f.show(*options) +
                       " overrides vLSM's " + vlsm_value);
    }
  }
  if (options->compaction_pri != configured.compaction_pri) {
    return Status::InvalidArgument(
        "--compaction_pri conflicts with --vlsm (which sets it to " +
        CompactionPriName(configured.compaction_pri) + ", " +
        std::to_string(static_cast<int>(configured.compaction_pri)) +
        "); drop one of them");
  }
  s = CheckVlsmOptions(*options);
  if (!s.ok()) {
    return Status::InvalidArgument(
        std::string("the db_bench flags given with --vlsm make invalid vLSM "
                    "options: ") +
        (s.getState() ? s.getState() : ""));
  }
  return Status::OK();
}

}  // namespace ROCKSDB_NAMESPACE
