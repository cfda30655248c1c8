#include "tools/db_stress_vlsm_hooks.h"

#include <algorithm>
#include <cstdlib>

namespace ROCKSDB_NAMESPACE {

namespace {

const char* StockPriorityName(CompactionPri pri) {
  switch (pri) {
    case kByCompensatedSize:
      return "kByCompensatedSize";
    case kOldestLargestSeqFirst:
      return "kOldestLargestSeqFirst";
    case kOldestSmallestSeqFirst:
      return "kOldestSmallestSeqFirst";
    case kRoundRobin:
      return "kRoundRobin";
    default:  // kMinOverlappingRatio, and kVlsm switches back to it
      return "kMinOverlappingRatio";
  }
}

}  // namespace

void AdaptLiveOptionsForVlsm(
    const Options& options,
    std::unordered_map<std::string, std::vector<std::string>>* table) {
  if (options.compaction_style != kCompactionStyleLevel ||
      options.level_compaction_dynamic_level_bytes) {
    return;
  }
  (*table)["compaction_pri"] = {"kVlsm",
                                StockPriorityName(options.compaction_pri)};
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
