// L1 outputs cut at L0's guards (db/compaction/vlsm_l1_guard_cuts.h, issue
// 20 item 1): the partitioner's rule on its own, then on a real DB, where a
// ranged step over one range leaves L1 cut where the next range starts, so
// the step over that range rewrites only the L1 file under it.
#include "db/compaction/vlsm_l1_guard_cuts.h"

#include <memory>
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

std::vector<std::string> L1FirstKeys(DB* db) {
  ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(&meta);
  std::vector<std::string> firsts;
  for (const SstFileMetaData& f : meta.levels[1].files) {
    firsts.push_back(f.smallestkey);
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

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
