// L0's sublevels (db/compaction/vlsm_l0_sublevels.h): the builder against
// the rule's brute-force definition on random L0s, the properties reads rely
// on, and the briefs a version's model hands to reads.
#include "db/compaction/vlsm_l0_sublevels.h"

#include <algorithm>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "db/compaction/vlsm_l0_model.h"
#include "db/dbformat.h"
#include "db/version_edit.h"
#include "db/version_set.h"
#include "gtest/gtest.h"
#include "tests/vlsm/key_span_test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace {

using l0_span_test::Span;
using l0_span_test::Ucmp;

bool Share(const KeySpan& a, const KeySpan& b) {
  return Ucmp()->Compare(a.smallest, b.largest) <= 0 &&
         Ucmp()->Compare(b.smallest, a.largest) <= 0;
}

// The rule as written: oldest first, one above every older file shared.
std::vector<int> BruteForce(const std::vector<KeySpan>& l0) {
  std::vector<int> sub(l0.size(), 0);
  for (size_t i = l0.size(); i-- > 0;) {
    int s = 0;
    for (size_t j = i + 1; j < l0.size(); ++j) {
      if (Share(l0[i], l0[j])) {
        s = std::max(s, sub[j] + 1);
      }
    }
    sub[i] = s;
  }
  return sub;
}

// Within a sublevel no two files share a user key (touching included).
void ExpectDisjointSublevels(const std::vector<KeySpan>& l0,
                             const std::vector<int>& sub) {
  for (size_t i = 0; i < l0.size(); ++i) {
    for (size_t j = i + 1; j < l0.size(); ++j) {
      if (sub[i] == sub[j]) {
        EXPECT_FALSE(Share(l0[i], l0[j])) << i << " and " << j;
      }
    }
  }
}

// Keys of a small key space, so that files touch and overlap often.
class RandomL0 {
 public:
  explicit RandomL0(uint32_t seed) : rnd_(seed) {}

  std::string Key(int k) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "k%05d", k);
    return buf;
  }

  // n files, newest first. Each epoch is a flush of one to four disjoint
  // pieces, sometimes ending at a range tombstone's end exactly where the
  // next piece starts; now and then a wide file (an ingested one) lands on
  // top.
  std::vector<KeySpan> Make(size_t n, int key_space) {
    keys_.clear();
    std::vector<KeySpan> oldest_first;
    uint64_t epoch = 1;
    while (oldest_first.size() < n) {
      const bool ingested = Uniform(10) == 0;
      const int pieces = ingested ? 1 : 1 + Uniform(4);
      int lo = Uniform(key_space);
      for (int p = 0; p < pieces && oldest_first.size() < n; ++p) {
        const int width = ingested ? key_space / 2 : Uniform(key_space / 8 + 1);
        const int hi = std::min(key_space - 1, lo + width);
        KeySpan s = Span(Store(lo), Store(hi), epoch);
        // A piece cut where a deletion crosses its end holds the tombstone
        // up to the next piece's first key, exclusive.
        s.exclusive_end = Uniform(3) == 0;
        oldest_first.push_back(s);
        lo = s.exclusive_end ? hi : hi + 1 + Uniform(3);
        if (lo >= key_space) {
          break;
        }
      }
      ++epoch;
    }
    std::reverse(oldest_first.begin(), oldest_first.end());
    return oldest_first;  // now newest first
  }

 private:
  int Uniform(int n) { return static_cast<int>(rnd_() % std::max(n, 1)); }
  const char* Store(int k) {
    keys_.push_back(std::make_unique<std::string>(Key(k)));
    return keys_.back()->c_str();
  }
  std::mt19937 rnd_;
  std::vector<std::unique_ptr<std::string>> keys_;
};

TEST(VlsmL0SublevelsTest, WorkedExampleOfTheHeader) {
  // #14 .. #9 of vlsm_l0_sublevels.h, newest first.
  std::vector<KeySpan> l0 = {Span("c", "i", 9), Span("k", "r", 8),
                             Span("a", "e", 8), Span("g", "s", 7),
                             Span("a", "e", 7), Span("t", "z", 7)};
  EXPECT_EQ(AssignL0Sublevels(l0, Ucmp()), (std::vector<int>{2, 1, 1, 0, 0, 0}));
}

TEST(VlsmL0SublevelsTest, EmptyAndOneFile) {
  EXPECT_TRUE(AssignL0Sublevels({}, Ucmp()).empty());
  EXPECT_EQ(AssignL0Sublevels({Span("a", "b", 1)}, Ucmp()),
            (std::vector<int>{0}));
}

TEST(VlsmL0SublevelsTest, TouchingFilesStack) {
  // [a, c] then [c, e]: they share "c", so the newer goes above.
  EXPECT_EQ(AssignL0Sublevels({Span("c", "e", 2), Span("a", "c", 1)}, Ucmp()),
            (std::vector<int>{1, 0}));
  // A range tombstone's exclusive end at "c" counts as touching too: cheap
  // to stack, and it never puts two files that may share a key side by side.
  KeySpan tomb = Span("a", "c", 1);
  tomb.exclusive_end = true;
  EXPECT_EQ(AssignL0Sublevels({Span("c", "e", 2), tomb}, Ucmp()),
            (std::vector<int>{1, 0}));
  // Apart by one key, they share a sublevel.
  EXPECT_EQ(AssignL0Sublevels({Span("d", "e", 2), Span("a", "c", 1)}, Ucmp()),
            (std::vector<int>{0, 0}));
}

TEST(VlsmL0SublevelsTest, AFileGoesAboveTheHighestOverlapNotTheTop) {
  // [w, z] overlaps only the oldest file: it goes to sublevel 1, beside the
  // older [a, b], not to the top of [a, b]'s stack (3).
  std::vector<KeySpan> l0 = {Span("w", "z", 4), Span("a", "b", 3),
                             Span("a", "b", 2), Span("a", "y", 1)};
  EXPECT_EQ(AssignL0Sublevels(l0, Ucmp()), (std::vector<int>{1, 2, 1, 0}));
}

TEST(VlsmL0SublevelsTest, MatchesTheRuleOnRandomL0s) {
  for (uint32_t seed = 1; seed <= 400; ++seed) {
    RandomL0 gen(seed);
    const size_t n = 1 + seed % 60;
    std::vector<KeySpan> l0 = gen.Make(n, 200);
    std::vector<int> sub = AssignL0Sublevels(l0, Ucmp());
    ASSERT_EQ(sub, BruteForce(l0)) << "seed " << seed;
    ExpectDisjointSublevels(l0, sub);
    EXPECT_TRUE(L0SublevelsKeepEpochOrder(l0, sub, Ucmp())) << seed;
    // Never more sublevels than files, never fewer than the depth.
    const int count = *std::max_element(sub.begin(), sub.end()) + 1;
    EXPECT_LE(count, static_cast<int>(l0.size()));
    EXPECT_GE(count, MaxDepth(l0, Ucmp()));
  }
}

TEST(VlsmL0SublevelsTest, MatchesTheRuleWithThousandsOfFiles) {
  RandomL0 gen(7);
  std::vector<KeySpan> l0 = gen.Make(3000, 20000);
  std::vector<int> sub = AssignL0Sublevels(l0, Ucmp());
  ASSERT_EQ(sub, BruteForce(l0));
  EXPECT_TRUE(L0SublevelsKeepEpochOrder(l0, sub, Ucmp()));
}

TEST(VlsmL0SublevelsTest, TheCheckCatchesAWrongOrder) {
  // Newer over older where they share "b": sublevel 1 over 0 is right; the
  // same sublevel, or the older above, is what the debug check exists for.
  std::vector<KeySpan> l0 = {Span("b", "c", 2), Span("a", "b", 1)};
  EXPECT_TRUE(L0SublevelsKeepEpochOrder(l0, {1, 0}, Ucmp()));
  EXPECT_FALSE(L0SublevelsKeepEpochOrder(l0, {0, 0}, Ucmp()));
  EXPECT_FALSE(L0SublevelsKeepEpochOrder(l0, {0, 1}, Ucmp()));
  // Pieces of one epoch may stack either way, but never share a sublevel.
  std::vector<KeySpan> same = {Span("b", "c", 1), Span("a", "b", 1)};
  EXPECT_TRUE(L0SublevelsKeepEpochOrder(same, {0, 1}, Ucmp()));
  EXPECT_FALSE(L0SublevelsKeepEpochOrder(same, {0, 0}, Ucmp()));
}

// The model's briefs: every file once, newest sublevel first, each run in
// key order, and Get's "last file of L0" the oldest file.
TEST(VlsmL0SublevelsTest, ModelBriefsAreSortedRunsNewestFirst) {
  RandomL0 gen(11);
  std::vector<KeySpan> spans = gen.Make(120, 400);
  std::vector<std::unique_ptr<FileMetaData>> owned;
  std::vector<FileMetaData*> l0;
  for (size_t i = 0; i < spans.size(); ++i) {
    auto f = std::make_unique<FileMetaData>();
    f->fd = FileDescriptor(i + 1, 0, 1000);
    // The sentinel of a range tombstone's end: the largest possible
    // internal key at that user key.
    f->smallest = InternalKey(spans[i].smallest, 100, kTypeValue);
    f->largest = spans[i].exclusive_end
                     ? InternalKey(spans[i].largest, kMaxSequenceNumber,
                                   kTypeRangeDeletion)
                     : InternalKey(spans[i].largest, 100, kTypeValue);
    f->epoch_number = spans[i].epoch;
    l0.push_back(f.get());
    owned.push_back(std::move(f));
  }
  VlsmL0Model model(l0, Ucmp(), /*with_sublevels=*/true);
  const VlsmL0Sublevels* sub = model.sublevels();
  ASSERT_NE(sub, nullptr);
  const std::vector<int> expect = AssignL0Sublevels(model.spans(), Ucmp());
  const int count = *std::max_element(expect.begin(), expect.end()) + 1;
  ASSERT_EQ(static_cast<int>(sub->newest_first.size()), count);
  EXPECT_EQ(model.SublevelCount(), count);
  EXPECT_EQ(sub->oldest_file, l0.back());
  size_t files = 0;
  for (size_t r = 0; r < sub->newest_first.size(); ++r) {
    const LevelFilesBrief& run = sub->newest_first[r];
    for (size_t k = 0; k < run.num_files; ++k) {
      const FileMetaData* f = run.files[k].file_metadata;
      const size_t i = std::find(l0.begin(), l0.end(), f) - l0.begin();
      ASSERT_LT(i, l0.size());
      EXPECT_EQ(expect[i], count - 1 - static_cast<int>(r));
      if (k > 0) {
        EXPECT_LT(Ucmp()->Compare(ExtractUserKey(run.files[k - 1].largest_key),
                                  ExtractUserKey(run.files[k].smallest_key)),
                  0);
      }
      ++files;
    }
  }
  EXPECT_EQ(files, l0.size());
  // Built without sublevels, the model computes the count on demand.
  VlsmL0Model plain(l0, Ucmp());
  EXPECT_EQ(plain.sublevels(), nullptr);
  EXPECT_EQ(plain.SublevelCount(), count);
}

// A bytewise comparator that is not BytewiseComparator() itself, so that
// the sublevel search takes its virtual-call path.
class ForwardingBytewise : public Comparator {
 public:
  const char* Name() const override { return "vlsm.test.ForwardingBytewise"; }
  int Compare(const Slice& a, const Slice& b) const override {
    return BytewiseComparator()->Compare(a, b);
  }
  void FindShortestSeparator(std::string*, const Slice&) const override {}
  void FindShortSuccessor(std::string*) const override {}
};

// Get's walk of the sublevels (VlsmNextL0FileFor, user-key comparisons)
// returns exactly the files a search of each sublevel as a level returns:
// FindFile on largest internal keys, then the key within the file's user-key
// bounds. Files end at a range tombstone's sentinel or at a version newer or
// older than the read, and keys fall on files' ends, in gaps, and before and
// after everything; for both comparator paths. MultiGet's search of one
// sublevel (VlsmL0RunFileFor) finds the same file.
TEST(VlsmL0SublevelsTest, GetWalkFindsWhatALevelSearchFinds) {
  ForwardingBytewise forwarding;
  for (const Comparator* ucmp :
       {BytewiseComparator(), static_cast<const Comparator*>(&forwarding)}) {
    SCOPED_TRACE(ucmp->Name());
    for (uint32_t seed = 1; seed <= 20; ++seed) {
      RandomL0 gen(seed);
      std::mt19937 rnd(seed);
      const int key_space = 300;
      std::vector<KeySpan> spans = gen.Make(80, key_space);
      std::vector<std::unique_ptr<FileMetaData>> owned;
      std::vector<FileMetaData*> l0;
      for (size_t i = 0; i < spans.size(); ++i) {
        auto f = std::make_unique<FileMetaData>();
        f->fd = FileDescriptor(i + 1, 0, 1000);
        f->smallest =
            InternalKey(spans[i].smallest, 1 + rnd() % 200, kTypeValue);
        f->largest = spans[i].exclusive_end
                         ? InternalKey(spans[i].largest, kMaxSequenceNumber,
                                       kTypeRangeDeletion)
                         : InternalKey(spans[i].largest, 1 + rnd() % 200,
                                       kTypeValue);
        f->epoch_number = spans[i].epoch;
        l0.push_back(f.get());
        owned.push_back(std::move(f));
      }
      VlsmL0Model model(l0, ucmp, /*with_sublevels=*/true);
      const VlsmL0Sublevels* sub = model.sublevels();
      ASSERT_NE(sub, nullptr);
      const InternalKeyComparator icmp(ucmp);
      for (int k = -1; k <= key_space; ++k) {
        const std::string user_key = k < 0 ? std::string("a") : gen.Key(k);
        for (SequenceNumber seq : {SequenceNumber{1}, SequenceNumber{100},
                                   SequenceNumber{200}, kMaxSequenceNumber}) {
          const InternalKey lookup(user_key, seq, kValueTypeForSeek);
          const Slice ikey = lookup.Encode();
          std::vector<uint64_t> expect;
          for (const LevelFilesBrief& run : sub->newest_first) {
            size_t i = FindFile(icmp, run, ikey);
            if (i < run.num_files &&
                ucmp->Compare(user_key,
                              ExtractUserKey(run.files[i].smallest_key)) >= 0 &&
                ucmp->Compare(user_key,
                              ExtractUserKey(run.files[i].largest_key)) <= 0) {
              expect.push_back(run.files[i].fd.GetNumber());
            } else {
              i = run.num_files;
            }
            // MultiGet's search of one sublevel agrees.
            ASSERT_EQ(VlsmL0RunFileFor(run, ucmp, icmp, ikey), i)
                << "seed " << seed << " key " << user_key << " seq " << seq;
          }
          std::vector<uint64_t> got;
          size_t next = 0;
          while (const FdWithKeyRange* f =
                     VlsmNextL0FileFor(*sub, ucmp, icmp, ikey, &next)) {
            got.push_back(f->fd.GetNumber());
          }
          EXPECT_EQ(next, sub->newest_first.size());
          ASSERT_EQ(got, expect) << "seed " << seed << " key " << user_key
                                 << " seq " << seq;
        }
      }
    }
  }
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
