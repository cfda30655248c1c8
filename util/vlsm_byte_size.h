// Sizes as people write them, for every tool and harness of the fork: one
// parser, so that "64M" means the same bytes to ycsb_vlsm's properties, the
// measuring tools' flags and the settings files that feed both.
#pragma once

#include <cstdint>
#include <limits>
#include <string>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

// "64M" -> 67108864: one or more digits, then optionally K, M or G (either
// case; powers of 1024). False, *bytes untouched, for anything else: a sign,
// a space, a fraction, another unit, or a size past 2^64 - 1.
inline bool VlsmParseByteSize(const std::string& text, uint64_t* bytes) {
  size_t digits = text.size();
  uint64_t unit = 1;
  if (!text.empty()) {
    switch (text.back()) {
      case 'k':
      case 'K':
        unit = uint64_t{1} << 10;
        break;
      case 'm':
      case 'M':
        unit = uint64_t{1} << 20;
        break;
      case 'g':
      case 'G':
        unit = uint64_t{1} << 30;
        break;
      default:
        break;
    }
    if (unit != 1) {
      --digits;
    }
  }
  if (digits == 0) {
    return false;
  }
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  uint64_t value = 0;
  for (size_t i = 0; i < digits; ++i) {
    const char c = text[i];
    if (c < '0' || c > '9') {
      return false;
    }
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (value > (kMax - digit) / 10) {
      return false;
    }
    value = value * 10 + digit;
  }
  if (value > kMax / unit) {
    return false;
  }
  *bytes = value * unit;
  return true;
}

}  // namespace ROCKSDB_NAMESPACE
