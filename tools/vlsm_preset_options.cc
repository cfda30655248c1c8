// vlsm_preset_options: the column-family options a preset gives, as an
// options string, one "name=value" per line.
//
//   vlsm_preset_options [--preset=ranged|paper]
//
// RocksDB's default Options with ConfigureVlsm(preset) (options/
// vlsm_presets.h): ranged (the default), VlsmOptions::Ranged(), the
// configuration users are told to take; paper, VlsmOptions(). The measured
// ranged system of scripts/bench/systems.py is read from what this prints
// (scripts/bench/presets/ranged.options); tests/eval/test_preset_options.py
// checks that file against this tool and what ycsb_vlsm opens for that
// system (mode=describe) against the preset.
#include <cstdio>
#include <string>

#include "options/vlsm_presets.h"
#include "rocksdb/convenience.h"
#include "rocksdb/options.h"
#include "rocksdb/vlsm.h"

int main(int argc, char** argv) {
  using namespace ROCKSDB_NAMESPACE;
  std::string preset = "ranged";
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--preset=", 0) == 0) {
      preset = arg.substr(9);
    } else {
      std::fprintf(stderr,
                   "vlsm_preset_options: bad argument '%s' (usage: "
                   "[--preset=ranged|paper])\n",
                   arg.c_str());
      return 2;
    }
  }
  VlsmOptions vlsm;
  const Status named = VlsmPresetNamed(preset, &vlsm);
  if (!named.ok()) {
    std::fprintf(stderr, "vlsm_preset_options: --preset %s\n",
                 named.getState());
    return 2;
  }
  Options options;
  Status s = ConfigureVlsm(&options, vlsm);
  std::string text;
  if (s.ok()) {
    ConfigOptions config;
    config.delimiter = "\n";
    s = GetStringFromColumnFamilyOptions(config, options, &text);
  }
  if (!s.ok()) {
    std::fprintf(stderr, "vlsm_preset_options: %s\n", s.ToString().c_str());
    return 1;
  }
  std::printf("%s\n", text.c_str());
  return 0;
}
