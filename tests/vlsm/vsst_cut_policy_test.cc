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

TEST(VsstCutPolicyTest, AlignedPolicyCutsAtAnL2BoundaryFromHalfSize) {
  const VsstCutPolicy aligned(8 * kMiB, 8, /*align_with_l2=*/true);
  EXPECT_TRUE(aligned.aligns_with_l2());
  EXPECT_FALSE(kPolicy.aligns_with_l2());
  EXPECT_EQ(aligned.BeforeKey(4 * kMiB - 1, 0, true), Decision::kKeep);
  EXPECT_EQ(aligned.BeforeKey(4 * kMiB, 0, true), Decision::kCutAtL2Boundary);
  EXPECT_EQ(aligned.BeforeKey(4 * kMiB, 0, false), Decision::kKeep);
  // The other two rules come first, as without alignment.
  EXPECT_EQ(aligned.BeforeKey(8 * kMiB, 0, true), Decision::kCutAtMaxSize);
  EXPECT_EQ(aligned.BeforeKey(1 * kMiB, 65 * kMiB, true), Decision::kCutForOverlap);
  // The paper's layout ignores L2's boundaries.
  EXPECT_EQ(kPolicy.BeforeKey(6 * kMiB, 0, true), Decision::kKeep);
}

// The header's effect as a stream, with a denser L2: 4 bytes per byte passing
// through, in 8 MiB files, so an L2 boundary comes every 2 MiB of the
// stream (at 1, 3, 5, ... MiB). Unaligned, every 8 MiB file ends inside an
// L2 file and its L1->L2 step reads 5 L2 files (40 MiB) for the 32 MiB its
// range holds; aligned, every file after the first starts and ends on a
// boundary and reads exactly the L2 under it.
TEST(VsstCutPolicyTest, AlignedFilesReadOnlyTheL2UnderThem) {
  constexpr uint64_t kKey = 64 << 10;  // bytes per key
  constexpr uint64_t kL2PerByte = 4;
  constexpr uint64_t kL2File = 8 * kMiB;
  const uint64_t stream_per_l2_file = kL2File / kL2PerByte;  // 2 MiB
  auto l2_file_of = [&](uint64_t pos) {  // the L2 file under stream byte pos
    return (pos + stream_per_l2_file / 2) / stream_per_l2_file;
  };
  // The L2 bytes each closed file's step reads, per byte of the file.
  auto l2_read_per_byte = [&](const VsstCutPolicy& policy) {
    std::vector<double> ratios;
    uint64_t start = 0, size = 0;
    for (uint64_t pos = 0; pos < 64 * kMiB; pos += kKey) {
      const bool crosses = pos > 0 && l2_file_of(pos) != l2_file_of(pos - kKey);
      // Overlap within the bound: only the size and alignment rules act.
      if (policy.ShouldCutBefore(size, 0, crosses)) {
        const uint64_t files = l2_file_of(pos - 1) - l2_file_of(start) + 1;
        ratios.push_back(double(files * kL2File) / double(size));
        start = pos;
        size = 0;
      }
      size += kKey;
    }
    return ratios;
  };
  const std::vector<double> unaligned = l2_read_per_byte(kPolicy);
  ASSERT_GE(unaligned.size(), 6u);
  for (double r : unaligned) EXPECT_DOUBLE_EQ(r, 5.0);  // 40 MiB for 8 MiB
  const std::vector<double> aligned =
      l2_read_per_byte(VsstCutPolicy(8 * kMiB, 8, /*align_with_l2=*/true));
  ASSERT_GE(aligned.size(), 6u);
  for (size_t i = 1; i < aligned.size(); ++i) {
    EXPECT_DOUBLE_EQ(aligned[i], double(kL2PerByte)) << "file " << i;
  }
}

TEST(VsstCutPolicyTest, AbsurdInputsSaturateInsteadOfWrapping) {
  const VsstCutPolicy p(~uint64_t{0} / 2, 8);
  EXPECT_EQ(p.overlap_bound(), ~uint64_t{0});
  EXPECT_FALSE(p.ShouldCutBefore(0, ~uint64_t{0}));
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
