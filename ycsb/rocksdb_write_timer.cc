#include "rocksdb_write_timer.h"

#include <chrono>

#include "rocksdb/iostats_context.h"
#include "rocksdb/listener.h"
#include "rocksdb/perf_context.h"
#include "rocksdb/perf_level.h"

namespace ycsb {

namespace {

int64_t NowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// The calling thread's RocksDB timers, as WritePart indexes them. They are
// running totals of the thread (never reset here), so a write's share is
// the difference of two readings.
void ReadThreadTimers(uint64_t* part_ns) {
  const rocksdb::PerfContext* pc = rocksdb::get_perf_context();
  const rocksdb::IOStatsContext* io = rocksdb::get_iostats_context();
  part_ns[kWritePartWal] = pc->write_wal_time;
  part_ns[kWritePartWalFileWrite] = io->write_nanos;
  part_ns[kWritePartWalPrepareWrite] = io->prepare_write_nanos;
  part_ns[kWritePartWalRangeSync] = io->range_sync_nanos;
  part_ns[kWritePartWalFsync] = io->fsync_nanos;
  part_ns[kWritePartMemtable] = pc->write_memtable_time;
  part_ns[kWritePartDelay] = pc->write_delay_time;
  part_ns[kWritePartPrePost] = pc->write_pre_and_post_process_time;
  part_ns[kWritePartScheduling] = pc->write_scheduling_flushes_compactions_time;
  part_ns[kWritePartMutexLock] = pc->db_mutex_lock_nanos;
  part_ns[kWritePartConditionWait] = pc->db_condition_wait_nanos;
  part_ns[kWritePartWriteThreadWait] = pc->write_thread_wait_nanos;
}

std::atomic<uint64_t> next_timer_id{1};

// Adds to a counter only this thread writes: a relaxed load and store, no
// read-modify-write.
void Bump(std::atomic<uint64_t>* c, uint64_t by) {
  c->store(c->load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
}

}  // namespace

// One writer thread's totals, per region. Only that thread writes them.
struct RocksDbWriteTimer::ThreadTotals {
  struct Region {
    std::atomic<uint64_t> writes{0};
    std::atomic<uint64_t> total_ns{0};
    std::atomic<uint64_t> part_ns[kWriteParts] = {};
  };
  explicit ThreadTotals(int n) : regions(new Region[n]) {}
  std::unique_ptr<Region[]> regions;
};

// Background threads call these; counts are shared, so they add atomically
// (a few events a second).
class RocksDbWriteTimer::EventCounter : public rocksdb::EventListener {
 public:
  void OnMemTableSealed(const rocksdb::MemTableInfo&) override {
    memtables_sealed.fetch_add(1, std::memory_order_relaxed);
  }
  void OnTableFileCreated(const rocksdb::TableFileCreationInfo& info) override {
    if (!info.status.ok()) return;
    tables_created.fetch_add(1, std::memory_order_relaxed);
    table_bytes.fetch_add(info.file_size, std::memory_order_relaxed);
  }
  std::atomic<uint64_t> memtables_sealed{0};
  std::atomic<uint64_t> tables_created{0};
  std::atomic<uint64_t> table_bytes{0};
};

RocksDbWriteTimer::RocksDbWriteTimer(int regions, int every)
    : regions_(regions), every_(every), id_(next_timer_id.fetch_add(1)) {
  for (int i = 0; i < regions; i++) {
    events_.push_back(std::make_shared<EventCounter>());
  }
}

RocksDbWriteTimer::~RocksDbWriteTimer() = default;

std::shared_ptr<rocksdb::EventListener> RocksDbWriteTimer::ListenerFor(
    int region) {
  return events_.at(region);
}

bool RocksDbWriteTimer::ThisWriteIsTimed() const {
  // Per thread, every `every_`-th write from its first: a thread's writes
  // are the requests it happened to take, so the sample is as random as
  // the arrivals, and no write is timed twice.
  thread_local uint64_t writes_seen = 0;
  return writes_seen++ % static_cast<uint64_t>(every_) == 0;
}

RocksDbWriteTimer::Snapshot RocksDbWriteTimer::Begin() const {
  Snapshot s;
  s.perf_level = rocksdb::GetPerfLevel();
  rocksdb::SetPerfLevel(rocksdb::PerfLevel::kEnableTime);
  ReadThreadTimers(s.part_ns);
  s.start_ns = NowNs();
  return s;
}

void RocksDbWriteTimer::End(int region, const Snapshot& before) {
  const int64_t end_ns = NowNs();
  uint64_t after[kWriteParts];
  ReadThreadTimers(after);
  rocksdb::SetPerfLevel(static_cast<rocksdb::PerfLevel>(before.perf_level));
  ThreadTotals::Region& r = ThisThreadsTotals()->regions[region];
  Bump(&r.writes, 1);
  Bump(&r.total_ns, static_cast<uint64_t>(end_ns - before.start_ns));
  for (int p = 0; p < kWriteParts; p++) {
    Bump(&r.part_ns[p], after[p] - before.part_ns[p]);
  }
}

RocksDbWriteTimer::ThreadTotals* RocksDbWriteTimer::ThisThreadsTotals() {
  // A thread registers once per timer: its first write finds no slot of
  // this timer's id and takes the lock to add one.
  thread_local uint64_t owner_id = 0;
  thread_local ThreadTotals* totals = nullptr;
  if (owner_id != id_) {
    std::lock_guard<std::mutex> l(threads_mu_);
    threads_.push_back(std::make_unique<ThreadTotals>(regions_));
    totals = threads_.back().get();
    owner_id = id_;
  }
  return totals;
}

std::vector<WriteBreakdown> RocksDbWriteTimer::Totals() const {
  std::vector<WriteBreakdown> out(regions_);
  {
    std::lock_guard<std::mutex> l(threads_mu_);
    for (const auto& t : threads_) {
      for (int i = 0; i < regions_; i++) {
        const ThreadTotals::Region& r = t->regions[i];
        WriteBreakdown& b = out[i];
        b.writes += r.writes.load(std::memory_order_relaxed);
        b.total_ns += r.total_ns.load(std::memory_order_relaxed);
        for (int p = 0; p < kWriteParts; p++) {
          b.part_ns[p] += r.part_ns[p].load(std::memory_order_relaxed);
        }
      }
    }
  }
  for (int i = 0; i < regions_; i++) {
    out[i].memtables_sealed = events_[i]->memtables_sealed.load();
    out[i].tables_created = events_[i]->tables_created.load();
    out[i].table_bytes = events_[i]->table_bytes.load();
  }
  return out;
}

}  // namespace ycsb
