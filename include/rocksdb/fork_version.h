// The vLSM fork's own version, beside upstream's (rocksdb/version.h keeps
// ROCKSDB_MAJOR.ROCKSDB_MINOR.ROCKSDB_PATCH = 9.10.0, so code that checks the
// RocksDB version keeps working). Use these to tell at build time or at run
// time that the library is the vLSM fork.
#pragma once

#include <string>

#include "rocksdb/rocksdb_namespace.h"

#define ROCKSDB_VLSM_FORK 1
#define ROCKSDB_VLSM_FORK_MAJOR 0
#define ROCKSDB_VLSM_FORK_MINOR 1
#define ROCKSDB_VLSM_FORK_PATCH 0

namespace ROCKSDB_NAMESPACE {

// The fork version of the library actually loaded, e.g. "0.1.0"; with
// with_upstream, "rocksdb-vlsm 0.1.0 (RocksDB 9.10.0)". Compare it with the
// macros above to detect a header/library mismatch.
std::string GetVlsmForkVersionAsString(bool with_upstream = false);

}  // namespace ROCKSDB_NAMESPACE
