// The RocksDB store: `regions` independent DB instances under
// <rocksdb.dir>/region-<i>, each key routed to one by a hash of the key (as
// the paper does), each with its own LsmMetricsCollector.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "db_binding.h"
#include "rocksdb_write_timer.h"
#include "rocksdb/vlsm.h"
#include "workload_properties.h"

namespace rocksdb {
class DB;
class LsmMetricsCollector;
struct LsmMetricsReport;
struct Options;
class RateLimiter;
}  // namespace rocksdb

namespace ycsb {

// The binding's properties, parsed and checked before anything is opened
// (PropertyError otherwise). See ycsb/README.md for each one.
struct RocksDbConfig {
  std::string dir = "/tmp/ycsb-rocksdb";
  int regions = 1;
  bool vlsm = false;
  // What ConfigureVlsm is given with vlsm=true: a preset (vlsm.preset), or
  // vlsm.sst_size, vlsm.growth, vlsm.phi, vlsm.l0 and vlsm.ranged_l0_depth
  // over VlsmOptions()'s defaults.
  rocksdb::VlsmOptions vlsm_options;
  uint64_t sst_size = 64 << 20;   // stock: memtable and target file size
  uint64_t l1_size = 256 << 20;   // stock: max_bytes_for_level_base
  int growth = 8;                 // stock: level multiplier
  int num_levels = 5;
  bool direct_io = false;
  std::string compression = "none";
  uint64_t block_cache_bytes = 0;  // 0: RocksDB's default cache
  // Bloom filter bits per key in every SST; 0: no filter (RocksDB's
  // default). Production deployments set one, and it changes how many
  // files a point read touches, so read runs should say which they used.
  double bloom_bits = 0;
  int max_background_jobs = 2;
  bool lower_cpu_priority = false;
  bool wal = true;
  bool sync = false;
  bool destroy = false;        // delete existing DBs first (load phase)
  // Under the ranged layout, compact L0 down to one sorted run once writes
  // stop (docs/design/ranged-layout.md, the drain at rest). rocksdb.drain_at_rest=false
  // turns it off: DB::SetOptions after open (it is no ColumnFamilyOptions
  // field).
  bool drain_at_rest = true;
  // At the end of the phase, wait until no flush or compaction is pending
  // before closing: a fill whose runs should start from a settled tree, or
  // a load whose cost is counted with its compaction debt paid. The
  // metrics still end at the phase's last operation; what the wait added
  // is reported apart (SettleJson).
  bool wait_for_compaction = false;
  // Set by a signal (ycsb_main's g_stop): a stopped run closes without the
  // settle above, and a wait already under way ends within a second. The
  // process then exits promptly instead of compacting on for minutes
  // while a resumed experiment may already reuse its DB directory.
  const std::atomic<bool>* stop = nullptr;
  bool lsm_metrics = true;     // attach a collector per region
  // Time every write with RocksDB's PerfContext and IOStatsContext and
  // count memtables sealed and table files finished, per region
  // (rocksdb_write_timer.h): the report's write breakdown.
  bool write_breakdown = true;
  // Time one write in this many on each thread (rocksdb.write_breakdown.every).
  int write_breakdown_every = 8;
  // Bytes per second of flush and compaction I/O (reads and writes) for
  // all regions together, through one shared rocksdb::RateLimiter: the
  // regions then contend for one device's bandwidth. 0: no limiter.
  uint64_t rate_limit = 0;
  // Any RocksDB options, as an options string ("a=1;b=2"), applied after
  // the sizes above: how the evaluation expresses RocksDB-IO's limits and
  // equal memtable memory without a property per option.
  std::string extra_options;

  static RocksDbConfig FromProperties(const Properties& props);
  // The options of one region (without the collector and the shared rate
  // limiter, which Open adds), or PropertyError
  // naming what ConfigureVlsm / the checks rejected.
  rocksdb::Options MakeOptions() const;
  // Bytes written to all regions together from one L0 compaction of a
  // region becoming due to the next (each region takes 1/regions of the
  // writes): memtable size x memtables merged per flush x the L0 trigger
  // (files, or under kVlsmRanged flushes deep), from MakeOptions. A
  // find-sustainable step lasts at least two such cycles
  // (sustainable_rate_search.h).
  uint64_t DebtCycleBytes() const;
  // MakeOptions' column-family options as an options string, one
  // "name=value" per line: what a store opened with these properties runs
  // with, for mode=describe (tests/eval compare the measured ranged system
  // with VlsmOptions::Ranged() through it).
  std::string ColumnFamilyOptionsString() const;
};

class RocksDbBinding : public DbBinding {
 public:
  // Opens every region; returns nullptr and sets *error on failure.
  static std::unique_ptr<RocksDbBinding> Open(const RocksDbConfig& config,
                                              std::string* error);
  ~RocksDbBinding() override;

  OpResult Read(const std::string& key) override;
  OpResult Update(const std::string& key, const std::string& value) override;
  OpResult Insert(const std::string& key, const std::string& value) override;
  OpResult Scan(const std::string& start_key, uint32_t count) override;
  OpResult ReadModifyWrite(const std::string& key,
                           const std::string& value) override;

  bool WritesStalledSinceLastCall() override;
  uint64_t DiskBytes() override;
  uint64_t CompactionDebtBytes() override;
  std::vector<WriteBreakdown> WriteBreakdownTotals() override;
  void SetOperationCount(uint64_t ops) override;
  std::string MetricsJson() override;
  std::string SettleJson() override;
  std::string RateLimiterJson() override;
  void Close() override;

  int RegionOf(const std::string& key) const;
  // Region i's DB, for tests that check what Open configured.
  rocksdb::DB* RegionDb(int i) const;

 private:
  struct Region;
  explicit RocksDbBinding(const RocksDbConfig& config);
  OpResult Put(const std::string& key, const std::string& value);
  void WaitForCompactions();
  // One line on stderr: what region `region` still has to do, `seconds`
  // into a wait for it.
  void PrintWaitingOn(size_t region, int seconds);
  bool Stopped() const { return config_.stop && config_.stop->load(); }
  // Holds the drain at rest off (false) or lets it run again (true);
  // nothing when rocksdb.drain_at_rest=false.
  void SetDrainAtRest(bool on);
  std::string Settle(const std::vector<rocksdb::LsmMetricsReport>& at_phase_end);
  uint64_t SumIntProperty(const std::string& property) const;
  // The limiter's totals now, by priority (a JSON object).
  std::string RateLimiterTotalsJson() const;
  RocksDbConfig config_;
  std::shared_ptr<rocksdb::RateLimiter> rate_limiter_;  // null: no limit
  std::unique_ptr<RocksDbWriteTimer> write_timer_;  // null: not measured
  std::vector<std::unique_ptr<Region>> regions_;
  bool closed_ = false;
  std::string final_metrics_;
  std::string settle_json_;
  std::string rate_limiter_json_;
};

}  // namespace ycsb
