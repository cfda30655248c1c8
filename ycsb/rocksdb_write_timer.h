// The RocksDB binding's write breakdown (write_breakdown.h): times each
// write on its own thread with RocksDB's PerfContext and IOStatsContext,
// and counts the store's events with a listener per region.
//
// Cost: a timed write runs its thread at PerfLevel::kEnableTime (reads
// keep the thread's level), so it pays RocksDB's timers (a clock read at
// each timer's start and stop, the DB mutex's lock timed) and this class's
// two snapshots of 12 counters. So each thread times one write in `every`
// (8 by default): the mean write's split is the same for an eighth of the
// work, and `writes` counts the writes timed. (Measured cost, ycsb/README.md:
// below this 2-core VM's run-to-run spread either way.) Each thread adds to its
// own totals (single writer, relaxed atomics: no shared cache line between
// writers); the reporter sums the threads' totals once per interval.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "write_breakdown.h"

namespace rocksdb {
class EventListener;
}  // namespace rocksdb

namespace ycsb {

class RocksDbWriteTimer {
 public:
  // Times one write in `every` on each thread (1: every write).
  RocksDbWriteTimer(int regions, int every);
  ~RocksDbWriteTimer();

  // Runs write() (a call into region `region`'s DB) on the calling thread
  // and adds its time and RocksDB's split of it to this thread's totals.
  template <typename Write>
  auto Time(int region, Write&& write) -> decltype(write()) {
    if (!ThisWriteIsTimed()) return write();
    Snapshot before = Begin();
    auto result = write();
    End(region, before);
    return result;
  }

  // A listener for region `region`'s DB options: memtables sealed, table
  // files finished.
  std::shared_ptr<rocksdb::EventListener> ListenerFor(int region);

  // Every region's totals since construction, summed over threads.
  std::vector<WriteBreakdown> Totals() const;

 private:
  struct Snapshot {
    int64_t start_ns = 0;
    uint64_t part_ns[kWriteParts] = {};
    unsigned char perf_level = 0;
  };
  struct ThreadTotals;
  class EventCounter;

  bool ThisWriteIsTimed() const;
  Snapshot Begin() const;
  void End(int region, const Snapshot& before);
  ThreadTotals* ThisThreadsTotals();

  const int regions_;
  const int every_;
  const uint64_t id_;  // tells this timer's thread slots from an earlier one's
  mutable std::mutex threads_mu_;
  std::vector<std::unique_ptr<ThreadTotals>> threads_;
  std::vector<std::shared_ptr<EventCounter>> events_;
};

}  // namespace ycsb
