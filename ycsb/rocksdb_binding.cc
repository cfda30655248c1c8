#include "rocksdb_binding.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <stdexcept>
#include <system_error>

#include "rocksdb/cache.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/lsm_metrics.h"
#include "rocksdb/options.h"
#include "rocksdb/rate_limiter.h"
#include "rocksdb/table.h"
#include "rocksdb/vlsm.h"
#include "options/vlsm_presets.h"
#include "utilities/lsm_metrics/json_writer.h"

namespace ycsb {

struct RocksDbBinding::Region {
  rocksdb::DB* db = nullptr;
  std::shared_ptr<rocksdb::LsmMetricsCollector> collector;
  // Stall bookkeeping between two WritesStalledSinceLastCall calls.
  uint64_t last_stalled_samples = 0;
  double last_writer_stall_s = 0;
  double last_stall_total_s = 0;
  uint64_t last_stall_count = 0;
};

RocksDbConfig RocksDbConfig::FromProperties(const Properties& p) {
  RocksDbConfig c;
  c.dir = p.GetString("rocksdb.dir", c.dir);
  c.regions = static_cast<int>(p.GetCount("regions", 1));
  if (c.regions < 1 || c.regions > 1024) {
    throw PropertyError("property regions must be in [1, 1024]");
  }
  c.vlsm = p.GetBool("vlsm", false);
  static const char* const kVlsmShape[] = {"vlsm.sst_size", "vlsm.growth",
                                           "vlsm.phi", "vlsm.l0",
                                           "vlsm.ranged_l0_depth"};
  rocksdb::VlsmOptions& v = c.vlsm_options;
  if (p.Has("vlsm.preset")) {
    if (!c.vlsm) {
      throw PropertyError("vlsm.preset has no effect without vlsm=true");
    }
    for (const char* name : kVlsmShape) {
      if (p.Has(name)) {
        throw PropertyError(std::string(name) +
                            " conflicts with vlsm.preset (which sets it); "
                            "drop one of them");
      }
    }
    const rocksdb::Status named =
        rocksdb::VlsmPresetNamed(p.GetString("vlsm.preset", ""), &v);
    if (!named.ok()) {
      throw PropertyError(std::string("vlsm.preset ") + named.getState());
    }
  } else {
    if (p.Has("vlsm.sst_size")) {
      v.sst_size = ParseByteSize("vlsm.sst_size", p.GetString("vlsm.sst_size", ""));
    }
    v.growth = static_cast<int>(p.GetCount("vlsm.growth", v.growth));
    v.l1_l2_growth = static_cast<int>(p.GetCount("vlsm.phi", v.l1_l2_growth));
    const rocksdb::Status layout = rocksdb::ParseVlsmL0Layout(
        p.GetString("vlsm.l0", rocksdb::VlsmL0LayoutName(v.l0_layout)), &v.l0_layout);
    if (!layout.ok()) {
      throw PropertyError(std::string("vlsm.l0 ") + layout.getState());
    }
    if (p.Has("vlsm.ranged_l0_depth") && v.l0_layout != rocksdb::VlsmL0Layout::kRanged) {
      throw PropertyError("vlsm.ranged_l0_depth has no effect without vlsm.l0=ranged");
    }
    // Clamped into int's range; ConfigureVlsm names the bounds.
    v.ranged_l0_depth = static_cast<int>(std::min<uint64_t>(
        p.GetCount("vlsm.ranged_l0_depth", v.ranged_l0_depth),
        std::numeric_limits<int>::max()));
  }
  if (p.Has("rocksdb.sst_size")) {
    c.sst_size = ParseByteSize("rocksdb.sst_size", p.GetString("rocksdb.sst_size", ""));
  }
  if (p.Has("rocksdb.l1_size")) {
    c.l1_size = ParseByteSize("rocksdb.l1_size", p.GetString("rocksdb.l1_size", ""));
  }
  c.growth = static_cast<int>(p.GetCount("rocksdb.growth", 8));
  c.num_levels = static_cast<int>(p.GetCount("rocksdb.num_levels", 5));
  c.direct_io = p.GetBool("direct_io", false);
  c.compression = p.GetString("compression", "none");
  if (c.compression != "none" && c.compression != "snappy" &&
      c.compression != "lz4" && c.compression != "zstd") {
    throw PropertyError("unknown compression '" + c.compression +
                        "' (none, snappy, lz4 or zstd)");
  }
  if (p.Has("block_cache_bytes")) {
    c.block_cache_bytes =
        ParseByteSize("block_cache_bytes", p.GetString("block_cache_bytes", ""));
  }
  c.bloom_bits = p.GetDouble("rocksdb.bloom_bits", 0);
  // RocksDB's filter accepts up to 100 bits per key; below 1 it would
  // silently build no filter at all.
  if (c.bloom_bits != 0 && !(c.bloom_bits >= 1 && c.bloom_bits <= 100)) {
    throw PropertyError("rocksdb.bloom_bits must be 0 (no filter) or a number "
                        "of bits per key in [1, 100], got '" +
                        p.GetString("rocksdb.bloom_bits", "") + "'");
  }
  c.max_background_jobs = static_cast<int>(p.GetCount("max_background_jobs", 2));
  c.lower_cpu_priority = p.GetBool("lower_cpu_priority", false);
  c.wal = p.GetBool("rocksdb.wal", true);
  c.sync = p.GetBool("rocksdb.sync", false);
  c.destroy = p.GetBool("rocksdb.destroy", false);
  c.drain_at_rest = p.GetBool("rocksdb.drain_at_rest", true);
  c.wait_for_compaction = p.GetBool("rocksdb.wait_for_compaction", false);
  c.lsm_metrics = p.GetBool("lsm_metrics", true);
  c.write_breakdown = p.GetBool("rocksdb.write_breakdown", true);
  const uint64_t every = p.GetCount("rocksdb.write_breakdown.every", 8);
  if (every < 1 || every > 1000000) {
    throw PropertyError("rocksdb.write_breakdown.every must be in [1, 1000000]");
  }
  c.write_breakdown_every = static_cast<int>(every);
  c.extra_options = p.GetString("rocksdb.options", "");
  if (p.Has("rocksdb.rate_limit")) {
    const std::string text = p.GetString("rocksdb.rate_limit", "");
    try {
      c.rate_limit = ParseByteSize("rocksdb.rate_limit", text);
    } catch (const std::out_of_range&) {  // more digits than 64 bits hold
      c.rate_limit = std::numeric_limits<uint64_t>::max();
    }
    // The limiter refills rate/10 bytes every 100 ms: below 10 B/s that is
    // nothing and a flush would never finish; 1K keeps clear of it. It
    // takes an int64_t.
    if (c.rate_limit != 0 &&
        (c.rate_limit < 1024 ||
         c.rate_limit > uint64_t{std::numeric_limits<int64_t>::max()})) {
      throw PropertyError("rocksdb.rate_limit must be 0 (no limit) or bytes "
                          "per second from 1K up, got '" + text + "'");
    }
  }
  if (c.growth < 2 || c.num_levels < 2 || c.max_background_jobs < 1 ||
      c.sst_size == 0 || c.l1_size == 0) {
    throw PropertyError("rocksdb.growth must be >= 2, rocksdb.num_levels >= 2, "
                        "max_background_jobs >= 1, sizes > 0");
  }
  // Catch what ConfigureVlsm / option validation would reject now, before
  // any DB is opened.
  c.MakeOptions();
  return c;
}

rocksdb::Options RocksDbConfig::MakeOptions() const {
  rocksdb::Options o;
  o.create_if_missing = true;
  o.num_levels = num_levels;
  o.max_background_jobs = max_background_jobs;
  o.use_direct_reads = direct_io;
  o.use_direct_io_for_flush_and_compaction = direct_io;
  if (compression == "none") o.compression = rocksdb::kNoCompression;
  if (compression == "snappy") o.compression = rocksdb::kSnappyCompression;
  if (compression == "lz4") o.compression = rocksdb::kLZ4Compression;
  if (compression == "zstd") o.compression = rocksdb::kZSTD;
  if (block_cache_bytes > 0 || bloom_bits > 0) {
    rocksdb::BlockBasedTableOptions t;
    if (block_cache_bytes > 0) t.block_cache = rocksdb::NewLRUCache(block_cache_bytes);
    if (bloom_bits > 0) t.filter_policy.reset(rocksdb::NewBloomFilterPolicy(bloom_bits));
    o.table_factory.reset(rocksdb::NewBlockBasedTableFactory(t));
  }
  // The stock baseline at the paper's sizes; vLSM replaces the sizes below.
  o.compaction_style = rocksdb::kCompactionStyleLevel;
  o.level_compaction_dynamic_level_bytes = false;
  o.write_buffer_size = sst_size;
  o.target_file_size_base = sst_size;
  o.max_write_buffer_number = 2;
  o.max_bytes_for_level_base = l1_size;
  o.max_bytes_for_level_multiplier = growth;
  if (vlsm) {
    rocksdb::Status s = rocksdb::ConfigureVlsm(&o, vlsm_options);
    if (!s.ok()) throw PropertyError("vlsm options: " + s.ToString());
  }
  if (rate_limit > 0) {
    // With a limiter RocksDB would derive the slowed-down write rate from
    // it (db_impl_open.cc: delayed_write_rate = the limit) instead of its
    // 16 MiB/s default: pin the default, so the device-bound regime
    // changes the device's pace and nothing in the write controller.
    // rocksdb.options below can still set it.
    o.delayed_write_rate = 16 << 20;
  }
  if (!extra_options.empty()) {
    rocksdb::ConfigOptions strict;  // an unknown or misspelt option is an error
    strict.ignore_unknown_options = false;
    strict.input_strings_escaped = false;
    rocksdb::Options base = o;
    rocksdb::Status s = rocksdb::GetOptionsFromString(strict, base, extra_options, &o);
    if (!s.ok()) throw PropertyError("rocksdb.options: " + s.ToString());
  }
  rocksdb::Status s = rocksdb::CheckVlsmOptions(o);
  if (!s.ok()) throw PropertyError("rocksdb options: " + s.ToString());
  return o;
}

uint64_t RocksDbConfig::DebtCycleBytes() const {
  const rocksdb::Options o = MakeOptions();
  const uint64_t per_flush =
      o.write_buffer_size *
      static_cast<uint64_t>(std::max(1, o.min_write_buffer_number_to_merge));
  return per_flush *
         static_cast<uint64_t>(std::max(1, o.level0_file_num_compaction_trigger)) *
         static_cast<uint64_t>(regions);
}

std::string RocksDbConfig::ColumnFamilyOptionsString() const {
  rocksdb::ConfigOptions config;
  config.delimiter = "\n";
  std::string text;
  rocksdb::Status s =
      rocksdb::GetStringFromColumnFamilyOptions(config, MakeOptions(), &text);
  if (!s.ok())
    throw PropertyError("rocksdb options as a string: " + s.ToString());
  return text;
}

RocksDbBinding::RocksDbBinding(const RocksDbConfig& config) : config_(config) {}

std::unique_ptr<RocksDbBinding> RocksDbBinding::Open(const RocksDbConfig& config,
                                                     std::string* error) {
  std::unique_ptr<RocksDbBinding> b(new RocksDbBinding(config));
  if (config.write_breakdown) {
    b->write_timer_ = std::make_unique<RocksDbWriteTimer>(
        config.regions, config.write_breakdown_every);
  }
  if (config.rate_limit > 0) {
    // One limiter for every region: they model one device, so their flushes
    // and compactions share its bandwidth instead of getting it each.
    // kAllIo: compaction input reads are charged too, not only writes.
    b->rate_limiter_.reset(rocksdb::NewGenericRateLimiter(
        static_cast<int64_t>(config.rate_limit), 100000 /* refill us */,
        10 /* fairness */, rocksdb::RateLimiter::Mode::kAllIo));
  }
  rocksdb::Env* env = rocksdb::Env::Default();
  if (config.lower_cpu_priority) {
    // Compactions (the LOW pool) yield the CPU to the foreground; flushes
    // keep normal priority so that memtables still drain.
    env->LowerThreadPoolCPUPriority(rocksdb::Env::Priority::LOW);
  }
  // Regions share Env::Default()'s thread pools, which RocksDB only grows
  // to one DB's need: give every region its own max_background_jobs by
  // sizing the pools for all of them (RocksDB's split: a quarter, at least
  // one, for flushes; the rest for compactions).
  int flushes = std::max(1, config.max_background_jobs / 4);
  int compactions = std::max(1, config.max_background_jobs - flushes);
  env->IncBackgroundThreadsIfNeeded(config.regions * compactions,
                                    rocksdb::Env::Priority::LOW);
  env->IncBackgroundThreadsIfNeeded(config.regions * flushes,
                                    rocksdb::Env::Priority::HIGH);
  // The regions' parent, with any missing parents of its own (RocksDB
  // creates one level only).
  std::error_code ec;
  std::filesystem::create_directories(config.dir, ec);
  if (ec) {
    *error = "creating " + config.dir + ": " + ec.message();
    return nullptr;
  }
  for (int i = 0; i < config.regions; i++) {
    std::string path = config.dir + "/region-" + std::to_string(i);
    rocksdb::Options o = config.MakeOptions();
    if (b->rate_limiter_) o.rate_limiter = b->rate_limiter_;
    if (config.destroy) rocksdb::DestroyDB(path, o);
    std::unique_ptr<Region> r(new Region);
    if (config.lsm_metrics) {
      r->collector = std::make_shared<rocksdb::LsmMetricsCollector>();
      o.listeners.push_back(r->collector);
    }
    if (b->write_timer_) o.listeners.push_back(b->write_timer_->ListenerFor(i));
    rocksdb::Status s = rocksdb::DB::Open(o, path, &r->db);
    if (!s.ok()) {
      *error = "opening " + path + ": " + s.ToString();
      return nullptr;
    }
    if (!config.drain_at_rest) {
      s = r->db->SetOptions({{rocksdb::VlsmDrainOptions::kEnabled, "false"}});
      if (!s.ok()) {
        *error = "rocksdb.drain_at_rest=false on " + path + ": " + s.ToString();
        delete r->db;
        return nullptr;
      }
    }
    if (r->collector) {
      s = r->collector->Attach(r->db);
      if (!s.ok()) {
        *error = "attaching the LSM metrics collector to " + path + ": " +
                 s.ToString();
        delete r->db;
        return nullptr;
      }
    }
    b->regions_.push_back(std::move(r));
  }
  return b;
}

RocksDbBinding::~RocksDbBinding() {
  Close();
  for (auto& r : regions_) {
    if (r->db) {
      r->db->Close();
      delete r->db;
      r->db = nullptr;
    }
  }
}

rocksdb::DB* RocksDbBinding::RegionDb(int i) const { return regions_.at(i)->db; }

int RocksDbBinding::RegionOf(const std::string& key) const {
  if (regions_.size() <= 1) return 0;
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over the key bytes
  for (unsigned char ch : key) {
    h ^= ch;
    h *= 0x100000001b3ull;
  }
  return static_cast<int>(h % regions_.size());
}

OpResult RocksDbBinding::Read(const std::string& key) {
  std::string value;
  rocksdb::Status s =
      regions_[RegionOf(key)]->db->Get(rocksdb::ReadOptions(), key, &value);
  if (s.ok()) return OpResult::kOk;
  return s.IsNotFound() ? OpResult::kNotFound : OpResult::kError;
}

OpResult RocksDbBinding::Put(const std::string& key, const std::string& value) {
  rocksdb::WriteOptions w;
  w.disableWAL = !config_.wal;
  w.sync = config_.sync;
  const int region = RegionOf(key);
  rocksdb::DB* db = regions_[region]->db;
  auto put = [&] { return db->Put(w, key, value); };
  rocksdb::Status s = write_timer_ ? write_timer_->Time(region, put) : put();
  return s.ok() ? OpResult::kOk : OpResult::kError;
}

OpResult RocksDbBinding::Update(const std::string& key, const std::string& value) {
  return Put(key, value);
}

OpResult RocksDbBinding::Insert(const std::string& key, const std::string& value) {
  return Put(key, value);
}

OpResult RocksDbBinding::Scan(const std::string& start_key, uint32_t count) {
  // Within the start key's region: regions partition the key space by hash,
  // so a cross-region scan would need a merge the paper's setup does not do.
  std::unique_ptr<rocksdb::Iterator> it(
      regions_[RegionOf(start_key)]->db->NewIterator(rocksdb::ReadOptions()));
  uint32_t n = 0;
  for (it->Seek(start_key); it->Valid() && n < count; it->Next()) n++;
  if (!it->status().ok()) return OpResult::kError;
  return n ? OpResult::kOk : OpResult::kNotFound;
}

OpResult RocksDbBinding::ReadModifyWrite(const std::string& key,
                                         const std::string& value) {
  OpResult r = Read(key);
  if (r == OpResult::kError) return r;
  OpResult w = Put(key, value);
  return w == OpResult::kOk ? r : w;
}

std::vector<WriteBreakdown> RocksDbBinding::WriteBreakdownTotals() {
  return write_timer_ ? write_timer_->Totals() : std::vector<WriteBreakdown>();
}

bool RocksDbBinding::WritesStalledSinceLastCall() {
  bool stalled = false;
  for (auto& r : regions_) {
    // The write controller's state right now...
    uint64_t stopped = 0, delayed_rate = 0;
    r->db->GetIntProperty("rocksdb.is-write-stopped", &stopped);
    r->db->GetIntProperty("rocksdb.actual-delayed-write-rate", &delayed_rate);
    if (stopped || delayed_rate) stalled = true;
    if (!r->collector) continue;
    // ...and anything the collector saw since the previous call: running
    // totals, not Report(), whose copy of the history and L1 census would
    // make this O(run length) per call. A stall that began and ended
    // between two calls moves the episode count and total; one in progress
    // is in_stall.
    const rocksdb::LsmStallCounters c = r->collector->StallCounters();
    if (c.in_stall || c.stalled_samples > r->last_stalled_samples ||
        c.writer_stall_s > r->last_writer_stall_s ||
        c.stall_total_s > r->last_stall_total_s ||
        c.stall_count > r->last_stall_count) {
      stalled = true;
    }
    r->last_stalled_samples = c.stalled_samples;
    r->last_writer_stall_s = c.writer_stall_s;
    r->last_stall_total_s = c.stall_total_s;
    r->last_stall_count = c.stall_count;
  }
  return stalled;
}

uint64_t RocksDbBinding::SumIntProperty(const std::string& property) const {
  uint64_t sum = 0;
  for (const auto& r : regions_) {
    uint64_t v = 0;
    if (r->db && r->db->GetIntProperty(property, &v)) sum += v;
  }
  return sum;
}

uint64_t RocksDbBinding::DiskBytes() {
  // Every SST referenced by any live version (an iterator or a running
  // compaction can hold old ones), not only the current tree: what the
  // files take on disk. The cost is one walk over the live versions' file
  // lists, however long the run; files already unreferenced but not yet
  // deleted are not counted.
  return SumIntProperty(rocksdb::DB::Properties::kTotalSstFilesSize);
}

uint64_t RocksDbBinding::CompactionDebtBytes() {
  // Kept up to date by RocksDB at every version change: a field read.
  return SumIntProperty(rocksdb::DB::Properties::kEstimatePendingCompactionBytes);
}

void RocksDbBinding::SetOperationCount(uint64_t ops) {
  // Every collector measures the whole process's CPU (the regions share
  // it), so each divides it by all the operations: each region's
  // cpu_us_per_op is then the process's CPU per operation.
  for (auto& r : regions_) {
    if (r->collector) r->collector->SetOperationCount(ops);
  }
}

void RocksDbBinding::Close() {
  if (closed_) return;
  closed_ = true;
  // The limiter's count at the phase's end, before the settle adds to it.
  const std::string limiter_at_phase_end = RateLimiterTotalsJson();
  std::vector<rocksdb::LsmMetricsReport> reports;
  if (config_.wait_for_compaction) {
    // The phase's figures end at its last operation, whether or not it
    // waits: taken before the wait, so that a load that settles reports
    // what a load that does not would have, plus the settle apart.
    for (auto& r : regions_) {
      if (r->collector) reports.push_back(r->collector->Report());
    }
    // A stopped run does not settle; a settle cut short by a signal paid
    // part of the debt, and its figures would read as the whole cost. The
    // run is reported interrupted either way, with its phase's figures.
    if (!Stopped()) settle_json_ = Settle(reports);
    if (Stopped()) settle_json_.clear();
  }
  for (auto& r : regions_) {
    if (r->collector) r->collector->Detach();
  }
  if (!config_.wait_for_compaction) {
    for (auto& r : regions_) {
      if (r->collector) reports.push_back(r->collector->Report());
    }
  }
  std::string json = "[";
  for (const auto& report : reports) {
    if (json.size() > 1) json += ",";
    json += rocksdb::LsmMetricsToJson(report);
  }
  final_metrics_ = json + "]";
  if (rate_limiter_) {
    rocksdb::lsm_metrics::JsonWriter j;
    j.BeginObject()
        .Field("bytes_per_second", rate_limiter_->GetBytesPerSecond())
        .Raw("at_phase_end", limiter_at_phase_end)
        .Raw("at_close", RateLimiterTotalsJson())
        .EndObject();
    rate_limiter_json_ = j.str();
  }
}

std::string RocksDbBinding::RateLimiterTotalsJson() const {
  // What the limiter charged, which is what "the device" was busy with: it
  // can differ from the bytes the statistics count (a direct read charges
  // its whole aligned request before it learns where the file ends).
  // Flushes ask at IO_HIGH, compactions and the drain at IO_LOW, both at
  // IO_USER while writes are slowed or stopped; user reads and the WAL are
  // not charged (their priority is IO_TOTAL).
  if (!rate_limiter_) return "";
  using P = rocksdb::Env::IOPriority;
  rocksdb::lsm_metrics::JsonWriter j;
  j.BeginObject()
      .Field("bytes_total", rate_limiter_->GetTotalBytesThrough(P::IO_TOTAL))
      .Field("bytes_high", rate_limiter_->GetTotalBytesThrough(P::IO_HIGH))
      .Field("bytes_low", rate_limiter_->GetTotalBytesThrough(P::IO_LOW))
      .Field("bytes_user", rate_limiter_->GetTotalBytesThrough(P::IO_USER))
      .Field("requests_total", rate_limiter_->GetTotalRequests(P::IO_TOTAL))
      .Field("requests_high", rate_limiter_->GetTotalRequests(P::IO_HIGH))
      .Field("requests_low", rate_limiter_->GetTotalRequests(P::IO_LOW))
      .EndObject();
  return j.str();
}

std::string RocksDbBinding::Settle(
    const std::vector<rocksdb::LsmMetricsReport>& at_phase_end) {
  // What paying the phase's compaction debt cost: a closed-loop rate that
  // leaves debt behind has not paid for its writes, so its I/O and CPU per
  // operation are only comparable with the settle added (issue 20's
  // "to the end of compaction").
  const uint64_t debt = CompactionDebtBytes();
  const auto start = std::chrono::steady_clock::now();
  // The memtables first, then the estimate again: with them in L0 it
  // owes everything the wait below will compact, so the two make one
  // calibration pair (E, then R: the compaction input read from that
  // moment on to pay it), as tools/vlsm_calibrate takes them. A step that
  // ends during the flushes is in neither. The drain at rest is held off
  // until R is read: its steps pay no debt, and the L1 -> L2 steps its
  // output into L1 makes due would otherwise count in R as if they did
  // (measured: R 150-300 MiB over E at 80% with it running).
  SetDrainAtRest(false);
  for (auto& r : regions_) {
    rocksdb::FlushOptions flush;
    flush.allow_write_stall = true;  // the flush only, not the compactions
    rocksdb::Status s = r->db->Flush(flush);
    if (!s.ok()) fprintf(stderr, "[ycsb] settle: flush: %s\n", s.ToString().c_str());
  }
  // E, then R's starting point, as tools/vlsm_calibrate takes its pairs:
  // a step that ends between the two is owed in E and missing from R, a
  // race of one step (at most max_compaction_bytes) kept the same in both
  // tools so that every pair of the evaluation is taken one way.
  const uint64_t debt_after_flush = CompactionDebtBytes();
  std::vector<rocksdb::LsmMetricsReport> at_estimate, debt_paid;
  for (auto& r : regions_) {
    if (r->collector) at_estimate.push_back(r->collector->Report());
  }
  WaitForCompactions();
  for (auto& r : regions_) {
    if (r->collector) debt_paid.push_back(r->collector->Report());
  }
  if (config_.drain_at_rest) {
    SetDrainAtRest(true);
    WaitForCompactions();  // the drain, and whatever its steps make due
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rocksdb::lsm_metrics::JsonWriter j;
  j.BeginObject()
      .Field("seconds", seconds)
      .Field("debt_bytes_at_phase_end", debt)
      .Field("debt_bytes_after_flush", debt_after_flush);
  if (!at_phase_end.empty()) {
    uint64_t flush = 0, read = 0, written = 0, drain_read = 0, drain_written = 0;
    uint64_t pair_read = 0;
    std::vector<uint64_t> level_bytes, level_files;
    double cpu_s = 0;
    size_t i = 0;
    for (auto& r : regions_) {
      if (!r->collector) continue;
      const rocksdb::LsmMetricsReport now = r->collector->Report();
      const rocksdb::LsmMetricsReport& before = at_phase_end[i++];
      flush += now.flush_bytes - before.flush_bytes;
      read += now.compaction_read_bytes - before.compaction_read_bytes;
      written += now.compaction_write_bytes - before.compaction_write_bytes;
      // The drain at rest (which WaitForCompact starts) is in the totals
      // above; apart, so the debt estimate at the phase's end can be held
      // against the debt's own part of the settle (the calibration pair).
      drain_read += now.drain_read_bytes - before.drain_read_bytes;
      drain_written += now.drain_write_bytes - before.drain_write_bytes;
      const rocksdb::LsmMetricsReport& at_e = at_estimate[i - 1];
      const rocksdb::LsmMetricsReport& paid = debt_paid[i - 1];
      pair_read += (paid.compaction_read_bytes - at_e.compaction_read_bytes) -
                   (paid.drain_read_bytes - at_e.drain_read_bytes);
      // Every collector measures the whole process: one region's is all.
      cpu_s = now.cpu_s - before.cpu_s;
      level_bytes.resize(std::max(level_bytes.size(), now.level_bytes.size()));
      level_files.resize(std::max(level_files.size(), now.level_files.size()));
      for (size_t l = 0; l < now.level_bytes.size(); l++) level_bytes[l] += now.level_bytes[l];
      for (size_t l = 0; l < now.level_files.size(); l++) level_files[l] += now.level_files[l];
    }
    j.Field("flush_bytes", flush)
        .Field("compaction_read_bytes", read)
        .Field("compaction_write_bytes", written)
        .Field("drain_read_bytes", drain_read)
        .Field("drain_write_bytes", drain_written)
        .Field("debt_read_bytes", pair_read)
        .Field("cpu_s", cpu_s)
        .Array("level_bytes_after", level_bytes)
        .Array("level_files_after", level_files);
    fprintf(stderr, "[ycsb] settle: %.1f MiB of compaction debt at the phase's end; "
            "flushes and compactions then moved %.1f MiB in %.1f s\n",
            debt / 1048576.0, (flush + read + written) / 1048576.0, seconds);
  }
  j.EndObject();
  return j.str();
}

void RocksDbBinding::SetDrainAtRest(bool on) {
  if (!config_.drain_at_rest) return;  // off since open: nothing to hold
  for (size_t i = 0; i < regions_.size(); i++) {
    rocksdb::Status s = regions_[i]->db->SetOptions(
        {{rocksdb::VlsmDrainOptions::kEnabled, on ? "true" : "false"}});
    if (!s.ok()) {
      fprintf(stderr, "[ycsb] region %zu: drain at rest %s: %s\n", i, on ? "on" : "off",
              s.ToString().c_str());
    }
  }
}

void RocksDbBinding::WaitForCompactions() {
  fprintf(stderr, "[ycsb] waiting for flushes and compactions to finish\n");
  auto start = std::chrono::steady_clock::now();
  for (size_t i = 0; i < regions_.size() && !Stopped(); i++) {
    rocksdb::WaitForCompactOptions wait;
    wait.flush = true;  // the memtables too: the next phase starts settled
    // In slices of a second, so that a signal ends the wait (Stopped).
    wait.timeout = std::chrono::seconds(1);
    rocksdb::Status s;
    int slices = 0;
    do {
      s = regions_[i]->db->WaitForCompact(wait);
      // A settle of a big tree takes minutes, and one that never ends
      // must say what it waits on: every 30 s, what the region still has
      // to do (a wait with nothing running and nothing pending is a
      // liveness bug, not a slow device).
      if (s.IsTimedOut() && ++slices % 30 == 0) PrintWaitingOn(i, slices);
    } while (s.IsTimedOut() && !Stopped());
    if (!s.ok() && !s.IsTimedOut()) {
      fprintf(stderr, "[ycsb] region %zu: waiting for compactions: %s\n", i,
              s.ToString().c_str());
    }
  }
  fprintf(stderr, "[ycsb] %s after %.1f s\n",
          Stopped() ? "stopped by a signal while waiting for compactions"
                    : "compactions finished",
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
              .count());
}

void RocksDbBinding::PrintWaitingOn(size_t region, int seconds) {
  rocksdb::DB* db = regions_[region]->db;
  auto get = [db](const std::string& name) {
    uint64_t v = 0;
    return db->GetIntProperty(name, &v) ? std::to_string(v) : std::string("?");
  };
  using P = rocksdb::DB::Properties;
  std::string l0_files = "?";  // a string property, not an int one
  db->GetProperty(P::kNumFilesAtLevelPrefix + std::string("0"), &l0_files);
  fprintf(stderr,
          "[ycsb] region %zu: still waiting after %d s: compactions running %s, "
          "flushes running %s, compaction pending %s, flush pending %s, "
          "debt %s bytes, L0 files %s, background errors %s\n",
          region, seconds, get(P::kNumRunningCompactions).c_str(),
          get(P::kNumRunningFlushes).c_str(), get(P::kCompactionPending).c_str(),
          get(P::kMemTableFlushPending).c_str(),
          get(P::kEstimatePendingCompactionBytes).c_str(),
          l0_files.c_str(),
          get(P::kBackgroundErrors).c_str());
}

std::string RocksDbBinding::MetricsJson() {
  if (!closed_) Close();
  return final_metrics_;
}

std::string RocksDbBinding::SettleJson() {
  if (!closed_) Close();
  return settle_json_;
}

std::string RocksDbBinding::RateLimiterJson() {
  if (!closed_) Close();
  return rate_limiter_json_;
}

}  // namespace ycsb
