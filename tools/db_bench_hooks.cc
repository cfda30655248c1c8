#include "tools/db_bench_hooks.h"

namespace ROCKSDB_NAMESPACE {

DbBenchHooks& GetDbBenchHooks() {
  static DbBenchHooks hooks;
  return hooks;
}

}  // namespace ROCKSDB_NAMESPACE
