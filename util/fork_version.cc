#include "rocksdb/fork_version.h"

#include "rocksdb/version.h"

namespace ROCKSDB_NAMESPACE {

namespace {
std::string Dotted(int major, int minor, int patch) {
  return std::to_string(major) + "." + std::to_string(minor) + "." +
         std::to_string(patch);
}
}  // namespace

std::string GetVlsmForkVersionAsString(bool with_upstream) {
  std::string fork = Dotted(ROCKSDB_VLSM_FORK_MAJOR, ROCKSDB_VLSM_FORK_MINOR,
                            ROCKSDB_VLSM_FORK_PATCH);
  if (!with_upstream) {
    return fork;
  }
  return "rocksdb-vlsm " + fork + " (RocksDB " +
         Dotted(ROCKSDB_MAJOR, ROCKSDB_MINOR, ROCKSDB_PATCH) + ")";
}

}  // namespace ROCKSDB_NAMESPACE
