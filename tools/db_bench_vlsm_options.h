// How db_bench_vlsm's --vlsm flags become options: validated with messages
// that name the flag, applied through the public ConfigureVlsm() helper, and
// reconciled with db_bench flags the user set explicitly. Pure functions, so
// tests/metrics/db_bench_vlsm_options_test.cc checks them without a run.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "rocksdb/options.h"
#include "rocksdb/status.h"
#include "rocksdb/vlsm.h"

namespace ROCKSDB_NAMESPACE {

struct VlsmFlagValues {
  bool vlsm = false;
  uint64_t sst_size = VlsmOptions().sst_size;
  int growth = VlsmOptions().growth;
  int phi = VlsmOptions().l1_l2_growth;
  // --vlsm_l0: "single" (the paper's layout, kVlsm) or "ranged" (kVlsmRanged).
  std::string l0 = "single";
  int ranged_l0_depth = VlsmOptions().ranged_l0_depth;
  // --vlsm_preset: a preset by name (options/vlsm_presets.h) in place of
  // the five flags above; "" for none.
  std::string preset;
  int num_levels = 7;
  // Names of the --vlsm_* flags given on the command line.
  std::set<std::string> explicit_flags;
};

// The VlsmOptions the flags ask for. InvalidArgument, with the offending
// flag named, for values ConfigureVlsm() rejects, --vlsm_* without --vlsm, a
// --vlsm_l0 other than single or ranged, --vlsm_ranged_l0_depth without
// --vlsm_l0=ranged, an unknown --vlsm_preset, or a --vlsm_preset with any
// flag that sets what the preset sets.
Status VlsmOptionsFromFlags(const VlsmFlagValues& flags, VlsmOptions* out);

// The db_bench flags whose options ConfigureVlsm() sets.
const std::vector<std::string>& VlsmOwnedBenchFlags();

// Applies ConfigureVlsm() to `options`; then every option whose db_bench
// flag is in `explicit_bench_flags` gets the user's value back (the user's
// word wins), with one note per such flag. InvalidArgument if the result is
// no longer valid vLSM (for example an explicit --compaction_pri).
Status ApplyVlsmToBenchOptions(const VlsmOptions& vlsm,
                               const std::set<std::string>& explicit_bench_flags,
                               Options* options,
                               std::vector<std::string>* notes);

}  // namespace ROCKSDB_NAMESPACE
