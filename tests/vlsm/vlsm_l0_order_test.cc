// kVlsm keeps RocksDB's L0 order on every compaction path (issue 19).
//
// The scenario that lost an acknowledged write on main at 5186ab1: an L1 ->
// L2 compaction holds part of L1 busy; an older L0 file A, whose L1 range is
// busy, must wait; a newer L0 file B over the same key, marked for
// compaction by a deletion-triggered collector, went to L1 alone. Reads look
// in L0 first, so A's older value shadowed B's. Every check here reads the
// DB through the public API and runs the read-order checker after every
// flush and compaction.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/compaction_filter.h"
#include "rocksdb/db.h"
#include "rocksdb/utilities/table_properties_collectors.h"
#include "rocksdb/vlsm.h"
#include "tests/test_dir.h"
#include "tests/vlsm/read_order_checker.h"

namespace ROCKSDB_NAMESPACE {
namespace {

std::string TestDir(const std::string& name) { return TestPath("vlsm_l0_order_test", name); }

std::string Key(char letter, int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%c%05d", letter, i);
  return buf;
}

// Holds every compaction out of L1 at its first key at or after "m" while
// hold() is on: a long L1 -> L2 compaction over m...z, as a slow automatic
// one would be.
class L1Gate {
 public:
  void Hold() {
    std::lock_guard<std::mutex> lock(mu_);
    holding_ = true;
  }
  void Release() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      holding_ = false;
    }
    cv_.notify_all();
  }
  void WaitUntilBlocked() {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return blocked_ > 0; });
  }
  void MaybeBlock(const Slice& key) {
    if (key.compare("m") < 0) {
      return;
    }
    std::unique_lock<std::mutex> lock(mu_);
    if (!holding_) {
      return;
    }
    blocked_++;
    cv_.notify_all();
    cv_.wait(lock, [&] { return !holding_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool holding_ = false;
  int blocked_ = 0;
};

class GateFilter : public CompactionFilter {
 public:
  explicit GateFilter(L1Gate* gate) : gate_(gate) {}
  bool Filter(int /*level*/, const Slice& key, const Slice& /*value*/,
              std::string* /*new_value*/, bool* /*changed*/) const override {
    gate_->MaybeBlock(key);
    return false;
  }
  const char* Name() const override { return "GateFilter"; }

 private:
  L1Gate* gate_;
};

class GateFilterFactory : public CompactionFilterFactory {
 public:
  explicit GateFilterFactory(L1Gate* gate) : gate_(gate) {}
  std::unique_ptr<CompactionFilter> CreateCompactionFilter(
      const CompactionFilter::Context& context) override {
    if (context.input_start_level != 1) {
      return nullptr;
    }
    return std::make_unique<GateFilter>(gate_);
  }
  const char* Name() const override { return "GateFilterFactory"; }

 private:
  L1Gate* gate_;
};

int FilesAtLevel(DB* db, int level) {
  std::string n;
  EXPECT_TRUE(db->GetProperty(
      "rocksdb.num-files-at-level" + std::to_string(level), &n));
  return std::stoi(n);
}

std::string GetValue(DB* db, const std::string& key) {
  std::string v;
  Status s = db->Get(ReadOptions(), key, &v);
  return s.IsNotFound() ? "<not found>" : s.ok() ? v : s.ToString();
}

std::string IteratorValue(DB* db, const std::string& key) {
  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
  it->Seek(key);
  if (!it->Valid() || it->key() != key) {
    return "<not found>";
  }
  return it->value().ToString();
}

TEST(VlsmL0OrderTest, MarkedNewerL0FileWaitsForTheOlderOverlappingOne) {
  const std::string dir = TestDir("marked");
  L1Gate gate;
  auto checker = std::make_shared<ReadOrderChecker>();
  Options options;
  ASSERT_TRUE(ConfigureVlsm(&options, {64 << 10, 8, 32}).ok());
  options.create_if_missing = true;
  options.compression = kNoCompression;  // file sizes as written
  options.max_background_jobs = 4;
  options.compaction_filter_factory = std::make_shared<GateFilterFactory>(&gate);
  options.table_properties_collector_factories.push_back(
      NewCompactOnDeletionCollectorFactory(16, 8));
  options.listeners.push_back(checker);
  ASSERT_TRUE(DestroyDB(dir, options).ok());
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(options, dir, &raw).ok());
  std::unique_ptr<DB> db(raw);

  // 1. A settled tree over a...z: a first round pushed to the bottom, a
  // second one left in L1.
  const std::string value(100, 'v');
  for (int round = 0; round < 2; ++round) {
    for (char c = 'a'; c <= 'z'; ++c) {
      for (int i = 0; i < (round == 0 ? 400 : 100); ++i) {
        ASSERT_TRUE(db->Put(WriteOptions(), Key(c, i), value).ok());
      }
    }
    ASSERT_TRUE(db->Flush(FlushOptions()).ok());
    ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
    if (round == 0) {
      ASSERT_TRUE(db->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
    }
  }
  ASSERT_EQ(FilesAtLevel(db.get(), 0), 0);
  ASSERT_GE(FilesAtLevel(db.get(), 1), 3);

  // 2. An L1 -> L2 compaction over the L1 files that reach m...z runs, held
  // open. A (step 3) overlaps them, B (step 4) does not.
  std::vector<std::string> l1_upper;
  std::string l1_upper_smallest = "z";
  std::vector<LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  for (const LiveFileMetaData& m : live) {
    if (m.level == 1 && m.largestkey >= "m") {
      l1_upper.push_back(m.name);
      l1_upper_smallest = std::min(l1_upper_smallest, m.smallestkey);
    }
  }
  ASSERT_FALSE(l1_upper.empty());
  ASSERT_GT(l1_upper_smallest, Key('c', 39));
  ASSERT_LE(l1_upper_smallest, Key('p', 0));
  gate.Hold();
  std::thread held([&] {
    EXPECT_TRUE(
        db->CompactFiles(CompactionOptions(), l1_upper, /*output_level=*/2)
            .ok());
  });
  gate.WaitUntilBlocked();

  // 3. L0 file A spans c...p; its L1 range is partly busy, so it waits.
  const std::string key = Key('c', 0);
  ASSERT_TRUE(db->Put(WriteOptions(), key, "OLD").ok());
  ASSERT_TRUE(db->Put(WriteOptions(), Key('p', 0), "A").ok());
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());

  // 4. L0 file B spans c00000...c00039 and is marked for compaction.
  ASSERT_TRUE(db->Put(WriteOptions(), key, "NEW").ok());
  for (int i = 1; i < 40; ++i) {
    ASSERT_TRUE(db->Delete(WriteOptions(), Key('c', i)).ok());
  }
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());

  // 5. Give the background compactions time to act on B; B must wait for A.
  for (int i = 0; i < 40 && FilesAtLevel(db.get(), 0) == 2; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(FilesAtLevel(db.get(), 0), 2) << "B left L0 before the older A";
  EXPECT_EQ(GetValue(db.get(), key), "NEW");
  EXPECT_EQ(IteratorValue(db.get(), key), "NEW");

  // 6. Release the held compaction, push c00000's L1 file to L2 as later
  // L1 -> L2 steps would, and let L0 drain.
  gate.Release();
  held.join();
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  live.clear();
  db->GetLiveFilesMetaData(&live);
  for (const LiveFileMetaData& m : live) {
    if (m.level == 1 && m.smallestkey <= key && key <= m.largestkey) {
      EXPECT_TRUE(
          db->CompactFiles(CompactionOptions(), {m.name}, /*output_level=*/2)
              .ok());
      checker->Check(db.get(), kDefaultColumnFamilyName);
    }
  }
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  EXPECT_EQ(FilesAtLevel(db.get(), 0), 0);
  EXPECT_EQ(GetValue(db.get(), key), "NEW");
  EXPECT_EQ(IteratorValue(db.get(), key), "NEW");
  EXPECT_EQ(GetValue(db.get(), Key('c', 1)), "<not found>");

  db.reset();
  ASSERT_TRUE(DB::Open(options, dir, &raw).ok());
  db.reset(raw);
  EXPECT_EQ(GetValue(db.get(), key), "NEW");
  EXPECT_EQ(IteratorValue(db.get(), key), "NEW");
  checker->Check(db.get(), kDefaultColumnFamilyName);
  EXPECT_GT(checker->checks(), 5);
  EXPECT_EQ(checker->violations(), std::vector<std::string>{});
  db.reset();
  ASSERT_TRUE(DestroyDB(dir, options).ok());
}

// CompactFiles with L0 inputs under kVlsm (issue 19, point 7): upstream adds
// every older L0 file to an L0 -> L1 CompactFiles, which keeps the order, so
// the fork keeps that; an L0 -> L0 CompactFiles is refused, naming the rule.
TEST(VlsmL0OrderTest, CompactFilesKeepsL0OrderAndRefusesL0ToL0) {
  const std::string dir = TestDir("compact_files");
  auto checker = std::make_shared<ReadOrderChecker>();
  Options options;
  ASSERT_TRUE(ConfigureVlsm(&options, {64 << 10, 8, 32}).ok());
  options.create_if_missing = true;
  options.disable_auto_compactions = true;  // L0 keeps what the test puts there
  options.listeners.push_back(checker);
  ASSERT_TRUE(DestroyDB(dir, options).ok());
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(options, dir, &raw).ok());
  std::unique_ptr<DB> db(raw);

  const std::string key = Key('c', 0);
  ASSERT_TRUE(db->Put(WriteOptions(), key, "OLD").ok());
  ASSERT_TRUE(db->Put(WriteOptions(), Key('p', 0), "A").ok());
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  ASSERT_TRUE(db->Put(WriteOptions(), key, "NEW").ok());
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(&meta);
  ASSERT_EQ(meta.levels[0].files.size(), 2u);
  const std::string newest = meta.levels[0].files[0].name;  // newest first
  const std::string oldest = meta.levels[0].files[1].name;

  Status s = db->CompactFiles(CompactionOptions(), {newest, oldest}, 0);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("never compacts L0 into L0"), std::string::npos)
      << s.ToString();

  // Only the newest file asked for: the older, overlapping one comes along.
  ASSERT_TRUE(db->CompactFiles(CompactionOptions(), {newest}, 1).ok());
  checker->Check(db.get(), kDefaultColumnFamilyName);  // CompactFiles notifies no listener
  EXPECT_EQ(FilesAtLevel(db.get(), 0), 0);
  EXPECT_EQ(GetValue(db.get(), key), "NEW");
  EXPECT_EQ(IteratorValue(db.get(), key), "NEW");
  EXPECT_GT(checker->checks(), 2);
  EXPECT_EQ(checker->violations(), std::vector<std::string>{});
  db.reset();
  ASSERT_TRUE(DestroyDB(dir, options).ok());
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
