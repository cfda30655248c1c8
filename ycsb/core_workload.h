// YCSB's core workload: which operation comes next and on which key, from
// the workload properties. Drawn by the single generator thread (not
// thread-safe), except for the insert acknowledgement counter, which workers
// advance.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "key_generators.h"
#include "workload_properties.h"

namespace ycsb {

enum class OpType : uint8_t { kRead, kUpdate, kInsert, kScan, kReadModifyWrite };
constexpr int kOpTypes = 5;
const char* OpName(OpType op);  // "read", "update", ...
inline bool IsWrite(OpType op) {
  return op == OpType::kUpdate || op == OpType::kInsert ||
         op == OpType::kReadModifyWrite;
}

// One operation to execute. The generator fills everything but the key
// string (formatted by the worker, off the generator's critical path).
struct Request {
  int64_t intended_ns;  // steady_clock, nanoseconds since its epoch
  uint64_t key_number;
  uint32_t scan_length;
  OpType op;
};

struct WorkloadSpec {
  uint64_t record_count = 0;
  uint64_t operation_count = 0;
  uint64_t insert_start = 0;
  double proportion[kOpTypes] = {0.95, 0.05, 0, 0, 0};
  std::string request_distribution = "uniform";
  uint64_t field_count = 10;
  uint64_t field_length = 100;
  uint64_t max_scan_length = 1000;
  std::string scan_length_distribution = "uniform";
  bool ordered_inserts = false;  // insertorder=ordered: keys not hashed
  double hotspot_data_fraction = 0.2;
  double hotspot_opn_fraction = 0.8;
  double zipfian_constant = ZipfianChooser::kDefaultTheta;
  uint64_t zero_padding = 1;
  std::string key_prefix = "user";

  // Reads and checks the YCSB core properties; PropertyError on unknown
  // distributions, proportions that do not sum to 1, bad numbers.
  static WorkloadSpec FromProperties(const Properties& props);
  uint64_t value_size() const { return field_count * field_length; }
};

class CoreWorkload {
 public:
  CoreWorkload(const WorkloadSpec& spec, uint64_t seed);

  // Load phase: the next record to insert (sequential key numbers from
  // insert_start).
  Request NextLoad();
  // Run phase: an operation drawn from the proportions.
  Request NextRun();

  // The key string of a key number, as YCSB builds it: prefix + (hashed or
  // ordered) number, zero-padded.
  std::string KeyOf(uint64_t key_number) const;

  // Workers call this after an insert completes, so that "latest" and the
  // key choosers only pick keys that exist. Approximate (the highest
  // completed, not the highest contiguous), which is what matters here.
  void AcknowledgeInsert(uint64_t key_number);

  const WorkloadSpec& spec() const { return spec_; }

 private:
  uint64_t NextExistingKey();
  WorkloadSpec spec_;
  Random64 rng_;
  double cumulative_[kOpTypes];
  uint64_t next_insert_;  // next key number to insert
  std::atomic<uint64_t> acknowledged_;  // key numbers below this exist
  std::unique_ptr<KeyChooser> chooser_;
  ScrambledZipfianChooser* scrambled_ = nullptr;  // when zipfian
  std::unique_ptr<ZipfianChooser> scan_zipf_;
};

}  // namespace ycsb
