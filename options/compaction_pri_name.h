// The option-string name of a CompactionPri ("kMinOverlappingRatio", "kVlsm",
// ...), read from upstream's own option-string map (patch 0002 adds kVlsm to
// it), so that the fork's messages and reports never keep a second copy.
#pragma once

#include <string>

#include "options/options_helper.h"
#include "rocksdb/advanced_options.h"

namespace ROCKSDB_NAMESPACE {

inline std::string CompactionPriName(CompactionPri pri) {
  for (const auto& [name, value] : OptionsHelper::compaction_pri_string_map) {
    if (value == pri) {
      return name;
    }
  }
  return "CompactionPri(" + std::to_string(static_cast<int>(pri)) + ")";
}

}  // namespace ROCKSDB_NAMESPACE
