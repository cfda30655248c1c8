// Hook points in upstream db_bench (patch 0006). db_bench leaves them empty
// and behaves exactly as upstream; db_bench_vlsm sets them before running
// db_bench_tool() to turn vLSM on and to measure with LsmMetricsCollector.
#pragma once

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class DB;
struct Options;

struct DbBenchHooks {
  // After db_bench has built the options from its flags (or OPTIONS file),
  // before the DB opens.
  void (*configure_options)(Options* options) = nullptr;
  // After the DB opened (for every open, and only with --num_multi_db <= 1).
  void (*db_opened)(DB* db) = nullptr;
  // Before the DB closes (at every reopen and at the end).
  void (*db_closing)(DB* db) = nullptr;
};

DbBenchHooks& GetDbBenchHooks();

}  // namespace ROCKSDB_NAMESPACE
