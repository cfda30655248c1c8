// vLSM on a real DB with tiny sizes (S_M = 32 KiB), so that hundreds of
// compactions run in seconds. An EventListener checks every compaction
// against the rules of docs/vlsm.md; an in-memory model checks the data.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "db/column_family.h"
#include "db/db_impl/db_impl.h"
#include "gtest/gtest.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/listener.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/sst_file_reader.h"
#include "rocksdb/table.h"
#include "rocksdb/utilities/options_util.h"
#include "rocksdb/vlsm.h"
#include "tests/test_dir.h"
#include "tests/vlsm/read_order_checker.h"
#include "tests/vlsm/vlsm_db_test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace {

using namespace vlsm_test;  // NOLINT: the shared real-DB test kit

constexpr uint64_t kMinSize = kSstSize / kGrowth;
constexpr uint64_t kOverlapBound = kGrowth * kSstSize;
// The cut rule sees the bytes of data blocks written so far; a closed file's
// data (table property data_size) adds the block being built and one entry.
constexpr uint64_t kDataSlack = kBlockSize + 512;

std::string TestDir(const std::string& name) { return TestPath("vlsm_db_test", name); }

// Checks each compaction as it completes, against L2 as it was when the
// compaction began (one compaction thread, so L2 cannot change meanwhile).
class VlsmRuleChecker : public EventListener {
 public:
  void OnCompactionBegin(DB* db, const CompactionJobInfo& ci) override {
    std::vector<LiveFileMetaData> live;
    db->GetLiveFilesMetaData(&live);
    TablePropertiesCollection props;
    EXPECT_TRUE(db->GetPropertiesOfAllTables(&props).ok());
    std::vector<L2File> l2;
    for (LiveFileMetaData& m : live) {
      if (m.level == 2) {
        auto p = props.find(m.directory + "/" + m.relative_filename);
        const bool range_dels =
            p != props.end() && p->second->num_range_deletions > 0;
        l2.push_back({std::move(m), range_dels});
      }
    }
    std::lock_guard<std::mutex> lock(mu_);
    l2_at_begin_[{db, ci.job_id}] = std::move(l2);
  }

  void OnCompactionCompleted(DB* db, const CompactionJobInfo& ci) override {
    if (!ci.status.ok()) {
      return;
    }
    std::vector<LiveFileMetaData> live;
    db->GetLiveFilesMetaData(&live);
    std::lock_guard<std::mutex> lock(mu_);
    // Job ids restart at every open: the DB is part of the key, and a
    // completion without its own begin would be judged against no L2.
    auto begun = l2_at_begin_.find({db, ci.job_id});
    if (begun == l2_at_begin_.end()) {
      Violation("completed without a recorded begin", ci);
      return;
    }
    const std::vector<L2File> l2_files = std::move(begun->second);
    l2_at_begin_.erase(begun);
    ++compactions_;
    if (ci.output_level == 0) {
      Violation("L0->L0 compaction", ci);
    }
    size_t l0_inputs = 0;
    for (const CompactionFileInfo& f : ci.input_file_infos) {
      l0_inputs += f.level == 0;
    }
    if (ci.base_input_level == 0 && l0_inputs != 1) {
      Violation(std::to_string(l0_inputs) + " L0 inputs", ci);
    }
    if (ci.base_input_level == 0) {
      ++l0_compactions_;
      uint64_t bytes = ci.stats.total_input_bytes;
      max_l0_compaction_input_ = std::max(max_l0_compaction_input_, bytes);
    }
    if (ci.output_level != 1 || IsTrivialMove(ci)) {
      return;
    }
    // This compaction's L1 outputs in key order (with the data bytes the
    // cut rule measured).
    std::map<uint64_t, uint64_t> data_size;  // file number -> data bytes
    std::set<uint64_t> with_range_dels;
    for (size_t i = 0; i < ci.output_file_infos.size(); ++i) {
      auto props = ci.table_properties.find(ci.output_files[i]);
      const uint64_t number = ci.output_file_infos[i].file_number;
      data_size[number] = 0;
      if (props != ci.table_properties.end()) {
        data_size[number] = props->second->data_size;
        if (props->second->num_range_deletions > 0) {
          with_range_dels.insert(number);
        }
      }
    }
    std::vector<const LiveFileMetaData*> mine;
    for (const LiveFileMetaData& m : live) {
      if (m.level == 1 && data_size.count(m.file_number)) {
        mine.push_back(&m);
      }
    }
    std::sort(mine.begin(), mine.end(), [](auto* a, auto* b) {
      return a->smallestkey < b->smallestkey;
    });
    for (size_t i = 0; i < mine.size(); ++i) {
      const LiveFileMetaData& f = *mine[i];
      const uint64_t size = data_size[f.file_number];
      // The rule bounds the L2 overlap of the keys it sees: point keys and
      // input file boundaries, not where range tombstones start. RocksDB
      // writes into a file every tombstone that starts before the next
      // file's first key, so a tombstone in the gap after the file's last
      // point key stretches the file across that gap, over as many L2 files
      // as the gap holds (docs/vlsm.md). Judge such a file up to its last
      // point key: that span the rule saw whole.
      const std::string seen_end = with_range_dels.count(f.file_number)
                                       ? LastPointUserKey(f)
                                       : f.largestkey;
      uint64_t overlap = 0;
      for (const L2File& l2 : l2_files) {
        const LiveFileMetaData& g = l2.meta;
        if (g.largestkey < f.smallestkey || seen_end < g.smallestkey) {
          continue;
        }
        // An L2 file with range deletions may end with a tombstone's
        // exclusive end key: touching f's first key is then no overlap,
        // and RocksDB (like the cut rule) does not count it.
        if (g.largestkey == f.smallestkey && l2.has_range_deletions) {
          continue;
        }
        overlap += g.size;
      }
      const bool good = overlap <= kOverlapBound;
      ++(good ? good_ : poor_);
      const bool last = i + 1 == mine.size();
      if (last) {
        continue;  // the last output of a compaction may be small
      }
      if (size < kMinSize || size > kSstSize + kDataSlack) {
        Violation("L1 output with " + std::to_string(size) +
                      " data bytes outside [S_m, S_M]",
                  ci);
      }
      // A file cut for overlap is closed at S_m; any larger file kept its
      // overlap within f * S_M while it grew.
      if (!good && size > kMinSize + kDataSlack) {
        // Everything needed to replay the cut by hand: the file, the L2
        // files it overlaps (R: with range deletions) and the inputs.
        std::string l2_list;
        for (const L2File& l2 : l2_files) {
          const LiveFileMetaData& g = l2.meta;
          if (g.largestkey < f.smallestkey || seen_end < g.smallestkey) {
            continue;
          }
          l2_list += " #" + std::to_string(g.file_number) + " [" +
                     g.smallestkey + ", " + g.largestkey + "] " +
                     std::to_string(g.size) +
                     (l2.has_range_deletions ? "R" : "");
        }
        std::string inputs;
        for (const CompactionFileInfo& in : ci.input_file_infos) {
          inputs += " L" + std::to_string(in.level) + " #" +
                    std::to_string(in.file_number);
        }
        Violation("L1 output #" + std::to_string(f.file_number) + " [" +
                      f.smallestkey + ", " + f.largestkey + "], point keys to " +
                      seen_end +
                      (with_range_dels.count(f.file_number) ? " (range dels)"
                                                            : "") +
                      " with " + std::to_string(size) + " bytes overlaps " +
                      std::to_string(overlap) +
                      " bytes of L2 (> f * S_M) but was not cut at S_m; L2:" +
                      l2_list + "; inputs:" + inputs,
                  ci);
      }
    }
  }

  // Names the test's step in the violations found from now on.
  void SetStep(const std::string& step) {
    std::lock_guard<std::mutex> lock(mu_);
    step_ = step;
    l2_at_begin_.clear();  // begun in a closed DB, never completed
  }
  // An L1 output's last point key (user key), range tombstones aside.
  static std::string LastPointUserKey(const LiveFileMetaData& f) {
    SstFileReader reader{Options()};
    if (!reader.Open(f.directory + "/" + f.relative_filename).ok()) {
      return f.largestkey;  // judged on its whole range
    }
    std::unique_ptr<Iterator> it = reader.NewTableIterator();
    it->SeekToLast();
    if (!it->Valid() || it->key().size() < 8) {
      return f.smallestkey;  // tombstones only
    }
    return it->key().ToString().substr(0, it->key().size() - 8);  // internal
  }

  std::vector<std::string> violations() const {
    std::lock_guard<std::mutex> lock(mu_);
    return violations_;
  }
  int compactions() const { std::lock_guard<std::mutex> l(mu_); return compactions_; }
  int l0_compactions() const { std::lock_guard<std::mutex> l(mu_); return l0_compactions_; }
  int good() const { std::lock_guard<std::mutex> l(mu_); return good_; }
  int poor() const { std::lock_guard<std::mutex> l(mu_); return poor_; }
  uint64_t max_l0_compaction_input() const {
    std::lock_guard<std::mutex> l(mu_);
    return max_l0_compaction_input_;
  }

 private:
  static bool IsTrivialMove(const CompactionJobInfo& ci) {
    std::set<uint64_t> in;
    for (const auto& f : ci.input_file_infos) in.insert(f.file_number);
    for (const auto& f : ci.output_file_infos) {
      if (!in.count(f.file_number)) return false;
    }
    return true;
  }
  void Violation(const std::string& what, const CompactionJobInfo& ci) {
    if (violations_.size() < 20) {
      violations_.push_back(step_ + ": " + what + " (L" +
                            std::to_string(ci.base_input_level) +
                            "->L" + std::to_string(ci.output_level) + ", job " +
                            std::to_string(ci.job_id) + ")");
    }
  }

  struct L2File {
    LiveFileMetaData meta;
    bool has_range_deletions;
  };
  mutable std::mutex mu_;
  std::map<std::pair<const DB*, int>, std::vector<L2File>> l2_at_begin_;
  std::string step_ = "first run";
  std::vector<std::string> violations_;
  int compactions_ = 0;
  int l0_compactions_ = 0;
  int good_ = 0;
  int poor_ = 0;
  uint64_t max_l0_compaction_input_ = 0;
};

TEST(VlsmDbTest, CompactionsFollowTheRulesAndDataMatchesModel) {
  const std::string path = TestDir("rules");
  auto checker = std::make_shared<VlsmRuleChecker>();
  Options options = VlsmTestOptions(checker);
  // VlsmTestOptions' read-order checker, to show below that it ran.
  auto read_order =
      std::dynamic_pointer_cast<ReadOrderChecker>(options.listeners.back());
  ASSERT_NE(read_order, nullptr);
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  DB* raw = nullptr;  // for the reopens below

  Model model;
  Workload work(301);
  work.Run(db.get(), &model, 60000);
  const Snapshot* snap = db->GetSnapshot();
  const Model at_snapshot = model;
  work.Run(db.get(), &model, 120000);  // compactions run across the snapshot
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());

  ExpectEqualsModel(db.get(), model, nullptr, "latest");
  ExpectEqualsModel(db.get(), at_snapshot, snap, "snapshot");
  db->ReleaseSnapshot(snap);

  for (const std::string& v : checker->violations()) {
    ADD_FAILURE() << v;
  }
  std::vector<int> shape = FilesPerLevel(db.get());
  std::fprintf(stderr,
               "compactions %d, L0->L1 %d (max input %llu bytes), L1 vSSTs "
               "good %d poor %d, files per level:",
               checker->compactions(), checker->l0_compactions(),
               static_cast<unsigned long long>(checker->max_l0_compaction_input()),
               checker->good(), checker->poor());
  for (int n : shape) std::fprintf(stderr, " %d", n);
  std::fprintf(stderr, "\n");
  // The run must have exercised what it checks.
  EXPECT_GT(checker->l0_compactions(), 100);
  EXPECT_GT(checker->good() + checker->poor(), 200);
  EXPECT_GT(shape[2], 0) << "data reached L2";
  // The chain width vLSM promises: one L0 file plus an L1 kept at its
  // target, so no L0->L1 step reads more than (f + 2) * S_M.
  EXPECT_LE(checker->max_l0_compaction_input(), (kGrowth + 2) * kSstSize);

  // Reopen in vLSM mode, then as stock leveled RocksDB with default level
  // sizing, then vLSM again: every key intact each time.
  db.reset();
  checker->SetStep("reopen");
  ASSERT_TRUE(DB::Open(options, path, &raw).ok());
  db.reset(raw);
  ExpectEqualsModel(db.get(), model, nullptr, "reopen vLSM");
  // The L0 file recovered from the WAL goes to L1 under the rules too:
  // always checked, not only when it finishes before the close.
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  db.reset();

  Options stock;
  stock.merge_operator = options.merge_operator;
  stock.num_levels = options.num_levels;
  ASSERT_EQ(stock.compaction_pri, kMinOverlappingRatio);
  ASSERT_TRUE(DB::Open(stock, path, &raw).ok());
  db.reset(raw);
  ExpectEqualsModel(db.get(), model, nullptr, "reopen stock");
  work.Run(db.get(), &model, 30000);
  ASSERT_TRUE(db->CompactRange(CompactRangeOptions(), nullptr, nullptr).ok());
  ExpectEqualsModel(db.get(), model, nullptr, "stock after writes");
  db.reset();

  checker->SetStep("back to vLSM");
  ASSERT_TRUE(DB::Open(options, path, &raw).ok());
  db.reset(raw);
  ExpectEqualsModel(db.get(), model, nullptr, "back to vLSM");
  work.Run(db.get(), &model, 30000);
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  ExpectEqualsModel(db.get(), model, nullptr, "vLSM after writes");
  for (const std::string& v : checker->violations()) {
    ADD_FAILURE() << "after switching back: " << v;
  }
  EXPECT_GT(read_order->checks(), 100);
  EXPECT_EQ(read_order->violations(), std::vector<std::string>{});
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

TEST(VlsmDbTest, OpenRejectsIncompatibleOptionsNamingTheFix) {
  const std::string path = TestDir("reject");
  Options base = VlsmTestOptions(nullptr);
  ASSERT_TRUE(DestroyDB(path, base).ok());
  struct Case {
    const char* name;
    void (*change)(Options*);
    const char* must_mention;
  } cases[] = {
      {"dynamic level bytes",
       [](Options* o) { o->level_compaction_dynamic_level_bytes = true; },
       "level_compaction_dynamic_level_bytes"},
      {"universal style",
       [](Options* o) { o->compaction_style = kCompactionStyleUniversal; },
       "compaction_style"},
      {"two levels", [](Options* o) { o->num_levels = 2; }, "num_levels"},
  };
  for (const Case& c : cases) {
    Options o = base;
    c.change(&o);
    DB* db = nullptr;
    Status s = DB::Open(o, path, &db);
    EXPECT_TRUE(s.IsInvalidArgument()) << c.name << ": " << s.ToString();
    EXPECT_NE(s.ToString().find(c.must_mention), std::string::npos)
        << c.name << ": " << s.ToString();
    EXPECT_EQ(db, nullptr);
    EXPECT_TRUE(CheckVlsmOptions(o).IsInvalidArgument()) << c.name;
  }

  // CreateColumnFamily applies the same check.
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(base, path, &raw).ok());
  std::unique_ptr<DB> db(raw);
  ColumnFamilyOptions bad(base);
  bad.level_compaction_dynamic_level_bytes = true;
  ColumnFamilyHandle* cf = nullptr;
  Status s = db->CreateColumnFamily(bad, "bad", &cf);
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("level_compaction_dynamic_level_bytes"),
            std::string::npos);
  ASSERT_TRUE(db->CreateColumnFamily(ColumnFamilyOptions(base), "good", &cf).ok());
  ASSERT_TRUE(db->DestroyColumnFamilyHandle(cf).ok());

  // SetOptions applies the same check to the dynamic options vLSM needs.
  s = db->SetOptions({{"max_bytes_for_level_multiplier", "1"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("max_bytes_for_level_multiplier"),
            std::string::npos);
  ASSERT_TRUE(db->SetOptions({{"max_bytes_for_level_multiplier", "4"},
                              {"max_bytes_for_level_multiplier_additional",
                               "1:8:1:1:1"}})
                  .ok());

  db.reset();
  ASSERT_TRUE(DestroyDB(path, base).ok());
}

// Flushes `files` L0 files that all cover the same keys, with compactions
// held, so the next pick sees them together.
void WriteOverlappingL0Files(DB* db, Model* model, int files, int round) {
  ASSERT_TRUE(db->SetOptions({{"disable_auto_compactions", "true"}}).ok());
  for (int f = 0; f < files; ++f) {
    for (int k = 0; k < 400; ++k) {
      const std::string key = "live" + std::to_string(1000 + k);
      const std::string value = std::to_string(round) + "." +
                                std::to_string(f) + std::string(80, 'x');
      ASSERT_TRUE(db->Put(WriteOptions(), key, value).ok());
      (*model)[key] = value;
    }
    ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  }
  ASSERT_TRUE(db->SetOptions({{"disable_auto_compactions", "false"}}).ok());
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
}

TEST(VlsmDbTest, SetOptionsSwitchesALiveColumnFamily) {
  const std::string path = TestDir("switch_live");
  auto counter = std::make_shared<L0InputCounter>();
  Options options = VlsmTestOptions(counter);
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  DB* raw = nullptr;  // for the reopens below
  Model model;

  // vLSM: three overlapping L0 files go to L1 one at a time, oldest first.
  WriteOverlappingL0Files(db.get(), &model, 3, 0);
  EXPECT_EQ(counter->TakeL0Inputs(), std::vector<size_t>({1, 1, 1}));

  // Stock: the same pattern is one compaction of all three (L0 tiering).
  ASSERT_TRUE(db->SetOptions({{"compaction_pri", "kMinOverlappingRatio"}}).ok());
  EXPECT_EQ(db->GetOptions().compaction_pri, kMinOverlappingRatio);
  WriteOverlappingL0Files(db.get(), &model, 3, 1);
  EXPECT_EQ(counter->TakeL0Inputs(), std::vector<size_t>({3}));
  ExpectEqualsModel(db.get(), model, nullptr, "after switching to stock");

  // And back to vLSM, live.
  ASSERT_TRUE(db->SetOptions({{"compaction_pri", "kVlsm"}}).ok());
  EXPECT_EQ(db->GetOptions().compaction_pri, kVlsm);
  WriteOverlappingL0Files(db.get(), &model, 3, 2);
  EXPECT_EQ(counter->TakeL0Inputs(), std::vector<size_t>({1, 1, 1}));
  ExpectEqualsModel(db.get(), model, nullptr, "after switching back to vLSM");

  // The switch is persisted: the OPTIONS file and a reopen see kVlsm.
  db.reset();
  ASSERT_TRUE(DB::Open(options, path, &raw).ok());
  db.reset(raw);
  ExpectEqualsModel(db.get(), model, nullptr, "reopen");
  db.reset();
  DBOptions loaded_db;
  std::vector<ColumnFamilyDescriptor> loaded_cfs;
  ASSERT_TRUE(LoadLatestOptions(ConfigOptions(), path, &loaded_db, &loaded_cfs).ok());
  EXPECT_EQ(loaded_cfs[0].options.compaction_pri, kVlsm);
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

TEST(VlsmDbTest, SetOptionsRefusesKvlsmOnADynamicLevelBytesDb) {
  // Stock 9.10 defaults to dynamic level bytes, which vLSM cannot run with
  // and which is fixed at open: the switch is refused, naming the option,
  // and the DB keeps its priority.
  const std::string path = TestDir("switch_refused");
  Options stock;
  stock.create_if_missing = true;
  ASSERT_TRUE(stock.level_compaction_dynamic_level_bytes);
  std::unique_ptr<DB> db = OpenFreshDb(stock, path);
  ASSERT_NE(db, nullptr);
  Status s = db->SetOptions({{"compaction_pri", "kVlsm"}});
  EXPECT_TRUE(s.IsInvalidArgument()) << s.ToString();
  EXPECT_NE(s.ToString().find("level_compaction_dynamic_level_bytes"),
            std::string::npos) << s.ToString();
  EXPECT_EQ(db->GetOptions().compaction_pri, kMinOverlappingRatio);
  ASSERT_TRUE(db->Put(WriteOptions(), "k", "v").ok());
  db.reset();
  ASSERT_TRUE(DestroyDB(path, stock).ok());
}

// Live switches go only among kVlsm, kVlsmRanged and the stock priority the
// column family opened with (kMinOverlappingRatio when it opened with a vLSM
// layout); any other is refused, naming the priorities, and the priority
// stays.
TEST(VlsmDbTest, SetOptionsSwitchesOnlyAmongTheVlsmLayoutsAndTheOpenedPriority) {
  const std::string path = TestDir("switch_pairs");
  Options round_robin;
  round_robin.create_if_missing = true;
  ASSERT_TRUE(ConfigureVlsm(&round_robin, {32 << 10, 8, 32}).ok());
  round_robin.compaction_pri = kRoundRobin;
  std::unique_ptr<DB> db = OpenFreshDb(round_robin, path);
  ASSERT_NE(db, nullptr);
  auto expect_refused = [&](const char* to, const char* named_home,
                            CompactionPri stays) {
    Status s = db->SetOptions({{"compaction_pri", to}});
    EXPECT_TRUE(s.IsInvalidArgument()) << to << ": " << s.ToString();
    EXPECT_NE(s.ToString().find(std::string("between kVlsm, kVlsmRanged and ") +
                                named_home),
              std::string::npos)
        << s.ToString();
    EXPECT_NE(s.ToString().find(std::string("to ") + to), std::string::npos)
        << s.ToString();
    EXPECT_EQ(db->GetOptions().compaction_pri, stays);
  };
  expect_refused("kMinOverlappingRatio", "kRoundRobin", kRoundRobin);
  ASSERT_TRUE(db->SetOptions({{"compaction_pri", "kVlsm"}}).ok());
  expect_refused("kMinOverlappingRatio", "kRoundRobin", kVlsm);
  ASSERT_TRUE(db->SetOptions({{"compaction_pri", "kVlsm"}}).ok());  // no change
  // The two vLSM layouts switch into each other and home.
  ASSERT_TRUE(db->SetOptions({{"compaction_pri", "kVlsmRanged"}}).ok());
  EXPECT_EQ(db->GetOptions().compaction_pri, kVlsmRanged);
  expect_refused("kMinOverlappingRatio", "kRoundRobin", kVlsmRanged);
  ASSERT_TRUE(db->SetOptions({{"compaction_pri", "kRoundRobin"}}).ok());
  ASSERT_TRUE(db->SetOptions({{"compaction_pri", "kVlsmRanged"}}).ok());
  ASSERT_TRUE(db->SetOptions({{"compaction_pri", "kVlsm"}}).ok());
  ASSERT_TRUE(db->SetOptions({{"compaction_pri", "kRoundRobin"}}).ok());
  EXPECT_EQ(db->GetOptions().compaction_pri, kRoundRobin);
  db.reset();
  ASSERT_TRUE(DestroyDB(path, round_robin).ok());

  Options vlsm = round_robin;
  vlsm.compaction_pri = kVlsm;
  db = OpenFreshDb(vlsm, path);
  ASSERT_NE(db, nullptr);
  expect_refused("kRoundRobin", "kMinOverlappingRatio", kVlsm);
  ASSERT_TRUE(db->SetOptions({{"compaction_pri", "kMinOverlappingRatio"}}).ok());
  expect_refused("kOldestLargestSeqFirst", "kMinOverlappingRatio",
                 kMinOverlappingRatio);
  ASSERT_TRUE(db->SetOptions({{"compaction_pri", "kVlsm"}}).ok());
  db.reset();
  ASSERT_TRUE(DestroyDB(path, vlsm).ok());
}

TEST(VlsmDbTest, OptionsStringAndOptionsFileRoundTrip) {
  ColumnFamilyOptions cf;
  ConfigOptions config;
  ASSERT_TRUE(GetColumnFamilyOptionsFromString(config, ColumnFamilyOptions(),
                                               "compaction_pri=kVlsm", &cf)
                  .ok());
  EXPECT_EQ(cf.compaction_pri, kVlsm);
  std::string serialized;
  ASSERT_TRUE(GetStringFromColumnFamilyOptions(config, cf, &serialized).ok());
  EXPECT_NE(serialized.find("compaction_pri=kVlsm"), std::string::npos);
  EXPECT_FALSE(GetColumnFamilyOptionsFromString(config, ColumnFamilyOptions(),
                                                "compaction_pri=kVlsmX", &cf)
                   .ok());
  ASSERT_TRUE(GetColumnFamilyOptionsFromString(config, ColumnFamilyOptions(),
                                               "compaction_pri=kVlsmRanged", &cf)
                  .ok());
  EXPECT_EQ(cf.compaction_pri, kVlsmRanged);
  ASSERT_TRUE(GetStringFromColumnFamilyOptions(config, cf, &serialized).ok());
  EXPECT_NE(serialized.find("compaction_pri=kVlsmRanged"), std::string::npos);

  // The OPTIONS file a vLSM DB writes loads back with kVlsm and Phi.
  const std::string path = TestDir("options_file");
  Options o = VlsmTestOptions(nullptr);
  o.merge_operator.reset();
  ASSERT_TRUE(DestroyDB(path, o).ok());
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(o, path, &raw).ok());
  delete raw;
  DBOptions loaded_db;
  std::vector<ColumnFamilyDescriptor> loaded_cfs;
  ASSERT_TRUE(LoadLatestOptions(config, path, &loaded_db, &loaded_cfs).ok());
  ASSERT_EQ(loaded_cfs.size(), 1u);
  const ColumnFamilyOptions& l = loaded_cfs[0].options;
  EXPECT_EQ(l.compaction_pri, kVlsm);
  EXPECT_EQ(l.max_bytes_for_level_multiplier_additional[1], 4);
  EXPECT_FALSE(l.level_compaction_dynamic_level_bytes);
  EXPECT_EQ(l.target_file_size_base, kSstSize);
  ASSERT_TRUE(DestroyDB(path, o).ok());
}

TEST(VlsmDbTest, ConfigureVlsmSetsOptionsAndRejectsBadInput) {
  Options o;
  ASSERT_TRUE(ConfigureVlsm(&o).ok());
  EXPECT_EQ(o.compaction_pri, kVlsm);
  EXPECT_EQ(o.compaction_style, kCompactionStyleLevel);
  EXPECT_EQ(o.target_file_size_base, 8u << 20);
  EXPECT_EQ(o.write_buffer_size, 8u << 20);
  EXPECT_EQ(o.max_write_buffer_number, 2);
  EXPECT_EQ(o.max_bytes_for_level_base, 64u << 20);
  EXPECT_EQ(o.max_bytes_for_level_multiplier, 8);
  ASSERT_EQ(o.max_bytes_for_level_multiplier_additional.size(),
            static_cast<size_t>(o.num_levels));
  EXPECT_EQ(o.max_bytes_for_level_multiplier_additional[0], 1);
  EXPECT_EQ(o.max_bytes_for_level_multiplier_additional[1], 4);
  EXPECT_EQ(o.max_bytes_for_level_multiplier_additional[2], 1);
  EXPECT_FALSE(o.level_compaction_dynamic_level_bytes);
  EXPECT_EQ(o.level0_file_num_compaction_trigger, 1);
  EXPECT_EQ(o.max_compaction_bytes, 10u * (8u << 20));

  struct Bad {
    VlsmOptions v;
    int num_levels;
    const char* must_mention;
  } bad[] = {
      {{8 << 20, 8, 36}, 7, "multiple"},
      {{8 << 20, 8, 4}, 7, "multiple"},
      {{8 << 20, 1, 32}, 7, "growth (f)"},
      {{0, 8, 32}, 7, "sst_size"},
      {{8 << 20, 8, 32}, 2, "num_levels"},
      {{~uint64_t{0} / 4, 8, 32}, 7, "too large"},
  };
  for (const Bad& b : bad) {
    Options before;
    before.num_levels = b.num_levels;
    Options after = before;
    Status s = ConfigureVlsm(&after, b.v);
    EXPECT_TRUE(s.IsInvalidArgument()) << b.must_mention;
    EXPECT_NE(s.ToString().find(b.must_mention), std::string::npos) << s.ToString();
    EXPECT_EQ(after.compaction_pri, before.compaction_pri) << "left unchanged";
    EXPECT_EQ(after.target_file_size_base, before.target_file_size_base);
  }
  EXPECT_TRUE(ConfigureVlsm(nullptr).IsInvalidArgument());
}

TEST(VlsmDbTest, ConfigureVlsmRangedLayout) {
  VlsmOptions v;
  v.l0_layout = VlsmL0Layout::kRanged;
  v.ranged_l0_depth = 12;
  Options o;
  ASSERT_TRUE(ConfigureVlsm(&o, v).ok());
  EXPECT_EQ(o.compaction_pri, kVlsmRanged);
  EXPECT_EQ(o.level0_file_num_compaction_trigger, 12);
  // The stall triggers stay clear of the depth at which a range compacts.
  EXPECT_GE(o.level0_slowdown_writes_trigger, 2 * 12 + 4);
  EXPECT_GT(o.level0_stop_writes_trigger, o.level0_slowdown_writes_trigger);
  EXPECT_EQ(o.max_bytes_for_level_multiplier_additional[1], 4);  // as kVlsm

  v.ranged_l0_depth = 0;
  Options bad;
  Status s = ConfigureVlsm(&bad, v);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("ranged_l0_depth must be >= 1"),
            std::string::npos)
      << s.ToString();
  EXPECT_EQ(bad.compaction_pri, Options().compaction_pri) << "left unchanged";

  // Validation names the layout the column family uses.
  o.level_compaction_dynamic_level_bytes = true;
  s = CheckVlsmOptions(o);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("compaction_pri=kVlsmRanged needs "
                              "level_compaction_dynamic_level_bytes=false"),
            std::string::npos)
      << s.ToString();
}

// ConfigureVlsm(VlsmOptions::Ranged()) is the configuration the ranged
// layout was measured with, "vlsm-ranged-rs32-deep" of
// scripts/bench/systems.py: every option of that system vLSM sets.
TEST(VlsmDbTest, ConfigureVlsmRangedPresetIsTheMeasuredConfiguration) {
  Options o;
  ASSERT_TRUE(ConfigureVlsm(&o, VlsmOptions::Ranged()).ok());
  EXPECT_EQ(o.compaction_pri, kVlsmRanged);
  EXPECT_EQ(o.compaction_style, kCompactionStyleLevel);
  EXPECT_FALSE(o.level_compaction_dynamic_level_bytes);
  EXPECT_EQ(o.target_file_size_base, 8u << 20);  // S_M
  EXPECT_EQ(o.target_file_size_multiplier, 1);
  EXPECT_EQ(o.write_buffer_size, 32u << 20);
  EXPECT_EQ(o.max_write_buffer_number, 4);
  EXPECT_EQ(o.max_bytes_for_level_base, 256u << 20);  // L1
  EXPECT_EQ(o.max_bytes_for_level_multiplier, 8);     // f
  // Phi = f = 8: every per-level multiplier 1.
  EXPECT_EQ(o.max_bytes_for_level_multiplier_additional,
            std::vector<int>(static_cast<size_t>(o.num_levels), 1));
  EXPECT_EQ(o.level0_file_num_compaction_trigger, 8);  // depth
  EXPECT_EQ(o.level0_slowdown_writes_trigger, 40);
  EXPECT_EQ(o.level0_stop_writes_trigger, 72);
  EXPECT_EQ(o.soft_pending_compaction_bytes_limit, uint64_t{64} << 30);
  EXPECT_EQ(o.hard_pending_compaction_bytes_limit, uint64_t{256} << 30);
  EXPECT_EQ(o.max_compaction_bytes, 10u * (8u << 20));  // (f + 2) * S_M
  EXPECT_TRUE(CheckVlsmOptions(o).ok());

  // The triggers and limits are the preset's whatever the options held;
  // num_levels stays the caller's (the measured runs had 5).
  Options high;
  high.num_levels = 5;
  high.level0_slowdown_writes_trigger = 100;
  high.level0_stop_writes_trigger = 200;
  high.hard_pending_compaction_bytes_limit = 0;  // no limit
  ASSERT_TRUE(ConfigureVlsm(&high, VlsmOptions::Ranged()).ok());
  EXPECT_EQ(high.num_levels, 5);
  EXPECT_EQ(high.max_bytes_for_level_multiplier_additional,
            std::vector<int>(5, 1));
  EXPECT_EQ(high.level0_slowdown_writes_trigger, 40);
  EXPECT_EQ(high.level0_stop_writes_trigger, 72);
  EXPECT_EQ(high.soft_pending_compaction_bytes_limit, uint64_t{64} << 30);
  EXPECT_EQ(high.hard_pending_compaction_bytes_limit, uint64_t{256} << 30);

  // A DB opens with it and keeps every value (none is sanitized away).
  const std::string path = TestDir("ranged_preset");
  o.create_if_missing = true;
  std::unique_ptr<DB> db = OpenFreshDb(o, path);
  ASSERT_NE(db, nullptr);
  ASSERT_TRUE(db->Put(WriteOptions(), "k", "v").ok());
  const Options opened = db->GetOptions();
  EXPECT_EQ(opened.compaction_pri, kVlsmRanged);
  EXPECT_EQ(opened.write_buffer_size, 32u << 20);
  EXPECT_EQ(opened.max_write_buffer_number, 4);
  EXPECT_EQ(opened.level0_file_num_compaction_trigger, 8);
  EXPECT_EQ(opened.level0_slowdown_writes_trigger, 40);
  EXPECT_EQ(opened.level0_stop_writes_trigger, 72);
  EXPECT_EQ(opened.soft_pending_compaction_bytes_limit, uint64_t{64} << 30);
  EXPECT_EQ(opened.hard_pending_compaction_bytes_limit, uint64_t{256} << 30);
  db.reset();
  ASSERT_TRUE(DestroyDB(path, o).ok());
}

// VlsmOptions' size fields left 0 configure what ConfigureVlsm always did,
// in either layout; each one given overrides its option only.
TEST(VlsmDbTest, ConfigureVlsmSizeFieldsLeftZeroKeepTheDerivedValues) {
  Options before;
  before.level0_slowdown_writes_trigger = 30;
  before.level0_stop_writes_trigger = 50;
  before.soft_pending_compaction_bytes_limit = uint64_t{3} << 30;
  before.hard_pending_compaction_bytes_limit = uint64_t{5} << 30;
  VlsmOptions v;
  v.sst_size = 4 << 20;
  v.growth = 4;
  v.l1_l2_growth = 16;

  Options o = before;
  ASSERT_TRUE(ConfigureVlsm(&o, v).ok());
  EXPECT_EQ(o.compaction_pri, kVlsm);
  EXPECT_EQ(o.write_buffer_size, v.sst_size);
  EXPECT_EQ(o.max_write_buffer_number, 2);
  EXPECT_EQ(o.max_bytes_for_level_base, 4 * v.sst_size);  // f * S_M
  EXPECT_EQ(o.level0_slowdown_writes_trigger, 30);  // kVlsm leaves them
  EXPECT_EQ(o.level0_stop_writes_trigger, 50);
  EXPECT_EQ(o.soft_pending_compaction_bytes_limit, uint64_t{3} << 30);
  EXPECT_EQ(o.hard_pending_compaction_bytes_limit, uint64_t{5} << 30);

  // The ranged layout: the stall triggers derived from the depth.
  v.l0_layout = VlsmL0Layout::kRanged;
  v.ranged_l0_depth = 20;
  o = before;
  ASSERT_TRUE(ConfigureVlsm(&o, v).ok());
  EXPECT_EQ(o.compaction_pri, kVlsmRanged);
  EXPECT_EQ(o.write_buffer_size, v.sst_size);
  EXPECT_EQ(o.max_write_buffer_number, 2);
  EXPECT_EQ(o.max_bytes_for_level_base, 4 * v.sst_size);
  EXPECT_EQ(o.level0_slowdown_writes_trigger, 2 * 20 + 4);
  EXPECT_EQ(o.level0_stop_writes_trigger, 2 * 20 + 4 + 16);
  EXPECT_EQ(o.soft_pending_compaction_bytes_limit, uint64_t{3} << 30);
  EXPECT_EQ(o.hard_pending_compaction_bytes_limit, uint64_t{5} << 30);

  // Each field given sets its option; the others stay as derived.
  v.memtable_size = 16 << 20;
  v.memtable_count = 6;
  v.l1_size = 128 << 20;
  v.soft_pending_compaction_bytes_limit = uint64_t{1} << 30;
  v.ranged_slowdown_trigger = 48;
  o = before;
  ASSERT_TRUE(ConfigureVlsm(&o, v).ok());
  EXPECT_EQ(o.write_buffer_size, 16u << 20);
  EXPECT_EQ(o.target_file_size_base, v.sst_size);
  EXPECT_EQ(o.max_write_buffer_number, 6);
  EXPECT_EQ(o.max_bytes_for_level_base, 128u << 20);
  EXPECT_EQ(o.max_bytes_for_level_multiplier_additional[1], 4);  // Phi / f
  EXPECT_EQ(o.max_compaction_bytes, 6 * v.sst_size);  // (f + 2) * S_M
  EXPECT_EQ(o.level0_slowdown_writes_trigger, 48);
  EXPECT_EQ(o.level0_stop_writes_trigger, 48 + 16);
  EXPECT_EQ(o.soft_pending_compaction_bytes_limit, uint64_t{1} << 30);
  EXPECT_EQ(o.hard_pending_compaction_bytes_limit, uint64_t{5} << 30);
}

TEST(VlsmDbTest, ConfigureVlsmRejectsBadSizeFieldsNamingThem) {
  struct Bad {
    void (*change)(VlsmOptions*);  // applied to VlsmOptions::Ranged()
    const char* must_mention;
  } bad[] = {
      {[](VlsmOptions* v) { v->memtable_count = 1; },
       "memtable_count must be >= 2"},
      {[](VlsmOptions* v) { v->memtable_count = -4; },
       "memtable_count must be >= 2"},
      {[](VlsmOptions* v) { v->l1_size = 4 << 20; },
       "l1_size (L1) must be >= sst_size (S_M)"},
      {[](VlsmOptions* v) { v->l1_size = ~uint64_t{0} / 4; },
       "l1_size (L1) is too large"},
      {[](VlsmOptions* v) { v->hard_pending_compaction_bytes_limit = 1 << 29; },
       "hard_pending_compaction_bytes_limit must be >= "
       "soft_pending_compaction_bytes_limit"},
      // One limit against the options' other (RocksDB's 64 / 256 GiB).
      {[](VlsmOptions* v) {
         v->soft_pending_compaction_bytes_limit = 0;
         v->hard_pending_compaction_bytes_limit = uint64_t{32} << 30;
       },
       "hard_pending_compaction_bytes_limit would leave"},
      {[](VlsmOptions* v) {
         v->soft_pending_compaction_bytes_limit = uint64_t{512} << 30;
         v->hard_pending_compaction_bytes_limit = 0;
       },
       "soft_pending_compaction_bytes_limit would leave"},
      {[](VlsmOptions* v) { v->ranged_slowdown_trigger = 4; },
       "ranged_slowdown_trigger must be >= ranged_l0_depth"},
      {[](VlsmOptions* v) { v->ranged_slowdown_trigger = -1; },
       "ranged_slowdown_trigger must be >= 0"},
      {[](VlsmOptions* v) { v->ranged_slowdown_trigger = 1 << 30; },
       "ranged_slowdown_trigger must be >= 0"},
      {[](VlsmOptions* v) { v->ranged_stop_trigger = 17; },
       "ranged_stop_trigger must be > ranged_slowdown_trigger"},
      {[](VlsmOptions* v) { v->ranged_stop_trigger = -21; },
       "ranged_stop_trigger must be >= 0"},
      // Below the slowdown trigger derived from the depth, 2 * 8 + 4.
      {[](VlsmOptions* v) {
         v->ranged_slowdown_trigger = 0;
         v->ranged_stop_trigger = 12;
       },
       "ranged_stop_trigger must be > the slowdown trigger, 20"},
      // The stall triggers are the ranged layout's.
      {[](VlsmOptions* v) { v->l0_layout = VlsmL0Layout::kSingleFile; },
       "ranged_slowdown_trigger is for the ranged L0 layout only"},
      {[](VlsmOptions* v) {
         *v = VlsmOptions();
         v->ranged_stop_trigger = 30;
       },
       "ranged_stop_trigger is for the ranged L0 layout only"},
  };
  ConfigOptions config;
  for (const Bad& b : bad) {
    VlsmOptions v = VlsmOptions::Ranged();
    b.change(&v);
    Options before;
    Options after = before;
    Status s = ConfigureVlsm(&after, v);
    EXPECT_TRUE(s.IsInvalidArgument()) << b.must_mention << ": "
                                       << s.ToString();
    EXPECT_NE(s.ToString().find(b.must_mention), std::string::npos)
        << s.ToString();
    std::string was, is;
    ASSERT_TRUE(GetStringFromColumnFamilyOptions(config, before, &was).ok());
    ASSERT_TRUE(GetStringFromColumnFamilyOptions(config, after, &is).ok());
    EXPECT_EQ(is, was) << b.must_mention << ": left unchanged";
  }
}

// The options strings README.md gives for bindings that only pass strings,
// with RocksDB's default 7 levels: the ranged layout's and the paper's.
// tests/dropin checks them through the C API too.
constexpr const char* kReadmeRangedOptions =
    "compaction_style=kCompactionStyleLevel;compaction_pri=kVlsmRanged;"
    "level_compaction_dynamic_level_bytes=false;write_buffer_size=33554432;"
    "target_file_size_base=8388608;target_file_size_multiplier=1;"
    "max_write_buffer_number=4;max_bytes_for_level_base=268435456;"
    "max_bytes_for_level_multiplier=8;"
    "max_bytes_for_level_multiplier_additional=1:1:1:1:1:1:1;"
    "level0_file_num_compaction_trigger=8;"
    "level0_slowdown_writes_trigger=40;level0_stop_writes_trigger=72;"
    "soft_pending_compaction_bytes_limit=68719476736;"
    "hard_pending_compaction_bytes_limit=274877906944;"
    "max_compaction_bytes=83886080;"
    "table_properties_collectors=VlsmDrainAtRest";
constexpr const char* kReadmeVlsmOptions =
    "compaction_style=kCompactionStyleLevel;compaction_pri=kVlsm;"
    "level_compaction_dynamic_level_bytes=false;write_buffer_size=8388608;"
    "target_file_size_base=8388608;target_file_size_multiplier=1;"
    "max_write_buffer_number=2;max_bytes_for_level_base=67108864;"
    "max_bytes_for_level_multiplier=8;"
    "max_bytes_for_level_multiplier_additional=1:4:1:1:1:1:1;"
    "level0_file_num_compaction_trigger=1;max_compaction_bytes=83886080";

void ExpectSameVlsmOptions(const ColumnFamilyOptions& a,
                           const ColumnFamilyOptions& b) {
  EXPECT_EQ(a.compaction_style, b.compaction_style);
  EXPECT_EQ(a.compaction_pri, b.compaction_pri);
  EXPECT_EQ(a.level_compaction_dynamic_level_bytes,
            b.level_compaction_dynamic_level_bytes);
  EXPECT_EQ(a.target_file_size_base, b.target_file_size_base);
  EXPECT_EQ(a.target_file_size_multiplier, b.target_file_size_multiplier);
  EXPECT_EQ(a.write_buffer_size, b.write_buffer_size);
  EXPECT_EQ(a.max_write_buffer_number, b.max_write_buffer_number);
  EXPECT_EQ(a.max_bytes_for_level_base, b.max_bytes_for_level_base);
  EXPECT_EQ(a.max_bytes_for_level_multiplier,
            b.max_bytes_for_level_multiplier);
  EXPECT_EQ(a.max_bytes_for_level_multiplier_additional,
            b.max_bytes_for_level_multiplier_additional);
  EXPECT_EQ(a.level0_file_num_compaction_trigger,
            b.level0_file_num_compaction_trigger);
  EXPECT_EQ(a.level0_slowdown_writes_trigger,
            b.level0_slowdown_writes_trigger);
  EXPECT_EQ(a.level0_stop_writes_trigger, b.level0_stop_writes_trigger);
  EXPECT_EQ(a.soft_pending_compaction_bytes_limit,
            b.soft_pending_compaction_bytes_limit);
  EXPECT_EQ(a.hard_pending_compaction_bytes_limit,
            b.hard_pending_compaction_bytes_limit);
  EXPECT_EQ(a.max_compaction_bytes, b.max_compaction_bytes);
}

TEST(VlsmDbTest, ReadmeOptionsStringsSetWhatConfigureVlsmSets) {
  const struct {
    const char* name;
    const char* options;
    VlsmOptions vlsm;
  } cases[] = {{"ranged", kReadmeRangedOptions, VlsmOptions::Ranged()},
               {"kVlsm", kReadmeVlsmOptions, VlsmOptions()}};
  ConfigOptions config;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.name);
    ColumnFamilyOptions configured;
    ASSERT_TRUE(ConfigureVlsm(&configured, c.vlsm).ok());
    ColumnFamilyOptions parsed;
    ASSERT_TRUE(GetColumnFamilyOptionsFromString(
                    config, ColumnFamilyOptions(), c.options, &parsed)
                    .ok());
    ExpectSameVlsmOptions(parsed, configured);
    // Nothing else differs either: the string sets all ConfigureVlsm sets.
    std::string from_string, from_call;
    ASSERT_TRUE(
        GetStringFromColumnFamilyOptions(config, parsed, &from_string).ok());
    ASSERT_TRUE(
        GetStringFromColumnFamilyOptions(config, configured, &from_call).ok());
    EXPECT_EQ(from_string, from_call);
    // As whole Options, the way bindings parse them.
    Options whole;
    ASSERT_TRUE(
        GetOptionsFromString(config, Options(), c.options, &whole).ok());
    ExpectSameVlsmOptions(whole, configured);
    EXPECT_TRUE(CheckVlsmOptions(whole).ok());
  }
}

// Writes one L0 file per entry of `regions`, each holding keys of the listed
// key regions only, with compactions held; then lets them run.
void WriteL0FilesInRegions(DB* db, Model* model,
                           const std::vector<std::string>& regions) {
  ASSERT_TRUE(db->SetOptions({{"disable_auto_compactions", "true"}}).ok());
  for (size_t f = 0; f < regions.size(); ++f) {
    for (char region : regions[f]) {
      for (int k = 0; k < 100; ++k) {
        const std::string key = std::string(1, region) + std::to_string(1000 + k);
        const std::string value = std::to_string(f) + std::string(80, 'x');
        ASSERT_TRUE(db->Put(WriteOptions(), key, value).ok());
        (*model)[key] = value;
      }
    }
    ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  }
  ASSERT_TRUE(db->SetOptions({{"disable_auto_compactions", "false"}}).ok());
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
}

// Moves `bytes` of incompressible data under keys "z..." into L1 and
// returns L1's bytes: above every key WriteL0FilesInRegions writes, so that
// L1 overlaps none of those steps. The ranged layout compacts a range once
// its L0 holds about L1's bytes (RangedDepthTrigger): a test of the
// configured depth needs an L1 of at least that many memtables' worth.
uint64_t FillL1AboveTheRegions(DB* db, Model* model, uint64_t bytes) {
  std::mt19937 rng(7);
  std::string value(500, ' ');
  for (uint64_t k = 0; k * value.size() < bytes; ++k) {
    for (char& c : value) {
      c = static_cast<char>('!' + rng() % 90);
    }
    const std::string key = "z" + std::to_string(100000 + k);
    EXPECT_TRUE(db->Put(WriteOptions(), key, value).ok());
    (*model)[key] = value;
  }
  CompactRangeOptions to_l1;
  to_l1.change_level = true;
  to_l1.target_level = 1;
  EXPECT_TRUE(db->CompactRange(to_l1, nullptr, nullptr).ok());
  ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(&meta);
  EXPECT_EQ(meta.levels[0].files.size(), 0u);
  EXPECT_EQ(meta.levels[2].files.size(), 0u);
  return meta.levels[1].size;
}

// The ranged layout on a real DB. Five flushes, oldest first: the first
// covers key regions a and b, the next two a, then b, then a:
//
//   f5      [a]
//   f4           [b]
//   f3      [a]
//   f2      [a]
//   f1      [a    b]
//
// Region a is four deep, b two. With the trigger at depth 4 one step runs:
// a's files f5, f3, f2 and f1 (f1 also covers b, so nothing older is left
// behind), and f4 stays in L0 (depth 1 now, under the trigger). kVlsm would
// take the five files one at a time; stock picking takes all five at once
// (f1 joins every file into one overlapping run). L1 holds data above the
// regions, enough for the trigger of 4 to be in force, and a target that
// keeps it in L1.
TEST(VlsmDbTest, RangedLayoutCompactsTheDeepestRangeAndKeepsTheRest) {
  const std::string path = TestDir("ranged_pick");
  auto counter = std::make_shared<L0InputCounter>();
  Options options = VlsmTestOptions(counter);
  options.compaction_pri = kVlsmRanged;
  options.level0_file_num_compaction_trigger = 4;
  options.max_bytes_for_level_base = 4 << 20;
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  Model model;
  const uint64_t memtable = db->GetOptions().write_buffer_size;
  ASSERT_GE(FillL1AboveTheRegions(db.get(), &model, 5 * memtable),
            4 * memtable);
  counter->TakeL0Inputs();  // the fill's steps are not this test's
  WriteL0FilesInRegions(db.get(), &model, {"ab", "a", "a", "b", "a"});
  EXPECT_EQ(counter->TakeL0Inputs(), std::vector<size_t>({4}));
  EXPECT_EQ(FilesPerLevel(db.get())[0], 1);
  ExpectEqualsModel(db.get(), model, nullptr, "after the ranged step");

  // The same under kVlsm, live: one file per step.
  ASSERT_TRUE(db->SetOptions({{"compaction_pri", "kVlsm"}}).ok());
  ASSERT_TRUE(db->SetOptions({{"level0_file_num_compaction_trigger", "1"}}).ok());
  WriteL0FilesInRegions(db.get(), &model, {"ab", "a"});
  EXPECT_EQ(counter->TakeL0Inputs(), std::vector<size_t>({1, 1, 1}));
  ExpectEqualsModel(db.get(), model, nullptr, "after switching to kVlsm");
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

// Random work under the ranged layout, with 1 and with 3 compaction
// threads (one L0 compaction at a time, L1 -> L2 and lower steps beside
// it): every key as
// the model says, at a snapshot too, after a reopen and with consistency
// checks and checksums verified; L0 compacted several files at a time, never
// into L0; the read order of issue 19 kept at every flush and compaction
// (VlsmTestOptions' checker).
TEST(VlsmDbTest, RangedLayoutDataMatchesModel) {
  for (int threads : {1, 3}) {
    SCOPED_TRACE("compaction threads " + std::to_string(threads));
    const std::string path = TestDir("ranged_model_" + std::to_string(threads));
    auto counter = std::make_shared<L0InputCounter>();
    Options options = VlsmTestOptions(counter);
    options.compaction_pri = kVlsmRanged;
    options.level0_file_num_compaction_trigger = 4;
    options.max_background_compactions = threads;
    options.force_consistency_checks = true;
    std::unique_ptr<DB> db = OpenFreshDb(options, path);
    ASSERT_NE(db, nullptr);
    Model model;
    Workload work(907);
    work.Run(db.get(), &model, 40000);
    const Snapshot* snap = db->GetSnapshot();
    const Model at_snapshot = model;
    work.Run(db.get(), &model, 40000);
    ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
    ExpectEqualsModel(db.get(), model, nullptr, "ranged");
    ExpectEqualsModel(db.get(), at_snapshot, snap, "ranged, snapshot");
    db->ReleaseSnapshot(snap);
    ASSERT_TRUE(db->VerifyChecksum().ok());
    const std::vector<size_t> l0_inputs = counter->TakeL0Inputs();
    ASSERT_FALSE(l0_inputs.empty());
    EXPECT_GT(*std::max_element(l0_inputs.begin(), l0_inputs.end()), 1u);
    EXPECT_EQ(counter->into_l0(), 0);
    db.reset();
    DB* raw = nullptr;
    ASSERT_TRUE(DB::Open(options, path, &raw).ok());
    db.reset(raw);
    ExpectEqualsModel(db.get(), model, nullptr, "ranged, reopened");
    db.reset();
    ASSERT_TRUE(DestroyDB(path, options).ok());
  }
}

// The recent L0 steps' yield on a real DB (vlsm_l0_yield.h): each step out
// of L0 is counted when it installs, a trivial move too, and the version it
// makes carries the yield its estimate takes. Sequential keys move whole
// (a yield of 1); keys interleaved with L1's are merged in and added, about
// a byte below per L0 byte; updates of the same keys rewrite them, and the
// yield falls to its floor.
TEST(VlsmDbTest, L0StepsCountWhatTheyAddBelow) {
  const std::string path = TestDir("l0_yield");
  Options options = VlsmTestOptions(nullptr);
  options.compaction_pri = kVlsmRanged;
  options.level0_file_num_compaction_trigger = 2;
  options.compression = kNoCompression;  // sizes follow the bytes written
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  // The column family's count and the current version's copy, read under
  // the DB mutex as the estimate reads them.
  auto yield = [&db](size_t* steps) {
    auto* impl = static_cast<DBImpl*>(db->GetRootDB());
    ColumnFamilyData* cfd =
        static_cast<ColumnFamilyHandleImpl*>(db->DefaultColumnFamily())->cfd();
    InstrumentedMutexLock lock(impl->mutex());
    const VlsmL0Yield& y = *cfd->compaction_picker()->vlsm_l0_yield();
    *steps = y.steps();
    EXPECT_EQ(cfd->current()->storage_info()->vlsm_l0_yield(), y.InflowPerL0Byte())
        << "the current version carries the yield in force";
    return y.InflowPerL0Byte();
  };
  size_t steps = 0;
  EXPECT_EQ(yield(&steps), 1.0);
  EXPECT_EQ(steps, 0u);

  const std::string value(100, 'v');
  // Writes keys k(first), k(first + stride), ... (count of them) and
  // flushes, then lets every compaction finish.
  auto write_flush = [&](int first, int stride, int count) {
    for (int i = 0; i < count; ++i) {
      char k[16];
      snprintf(k, sizeof(k), "k%07d", first + i * stride);
      ASSERT_TRUE(db->Put(WriteOptions(), k, value).ok());
    }
    ASSERT_TRUE(db->Flush(FlushOptions()).ok());
    ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  };
  // Sequential keys: each flush above everything below, moved whole.
  for (int round = 0; round < 6; ++round) {
    write_flush(round * 400, 1, 400);
  }
  const double moves = yield(&steps);
  EXPECT_GT(steps, 0u);
  EXPECT_EQ(moves, 1.0) << "a file moved out of L0 adds all its bytes";
  // New keys between the ones below: each step merges with L1 and adds
  // what it read from L0.
  for (int round = 0; round < 8; ++round) {
    write_flush(1000000 + round, 8, 400);
  }
  const size_t before_merges = steps;
  const double inserts = yield(&steps);
  EXPECT_GT(steps, before_merges);
  EXPECT_GE(inserts, 0.9) << "distinct keys add about what they move";
  // Updates: the same 400 keys again and again, so a step rewrites them.
  for (int round = 0; round < 48; ++round) {
    write_flush(0, 1, 400);
  }
  EXPECT_EQ(yield(&steps), kVlsmL0YieldMin);
  EXPECT_EQ(steps, kVlsmL0YieldSteps);
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
