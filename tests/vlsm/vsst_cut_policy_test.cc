// The L1 cut rule as a pure function (db/compaction/vsst_cut_policy.h).
#include "db/compaction/vsst_cut_policy.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace ROCKSDB_NAMESPACE {
namespace {

constexpr uint64_t kMiB = 1 << 20;
using Decision = VsstCutPolicy::Decision;

// S_M = 8 MiB, f = 8: S_m = 1 MiB, overlap bound = 64 MiB.
const VsstCutPolicy kPolicy(8 * kMiB, 8);

// Feeds `keys` keys of `key_bytes` each through the policy, as the
// compaction does. overlap_at(i) is the L2 overlap of keys [0, i]; a file
// started at key s sees overlap_at(i) - overlap_at(s - 1). Returns the sizes
// of the files closed (the last one included) and why each was closed.
template <typename OverlapFn>
std::vector<uint64_t> CutStream(const VsstCutPolicy& policy, int keys,
                                uint64_t key_bytes, OverlapFn overlap_at,
                                std::vector<Decision>* decisions) {
  std::vector<uint64_t> files;
  uint64_t size = 0;
  uint64_t overlap_before_file = 0;
  for (int i = 0; i < keys; ++i) {
    const Decision d =
        policy.BeforeKey(size, overlap_at(i) - overlap_before_file);
    if (d != Decision::kKeep) {
      files.push_back(size);
      decisions->push_back(d);
      size = 0;
      overlap_before_file = i == 0 ? 0 : overlap_at(i - 1);
    }
    size += key_bytes;
  }
  if (size > 0) {
    files.push_back(size);
  }
  return files;
}

TEST(VsstCutPolicyTest, DerivedParameters) {
  EXPECT_EQ(kPolicy.max_file_size(), 8 * kMiB);
  EXPECT_EQ(kPolicy.min_file_size(), 1 * kMiB);
  EXPECT_EQ(kPolicy.overlap_bound(), 64 * kMiB);
  // S_m never rounds down to zero.
  EXPECT_EQ(VsstCutPolicy(3, 8).min_file_size(), 1u);
}

TEST(VsstCutPolicyTest, PoorVsstClosedAtExactlyMinSize) {
  // Overlap already above the bound: keep adding until S_m, then cut.
  const uint64_t huge = 65 * kMiB;
  EXPECT_EQ(kPolicy.BeforeKey(kMiB - 1, huge), Decision::kKeep);
  EXPECT_EQ(kPolicy.BeforeKey(kMiB, huge), Decision::kCutForOverlap);
  EXPECT_FALSE(kPolicy.IsGood(huge));
}

TEST(VsstCutPolicyTest, GoodVsstClosedWhenOverlapWouldPassBound) {
  EXPECT_EQ(kPolicy.BeforeKey(3 * kMiB, 64 * kMiB), Decision::kKeep);
  EXPECT_EQ(kPolicy.BeforeKey(3 * kMiB, 64 * kMiB + 1),
            Decision::kCutForOverlap);
  EXPECT_TRUE(kPolicy.IsGood(64 * kMiB));
  EXPECT_FALSE(kPolicy.IsGood(64 * kMiB + 1));
}

TEST(VsstCutPolicyTest, HardCutAtMaxSize) {
  EXPECT_EQ(kPolicy.BeforeKey(8 * kMiB - 1, 0), Decision::kKeep);
  EXPECT_EQ(kPolicy.BeforeKey(8 * kMiB, 0), Decision::kCutAtMaxSize);
  // The size limit wins even when the overlap limit also holds.
  EXPECT_EQ(kPolicy.BeforeKey(8 * kMiB, 100 * kMiB), Decision::kCutAtMaxSize);
}

TEST(VsstCutPolicyTest, NoL2FilesGivesFullSizeFiles) {
  // Overlap stays zero: every file but the last is S_M (in whole keys).
  std::vector<Decision> why;
  auto files = CutStream(kPolicy, 10000, 4096, [](int) { return 0; }, &why);
  ASSERT_GT(files.size(), 2u);
  for (size_t i = 0; i + 1 < files.size(); ++i) {
    EXPECT_EQ(files[i], 8 * kMiB) << "file " << i;
    EXPECT_EQ(why[i], Decision::kCutAtMaxSize);
  }
}

TEST(VsstCutPolicyTest, SingleHugeL2FileGivesPoorMinSizeFiles) {
  // One L2 file of 1 GiB covers every key: overlap is over the bound from the
  // first key, so each file closes at exactly S_m.
  const VsstCutPolicy p(8 * kMiB, 8);
  uint64_t size = 0;
  int files = 0;
  for (int i = 0; i < 5000; ++i) {
    if (p.ShouldCutBefore(size, 1024 * kMiB)) {
      EXPECT_EQ(size, 1 * kMiB);
      ++files;
      size = 0;
    }
    size += 4096;
  }
  EXPECT_EQ(files, 5000 * 4096 / static_cast<int>(kMiB));
}

TEST(VsstCutPolicyTest, KeysBeyondLastL2FileOnlyHitMaxSize) {
  // Overlap grows to 10 MiB over the first keys, then the keys run past the
  // last L2 file and it stays flat: the file is good and closes at S_M.
  uint64_t size = 0;
  int i = 0;
  for (; !kPolicy.ShouldCutBefore(size, std::min<uint64_t>(i, 10) * kMiB);
       ++i) {
    size += 4096;
  }
  EXPECT_EQ(size, 8 * kMiB);
  EXPECT_EQ(kPolicy.BeforeKey(size, 10 * kMiB), Decision::kCutAtMaxSize);
  EXPECT_TRUE(kPolicy.IsGood(10 * kMiB));
}

TEST(VsstCutPolicyTest, UniformOverlapGivesGoodFilesBetweenMinAndMax) {
  // L2 = 32x the bytes passing through (Phi = 32): each byte added brings
  // 32 bytes of L2 overlap, so overlap passes 64 MiB at 2 MiB of file.
  std::vector<Decision> why;
  auto files = CutStream(
      kPolicy, 4096, 4096,
      [](int i) { return static_cast<uint64_t>(i + 1) * 4096 * 32; }, &why);
  ASSERT_GT(files.size(), 2u);
  for (size_t i = 0; i + 1 < files.size(); ++i) {
    EXPECT_GE(files[i], kPolicy.min_file_size());
    EXPECT_LE(files[i], kPolicy.max_file_size());
    EXPECT_EQ(why[i], Decision::kCutForOverlap);
    // The file's own overlap (bytes x 32) is within the bound: good.
    EXPECT_TRUE(kPolicy.IsGood(files[i] * 32)) << files[i];
  }
}

TEST(VsstCutPolicyTest, AbsurdInputsSaturateInsteadOfWrapping) {
  const VsstCutPolicy p(~uint64_t{0} / 2, 8);
  EXPECT_EQ(p.overlap_bound(), ~uint64_t{0});
  EXPECT_FALSE(p.ShouldCutBefore(0, ~uint64_t{0}));
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
