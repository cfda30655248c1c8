#include "null_binding.h"

#include <chrono>

namespace ycsb {

OpResult NullBinding::Work() {
  if (busy_ns_ == 0) return OpResult::kOk;
  auto until = std::chrono::steady_clock::now() +
               std::chrono::nanoseconds(busy_ns_);
  while (std::chrono::steady_clock::now() < until) {
  }
  return OpResult::kOk;
}

}  // namespace ycsb
