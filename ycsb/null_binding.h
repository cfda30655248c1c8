// A store that does nothing (optionally busy for a fixed time per request):
// measures what the generator, the queues and the recording cost alone.
#pragma once

#include "db_binding.h"

namespace ycsb {

class NullBinding : public DbBinding {
 public:
  // busy_ns > 0 spins that long per operation (to model a fixed service
  // time without sleeping's coarse granularity).
  explicit NullBinding(uint64_t busy_ns = 0) : busy_ns_(busy_ns) {}
  OpResult Read(const std::string&) override { return Work(); }
  OpResult Update(const std::string&, const std::string&) override {
    return Work();
  }
  OpResult Insert(const std::string&, const std::string&) override {
    return Work();
  }
  OpResult Scan(const std::string&, uint32_t) override { return Work(); }
  OpResult ReadModifyWrite(const std::string&, const std::string&) override {
    return Work();
  }

 private:
  OpResult Work();
  uint64_t busy_ns_;
};

}  // namespace ycsb
