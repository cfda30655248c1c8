#include "tools/db_stress_vlsm_hooks.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "options/vlsm_live_switch.h"
#include "options/compaction_pri_name.h"
#include "tests/vlsm/read_order_checker.h"

namespace ROCKSDB_NAMESPACE {

void AdaptLiveOptionsForVlsm(
    const Options& options,
    std::unordered_map<std::string, std::vector<std::string>>* table) {
  if (options.compaction_style != kCompactionStyleLevel ||
      options.level_compaction_dynamic_level_bytes) {
    return;
  }
  // The priorities SetOptions switches among live
  // (CheckLiveCompactionPriSwitch).
  (*table)["compaction_pri"] = {
      "kVlsm", "kVlsmRanged",
      CompactionPriName(LiveSwitchHome(options.compaction_pri))};
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

void AddVlsmStressListeners(Options* options) {
  const char* on = std::getenv("VLSM_READ_ORDER_CHECK");
  if (on == nullptr || std::strcmp(on, "1") != 0) {
    return;
  }
  for (const auto& listener : options->listeners) {
    if (std::dynamic_pointer_cast<ReadOrderChecker>(listener) != nullptr) {
      return;  // a reopen: the options still hold it
    }
  }
  options->listeners.push_back(
      std::make_shared<ReadOrderChecker>([](const std::string& violation) {
        std::fprintf(stderr, "read order violation: %s\n", violation.c_str());
        std::abort();
      }));
  std::fprintf(stdout, "vLSM fork: read-order checker on\n");
}

}  // namespace ROCKSDB_NAMESPACE
