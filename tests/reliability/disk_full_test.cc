// Disk full in vLSM mode, in each L0 layout (the paper's single-file L0,
// kVlsm, and the ranged L0 of issue 20, kVlsmRanged, whose flushes write
// several pieces and whose steps take one key range): on a small filesystem
// this test mounts itself (tmpfs with a size limit; else an ext4 image on a
// loop device), a DB fills the space until RocksDB reports NoSpace. Checked:
// writes fail cleanly with NoSpace, nothing acknowledged is lost, L0's read
// order holds, and once space is freed (a ballast file written first is
// deleted) DB::Resume() brings the DB back in the same layout: compaction_pri
// is unchanged and more writes and compactions succeed.
//
// Mounting needs root (or CAP_SYS_ADMIN). Without it the test is skipped and
// the binary exits 77, which ctest reports as "Skipped" (SKIP_RETURN_CODE).
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "rocksdb/vlsm.h"
#include "tests/status_assertions.h"
#include "tests/vlsm/read_order_checker.h"

namespace ROCKSDB_NAMESPACE {
namespace {

constexpr int kFsMiB = 24;
constexpr int kBallastMiB = 6;
constexpr size_t kValueSize = 1000;

bool skipped = false;  // no filesystem could be mounted

std::string TmpDir() {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return tmp && *tmp ? tmp : "/tmp";
}

bool Shell(const std::string& cmd) { return std::system(cmd.c_str()) == 0; }

// Counts what the background threads report.
class Observer : public EventListener {
 public:
  void OnBackgroundError(BackgroundErrorReason reason, Status* s) override {
    if (s->IsNoSpace()) no_space_errors++;
    last_reason = static_cast<int>(reason);
  }
  void OnCompactionCompleted(DB*, const CompactionJobInfo& ci) override {
    if (ci.status.ok() && ci.output_level >= 1) compactions_ok++;
  }
  void OnErrorRecoveryEnd(const BackgroundErrorRecoveryInfo&) override {
    recoveries++;
  }
  std::atomic<int> no_space_errors{0};
  std::atomic<int> last_reason{-1};
  std::atomic<int> compactions_ok{0};
  std::atomic<int> recoveries{0};
};

class DiskFullTest : public testing::TestWithParam<VlsmL0Layout> {
 protected:
  void SetUp() override {
    mnt_ = TmpDir() + "/disk_full_mnt";
    image_ = TmpDir() + "/disk_full.img";
    Shell("umount " + mnt_ + " 2>/dev/null");
    ASSERT_TRUE(Shell("mkdir -p " + mnt_));
    const std::string size = std::to_string(kFsMiB) + "m";
    // DISK_FULL_FS=loop skips tmpfs, to exercise the fallback.
    const char* want = std::getenv("DISK_FULL_FS");
    const bool tmpfs_allowed = !want || std::string(want) != "loop";
    if (tmpfs_allowed && Shell("mount -t tmpfs -o size=" + size + " tmpfs " + mnt_ + " 2>/dev/null")) {
      fs_ = "tmpfs " + size;
    } else if (Shell("truncate -s " + size + " " + image_ + " && mkfs.ext4 -q -F -m 0 " +
                   image_ + " >/dev/null 2>&1 && mount -o loop " + image_ + " " + mnt_ +
                   " 2>/dev/null")) {
      fs_ = "ext4 on a loop device, " + size;
    } else {
      // gtest 1.8 has no GTEST_SKIP: the test body returns, main exits 77.
      std::printf("SKIPPED: cannot mount a small filesystem (tmpfs or loop) here: needs "
                  "root or CAP_SYS_ADMIN\n");
      skipped = true;
      return;
    }
    mounted_ = true;
    std::printf("filesystem: %s at %s\n", fs_.c_str(), mnt_.c_str());
  }
  void TearDown() override {
    if (mounted_) {
      EXPECT_TRUE(Shell("umount " + mnt_)) << "umount " << mnt_;
    }
    std::remove(image_.c_str());
  }

  // The compaction_pri the layout runs as, before and after the fault.
  CompactionPri Pri() const {
    return GetParam() == VlsmL0Layout::kRanged ? kVlsmRanged : kVlsm;
  }

  std::string mnt_, image_, fs_;
  bool mounted_ = false;
};

std::string Key(int k) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%07d", k);
  return buf;
}

// Every value the key may hold (nullopt: absent): the last acknowledged one,
// plus those of later writes that failed (a failed write may or may not have
// reached the WAL before the error).
using Model = std::map<std::string, std::vector<std::optional<std::string>>>;

void ExpectMatchesModel(DB* db, const Model& model, const char* when) {
  size_t mismatches = 0, present = 0;
  for (const auto& [key, allowed] : model) {
    std::string v;
    const Status s = db->Get(ReadOptions(), key, &v);
    std::optional<std::string> got;
    if (s.ok()) got = v;
    const bool ok = (s.ok() || s.IsNotFound()) &&
                    std::find(allowed.begin(), allowed.end(), got) != allowed.end();
    present += got.has_value();
    if (!ok && ++mismatches <= 5) {
      ADD_FAILURE() << when << ": " << key << ": " << s.ToString()
                    << (s.ok() ? " (a value never written)" : " (acknowledged write lost)");
    }
  }
  EXPECT_EQ(mismatches, 0u) << when;
  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
  size_t scanned = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++scanned;
  EXPECT_OK(it->status());
  EXPECT_EQ(scanned, present) << when << ": keys found by a full scan vs by Get";
}

TEST_P(DiskFullTest, NoSpaceFailsWritesCleanlyAndResumeContinuesInVlsmMode) {
  if (skipped) return;
  // The ballast takes space first, so that deleting it frees some later.
  const std::string ballast = mnt_ + "/ballast";
  {
    std::FILE* f = std::fopen(ballast.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    const std::string mib(1 << 20, 'b');
    for (int i = 0; i < kBallastMiB; ++i) {
      ASSERT_EQ(std::fwrite(mib.data(), 1, mib.size(), f), mib.size());
    }
    ASSERT_EQ(std::fclose(f), 0);
  }

  Options options;
  options.create_if_missing = true;
  options.compression = kNoCompression;
  VlsmOptions vlsm{64 << 10, 8, 32};
  vlsm.l0_layout = GetParam();
  ASSERT_OK(ConfigureVlsm(&options, vlsm));
  ASSERT_EQ(options.compaction_pri, Pri());
  auto observer = std::make_shared<Observer>();
  options.listeners.push_back(observer);
  auto read_order = std::make_shared<ReadOrderChecker>();  // issue 19
  options.listeners.push_back(read_order);
  const std::string path = mnt_ + "/db";
  DB* raw = nullptr;
  ASSERT_OK(DB::Open(options, path, &raw));
  std::unique_ptr<DB> db(raw);

  // Fill: 60 000 distinct keys of 1 KB would need 60 MB; the disk has 24.
  // Writes use no_slowdown and retry a stall (Incomplete, nothing written):
  // a writer that blocks in a stall while RocksDB's automatic NoSpace
  // recovery starts can deadlock with it (upstream 9.10: the recovery flush
  // waits to enter the write queue, whose leader waits for the recovery;
  // seen once in 10 runs, docs/reliability.md).
  WriteOptions no_wait;
  no_wait.no_slowdown = true;
  Model model;
  std::mt19937 rng(7);
  Status failed;
  uint64_t acknowledged = 0, stalls = 0;
  for (int i = 0; i < 200000 && failed.ok(); ++i) {
    const std::string key = Key(static_cast<int>(rng() % 60000));
    const std::string value = std::to_string(i) + std::string(kValueSize, 'v');
    failed = db->Put(no_wait, key, value);
    // A stall is retried, unless it is RocksDB holding writes because the
    // disk is full (a background NoSpace error was reported): that is the
    // clean refusal this test waits for.
    while (failed.IsIncomplete() && observer->no_space_errors.load() == 0 &&
           stalls < 10000000) {
      ++stalls;
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      failed = db->Put(no_wait, key, value);
    }
    if (failed.ok()) {
      model[key] = {value};
      ++acknowledged;
    } else {
      if (model.count(key) == 0) model[key] = {std::nullopt};
      model[key].push_back(value);
    }
  }
  std::printf("acknowledged %llu writes (%llu stalls retried) before: %s\n",
              static_cast<unsigned long long>(acknowledged),
              static_cast<unsigned long long>(stalls), failed.ToString().c_str());
  ASSERT_FALSE(failed.ok()) << "the disk never filled";
  EXPECT_TRUE(failed.IsNoSpace() || failed.ToString().find("No space") != std::string::npos ||
              (failed.IsIncomplete() && observer->no_space_errors.load() > 0))
      << failed.ToString();
  EXPECT_GE(observer->no_space_errors.load(), 1) << "no background NoSpace error reported";
  // The DB is stopped, not half-working: further writes do not succeed.
  // While RocksDB's automatic recovery waits for space (its default
  // SstFileManager polls for it) writers are stalled, as on a stopped write
  // controller: a plain Put would block until space is freed; no_slowdown
  // turns the stall into an immediate non-OK Status.
  for (int i = 0; i < 10; ++i) {
    const std::string key = Key(static_cast<int>(rng() % 60000));
    const std::string value = "full" + std::to_string(i);
    const Status s = db->Put(no_wait, key, value);
    EXPECT_FALSE(s.ok()) << "a write succeeded on a full disk";
    if (i == 0) std::printf("a write while full: %s\n", s.ToString().c_str());
    if (model.count(key) == 0) model[key] = {std::nullopt};
    model[key].push_back(value);
  }
  // The DB stays readable while stopped, with every acknowledged write.
  ExpectMatchesModel(db.get(), model, "while the disk is full");

  // Free space, resume, and go on in vLSM mode. RocksDB's default
  // SstFileManager may already be recovering by itself (it polls for free
  // space); Resume() then says Busy until that recovery ends.
  ASSERT_EQ(std::remove(ballast.c_str()), 0);
  Status resumed;
  int busy = 0;
  for (; busy < 1200; ++busy) {  // a generous bound against a hang, not a timing check
    resumed = db->Resume();
    if (!resumed.IsBusy()) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::printf("Resume() after freeing %d MiB: %s (%d times Busy; automatic recoveries "
              "ended: %d)\n",
              kBallastMiB, resumed.ToString().c_str(), busy, observer->recoveries.load());
  ASSERT_OK(resumed);
  EXPECT_EQ(db->GetOptions().compaction_pri, Pri());
  ExpectMatchesModel(db.get(), model, "after Resume");

  const int compactions_before = observer->compactions_ok.load();
  // 1.5 MB over existing keys (reclaimable space), a flush, compactions.
  auto write_more = [&](int round) -> Status {
    for (int i = 0; i < 1500; ++i) {
      const std::string key = Key(static_cast<int>(rng() % 60000));
      if (model.count(key) == 0) continue;  // new keys would need new space
      const std::string value =
          "after" + std::to_string(round) + "." + std::to_string(i) + std::string(kValueSize, 'w');
      const Status s = db->Put(WriteOptions(), key, value);
      if (!s.ok()) {
        model[key].push_back(value);
        return s;
      }
      model[key] = {value};
    }
    Status s = db->Flush(FlushOptions());
    return s.ok() ? db->WaitForCompact(WaitForCompactOptions()) : s;
  };
  Status more = write_more(1);
  if (!more.ok()) {
    // Seen once in 6 runs: the first NoSpace hit a compaction (a soft error,
    // writes only stalled); Resume() returned OK at once, and a later job
    // failed again. The contract is "Resume() or reopen": reopen.
    std::printf("after Resume(): %s; reopening\n", more.ToString().c_str());
    db.reset();
    ASSERT_OK(DB::Open(options, path, &raw));
    db.reset(raw);
    ExpectMatchesModel(db.get(), model, "after reopening");
    more = write_more(2);
  }
  ASSERT_OK(more);
  EXPECT_EQ(db->GetOptions().compaction_pri, Pri());
  EXPECT_GT(observer->compactions_ok.load(), compactions_before)
      << "no compaction succeeded after Resume";
  ExpectMatchesModel(db.get(), model, "after more writes");
  EXPECT_OK(db->VerifyChecksum());

  // And the state is durable: reopen on the same filesystem.
  db.reset();
  ASSERT_OK(DB::Open(options, path, &raw));
  db.reset(raw);
  EXPECT_EQ(db->GetOptions().compaction_pri, Pri());
  ExpectMatchesModel(db.get(), model, "after reopen");
  EXPECT_OK(db->VerifyChecksum());
  EXPECT_GT(read_order->checks(), 0);
  EXPECT_EQ(read_order->violations(), std::vector<std::string>{});

  // Nothing a failed job wrote is left behind: after the reopen every SST in
  // the directory is live. A split flush that ran out of space after its
  // first pieces must not leave those pieces on the full disk.
  std::vector<LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  std::set<std::string> live_names;
  for (const LiveFileMetaData& f : live) live_names.insert(f.relative_filename);
  std::vector<std::string> children;
  ASSERT_OK(options.env->GetChildren(path, &children));
  for (const std::string& name : children) {
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".sst") == 0) {
      EXPECT_EQ(live_names.count(name), 1u) << "an SST no version holds: " << name;
    }
  }
}

INSTANTIATE_TEST_CASE_P(L0Layouts, DiskFullTest,
                        testing::Values(VlsmL0Layout::kSingleFile, VlsmL0Layout::kRanged));

}  // namespace
}  // namespace ROCKSDB_NAMESPACE

// Exit 77 (ctest SKIP_RETURN_CODE) when the test could not mount its filesystem.
int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const int rc = RUN_ALL_TESTS();
  return rc == 0 && ROCKSDB_NAMESPACE::skipped ? 77 : rc;
}
