// db_stress's hooks (patch 0010): the options db_stress changes on a live DB
// (--set_options_one_in) under vLSM, and the fork's checks as listeners.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "rocksdb/options.h"

namespace ROCKSDB_NAMESPACE {

// Called once the DB is open, on db_stress's table of option name -> values
// it picks from at random. When the DB can run vLSM (leveled compaction,
// level_compaction_dynamic_level_bytes off), adds compaction_pri with three
// values, kVlsm, kVlsmRanged and the stock priority the DB opened with
// (kMinOverlappingRatio if it opened with a vLSM layout), so that column
// families switch live among them; and drops the values vLSM refuses
// (max_bytes_for_level_multiplier < 2), which would otherwise fail the run.
// Leaves the table alone otherwise.
void AdaptLiveOptionsForVlsm(
    const Options& options,
    std::unordered_map<std::string, std::vector<std::string>>* table);

// Called at every open with db_stress's options. With VLSM_READ_ORDER_CHECK=1
// in the environment, adds (once) the read-order checker of
// tests/vlsm/read_order_checker.h, which aborts db_stress on the first
// violation, naming the key and the files. It scans every live file after
// every flush and compaction: for short runs on small DBs (ctest's
// vlsm.db_stress_concurrent), not for the long ones.
void AddVlsmStressListeners(Options* options);

}  // namespace ROCKSDB_NAMESPACE
