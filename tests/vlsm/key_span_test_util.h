// What the tests of the ranged layout's pure functions share: L0Spans
// written as key ranges (vlsm_l0_ranges_test, vlsm_l0_due_test).
#pragma once

#include <cstdint>

#include "db/compaction/vlsm_l0_ranges.h"
#include "rocksdb/comparator.h"

namespace ROCKSDB_NAMESPACE {
namespace l0_span_test {

constexpr uint64_t kMiB = 1 << 20;

inline const Comparator* Ucmp() { return BytewiseComparator(); }

// A file over [smallest, largest] of `bytes`, written at `epoch`.
inline KeySpan Span(const char* smallest, const char* largest,
                   uint64_t epoch = 0, uint64_t bytes = kMiB,
                   bool busy = false) {
  return KeySpan{smallest, largest, epoch, bytes, busy};
}

}  // namespace l0_span_test
}  // namespace ROCKSDB_NAMESPACE
