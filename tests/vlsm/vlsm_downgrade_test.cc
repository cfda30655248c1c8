// Leaving the ranged layout, live and for good (docs/vlsm.md, "The way
// back to stock RocksDB").
//
// The layout adds no on-disk state: its split flushes and ranged steps
// write ordinary SSTs with ordinary epochs, and the MANIFEST holds nothing
// new. Two things stop stock RocksDB 9.10 from opening a ranged DB as it
// is: the OPTIONS file names compaction_pri=kVlsmRanged, which stock cannot
// parse, and L0 at rest may hold more files than stock's stop trigger
// (stock counts files, and a split flush is many). The way back: switch the
// live column family to kMinOverlappingRatio, compact L0 away, close; the
// OPTIONS file then names only stock values, and any stock options open it.
#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/options_util.h"
#include "rocksdb/vlsm.h"
#include "tests/test_dir.h"
#include "tests/vlsm/read_order_checker.h"
#include "tests/vlsm/vlsm_db_test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace {

using vlsm_test::ExpectEqualsModel;
using vlsm_test::Model;

// The ranged layout at test sizes: 64 KiB memtables, depth 4, L1 512 KiB.
Options RangedOptions() {
  Options o = vlsm_test::VlsmTestOptions(nullptr);
  o.compaction_pri = kVlsmRanged;
  o.write_buffer_size = 64 << 10;
  o.max_bytes_for_level_base = 512 << 10;
  o.level0_file_num_compaction_trigger = 4;
  o.level0_slowdown_writes_trigger = 12;
  o.level0_stop_writes_trigger = 28;
  return o;
}

// Uniform random overwrites of 20 000 keys, in the DB and the model.
void WriteRandom(DB* db, Model* model, std::mt19937* rng, int n) {
  vlsm_test::WriteRandomKeys(db, model, rng, n, 20000);
}

int L0Files(DB* db) {
  ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(&meta);
  return static_cast<int>(meta.levels[0].files.size());
}

// The newest OPTIONS file of the DB, as text.
std::string LatestOptionsFile(const std::string& path) {
  std::string name;
  EXPECT_TRUE(GetLatestOptionsFileName(path, Env::Default(), &name).ok());
  std::string text;
  EXPECT_TRUE(ReadFileToString(Env::Default(), path + "/" + name, &text).ok());
  return text;
}

TEST(VlsmDowngradeTest, TheWayBackToStockKeepsEveryKey) {
  const std::string path = TestPath("VlsmDowngradeTest", "way_back");
  Options ranged = RangedOptions();
  // The drain's settings object, as ConfigureVlsm's ranged layout carries
  // it (here from an options string, as an OPTIONS file gives it).
  ColumnFamilyOptions with_drain;
  ASSERT_TRUE(GetColumnFamilyOptionsFromString(
                  ConfigOptions(), ranged,
                  "table_properties_collectors=VlsmDrainAtRest", &with_drain)
                  .ok());
  static_cast<ColumnFamilyOptions&>(ranged) = with_drain;
  std::unique_ptr<DB> db = vlsm_test::OpenFreshDb(ranged, path);
  ASSERT_NE(db, nullptr);
  Model model;
  std::mt19937 rng(37);
  WriteRandom(db.get(), &model, &rng, 30000);
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  // A ranged L0 at rest: split flushes, more files than stock's triggers
  // count as flushes.
  EXPECT_GT(L0Files(db.get()), 4);
  EXPECT_NE(LatestOptionsFile(path).find("kVlsmRanged"), std::string::npos);

  // 1. Switch live; 2. compact L0 away; 3. close.
  ASSERT_TRUE(
      db->SetOptions({{"compaction_pri", "kMinOverlappingRatio"}}).ok());
  ASSERT_TRUE(db->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  EXPECT_EQ(L0Files(db.get()), 0);
  db.reset();
  const std::string options_file = LatestOptionsFile(path);
  EXPECT_EQ(options_file.find("kVlsm"), std::string::npos)
      << "the OPTIONS file names only stock values:\n"
      << options_file;
  // The drain's settings object stays in it (table_properties_collectors
  // is fixed at open); stock RocksDB, which has no such object, skips it as
  // upstream skips any unknown object in that list. Read here with the
  // object's name one no library registers.
  ASSERT_NE(options_file.find("VlsmDrainAtRest"), std::string::npos);
  std::string as_stock = options_file;
  as_stock.replace(as_stock.find("VlsmDrainAtRest"),
                   std::string("VlsmDrainAtRest").size(), "NoSuchCollector");
  const std::string stock_file = path + "-as-stock.ini";
  ASSERT_TRUE(WriteStringToFile(Env::Default(), as_stock, stock_file).ok());
  DBOptions stock_db;
  std::vector<ColumnFamilyDescriptor> stock_cfs;
  const Status read = LoadOptionsFromFile(ConfigOptions(), stock_file,
                                          &stock_db, &stock_cfs);
  ASSERT_TRUE(read.ok()) << read.ToString();
  ASSERT_EQ(stock_cfs.size(), 1u);
  EXPECT_EQ(stock_cfs[0].options.compaction_pri, kMinOverlappingRatio);
  EXPECT_TRUE(
      stock_cfs[0].options.table_properties_collector_factories.empty());

  // 4. Reopen with stock options (RocksDB's defaults, dynamic level sizes
  // included): every key as the model says.
  Options stock;
  stock.create_if_missing = false;
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(stock, path, &raw).ok());
  db.reset(raw);
  ExpectEqualsModel(db.get(), model, nullptr, "reopened with stock options");
  db.reset();
  ASSERT_TRUE(DestroyDB(path, stock).ok());
}

// Live switches between kVlsmRanged and kMinOverlappingRatio while a writer
// runs: every compaction either side picks keeps the read order (the
// checker in VlsmTestOptions fails the test on a violation), and every key
// reads back as written.
TEST(VlsmDowngradeTest, LiveSwitchesUnderWritesKeepEveryKey) {
  const std::string path = TestPath("VlsmDowngradeTest", "live_switch");
  Options ranged = RangedOptions();
  ranged.max_background_compactions = 2;
  std::unique_ptr<DB> db = vlsm_test::OpenFreshDb(ranged, path);
  ASSERT_NE(db, nullptr);
  Model model;
  std::atomic<bool> writing{true};
  std::thread writer([&] {
    std::mt19937 rng(38);
    while (writing.load()) {
      WriteRandom(db.get(), &model, &rng, 500);
    }
  });
  for (int i = 0; i < 20; ++i) {
    const char* pri = i % 2 == 0 ? "kMinOverlappingRatio" : "kVlsmRanged";
    ASSERT_TRUE(db->SetOptions({{"compaction_pri", pri}}).ok()) << pri;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  writing.store(false);
  writer.join();
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  ExpectEqualsModel(db.get(), model, nullptr, "after 20 live switches");
  db.reset();
  ASSERT_TRUE(DestroyDB(path, ranged).ok());
}

// Ten split flushes held in L0: more files than stock's default stop
// trigger (36) and than RangedOptions' (28), under ten memtables' worth.
void FillL0WithSplitFlushes(DB* db, Model* model) {
  std::mt19937 rng(39);
  WriteRandom(db, model, &rng, 30000);
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  ASSERT_TRUE(db->SetOptions({{"disable_auto_compactions", "true"}}).ok());
  for (int flush = 0; flush < 10; ++flush) {
    WriteRandom(db, model, &rng, 500);
    ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  }
  ASSERT_GT(L0Files(db), 36) << "split flushes are many files each";
}

// Leaving the ranged layout with L0 as a load leaves it (more files than
// the stop trigger, a few memtables' worth) never stops writes: L0's
// stall count counts a split flush as the ranged layout does, in
// memtables' worth, whatever the priority, while L0 holds one
// (VlsmL0StallCount). Stock counted files: the live switch to stock and a
// reopen with RocksDB's default options both stopped writes until one wide
// L0 -> L1 step had run.
TEST(VlsmDowngradeTest, LeavingTheRangedLayoutNeverStopsWrites) {
  const std::string path = TestPath("VlsmDowngradeTest", "never_stops");
  Options ranged = RangedOptions();
  std::unique_ptr<DB> db = vlsm_test::OpenFreshDb(ranged, path);
  ASSERT_NE(db, nullptr);
  Model model;
  FillL0WithSplitFlushes(db.get(), &model);
  uint64_t count = 0;
  ASSERT_TRUE(db->GetIntProperty("rocksdb.vlsm.l0-stall-count", &count));
  EXPECT_LT(count, 12u) << "under the slowdown trigger as ranged";

  // The live switch, compactions on: stock's L0 -> L1 step runs while a
  // writer goes on.
  const uint64_t stops_before = vlsm_test::StopsOnCompactionDebt(db.get());
  ASSERT_TRUE(db->SetOptions({{"compaction_pri", "kMinOverlappingRatio"}})
                  .ok());
  ASSERT_TRUE(db->GetIntProperty("rocksdb.vlsm.l0-stall-count", &count));
  EXPECT_LT(count, 12u) << "the split flushes still count as memtables";
  std::mt19937 rng(40);
  ASSERT_TRUE(db->SetOptions({{"disable_auto_compactions", "false"}}).ok());
  WriteRandom(db.get(), &model, &rng, 5000);
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  EXPECT_EQ(vlsm_test::StopsOnCompactionDebt(db.get()), stops_before)
      << "the live switch stopped writes";
  ExpectEqualsModel(db.get(), model, nullptr, "after the live switch");
  db.reset();
  ASSERT_TRUE(DestroyDB(path, ranged).ok());

  // A reopen with RocksDB's default options, L0 as deep.
  db = vlsm_test::OpenFreshDb(ranged, path);
  ASSERT_NE(db, nullptr);
  Model again;
  FillL0WithSplitFlushes(db.get(), &again);
  db.reset();
  Options stock;
  stock.create_if_missing = false;
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(stock, path, &raw).ok());
  db.reset(raw);
  // The open installs L0's stall state before any listener hears of it.
  uint64_t stopped = 1;
  ASSERT_TRUE(db->GetIntProperty("rocksdb.is-write-stopped", &stopped));
  EXPECT_EQ(stopped, 0u) << "the reopen stopped writes, L0 holding "
                         << L0Files(db.get()) << " files";
  WriteRandom(db.get(), &again, &rng, 5000);
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  EXPECT_EQ(vlsm_test::StopsOnCompactionDebt(db.get()), 0u) << "the reopen stopped writes";
  ExpectEqualsModel(db.get(), again, nullptr, "reopened with stock options");
  db.reset();
  ASSERT_TRUE(DestroyDB(path, stock).ok());
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
