// LsmMetricsCollector on small real DBs: its byte totals against RocksDB's
// own statistics tickers, a stall forced by tiny L0 triggers, the L1 census,
// and the JSON report's fields.
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>

#include "db/compaction/vsst_cut_policy.h"
#include "gtest/gtest.h"
#include "tests/status_assertions.h"
#include "rocksdb/compaction_filter.h"
#include "rocksdb/comparator.h"
#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "rocksdb/lsm_metrics.h"
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/vlsm.h"

namespace ROCKSDB_NAMESPACE {
namespace {

std::string TestDbPath(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return std::string(tmp != nullptr ? tmp : "/tmp") + "/lsm_metrics_" + name;
}

std::string Key(uint64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%012llu",
                static_cast<unsigned long long>(i));
  return buf;
}

// Random keys over a small space (so compactions rewrite and drop data).
void WriteRandom(DB* db, uint64_t count, uint64_t key_space, uint32_t seed) {
  std::mt19937_64 rng(seed);
  const std::string value(200, 'v');
  for (uint64_t i = 0; i < count; ++i) {
    ASSERT_OK(db->Put(WriteOptions(), Key(rng() % key_space), value));
  }
}

// Tiny vLSM sizes: S_M = 64 KiB, so a few MiB make several levels.
Options SmallVlsmOptions() {
  Options options;
  options.create_if_missing = true;
  options.compression = kNoCompression;
  options.num_levels = 5;
  VlsmOptions vlsm;
  vlsm.sst_size = 64 << 10;
  vlsm.growth = 4;
  vlsm.l1_l2_growth = 8;
  EXPECT_OK(ConfigureVlsm(&options, vlsm));
  return options;
}

class LsmMetricsTest : public testing::Test {
 protected:
  void Open(Options options, const std::string& name) {
    path_ = TestDbPath(name);
    ASSERT_OK(DestroyDB(path_, options));
    collector_ = std::make_shared<LsmMetricsCollector>(config_);
    options.listeners.push_back(collector_);
    DB* raw = nullptr;
    ASSERT_OK(DB::Open(options, path_, &raw));
    db_.reset(raw);
    ASSERT_OK(collector_->Attach(db_.get()));
  }
  void TearDown() override {
    if (db_ != nullptr) {
      collector_->Detach();
      db_.reset();
      DestroyDB(path_, Options());
    }
  }

  LsmMetricsCollector::Config config_;
  std::string path_;
  std::shared_ptr<LsmMetricsCollector> collector_;
  std::unique_ptr<DB> db_;
};

TEST_F(LsmMetricsTest, ByteTotalsAgreeWithRocksDBStatistics) {
  Options options = SmallVlsmOptions();
  options.statistics = CreateDBStatistics();
  Open(options, "totals");
  WriteRandom(db_.get(), 40000, 20000, 1);
  ASSERT_OK(db_->Flush(FlushOptions()));
  ASSERT_OK(db_->WaitForCompact(WaitForCompactOptions()));
  collector_->Detach();
  const LsmMetricsReport r = collector_->Report();
  Statistics& stats = *options.statistics;

  // User bytes: RocksDB's DB stats and its BYTES_WRITTEN ticker count the
  // same write batches.
  EXPECT_EQ(r.user_bytes, stats.getTickerCount(BYTES_WRITTEN));
  EXPECT_EQ(r.user_keys, 40000u);
  // Flush and compaction bytes: file sizes (ours) against I/O counted by
  // the file writers and readers (the tickers); within 2%.
  auto near = [](uint64_t ours, uint64_t theirs) {
    return std::abs(static_cast<double>(ours) - static_cast<double>(theirs)) <=
           0.02 * static_cast<double>(theirs);
  };
  EXPECT_GT(r.flush_bytes, 0u);
  EXPECT_PRED2(near, r.flush_bytes, stats.getTickerCount(FLUSH_WRITE_BYTES));
  EXPECT_GT(r.compaction_read_bytes, 0u);
  EXPECT_PRED2(near, r.compaction_read_bytes,
               stats.getTickerCount(COMPACT_READ_BYTES));
  EXPECT_PRED2(near, r.compaction_write_bytes,
               stats.getTickerCount(COMPACT_WRITE_BYTES));

  // The per-level split adds up to the totals; flushes are level 0.
  uint64_t read = 0, written = 0;
  ASSERT_GE(r.levels.size(), 3u);  // L0, L1 and L2 all received data
  EXPECT_EQ(r.levels[0].written_bytes, r.flush_bytes);
  for (size_t l = 1; l < r.levels.size(); ++l) {
    read += r.levels[l].read_from_upper_bytes + r.levels[l].read_from_level_bytes;
    written += r.levels[l].written_bytes;
    EXPECT_EQ(r.levels[l].input_bytes_per_compaction.count,
              r.levels[l].compactions);
  }
  EXPECT_EQ(read, r.compaction_read_bytes);
  EXPECT_EQ(written, r.compaction_write_bytes);
  EXPECT_GT(r.levels[2].written_bytes, 0u);
  // L1->L2 steps rewrite the L2 files they overlap: bytes read from L2
  // itself (needs patch 0007: input files carry their level).
  EXPECT_GT(r.levels[2].read_from_level_bytes, 0u);
  EXPECT_GT(r.levels[2].read_from_upper_bytes, 0u);
  // vLSM: every L0->L1 compaction reads one L0 file, at most S_M of
  // flushed data.
  const ByteDistribution& into_l1 = r.levels[1].input_bytes_per_compaction;
  EXPECT_GT(into_l1.count, 0u);
  EXPECT_LE(into_l1.p99, into_l1.max);
  EXPECT_GE(static_cast<double>(into_l1.max), into_l1.mean);
  EXPECT_DOUBLE_EQ(
      r.io_amplification,
      static_cast<double>(r.flush_bytes + r.compaction_read_bytes +
                          r.compaction_write_bytes) /
          static_cast<double>(r.user_bytes));

  // The census at Detach matches the tree RocksDB reports.
  ColumnFamilyMetaData meta;
  db_->GetColumnFamilyMetaData(&meta);
  EXPECT_EQ(r.l1.good + r.l1.poor, meta.levels[1].files.size());
  EXPECT_EQ(r.level_files[1], meta.levels[1].files.size());
  EXPECT_EQ(r.l1.overlap_bound, (64u << 10) * 4);  // f * S_M
  EXPECT_GT(r.cpu_s, 0.0);
  EXPECT_EQ(r.operations, 40000u);
}

// Blocks every compaction until opened, so L0 fills to its stop trigger.
class GateFilter : public CompactionFilter {
 public:
  explicit GateFilter(std::atomic<bool>* open) : open_(open) {}
  bool Filter(int, const Slice&, const Slice&, std::string*,
              bool*) const override {
    while (!open_->load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
  }
  const char* Name() const override { return "GateFilter"; }

 private:
  std::atomic<bool>* open_;
};

// Counts flush jobs and the table files they write.
class FlushCounter : public EventListener {
 public:
  void OnFlushCompleted(DB*, const FlushJobInfo&) override { ++flushes; }
  void OnTableFileCreated(const TableFileCreationInfo& info) override {
    if (info.reason == TableFileCreationReason::kFlush && info.status.ok() &&
        info.file_size > 0) {
      ++files;
    }
  }
  std::atomic<int> flushes{0};
  std::atomic<int> files{0};
};

// The ranged layout writes a flush as several L0 files: the collector counts
// one flush step per flush job, as wide as its pieces together, and still
// every byte flushed.
TEST_F(LsmMetricsTest, ASplitFlushCountsAsOneFlushStep) {
  Options options = SmallVlsmOptions();
  VlsmOptions vlsm;
  vlsm.sst_size = 64 << 10;
  vlsm.growth = 4;
  vlsm.l1_l2_growth = 8;
  vlsm.l0_layout = VlsmL0Layout::kRanged;
  vlsm.ranged_l0_depth = 4;
  ASSERT_OK(ConfigureVlsm(&options, vlsm));
  options.statistics = CreateDBStatistics();
  auto counter = std::make_shared<FlushCounter>();
  options.listeners.push_back(counter);
  Open(options, "split_flush");
  WriteRandom(db_.get(), 40000, 20000, 3);
  ASSERT_OK(db_->Flush(FlushOptions()));
  ASSERT_OK(db_->WaitForCompact(WaitForCompactOptions()));
  collector_->Detach();
  const LsmMetricsReport r = collector_->Report();
  ASSERT_GT(counter->files.load(), counter->flushes.load())
      << "some flushes were split";
  EXPECT_EQ(r.levels[0].compactions,
            static_cast<uint64_t>(counter->flushes.load()));
  EXPECT_EQ(r.levels[0].input_bytes_per_compaction.count,
            r.levels[0].compactions);
  // Every piece's bytes (file sizes, against the writers' ticker; within 2%
  // as in ByteTotalsAgreeWithRocksDBStatistics).
  const double written = static_cast<double>(
      options.statistics->getTickerCount(FLUSH_WRITE_BYTES));
  EXPECT_NEAR(static_cast<double>(r.flush_bytes), written, 0.02 * written);
}

TEST_F(LsmMetricsTest, CountsAForcedStallWithItsDurationAndChain) {
  std::atomic<bool> gate_open{false};
  GateFilter gate(&gate_open);
  Options options;
  options.create_if_missing = true;
  options.compression = kNoCompression;
  options.write_buffer_size = 64 << 10;
  options.level0_file_num_compaction_trigger = 2;
  options.level0_slowdown_writes_trigger = 3;
  options.level0_stop_writes_trigger = 4;
  options.level_compaction_dynamic_level_bytes = false;  // L0 -> L1
  options.compaction_filter = &gate;
  config_.sample_period_ms = 50;
  Open(options, "stall");

  std::thread writer([this] { WriteRandom(db_.get(), 6000, 1000000, 2); });
  // Wait (up to a minute) until the writers are stopped.
  LsmMetricsReport during;
  for (int i = 0; i < 600; ++i) {
    during = collector_->Report();
    if (during.stop_count > 0) {
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_GT(during.stop_count, 0u) << "the L0 stop trigger never fired";
  const auto held = std::chrono::milliseconds(300);
  std::this_thread::sleep_for(held);
  gate_open = true;
  writer.join();
  ASSERT_OK(db_->WaitForCompact(WaitForCompactOptions()));
  collector_->Detach();
  const LsmMetricsReport r = collector_->Report();

  EXPECT_GE(r.stall_count, 1u);
  EXPECT_GE(r.stop_count, 1u);
  // The stall lasted at least as long as the gate was held after it began,
  // and no longer than the whole run.
  EXPECT_GE(r.stall_longest_s, 0.3);
  EXPECT_LE(r.stall_longest_s, r.elapsed_s);
  EXPECT_GE(r.stall_total_s, r.stall_longest_s);
  EXPECT_GT(r.writer_stall_s, 0.0);
  // Chain length: the blocked L0->L1 compaction ran through the episode.
  const StallEpisode* longest = &r.stall_episodes.front();
  for (const StallEpisode& e : r.stall_episodes) {
    if (e.duration_s > longest->duration_s) longest = &e;
  }
  EXPECT_TRUE(longest->stopped);
  EXPECT_GE(longest->compactions, 1u);
  EXPECT_GT(longest->compacted_bytes, 0u);
  ASSERT_FALSE(longest->output_levels.empty());
  EXPECT_EQ(longest->output_levels.front(), 1);
  // The time series saw it: a period wholly inside the stall, with L0 at
  // the slowdown trigger or beyond. Every flush covers the key space, so
  // L0 is as deep as it has files (VlsmProperties::kL0Depth), as many
  // sublevels as files (kL0Sublevels), and holds about a memtable per file.
  bool saw_stalled_sample = false;
  for (const LsmSample& s : r.samples) {
    saw_stalled_sample = saw_stalled_sample ||
                         (s.stalled && s.stalled_fraction > 0.99 &&
                          s.l0_files >= 3 && s.l0_depth == s.l0_files &&
                          s.l0_sublevels == s.l0_files &&
                          s.l0_bytes > s.l0_files * (32u << 10));
  }
  EXPECT_TRUE(saw_stalled_sample);
}

// StallCounters is what a status line polls once per interval: it must not
// depend on the kept history (keep_samples=false here, and Report() then
// has no samples), must not move while nothing stalls, must show a stall in
// progress, and must agree with Report()'s totals.
TEST_F(LsmMetricsTest, StallCountersMoveOnlyWithAStallAndNeedNoHistory) {
  std::atomic<bool> gate_open{false};
  GateFilter gate(&gate_open);
  Options options;
  options.create_if_missing = true;
  options.compression = kNoCompression;
  options.write_buffer_size = 64 << 10;
  options.level0_file_num_compaction_trigger = 2;
  options.level0_slowdown_writes_trigger = 3;
  options.level0_stop_writes_trigger = 4;
  options.level_compaction_dynamic_level_bytes = false;  // L0 -> L1
  options.compaction_filter = &gate;
  config_.sample_period_ms = 50;
  config_.keep_samples = false;
  Open(options, "stall_counters");
  const auto period = std::chrono::milliseconds(50);

  // Nothing stalls: a few writes that fit in the memtable, several periods.
  WriteRandom(db_.get(), 100, 1000000, 4);
  std::this_thread::sleep_for(4 * period);
  const LsmStallCounters quiet = collector_->StallCounters();
  EXPECT_GE(quiet.samples, 2u);  // the sampler ran...
  EXPECT_EQ(quiet.stalled_samples, 0u);  // ...and saw nothing
  EXPECT_EQ(quiet.stall_count, 0u);
  EXPECT_EQ(quiet.stall_total_s, 0.0);
  EXPECT_EQ(quiet.writer_stall_s, 0.0);
  EXPECT_FALSE(quiet.in_stall);

  // The gate holds every compaction, so L0 reaches its triggers, and from
  // the slowdown trigger on the stall cannot end until the gate opens
  // (shorter memtable stalls may come and go before).
  std::thread writer([this] { WriteRandom(db_.get(), 6000, 1000000, 2); });
  LsmStallCounters during;
  uint64_t l0_files = 0;
  for (int i = 0; i < 600 && !(during.in_stall && l0_files >= 3); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::string l0;
    db_->GetProperty(DB::Properties::kNumFilesAtLevelPrefix + "0", &l0);
    l0_files = std::strtoull(l0.c_str(), nullptr, 10);
    during = collector_->StallCounters();
  }
  ASSERT_TRUE(during.in_stall && l0_files >= 3)
      << "the L0 triggers never stalled writes";
  EXPECT_GE(during.stall_count, 1u);  // the episode in progress counts
  std::this_thread::sleep_for(6 * period);
  const LsmStallCounters later = collector_->StallCounters();
  EXPECT_TRUE(later.in_stall);
  // The running episode's time grows while it lasts, and the periods
  // sampled inside it are counted though no sample is kept.
  EXPECT_GE(later.stall_total_s, during.stall_total_s + 0.25);
  EXPECT_GE(later.stalled_samples, during.stalled_samples + 4);
  EXPECT_EQ(later.stall_count, during.stall_count);

  gate_open = true;
  writer.join();
  ASSERT_OK(db_->WaitForCompact(WaitForCompactOptions()));
  LsmStallCounters after = collector_->StallCounters();
  // The last notification may still be on its way, or may have arrived
  // before an older one (RocksDB delivers them from several threads): then
  // the next sample finds the DB no longer stalled and ends the episode.
  for (int i = 0; i < 100 && after.in_stall; ++i) {
    std::this_thread::sleep_for(period);
    after = collector_->StallCounters();
  }
  ASSERT_FALSE(after.in_stall);
  EXPECT_GE(after.stall_count, 1u);
  EXPECT_GT(after.writer_stall_s, 0.0);
  // Two periods for the one in which the stall ended to be sampled; then
  // nothing happens and nothing but the period count may move.
  std::this_thread::sleep_for(2 * period);
  const LsmStallCounters settled = collector_->StallCounters();
  std::this_thread::sleep_for(4 * period);
  const LsmStallCounters idle = collector_->StallCounters();
  EXPECT_GT(idle.samples, settled.samples);
  EXPECT_EQ(idle.stalled_samples, settled.stalled_samples);
  EXPECT_EQ(idle.stall_count, settled.stall_count);
  EXPECT_EQ(idle.stall_total_s, settled.stall_total_s);
  EXPECT_EQ(idle.writer_stall_s, settled.writer_stall_s);
  EXPECT_FALSE(idle.in_stall);

  // The same totals as the full report, attached (no stall running, no
  // writes in between) and after Detach; the report kept no samples.
  LsmMetricsReport r = collector_->Report();
  EXPECT_EQ(idle.stall_count, r.stall_count);
  EXPECT_DOUBLE_EQ(idle.stall_total_s, r.stall_total_s);
  EXPECT_DOUBLE_EQ(idle.writer_stall_s, r.writer_stall_s);
  EXPECT_TRUE(r.samples.empty());
  collector_->Detach();
  r = collector_->Report();
  const LsmStallCounters detached = collector_->StallCounters();
  EXPECT_EQ(detached.stall_count, r.stall_count);
  EXPECT_DOUBLE_EQ(detached.stall_total_s, r.stall_total_s);
  EXPECT_DOUBLE_EQ(detached.writer_stall_s, r.writer_stall_s);
  EXPECT_GE(detached.stalled_samples, idle.stalled_samples);
  EXPECT_FALSE(detached.in_stall);
}

// Every step, flushes included, is in one width distribution, and every
// compaction wider than (f + 2) * S_M is listed with what it took. Stock
// leveled compaction on tiny files (S_M = 64 KiB, f = 4: bound 384 KiB):
// L0 -> L1 takes every flush in L0 (up to the trigger of 8, or fewer once
// their bytes pass L1's 256 KiB target) with the L1 below, wider than the
// bound.
TEST_F(LsmMetricsTest, StepsWiderThanTheBoundAreListedWithWhatTheyTook) {
  Options options;
  options.create_if_missing = true;
  options.compression = kNoCompression;
  options.num_levels = 4;
  options.write_buffer_size = 64 << 10;
  options.target_file_size_base = 64 << 10;
  options.max_bytes_for_level_base = 256 << 10;
  options.max_bytes_for_level_multiplier = 4;
  options.level0_file_num_compaction_trigger = 8;
  options.level_compaction_dynamic_level_bytes = false;
  Open(options, "wide_steps");
  WriteRandom(db_.get(), 30000, 30000, 5);
  ASSERT_OK(db_->Flush(FlushOptions()));
  ASSERT_OK(db_->WaitForCompact(WaitForCompactOptions()));
  collector_->Detach();
  const LsmMetricsReport r = collector_->Report();

  const uint64_t bound = (4 + 2) * (64u << 10);
  EXPECT_EQ(r.step_width_bound, bound);
  uint64_t steps = 0, widest = 0, total = 0;
  for (const LevelIo& io : r.levels) {
    steps += io.input_bytes_per_compaction.count;
    widest = std::max(widest, io.input_bytes_per_compaction.max);
    total += io.input_bytes_per_compaction.total;
  }
  EXPECT_GT(r.levels[0].compactions, 8u) << "flushes are steps too";
  EXPECT_EQ(r.input_bytes_per_step.count, steps);
  EXPECT_EQ(r.input_bytes_per_step.max, widest);
  EXPECT_EQ(r.input_bytes_per_step.total, total);
  EXPECT_LE(r.input_bytes_per_step.p99, widest);

  // Flushes of 64 KiB are never over the bound: every step over it is a
  // listed compaction.
  ASSERT_GT(r.steps_over_bound, 0u);
  EXPECT_EQ(r.steps_over_bound, r.wide_compactions.size());
  uint64_t into_l1 = 0, widest_listed = 0;
  for (const WideStep& w : r.wide_compactions) {
    EXPECT_GT(w.input_bytes, bound);
    widest_listed = std::max(widest_listed, w.input_bytes);
    EXPECT_EQ(w.upper_bytes + w.level_bytes, w.input_bytes);
    EXPECT_GT(w.time_s, 0.0);
    EXPECT_LE(w.time_s, r.elapsed_s);
    if (w.output_level == 1) {
      ++into_l1;
      EXPECT_GT(w.upper_files, 1u) << "several flushes in one step";
      EXPECT_EQ(w.reason, "LevelL0FilesNum");
    }
  }
  EXPECT_GT(into_l1, 0u);
  EXPECT_EQ(widest_listed, widest);

  // Configured, the bound is the caller's.
  config_.step_width_bound = 1;
  TearDown();
  Open(options, "wide_steps_configured");
  WriteRandom(db_.get(), 3000, 3000, 6);
  ASSERT_OK(db_->Flush(FlushOptions()));
  collector_->Detach();
  const LsmMetricsReport all = collector_->Report();
  EXPECT_EQ(all.step_width_bound, 1u);
  EXPECT_GT(all.input_bytes_per_step.count, 0u);
  EXPECT_EQ(all.steps_over_bound, all.input_bytes_per_step.count)
      << "every step is over 1 byte";
}

TEST_F(LsmMetricsTest, JsonReportHoldsEveryField) {
  Open(SmallVlsmOptions(), "json");
  WriteRandom(db_.get(), 5000, 5000, 3);
  ASSERT_OK(db_->Flush(FlushOptions()));
  ASSERT_OK(db_->WaitForCompact(WaitForCompactOptions()));
  collector_->Detach();
  const std::string json = LsmMetricsToJson(collector_->Report());
  for (const char* field :
       {"\"elapsed_s\"", "\"user_bytes\"", "\"user_keys\"", "\"flush_bytes\"",
        "\"compaction_read_bytes\"", "\"compaction_write_bytes\"",
        "\"io_amplification\"", "\"levels\"", "\"read_from_upper_bytes\"",
        "\"read_from_level_bytes\"", "\"written_bytes\"", "\"trivial_moves\"",
        "\"input_bytes_per_compaction\"", "\"p99\"", "\"stalls\"",
        "\"longest_s\"", "\"total_s\"", "\"writer_stall_s\"", "\"episodes\"",
        "\"samples\"", "\"l0_files\"", "\"l0_depth\"", "\"l0_sublevels\"", "\"l0_bytes\"", "\"pending_compaction_bytes\"",
        "\"l1_vssts\"", "\"good\"", "\"poor\"", "\"size_log2_histogram\"",
        "\"overlap_tenths_histogram\"", "\"tree\"", "\"cpu\"",
        "\"cpu_us_per_op\"", "\"steps\"", "\"input_bytes_per_step\"",
        "\"width_bound\"", "\"over_bound\"", "\"wide_compactions\""}) {
    EXPECT_NE(json.find(field), std::string::npos) << field;
  }
  EXPECT_EQ(json.front(), '{');
  EXPECT_EQ(json.back(), '}');
  // The readable block names the same figures.
  const std::string text = LsmMetricsToText(collector_->Report());
  EXPECT_NE(text.find("I/O amplification"), std::string::npos);
  EXPECT_NE(text.find("write stalls"), std::string::npos);
  EXPECT_NE(text.find("L1 vSSTs"), std::string::npos);
}

TEST_F(LsmMetricsTest, AttachNeedsTheCollectorAmongTheListeners) {
  Options options;
  options.create_if_missing = true;
  const std::string path = TestDbPath("unlisted");
  ASSERT_OK(DestroyDB(path, options));
  DB* raw = nullptr;
  ASSERT_OK(DB::Open(options, path, &raw));
  std::unique_ptr<DB> db(raw);
  LsmMetricsCollector collector;
  Status s = collector.Attach(db.get());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("options.listeners"), std::string::npos);
  db.reset();

  // Listed twice, it would count every event twice: refused.
  auto twice = std::make_shared<LsmMetricsCollector>();
  options.listeners = {twice, twice};
  ASSERT_OK(DB::Open(options, path, &raw));
  db.reset(raw);
  s = twice->Attach(db.get());
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("more than once"), std::string::npos);
  db.reset();
  ASSERT_OK(DestroyDB(path, options));
}

// The census's bound is the cut rule's: f * S_M with f a whole number, as
// VsstCutPolicyFor() takes it. A stock DB may have a fractional f (8.5 here):
// the census, vlsm_tree_report and the picker must not each round it their
// own way.
TEST_F(LsmMetricsTest, CensusBoundIsTheCutRulesBound) {
  Options options;
  options.create_if_missing = true;
  options.target_file_size_base = 1 << 20;
  options.max_bytes_for_level_multiplier = 8.5;
  Open(options, "census_bound");
  collector_->Detach();
  EXPECT_EQ(collector_->Report().l1.overlap_bound, 8u << 20);
  EXPECT_EQ(VsstOverlapBoundOf(options.target_file_size_base,
                               options.max_bytes_for_level_multiplier),
            8u << 20);
}

TEST(L1VsstCensusTest, ClassifiesByL2OverlapAgainstTheBound) {
  auto file = [](const char* smallest, const char* largest, uint64_t size) {
    SstFileMetaData f;
    f.smallestkey = smallest;
    f.largestkey = largest;
    f.size = size;
    return f;
  };
  ColumnFamilyMetaData meta;
  meta.levels.emplace_back(0, 0, std::vector<SstFileMetaData>{});
  // L1: [a,b] overlaps 100 (good at bound 150); [c,e] overlaps 200 (poor);
  // [j,k] overlaps nothing (good).
  meta.levels.emplace_back(1, 70,
                           std::vector<SstFileMetaData>{file("a", "b", 10),
                                                        file("c", "e", 20),
                                                        file("j", "k", 40)});
  // L2: [a,c] 100, [d,f] 100, [g,i] 100.
  meta.levels.emplace_back(2, 300,
                           std::vector<SstFileMetaData>{file("a", "c", 100),
                                                        file("d", "f", 100),
                                                        file("g", "i", 100)});
  const L1VsstCensus c = CensusL1Vssts(meta, BytewiseComparator(), 150);
  EXPECT_EQ(c.good, 2u);
  EXPECT_EQ(c.poor, 1u);
  EXPECT_EQ(c.good_bytes, 50u);
  EXPECT_EQ(c.poor_bytes, 20u);
  EXPECT_EQ(c.overlap_tenths_histogram[0], 1u);   // 0 of 150
  EXPECT_EQ(c.overlap_tenths_histogram[6], 1u);   // 100/150 = 0.67
  EXPECT_EQ(c.overlap_tenths_histogram[13], 1u);  // 200/150 = 1.33
  EXPECT_EQ(c.size_log2_histogram[3], 1u);        // 10 bytes
  EXPECT_EQ(c.size_log2_histogram[4], 1u);        // 20 bytes
  EXPECT_EQ(c.size_log2_histogram[5], 1u);        // 40 bytes
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
