// Where a test keeps its DBs: $TEST_TMPDIR (ctest sets build/test-tmp), or
// /tmp, then "<test>_<name>". Shared by the fork's gtest binaries.
#pragma once

#include <cstdlib>
#include <string>

#include "gtest/gtest.h"
#include "rocksdb/env.h"

namespace ROCKSDB_NAMESPACE {

inline std::string TestPath(const std::string& test, const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string base = tmp && *tmp ? tmp : "/tmp";
  EXPECT_TRUE(Env::Default()->CreateDirIfMissing(base).ok()) << base;
  return base + "/" + test + "_" + name;
}

}  // namespace ROCKSDB_NAMESPACE
