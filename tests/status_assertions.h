// ASSERT_OK / EXPECT_OK for rocksdb::Status in the fork's gtest binaries
// (upstream's live in its test harness, which our tests don't link).
#pragma once

#include "gtest/gtest.h"
#include "rocksdb/status.h"

#define VLSM_STATUS_CHECK(check, expr)                   \
  do {                                                   \
    const ::ROCKSDB_NAMESPACE::Status status_ = (expr);  \
    check(status_.ok()) << #expr << ": " << status_.ToString(); \
  } while (0)
#define ASSERT_OK(expr) VLSM_STATUS_CHECK(ASSERT_TRUE, expr)
#define EXPECT_OK(expr) VLSM_STATUS_CHECK(EXPECT_TRUE, expr)
