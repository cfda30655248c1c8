// The options of the fork's measuring tools (vlsm_calibrate, vlsm_bursts),
// as scripts/bench/systems.py renders a system for them: --vlsm=S_M,f,Phi
// [,single|ranged] applied with ConfigureVlsm, then the --options string on
// top (the system's RocksDB options win, as db_bench_vlsm lets explicit
// flags win over --vlsm).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "rocksdb/convenience.h"
#include "rocksdb/options.h"
#include "rocksdb/vlsm.h"
#include "util/vlsm_byte_size.h"

namespace ROCKSDB_NAMESPACE {

// A size or count flag (VlsmParseByteSize: "64M" is 67108864); *ok false,
// and 0 returned, for anything else.
inline uint64_t VlsmToolSize(const std::string& s, bool* ok) {
  uint64_t bytes = 0;
  *ok = VlsmParseByteSize(s, &bytes);
  return bytes;
}

// Fills *options from the two flags; "" or what is wrong, naming the flag.
inline std::string VlsmToolOptions(const std::string& vlsm_spec,
                                   const std::string& options_string,
                                   Options* options) {
  if (!vlsm_spec.empty()) {
    VlsmOptions v;
    char layout[16] = "";
    char sst[32] = "";
    int f = 0, phi = 0;
    if (std::sscanf(vlsm_spec.c_str(), "%31[^,],%d,%d,%15s", sst, &f, &phi,
                    layout) < 3) {
      return "--vlsm=S_M,f,Phi[,ranged], not " + vlsm_spec;
    }
    bool ok = true;
    v.sst_size = VlsmToolSize(sst, &ok);
    if (!ok) return "--vlsm: S_M is not a size: " + std::string(sst);
    v.growth = f;
    v.l1_l2_growth = phi;
    const Status parsed = layout[0] == '\0'
                              ? Status::OK()
                              : ParseVlsmL0Layout(layout, &v.l0_layout);
    if (!parsed.ok()) {
      return std::string("--vlsm: the layout ") + parsed.getState();
    }
    options->num_levels = 5;
    const Status s = ConfigureVlsm(options, v);
    if (!s.ok()) return "--vlsm: " + s.ToString();
  }
  ConfigOptions config;
  config.ignore_unsupported_options = false;
  const Status s =
      GetOptionsFromString(config, *options, options_string, options);
  if (!s.ok()) return "--options: " + s.ToString();
  return "";
}

}  // namespace ROCKSDB_NAMESPACE
