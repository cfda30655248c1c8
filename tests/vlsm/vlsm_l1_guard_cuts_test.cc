// Where a compaction into L1 cuts its outputs under the ranged layout:
// - at L0's guards (db/compaction/vlsm_l1_guard_cuts.h, issue 20 item 1):
//   the partitioner's rule on its own, then on a real DB, where a ranged
//   step over one range leaves L1 cut where the next range starts, so the
//   step over that range rewrites only the L1 file under it;
// - at L2's file boundaries once half of S_M (db/compaction/vsst_cut_policy.h,
//   the aligned policy): on a real DB, against the paper's layout, which
//   keeps its two rules.
#include "db/compaction/vlsm_l1_guard_cuts.h"

#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/comparator.h"
#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "rocksdb/sst_partitioner.h"
#include "tests/test_dir.h"
#include "tests/vlsm/vlsm_db_test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace {

using namespace vlsm_test;  // NOLINT: the shared real-DB test kit

PartitionerResult Cut(SstPartitioner* p, const std::string& prev,
                      const std::string& current) {
  const Slice prev_key(prev);
  const Slice current_key(current);
  return p->ShouldPartition(PartitionerRequest(prev_key, current_key, 0));
}

TEST(VlsmL1GuardCutsTest, CutsBeforeTheFirstKeyAtOrAboveEachGuard) {
  L0GuardPartitioner p({"g", "p"}, BytewiseComparator(), nullptr);
  EXPECT_EQ(Cut(&p, "f", "g"), kRequired);     // the guard itself comes next
  EXPECT_EQ(Cut(&p, "f", "h"), kRequired);     // the guard has no key here
  EXPECT_EQ(Cut(&p, "h", "z"), kRequired);     // "p" lies between
  EXPECT_EQ(Cut(&p, "a", "f"), kNotRequired);  // below the first guard
  EXPECT_EQ(Cut(&p, "g", "h"), kNotRequired);  // already cut at "g"
  EXPECT_EQ(Cut(&p, "p", "q"), kNotRequired);
  EXPECT_EQ(Cut(&p, "q", "z"), kNotRequired);  // above the last guard
  // Moved whole, a file is not rewritten: no cut can apply.
  EXPECT_TRUE(p.CanDoTrivialMove("a", "z"));
}

// As a compaction asks: keys ascending, each "prev" the key before. Every
// guard crossed cuts once, also when one step crosses several.
TEST(VlsmL1GuardCutsTest, KeysInOrderAreCutOncePerGuardCrossed) {
  L0GuardPartitioner p({"c", "e", "g", "t"}, BytewiseComparator(), nullptr);
  EXPECT_EQ(Cut(&p, "a", "b"), kNotRequired);
  EXPECT_EQ(Cut(&p, "b", "c"), kRequired);     // reaches "c"
  EXPECT_EQ(Cut(&p, "c", "d"), kNotRequired);  // "c" is behind
  EXPECT_EQ(Cut(&p, "d", "h"), kRequired);     // crosses "e" and "g"
  EXPECT_EQ(Cut(&p, "h", "s"), kNotRequired);
  EXPECT_EQ(Cut(&p, "s", "u"), kRequired);
  EXPECT_EQ(Cut(&p, "u", "z"), kNotRequired);  // past the last guard
  // A caller going back (none does) is answered as from the start.
  EXPECT_EQ(Cut(&p, "a", "c"), kRequired);
}

TEST(VlsmL1GuardCutsTest, TheColumnFamilysOwnPartitionerStillCuts) {
  // Cut wherever the first byte changes, and at guard "m".
  std::shared_ptr<SstPartitionerFactory> by_first_byte =
      NewSstPartitionerFixedPrefixFactory(1);
  L0GuardPartitioner p({"m"}, BytewiseComparator(),
                       by_first_byte->CreatePartitioner(SstPartitioner::Context()));
  EXPECT_EQ(Cut(&p, "aa", "ab"), kNotRequired);
  EXPECT_EQ(Cut(&p, "ab", "ba"), kRequired);   // the user's cut
  EXPECT_EQ(Cut(&p, "ma", "mb"), kNotRequired);
  EXPECT_EQ(Cut(&p, "la", "ma"), kRequired);   // both cut here
  EXPECT_FALSE(p.CanDoTrivialMove("aa", "bb"));  // the user's answer
  EXPECT_TRUE(p.CanDoTrivialMove("aa", "az"));
}

// Ten keys for every letter from `first` to `last`.
void PutLetters(DB* db, Model* model, char first, char last,
                const std::string& value) {
  for (char c = first; c <= last; ++c) {
    for (int i = 0; i < 10; ++i) {
      const std::string k = std::string(1, c) + std::to_string(i);
      ASSERT_TRUE(db->Put(WriteOptions(), k, value).ok());
      (*model)[k] = value;
    }
  }
}

struct LevelFile {
  std::string smallest, largest;
  uint64_t size;
  std::string name;  // relative_filename
};

std::vector<LevelFile> FilesAt(DB* db, int level) {
  ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(&meta);
  std::vector<LevelFile> files;
  for (const SstFileMetaData& f : meta.levels[level].files) {
    files.push_back({f.smallestkey, f.largestkey, f.size, f.relative_filename});
  }
  return files;  // a level >= 1: sorted, disjoint
}

std::vector<std::string> L1FirstKeys(DB* db) {
  std::vector<std::string> firsts;
  for (const LevelFile& f : FilesAt(db, 1)) {
    firsts.push_back(f.smallest);
  }
  return firsts;
}

// The header's worked example on a real DB. L1 holds one file [a .. z];
// two flushes put [a .. l] and then [m .. z] in L0 (L1 has no boundary to
// cut them at, so each is one file, and "m" is a guard: L0's second range
// starts there). The step over the older range, [a .. l], takes all of L1:
// its outputs are cut at "m". The step over [m .. z] then takes only L1's
// file from "m". Without the cut the first step writes [a .. z] back as one
// file and the second step rewrites all of it again.
TEST(VlsmL1GuardCutsTest, AStepLeavesL1CutWhereTheNextRangeStarts) {
  const std::string path = TestPath("vlsm_l1_guard_cuts_test", "example");
  Options options = VlsmTestOptions(nullptr);
  options.compaction_pri = kVlsmRanged;
  options.level0_file_num_compaction_trigger = 1;  // a range compacts at depth 1
  options.force_consistency_checks = true;
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  Model model;
  // ~10 KiB: one L1 file, well under the size at which vSSTs are cut.
  PutLetters(db.get(), &model, 'a', 'z', std::string(30, '1'));
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  ASSERT_EQ(L1FirstKeys(db.get()), std::vector<std::string>{"a0"});

  ASSERT_TRUE(db->SetOptions({{"disable_auto_compactions", "true"}}).ok());
  PutLetters(db.get(), &model, 'a', 'l', std::string(30, '2'));
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  PutLetters(db.get(), &model, 'm', 'z', std::string(30, '3'));
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  ASSERT_EQ(FilesPerLevel(db.get())[0], 2) << "one L0 file per flush";

  ASSERT_TRUE(db->SetOptions({{"disable_auto_compactions", "false"}}).ok());
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  EXPECT_EQ(FilesPerLevel(db.get())[0], 0);
  EXPECT_EQ(L1FirstKeys(db.get()), (std::vector<std::string>{"a0", "m0"}));
  ExpectEqualsModel(db.get(), model, nullptr, "after both steps");
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

// The boundaries between consecutive L1 files that fall inside an L2 file:
// each makes both L1 files' L1->L2 steps read that L2 file.
int L1CutsInsideL2Files(const std::vector<LevelFile>& l1,
                        const std::vector<LevelFile>& l2) {
  int inside = 0;
  for (size_t i = 0; i + 1 < l1.size(); ++i) {
    for (const LevelFile& f : l2) {
      if (f.smallest <= l1[i].largest && f.largest >= l1[i + 1].smallest) {
        ++inside;
      }
    }
  }
  return inside;
}

std::string KeyAt(int i) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "k%04d", i);
  return buf;
}

// L2 gets 1,200 keys of 300 random bytes in 12 files of S_M (32 KiB).
// Then every third key is rewritten twice with 220-byte values, each time
// written to L0 as one whole file by a reopen's WAL recovery under
// atomic_flush (which keeps flushes, and recovery, whole): otherwise they
// would be cut at guards on L2's boundaries (L1 is empty; patch 0022 cuts
// recovery as a flush), and a step into L1 cuts its outputs at L0's
// guards, which would line L1 up with L2 whatever the cut rule does. With
// two whole, overlapping L0 files there is no guard
// inside the range and no trivial move, so the cut rule alone decides.
// L1 receives ~95 KiB, about 8 KiB per L2 file: a file past S_M / 2
// (16 KiB) meets an L2 boundary before it reaches S_M, so an aligned
// policy cuts every file at one; an L1 file of S_M spans about 3.9 L2
// files, so S_M cuts fall inside them; and it touches at most 5 (160 KiB,
// under f * S_M = 256 KiB), so the overlap rule never cuts.
void CompactIntoL1OverL2(CompactionPri pri, const std::string& path,
                         std::vector<LevelFile>* l1, std::vector<LevelFile>* l2) {
  Options options = VlsmTestOptions(nullptr);
  options.compaction_pri = pri;
  options.compression = kNoCompression;
  options.level0_file_num_compaction_trigger = 1;
  options.disable_auto_compactions = true;
  options.force_consistency_checks = true;
  options.write_buffer_size = 4 << 20;  // no flush but the test's own
  options.atomic_flush = true;          // whole L0 files (see above)
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  std::mt19937 rng(20261127);
  auto value = [&rng](size_t size) {
    std::string v(size, ' ');
    for (char& c : v) c = static_cast<char>('a' + rng() % 26);
    return v;
  };
  Model model;
  for (int i = 0; i < 1200; ++i) {
    model[KeyAt(i)] = value(300);
    ASSERT_TRUE(db->Put(WriteOptions(), KeyAt(i), model[KeyAt(i)]).ok());
  }
  ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  std::vector<std::string> l0;
  for (const LevelFile& f : FilesAt(db.get(), 0)) {
    l0.push_back(f.name);
  }
  CompactionOptions to_l2;
  to_l2.output_file_size_limit = kSstSize;
  ASSERT_TRUE(db->CompactFiles(to_l2, l0, /*output_level=*/2).ok());
  ASSERT_EQ(FilesPerLevel(db.get())[0], 0);
  ASSERT_EQ(FilesPerLevel(db.get())[1], 0);
  ASSERT_GE(FilesPerLevel(db.get())[2], 10);

  for (int rewrite = 0; rewrite < 2; ++rewrite) {
    for (int i = 0; i < 1200; i += 3) {
      model[KeyAt(i)] = value(220);
      ASSERT_TRUE(db->Put(WriteOptions(), KeyAt(i), model[KeyAt(i)]).ok());
    }
    db.reset();  // the memtable stays in the WAL
    DB* raw = nullptr;
    ASSERT_TRUE(DB::Open(options, path, &raw).ok());
    db.reset(raw);
  }
  ASSERT_EQ(FilesPerLevel(db.get())[0], 2) << "one whole L0 file per recovery";
  ASSERT_TRUE(db->SetOptions({{"disable_auto_compactions", "false"}}).ok());
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  ASSERT_EQ(FilesPerLevel(db.get())[0], 0);
  *l1 = FilesAt(db.get(), 1);
  *l2 = FilesAt(db.get(), 2);
  ExpectEqualsModel(db.get(), model, nullptr, "after the steps into L1");
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

TEST(VlsmL1GuardCutsTest, RangedL1FilesEndWhereL2FilesEnd) {
  std::vector<LevelFile> l1, l2;
  CompactIntoL1OverL2(kVlsmRanged, TestPath("vlsm_l1_guard_cuts_test", "l2_ranged"),
                      &l1, &l2);
  ASSERT_GE(l1.size(), 3u) << "several L1 files, so several cuts to check";
  EXPECT_EQ(L1CutsInsideL2Files(l1, l2), 0);
  // Each was closed at an L2 boundary before S_M, not by the size rule.
  for (size_t i = 0; i + 1 < l1.size(); ++i) {
    EXPECT_LT(l1[i].size, kSstSize) << "L1 file " << i;
  }
}

// The same steps under the paper's layout, which cuts at S_M and on the
// overlap bound only: its cuts fall inside L2 files (so the scenario does
// tell the two policies apart).
TEST(VlsmL1GuardCutsTest, PaperLayoutCutsL1InsideL2Files) {
  std::vector<LevelFile> l1, l2;
  CompactIntoL1OverL2(kVlsm, TestPath("vlsm_l1_guard_cuts_test", "l2_paper"), &l1,
                      &l2);
  ASSERT_GE(l1.size(), 3u);
  EXPECT_GE(L1CutsInsideL2Files(l1, l2), 1);
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
