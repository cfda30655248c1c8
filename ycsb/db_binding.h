// What the driver needs from a store. Every method may be called from many
// worker threads at once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "write_breakdown.h"

namespace ycsb {

enum class OpResult { kOk, kNotFound, kError };

class DbBinding {
 public:
  virtual ~DbBinding() = default;
  virtual OpResult Read(const std::string& key) = 0;
  // Writes the whole record (value_size bytes): YCSB's field-level update
  // becomes a put of the record, as a key-value store does it.
  virtual OpResult Update(const std::string& key, const std::string& value) = 0;
  virtual OpResult Insert(const std::string& key, const std::string& value) = 0;
  virtual OpResult Scan(const std::string& start_key, uint32_t count) = 0;
  // Read then write the record: one operation for latency purposes.
  virtual OpResult ReadModifyWrite(const std::string& key,
                                   const std::string& value) = 0;

  // Were writes delayed or stopped by the store at any time since the
  // previous call? Called once per status interval by the reporter; its
  // cost must not grow with the run's length.
  virtual bool WritesStalledSinceLastCall() { return false; }
  // Gauges read by the driver once per status interval; both must cost the
  // same whatever the run's length (no history is walked). 0 when the store
  // has no such notion.
  // Bytes the store's data files occupy on disk right now (RocksDB: every
  // SST of every version still referenced, summed over instances).
  virtual uint64_t DiskBytes() { return 0; }
  // Compaction work the store owes (RocksDB's estimate of pending
  // compaction bytes, summed over instances): find-sustainable refuses a
  // rate at which it keeps growing.
  virtual uint64_t CompactionDebtBytes() { return 0; }
  // What the store's writes spent their time on, per instance (region),
  // totals since the store opened (write_breakdown.h); the driver takes
  // their difference once per status interval. Empty when the store does
  // not measure it.
  virtual std::vector<WriteBreakdown> WriteBreakdownTotals() { return {}; }
  // Number of operations executed, for per-operation CPU figures.
  virtual void SetOperationCount(uint64_t /*ops*/) {}
  // The store's own end-of-run figures as a JSON array (one element per
  // instance), or "" when there are none.
  virtual std::string MetricsJson() { return ""; }
  // What the store did after the phase's last operation to leave nothing
  // pending (a JSON object; "settle" in the report), or "" when the phase
  // did not wait. Valid after Close.
  virtual std::string SettleJson() { return ""; }
  // What the store's device limiter let through, by priority, at the
  // phase's end and after its settle (a JSON object; "rate_limiter" in the
  // report), or "" without a limiter. Valid after Close.
  virtual std::string RateLimiterJson() { return ""; }
  // Stop background measurement before the store closes.
  virtual void Close() {}
};

}  // namespace ycsb
