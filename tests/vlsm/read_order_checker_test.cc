// The read-order checker itself (read_order_checker.h): it must report what
// it exists to catch. Real DBs never break the order (that is what the other
// tests show), so the files here are written with SstFileWriter and placed
// by hand: each one's sequence number is the one its metadata gives it, as
// for an ingested file.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/env.h"
#include "rocksdb/sst_file_writer.h"
#include "tests/vlsm/read_order_checker.h"

namespace ROCKSDB_NAMESPACE {
namespace {

class ReadOrderCheckerTest : public testing::Test {
 protected:
  ReadOrderCheckerTest() {
    const char* tmp = std::getenv("TEST_TMPDIR");
    dir_ = std::string(tmp && *tmp ? tmp : "/tmp") + "/read_order_checker_test";
    EXPECT_TRUE(Env::Default()->CreateDirIfMissing(dir_).ok());
  }

  // A file at `level` (L0: `epoch`) whose entries all carry `seq`: points
  // (key -> value) and range tombstones [from, to).
  LiveFileMetaData File(const std::string& name, int level, uint64_t epoch,
                        SequenceNumber seq, std::vector<std::string> points,
                        std::vector<std::pair<std::string, std::string>> ranges = {}) {
    SstFileWriter writer(EnvOptions{}, Options{});
    EXPECT_TRUE(writer.Open(dir_ + "/" + name).ok());
    for (const std::string& k : points) {
      EXPECT_TRUE(writer.Put(k, "v").ok());
    }
    for (const auto& [from, to] : ranges) {
      EXPECT_TRUE(writer.DeleteRange(from, to).ok());
    }
    EXPECT_TRUE(writer.Finish().ok());
    LiveFileMetaData m;
    m.column_family_name = kDefaultColumnFamilyName;
    m.directory = dir_;
    m.relative_filename = name;
    m.level = level;
    m.epoch_number = epoch;
    m.smallest_seqno = m.largest_seqno = seq;
    m.smallestkey = points.front();
    m.largestkey = points.back();
    return m;
  }

  static std::string Check(std::vector<LiveFileMetaData> files) {
    return ReadOrderChecker::CheckFiles(kDefaultColumnFamilyName, files);
  }

  std::string dir_;
};

TEST_F(ReadOrderCheckerTest, NewerVersionsReadFirstPass) {
  EXPECT_EQ(Check({File("l0.sst", 0, 9, 300, {"c", "m"}),
                   File("l1.sst", 1, 0, 200, {"a", "m", "z"}),
                   File("l2.sst", 2, 0, 100, {"a", "m", "z"})}),
            "");
}

TEST_F(ReadOrderCheckerTest, OlderPointReadFirstIsReported) {
  const std::string v = Check({File("l1.sst", 1, 0, 100, {"a", "m", "z"}),
                               File("l2.sst", 2, 0, 200, {"m"})});
  EXPECT_EQ(v, "key m: L1 l1.sst seq 100 is read before L2 l2.sst seq 200") << v;
}

TEST_F(ReadOrderCheckerTest, L0IsReadNewestEpochFirst) {
  // The issue-19 shape: the older L0 file (epoch 6) holds an older version
  // of c than L1, and is read first.
  const std::string v = Check({File("old.sst", 0, 6, 150, {"c", "p"}),
                               File("l1.sst", 1, 0, 210, {"c", "d"})});
  EXPECT_EQ(v, "key c: L0 old.sst (epoch 6) seq 150 is read before L1 l1.sst seq 210") << v;
  EXPECT_EQ(Check({File("new.sst", 0, 7, 210, {"c", "d"}),
                   File("old2.sst", 0, 6, 150, {"c", "p"})}),
            "");
}

TEST_F(ReadOrderCheckerTest, RangeTombstoneIsAVersionOfTheKeysItCovers) {
  // L1 deletes [b, y) at seq 100; L2 holds m at seq 200: a read of m meets
  // the older tombstone first.
  const std::string v = Check({File("l1.sst", 1, 0, 100, {"a", "z"}, {{"b", "y"}}),
                               File("l2.sst", 2, 0, 200, {"m"})});
  EXPECT_EQ(v, "key m: L1 l1.sst seq 100 is read before L2 l2.sst seq 200") << v;
  // Outside the tombstone, or at its exclusive end, nothing is covered.
  EXPECT_EQ(Check({File("l1b.sst", 1, 0, 100, {"a", "z"}, {{"b", "m"}}),
                   File("l2b.sst", 2, 0, 200, {"m"})}),
            "");
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
