// Liveness of the ranged layout on a real DB: writes that wait on compaction
// always have one due or running to end the wait (VlsmCheckLiveness,
// db/compaction/vlsm_picker.h), so Flush() returns and writers finish.
//
// Why these workloads. Sequential keys (time series, logs, auto-increment
// ids) never deepen L0: each flush lands beside the last, so a layout that
// compacts L0 only at a depth has nothing due while L0's bytes grow to the
// stall triggers. Reverse-sequential keys do the same from the top, and
// several interleaved append streams make every flush a few disjoint
// stripes. Each runs under the RocksDB-shaped ranged configuration scaled
// down 256x (4 x 128 KiB memtables, depth 8, L1 1 MiB, f 8, 32 KiB files,
// slowdown and stop at 17 and 21 memtables' worth of L0) with RocksDB-IO's
// pending-compaction limits scaled alike (4 and 8 MiB), one compaction
// thread, and the options given as a string through the public API, as a
// user would.
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/options.h"
#include "rocksdb/vlsm.h"
#include "test_util/sync_point.h"
#include "tests/test_dir.h"
#include "tests/vlsm/read_order_checker.h"

namespace ROCKSDB_NAMESPACE {
namespace {

// The RocksDB-shaped ranged configuration (scripts/bench/systems.py,
// vlsm-ranged-rs32-io) at 1/256 of its sizes.
constexpr const char* kRangedScaledOptions =
    "compaction_pri=kVlsmRanged;level_compaction_dynamic_level_bytes=false;"
    "num_levels=5;compression=kNoCompression;"
    "write_buffer_size=131072;max_write_buffer_number=4;"
    "target_file_size_base=32768;target_file_size_multiplier=1;"
    "max_bytes_for_level_base=1048576;max_bytes_for_level_multiplier=8;"
    "level0_file_num_compaction_trigger=8;"
    "level0_slowdown_writes_trigger=17;level0_stop_writes_trigger=21;"
    "soft_pending_compaction_bytes_limit=4194304;"
    "hard_pending_compaction_bytes_limit=8388608;"
    "max_compaction_bytes=327680;"
    "max_background_jobs=1;delayed_write_rate=4194304";

constexpr int kValueBytes = 200;
// Long enough for a dead state to be unmistakable, far longer than the
// work takes (about a second here): a hang, not a slow run, fails.
constexpr auto kDeadline = std::chrono::seconds(120);

Options ScaledRangedOptions() {
  Options o;
  EXPECT_TRUE(GetOptionsFromString(ConfigOptions(), Options(),
                                   kRangedScaledOptions, &o)
                  .ok());
  o.create_if_missing = true;
  o.listeners.push_back(std::make_shared<ReadOrderChecker>(
      [](const std::string& v) { ADD_FAILURE() << "read order: " << v; }));
  return o;
}

std::string KeyOf(const char* prefix, uint64_t i) {
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%s%016" PRIx64, prefix, i);
  return buf;
}

std::string ValueOf(const std::string& key) {
  std::string v = key;
  v.resize(kValueBytes, 'v');
  return v;
}

// The order keys are written in: one function per workload.
using KeyOrder = std::function<std::string(uint64_t n, uint64_t total)>;

std::string Property(DB* db, const std::string& name) {
  std::string v;
  db->GetProperty(name, &v);
  return v;
}

// What a stuck DB looks like, for the failure message.
std::string StateOf(DB* db) {
  return "L0 bytes " + Property(db, VlsmProperties::kL0Bytes) +
         ", L0 depth " + Property(db, VlsmProperties::kL0Depth) +
         ", stall count " + Property(db, VlsmProperties::kL0StallCount) +
         ", pending compaction bytes " +
         Property(db, "rocksdb.estimate-pending-compaction-bytes") +
         ", compactions running " +
         Property(db, "rocksdb.num-running-compactions") + ", levels " +
         Property(db, "rocksdb.levelstats");
}

// Whether the info log reports a broken liveness rule (VlsmCheckLiveness
// logs every state that breaks it, in release builds too).
bool LogReportsBrokenLiveness(const std::string& path) {
  std::string log;
  EXPECT_TRUE(ReadFileToString(Env::Default(), path + "/LOG", &log).ok());
  return log.find("vLSM liveness broken") != std::string::npos;
}

// Writes `total` keys in `order` and calls Flush(), in a thread; fails the
// test, naming the DB's state, if they do not return within kDeadline (and
// then cancels the background work, so that the waiters return and the
// test can end). Then waits for compactions, checks every key, and checks
// that L0 after the settle holds less than L1's target: the byte rule of
// the due steps leaves no more behind (RangedL0TriggersOf).
void WriteFlushAndCheck(const std::string& name, const KeyOrder& order,
                        uint64_t total) {
  const std::string path = TestPath("VlsmLivenessTest", name);
  Options options = ScaledRangedOptions();
  ASSERT_TRUE(DestroyDB(path, options).ok());
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(options, path, &raw).ok());
  std::unique_ptr<DB> db(raw);

  WriteOptions wo;
  wo.disableWAL = true;
  std::packaged_task<Status()> work([&] {
    for (uint64_t n = 0; n < total; ++n) {
      const std::string key = order(n, total);
      Status s = db->Put(wo, key, ValueOf(key));
      if (!s.ok()) {
        return s;
      }
    }
    return db->Flush(FlushOptions());
  });
  std::future<Status> done = work.get_future();
  std::thread writer(std::move(work));
  if (done.wait_for(kDeadline) != std::future_status::ready) {
    ADD_FAILURE() << name << ": writes and Flush() did not return in "
                  << kDeadline.count() << " s: " << StateOf(db.get());
    CancelAllBackgroundWork(db.get(), /*wait=*/false);
  }
  writer.join();
  ASSERT_TRUE(done.get().ok()) << name;
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());

  // Every key, with its value.
  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
  uint64_t seen = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++seen) {
    ASSERT_EQ(it->value().ToString(), ValueOf(it->key().ToString())) << name;
  }
  ASSERT_TRUE(it->status().ok()) << name;
  EXPECT_EQ(seen, total) << name;
  it.reset();

  uint64_t l0_bytes = 0;
  ASSERT_TRUE(db->GetIntProperty(VlsmProperties::kL0Bytes, &l0_bytes));
  EXPECT_LT(l0_bytes, options.max_bytes_for_level_base)
      << name << " after the settle: " << StateOf(db.get());
  db.reset();
  EXPECT_FALSE(LogReportsBrokenLiveness(path)) << name;
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

// 40 000 keys of 200 bytes: about 65 memtables of 128 KiB, more than three
// times the stop trigger's worth.
constexpr uint64_t kKeys = 40000;

TEST(VlsmLivenessTest, SequentialKeysFlushReturns) {
  WriteFlushAndCheck(
      "sequential", [](uint64_t n, uint64_t) { return KeyOf("user", n); },
      kKeys);
}

TEST(VlsmLivenessTest, ReverseSequentialKeysFlushReturns) {
  WriteFlushAndCheck(
      "reverse",
      [](uint64_t n, uint64_t total) { return KeyOf("user", total - 1 - n); },
      kKeys);
}

TEST(VlsmLivenessTest, InterleavedAppendStreamsFlushReturns) {
  // Four streams, each appending its own counter, written in turn: every
  // flush holds four disjoint stripes, each beside that stream's last.
  WriteFlushAndCheck(
      "streams",
      [](uint64_t n, uint64_t) {
        const char* streams[] = {"cpu.", "disk.", "mem.", "net."};
        return KeyOf(streams[n % 4], n / 4);
      },
      kKeys);
}

TEST(VlsmLivenessTest, UniformKeysFlushReturns) {
  WriteFlushAndCheck(
      "uniform",
      [](uint64_t n, uint64_t) {
        // A bijection of [0, 2^16) scrambles the order; keys stay distinct.
        return KeyOf("user", (n * 40503u) & 0xffff);
      },
      kKeys);
}

// The check runs where it must, at every install of a version (patch 0013,
// RecalculateWriteStallConditions): an estimate made to owe what no rule
// makes due (the sync point "VlsmEstimateCompactionBytes:Owed", as a bug in
// the estimate would) is found at the next flush's install, counted in the
// DB property, logged, and announced through "VlsmCheckLiveness:Broken"
// (which keeps a build with assertions running). A lost hook, or a check
// that never fires, fails here.
TEST(VlsmLivenessTest, TheCheckFiresAtAnInstallWhenTheRuleBreaks) {
#ifdef NDEBUG
  GTEST_SKIP() << "needs sync points (a build with assertions)";
#else
  const std::string path = TestPath("VlsmLivenessTest", "broken_on_purpose");
  Options options = ScaledRangedOptions();
  ASSERT_TRUE(DestroyDB(path, options).ok());
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(options, path, &raw).ok());
  std::unique_ptr<DB> db(raw);
  uint64_t before = 0;
  ASSERT_TRUE(db->GetIntProperty(VlsmProperties::kLivenessBreaks, &before));
  ASSERT_TRUE(db->Put(WriteOptions(), "a", "1").ok());
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  uint64_t after = 0;
  ASSERT_TRUE(db->GetIntProperty(VlsmProperties::kLivenessBreaks, &after));
  ASSERT_EQ(after, before) << "a flush and its step, nothing owed";

  std::atomic<int> announced{0};
  SyncPoint::GetInstance()->SetCallBack(
      "VlsmEstimateCompactionBytes:Owed",
      [](void* arg) { *static_cast<uint64_t*>(arg) += 1 << 20; });
  SyncPoint::GetInstance()->SetCallBack("VlsmCheckLiveness:Broken",
                                        [&](void* arg) {
                                          *static_cast<bool*>(arg) = true;
                                          announced.fetch_add(1);
                                        });
  SyncPoint::GetInstance()->EnableProcessing();
  // The flush's file is due (an L1 this small keeps the depth trigger at
  // 1), so the flush's install holds the rule; the step that moves it to
  // L1 installs a version with nothing due and the injected debt.
  ASSERT_TRUE(db->Put(WriteOptions(), "b", "2").ok());
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  // The premise: the step ran while the injection was on (L0 is empty).
  ASSERT_EQ(Property(db.get(), "rocksdb.num-files-at-level0"), "0")
      << "the flush's file was not stepped to L1";
  SyncPoint::GetInstance()->DisableProcessing();
  SyncPoint::GetInstance()->ClearAllCallBacks();
  ASSERT_TRUE(db->GetIntProperty(VlsmProperties::kLivenessBreaks, &after));
  EXPECT_GT(after, before);
  EXPECT_EQ(static_cast<uint64_t>(announced.load()), after - before);
  db.reset();
  EXPECT_TRUE(LogReportsBrokenLiveness(path));
  ASSERT_TRUE(DestroyDB(path, options).ok());
#endif
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
