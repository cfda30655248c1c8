// The VlsmOptions presets by name, for the tools that take one on their
// command line (db_bench_vlsm --vlsm_preset, ycsb_vlsm vlsm.preset,
// vlsm_preset_options --preset), so that a user benchmarks "the preset"
// without spelling its values (the benchmark systems read them from
// vlsm_preset_options: scripts/bench/systems.py):
//   ranged  VlsmOptions::Ranged(), the configuration users are told to take;
//   paper   VlsmOptions(), the paper's tree.
#pragma once

#include <string>

#include "rocksdb/status.h"
#include "rocksdb/vlsm.h"

namespace ROCKSDB_NAMESPACE {

// The preset called `name`; InvalidArgument naming the choices otherwise.
inline Status VlsmPresetNamed(const std::string& name, VlsmOptions* out) {
  if (name == "ranged") {
    *out = VlsmOptions::Ranged();
  } else if (name == "paper") {
    *out = VlsmOptions();
  } else {
    return Status::InvalidArgument("is ranged or paper, not '" + name + "'");
  }
  return Status::OK();
}

}  // namespace ROCKSDB_NAMESPACE
