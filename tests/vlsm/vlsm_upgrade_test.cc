// Upgrading a stock DB to the ranged layout, and back (docs/vlsm.md,
// "Upgrading from stock RocksDB").
//
// A DB made with RocksDB 9.10's defaults is laid out by dynamic level
// sizing (level_compaction_dynamic_level_bytes=true, upstream's default):
// its data sits in the last levels, the levels above them empty. The ranged
// layout needs static sizes, so the conversion is a reopen with the user's
// own options passed through ConfigureVlsm (which turns dynamic sizing off
// and keeps num_levels): the existing files stay where they are, under
// targets they do not reach, and new data fills the levels from L1 down.
// Nothing is rewritten at the switch, so there is no wide step to wait for.
// The way back reopens with dynamic sizing again, which upstream accepts for
// a statically sized tree (it moves the base level down as data allows).
//
// The DB is made by this library with stock options (kMinOverlappingRatio,
// dynamic sizing): its stock decisions are upstream's (the stock decision
// trace), so the files are those the pristine library writes.
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "rocksdb/options.h"
#include "rocksdb/vlsm.h"
#include "tests/test_dir.h"
#include "tests/vlsm/vlsm_db_test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace {

using vlsm_test::ExpectEqualsModel;
using vlsm_test::FilesPerLevel;
using vlsm_test::Model;

// RocksDB's defaults (dynamic level sizing, seven levels,
// kMinOverlappingRatio) at sizes a test fills in seconds.
Options StockOptions() {
  Options o;
  o.create_if_missing = true;
  o.write_buffer_size = 64 << 10;
  o.target_file_size_base = 64 << 10;
  o.max_bytes_for_level_base = 256 << 10;
  o.compression = kNoCompression;
  return o;
}

// The user's options with the ranged layout turned on, as docs/vlsm.md says
// to: ConfigureVlsm over them (sizes scaled to the test).
Options RangedFrom(const Options& stock) {
  Options o = stock;
  VlsmOptions v = VlsmOptions::Ranged();
  v.sst_size = 32 << 10;
  v.memtable_size = 64 << 10;
  v.l1_size = 256 << 10;
  v.ranged_l0_depth = 4;
  EXPECT_TRUE(ConfigureVlsm(&o, v).ok());
  return o;
}

// Uniform random overwrites of 40 000 keys, in the DB and the model.
void WriteRandom(DB* db, Model* model, std::mt19937* rng, int n) {
  vlsm_test::WriteRandomKeys(db, model, rng, n, 40000);
}

// L0 -> L1 steps run since the DB opened.
class L0Steps : public EventListener {
 public:
  void OnCompactionCompleted(DB*, const CompactionJobInfo& info) override {
    steps_ += info.status.ok() && info.base_input_level == 0 ? 1 : 0;
  }
  int steps() const { return steps_.load(); }

 private:
  std::atomic<int> steps_{0};
};

DB* Reopen(const Options& options, const std::string& path) {
  DB* raw = nullptr;
  const Status s = DB::Open(options, path, &raw);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return s.ok() ? raw : nullptr;
}

TEST(VlsmUpgradeTest, AStockDbTakesTheRangedLayoutAndGoesBack) {
  const std::string path = TestPath("VlsmUpgradeTest", "stock_to_ranged");
  const Options stock = StockOptions();
  ASSERT_TRUE(stock.level_compaction_dynamic_level_bytes)
      << "upstream's default, which a stock DB is laid out by";
  std::unique_ptr<DB> db = vlsm_test::OpenFreshDb(stock, path);
  ASSERT_NE(db, nullptr);
  Model model;
  std::mt19937 rng(41);
  WriteRandom(db.get(), &model, &rng, 60000);
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  std::vector<int> levels = FilesPerLevel(db.get());
  ASSERT_EQ(levels.size(), 7u);
  EXPECT_EQ(levels[1], 0) << "dynamic sizing keeps the data at the bottom";
  EXPECT_GT(levels[6], 0);
  db.reset();

  // Its options with the ranged layout: opens as it is, every key there.
  Options ranged = RangedFrom(stock);
  auto l0_steps = std::make_shared<L0Steps>();
  ranged.listeners.push_back(l0_steps);
  ASSERT_EQ(ranged.compaction_pri, kVlsmRanged);
  ASSERT_FALSE(ranged.level_compaction_dynamic_level_bytes);
  db.reset(Reopen(ranged, path));
  ASSERT_NE(db, nullptr);
  ExpectEqualsModel(db.get(), model, nullptr, "reopened in the ranged layout");
  // Writes go on in the ranged layout: split flushes, ranged steps, no stop.
  WriteRandom(db.get(), &model, &rng, 30000);
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  EXPECT_GT(l0_steps->steps(), 0);
  EXPECT_EQ(vlsm_test::StopsOnCompactionDebt(db.get()), 0u)
      << "writes stopped after the upgrade";
  levels = FilesPerLevel(db.get());
  EXPECT_GT(levels[1], 0) << "new data fills the levels from L1 down";
  EXPECT_GT(levels[6], 0) << "the old files stay where they were";
  ExpectEqualsModel(db.get(), model, nullptr, "after writes in the ranged layout");
  ASSERT_TRUE(db->VerifyChecksum().ok());

  // The way back (docs/vlsm.md): switch live, compact L0 away, reopen with
  // the stock options, dynamic sizing on again.
  ASSERT_TRUE(
      db->SetOptions({{"compaction_pri", "kMinOverlappingRatio"}}).ok());
  CompactRangeOptions l0_only;
  ASSERT_TRUE(db->CompactRange(l0_only, nullptr, nullptr).ok());
  db.reset();
  db.reset(Reopen(stock, path));
  ASSERT_NE(db, nullptr);
  ExpectEqualsModel(db.get(), model, nullptr, "back in stock options");
  WriteRandom(db.get(), &model, &rng, 10000);
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  ExpectEqualsModel(db.get(), model, nullptr, "after writes back in stock");
  db.reset();
  ASSERT_TRUE(DestroyDB(path, stock).ok());
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
