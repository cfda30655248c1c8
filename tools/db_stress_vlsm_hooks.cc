#include "tools/db_stress_vlsm_hooks.h"

#include <algorithm>
#include <cstdlib>

#include "db/compaction/vlsm_picker.h"
#include "options/compaction_pri_name.h"

namespace ROCKSDB_NAMESPACE {

void AdaptLiveOptionsForVlsm(
    const Options& options,
    std::unordered_map<std::string, std::vector<std::string>>* table) {
  if (options.compaction_style != kCompactionStyleLevel ||
      options.level_compaction_dynamic_level_bytes) {
    return;
  }
  // The two priorities SetOptions switches between live.
  (*table)["compaction_pri"] = {
      "kVlsm", CompactionPriName(LiveSwitchHome(options.compaction_pri))};
  auto multiplier = table->find("max_bytes_for_level_multiplier");
  if (multiplier != table->end()) {
    std::vector<std::string>& values = multiplier->second;
    values.erase(std::remove_if(values.begin(), values.end(),
                                [](const std::string& v) {
                                  return std::strtod(v.c_str(), nullptr) < 2;
                                }),
                 values.end());
    if (values.empty()) {
      table->erase(multiplier);
    }
  }
}

}  // namespace ROCKSDB_NAMESPACE
