// db_stress's hook (patch 0010): the options db_stress changes on a live DB
// (--set_options_one_in) under vLSM.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "rocksdb/options.h"

namespace ROCKSDB_NAMESPACE {

// Called once the DB is open, on db_stress's table of option name -> values
// it picks from at random. When the DB can run vLSM (leveled compaction,
// level_compaction_dynamic_level_bytes off), adds compaction_pri with two
// values, kVlsm and the stock priority the DB opened with (kMinOverlappingRatio
// if it opened with kVlsm), so that column families switch live between
// them; and drops the values a kVlsm column family refuses
// (max_bytes_for_level_multiplier < 2), which would otherwise fail the run.
// Leaves the table alone otherwise.
void AdaptLiveOptionsForVlsm(
    const Options& options,
    std::unordered_map<std::string, std::vector<std::string>>* table);

}  // namespace ROCKSDB_NAMESPACE
