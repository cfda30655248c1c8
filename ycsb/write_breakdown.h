// What the writers' time went to, second by second and region by region
// (issue 55: find what holds the writers in a run's one-second dips).
//
// A store that measures it (the RocksDB binding, rocksdb.write_breakdown)
// keeps, per region, running totals of its writes: how many, their wall
// time inside the store's write call, and that time as the store's own
// timers split it (RocksDB's PerfContext and IOStatsContext of the writing
// thread, rocksdb_write_timer.h), plus what happened around them in the
// store (memtables sealed, table files finished). The driver takes the
// totals' difference every status interval; the report writes one CSV row
// per interval and region (PATH.writes.csv) and the run's totals in its
// JSON (`write_breakdown`).
//
// The parts are RocksDB's own timers (db/db_impl/db_impl_write.cc), so
// they nest rather than add up. The top-level ones do not overlap:
//   wal        the group's WAL record, written by the group's leader;
//              holds wal_file_write, wal_prepare_write (preallocation),
//              wal_range_sync and wal_fsync;
//   memtable   inserting the write into the memtable;
//   delay      the write controller's slowdown or stop;
//   scheduling switching a full memtable before the write (PreprocessWrite:
//              the next WAL file, the flush scheduled);
//   pre_post   the rest of the write path: holds write_thread_wait (a
//              follower waiting for its group's leader to finish).
// mutex_lock and condition_wait are the DB mutex's waits, wherever the
// write took it (inside scheduling or delay). total minus the top-level
// parts is time no timer saw (the binding's own call, the thread off the
// CPU between two timers).
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

namespace ycsb {

enum WritePart : int {
  kWritePartWal = 0,
  kWritePartWalFileWrite,
  kWritePartWalPrepareWrite,
  kWritePartWalRangeSync,
  kWritePartWalFsync,
  kWritePartMemtable,
  kWritePartDelay,
  kWritePartPrePost,
  kWritePartScheduling,
  kWritePartMutexLock,
  kWritePartConditionWait,
  kWritePartWriteThreadWait,
  kWriteParts
};

// The part's name in the CSV header (with an `_us` suffix) and the JSON.
const char* WritePartName(int part);

// One region's writes over some span (an interval, or the whole run).
struct WriteBreakdown {
  uint64_t writes = 0;
  uint64_t total_ns = 0;  // wall time inside the store's write calls
  uint64_t part_ns[kWriteParts] = {};
  // The store's events in the span (background threads): memtables sealed
  // (each starts a new WAL file when the WAL is on) and table files
  // finished by flushes and compactions (each written and synced once).
  uint64_t memtables_sealed = 0;
  uint64_t tables_created = 0;
  uint64_t table_bytes = 0;

  void Add(const WriteBreakdown& other);
  // this - earlier, field by field (totals only grow; a field that did
  // not is 0).
  WriteBreakdown Minus(const WriteBreakdown& earlier) const;
};

// PATH.writes.csv: a header, then per interval one row per region.
// `time_s` is each interval's end, as in PATH.csv.
void WriteBreakdownCsvHeader(FILE* f);
void WriteBreakdownCsvRows(FILE* f, double time_s,
                           const std::vector<WriteBreakdown>& regions);

}  // namespace ycsb
