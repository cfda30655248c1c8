// What L0 work the ranged layout owes (db/compaction/vlsm_l0_due.h): the due
// seeds the picker tries, L0's score, and L0's term of the debt estimate;
// and the closure over older files that every step takes (vlsm_l0_ranges.h)
// against its definition on random L0s; and the L0 model's kept answers
// (vlsm_l0_model.h: the score and the debt term read from what a version
// keeps) against the rule computed afresh.
#include "db/compaction/vlsm_l0_due.h"

#include <algorithm>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "db/compaction/vlsm_l0_model.h"
#include "db/dbformat.h"
#include "db/version_edit.h"
#include "gtest/gtest.h"
#include "rocksdb/comparator.h"
#include "tests/vlsm/key_span_test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace {

using l0_span_test::kMiB;
using l0_span_test::Span;
using l0_span_test::Ucmp;

RangedL0Triggers Triggers(int depth, uint64_t byte_target = 0) {
  RangedL0Triggers t;
  t.depth = depth;
  t.byte_target = byte_target;
  return t;
}

using Seeds = std::vector<std::vector<size_t>>;

// Three flushes cut at "g" and "p", newest first (as a version keeps L0),
// 1 MiB a piece.
std::vector<KeySpan> ThreeAlignedFlushes() {
  return {Span("a", "f", 3), Span("g", "o", 3), Span("p", "z", 3),
          Span("b", "f", 2), Span("h", "n", 2), Span("q", "y", 2),
          Span("a", "e", 1), Span("g", "o", 1), Span("p", "x", 1)};
}

// L1 in thirds of 4 MiB under them.
std::vector<KeySpan> L1InThirds() {
  return {Span("a", "f", 0, 4 * kMiB), Span("g", "o", 0, 4 * kMiB),
          Span("p", "z", 0, 4 * kMiB)};
}

TEST(VlsmL0DueTest, DeepestRangeFirst) {
  // The middle range has a fourth, newest piece: it goes first.
  std::vector<KeySpan> l0 = ThreeAlignedFlushes();
  l0.insert(l0.begin(), Span("i", "k", 4));
  const Seeds seeds = DueL0Seeds(l0, Ucmp(), Triggers(1), false);
  ASSERT_FALSE(seeds.empty());
  // Indexes: 0 = [i,k]@4, 2 = [g,o]@3, 5 = [h,n]@2, 8 = [g,o]@1.
  EXPECT_EQ(seeds[0], (std::vector<size_t>{0, 2, 5, 8}));
  for (size_t i = 1; i < seeds.size(); ++i) {
    EXPECT_LE(seeds[i].size(), seeds[i - 1].size());
  }
  // At a trigger of 4 only that range is due.
  EXPECT_EQ(DueL0Seeds(l0, Ucmp(), Triggers(4), false),
            (Seeds{{0, 2, 5, 8}}));
  EXPECT_TRUE(DueL0Seeds(l0, Ucmp(), Triggers(5), false).empty());
}

TEST(VlsmL0DueTest, EqualDepthGoesToTheOldestData) {
  // Two ranges two deep; the right one holds the oldest file (epoch 1).
  const std::vector<KeySpan> l0 = {Span("a", "c", 4), Span("m", "p", 3),
                                  Span("a", "c", 2), Span("m", "p", 1)};
  EXPECT_EQ(DueL0Seeds(l0, Ucmp(), Triggers(2), false),
            (Seeds{{1, 3}, {0, 2}}));
}

TEST(VlsmL0DueTest, SeedsThatRepeatAppearOnce) {
  // Three whole flushes that all start at "a": one seed, all of L0.
  const std::vector<KeySpan> l0 = {Span("a", "z", 3), Span("a", "y", 2),
                                  Span("a", "x", 1)};
  EXPECT_EQ(DueL0Seeds(l0, Ucmp(), Triggers(1), false), (Seeds{{0, 1, 2}}));
}

TEST(VlsmL0DueTest, FilesBeingCompactedCountOnlyWhenAsked) {
  // The middle range is three deep, but two of its files are in a step.
  std::vector<KeySpan> l0 = ThreeAlignedFlushes();
  l0[1].busy = l0[4].busy = true;
  EXPECT_EQ(DueL0Seeds(l0, Ucmp(), Triggers(3), /*count_busy=*/false),
            (Seeds{{0, 3, 6}, {2, 5, 8}}));
  EXPECT_EQ(DueL0Seeds(l0, Ucmp(), Triggers(3), /*count_busy=*/true).size(),
            3u);
}

// The header's worked example: [a .. f] due by depth, then [p .. z], the
// oldest range, by bytes; [g .. o] waits.
std::vector<KeySpan> HeaderExample() {
  return {Span("a", "f", 4), Span("g", "o", 4),
          Span("a", "f", 3), Span("g", "o", 3),
          Span("a", "f", 2), Span("p", "z", 2, 4 * kMiB),
          Span("p", "z", 1, 4 * kMiB)};
}

TEST(VlsmL0DueTest, TheByteRuleTakesTheOldestRangesUnderTheTarget) {
  const std::vector<KeySpan> l0 = HeaderExample();
  EXPECT_EQ(DueL0Seeds(l0, Ucmp(), Triggers(3, 8 * kMiB), false),
            (Seeds{{0, 2, 4}, {5, 6}}));
  // Without the byte rule only the deep range is due; with a target above
  // what L0 holds without it, too.
  EXPECT_EQ(DueL0Seeds(l0, Ucmp(), Triggers(3), false), (Seeds{{0, 2, 4}}));
  EXPECT_EQ(DueL0Seeds(l0, Ucmp(), Triggers(3, 11 * kMiB), false),
            (Seeds{{0, 2, 4}}));
}

// Sequential keys: ten 1 MiB flushes side by side, newest first, each one
// deep. Under a 4 MiB target the seven oldest are due, oldest first, which
// leaves three (3 MiB) in L0.
TEST(VlsmL0DueTest, SequentialFlushesAreDueOldestFirstDownToTheTarget) {
  std::vector<KeySpan> l0;
  static const char* keys[] = {"k9", "k8", "k7", "k6", "k5",
                               "k4", "k3", "k2", "k1", "k0"};
  for (int i = 0; i < 10; ++i) {
    l0.push_back(Span(keys[i], keys[i], 10 - i));
  }
  EXPECT_EQ(DueL0Seeds(l0, Ucmp(), Triggers(8, 4 * kMiB), false),
            (Seeds{{9}, {8}, {7}, {6}, {5}, {4}, {3}}));
  EXPECT_TRUE(DueL0Seeds(l0, Ucmp(), Triggers(8), false).empty())
      << "by depth alone, nothing is ever due";
  EXPECT_DOUBLE_EQ(RangedL0Score(l0, Ucmp(), Triggers(8, 4 * kMiB)), 2.5);
  EXPECT_DOUBLE_EQ(RangedL0Score(l0, Ucmp(), Triggers(8)), 1.0 / 8);
}

// The debt term: a due range owes its L0 and the L1 files its step
// rewrites. At a trigger of 3 every range of three aligned flushes is due:
// all of L0 and all of L1, as RocksDB's own term counts it.
TEST(VlsmL0DueTest, EveryRangeDueOwesAllOfL0AndL1) {
  const L0DebtTerm t =
      RangedL0Debt(ThreeAlignedFlushes(), L1InThirds(), Ucmp(), Triggers(3));
  EXPECT_EQ(t.l0_bytes, 9 * kMiB);
  EXPECT_EQ(t.below_bytes, 12 * kMiB);
  const L0DebtTerm none =
      RangedL0Debt(ThreeAlignedFlushes(), L1InThirds(), Ucmp(), Triggers(4));
  EXPECT_EQ(none.l0_bytes + none.below_bytes, 0u) << "nothing due";
  EXPECT_EQ(RangedL0Debt({}, L1InThirds(), Ucmp(), Triggers(1)).l0_bytes, 0u);
}

TEST(VlsmL0DueTest, OnlyTheDueRangeOwes) {
  // A fourth piece in the middle range: at a trigger of 4 it alone is due,
  // its 4 MiB of L0 and the 4 MiB L1 file under it.
  std::vector<KeySpan> l0 = ThreeAlignedFlushes();
  l0.insert(l0.begin(), Span("h", "n", 4));
  const L0DebtTerm t = RangedL0Debt(l0, L1InThirds(), Ucmp(), Triggers(4));
  EXPECT_EQ(t.l0_bytes, 4 * kMiB);
  EXPECT_EQ(t.below_bytes, 4 * kMiB);
}

TEST(VlsmL0DueTest, ARunningStepIsOwedUntilItInstalls) {
  // The middle range's three pieces are in a step; at a trigger of 4
  // nothing is due, but the running step still owes its L0 and L1.
  std::vector<KeySpan> l0 = ThreeAlignedFlushes();
  l0[1].busy = l0[4].busy = l0[7].busy = true;
  const L0DebtTerm t = RangedL0Debt(l0, L1InThirds(), Ucmp(), Triggers(4));
  EXPECT_EQ(t.l0_bytes, 3 * kMiB);
  EXPECT_EQ(t.below_bytes, 4 * kMiB);
}

TEST(VlsmL0DueTest, EachFileBelowIsOwedOnce) {
  // Two due ranges, [a, c] and [e, g], both over one L1 file [a, z], and a
  // step's range reaching into two L1 files: each L1 file counts once.
  const std::vector<KeySpan> l0 = {Span("a", "c", 2), Span("e", "g", 2),
                                  Span("a", "c", 1), Span("e", "g", 1)};
  EXPECT_EQ(RangedL0Debt(l0, {Span("a", "z", 0, 7 * kMiB)}, Ucmp(),
                         Triggers(2))
                .below_bytes,
            7 * kMiB);
  const std::vector<KeySpan> l1 = {Span("a", "b", 0, 2 * kMiB),
                                  Span("c", "f", 0, 3 * kMiB),
                                  Span("h", "z", 0, 5 * kMiB)};
  EXPECT_EQ(RangedL0Debt(l0, l1, Ucmp(), Triggers(2)).below_bytes, 5 * kMiB)
      << "[a, b] and [c, f]: [h, z] is under no due range";
}

// A random L0 of `n` files over keys "a".."p" (1-3 letters wide), newest
// first with epochs descending, a few busy.
std::vector<KeySpan> RandomL0(std::mt19937* rng, size_t n,
                             std::vector<std::string>* keys) {
  keys->clear();
  keys->reserve(2 * n);
  std::vector<KeySpan> l0;
  for (size_t i = 0; i < n; ++i) {
    const char lo = static_cast<char>('a' + (*rng)() % 16);
    const char hi = static_cast<char>(lo + (*rng)() % 3);
    keys->push_back(std::string(1, lo));
    keys->push_back(std::string(1, hi));
  }
  for (size_t i = 0; i < n; ++i) {
    KeySpan s{(*keys)[2 * i], (*keys)[2 * i + 1], n - i,
             (1 + (*rng)() % 4) * kMiB, (*rng)() % 8 == 0};
    s.exclusive_end = (*rng)() % 6 == 0 && s.smallest != s.largest;
    l0.push_back(s);
  }
  return l0;
}

// Three L1 files of 3 MiB under RandomL0's keys.
std::vector<KeySpan> L1UnderRandomL0s() {
  return {Span("a", "e", 0, 3 * kMiB), Span("f", "k", 0, 3 * kMiB),
          Span("l", "z", 0, 3 * kMiB)};
}

// The closure by its definition: until nothing changes, every file older
// than a taken one (later in l0) that overlaps it is taken.
std::vector<size_t> ClosureByDefinition(const std::vector<KeySpan>& l0,
                                        const std::vector<size_t>& seed) {
  std::vector<bool> taken(l0.size(), false);
  for (size_t i : seed) taken[i] = true;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t t = 0; t < l0.size(); ++t) {
      for (size_t o = t + 1; taken[t] && o < l0.size(); ++o) {
        if (!taken[o] && SpansOverlap(l0[t], l0[o], Ucmp())) {
          taken[o] = changed = true;
        }
      }
    }
  }
  std::vector<size_t> out;
  for (size_t i = 0; i < l0.size(); ++i) {
    if (taken[i]) out.push_back(i);
  }
  return out;
}

TEST(VlsmL0DueTest, ClosureMatchesItsDefinitionOnRandomL0s) {
  std::mt19937 rng(42);
  std::vector<std::string> keys;
  for (int round = 0; round < 2000; ++round) {
    const std::vector<KeySpan> l0 = RandomL0(&rng, 1 + rng() % 20, &keys);
    std::vector<size_t> seed;
    for (size_t i = 0; i < l0.size(); ++i) {
      if (rng() % 4 == 0) seed.push_back(i);
    }
    ASSERT_EQ(OlderOverlapClosure(l0, seed, Ucmp()),
              ClosureByDefinition(l0, seed))
        << "round " << round;
  }
}

// On random L0s: the score says a step is due exactly when a seed is; every
// seed is deep enough or the byte rule owns it; the debt term never exceeds
// RocksDB's term with the layout's trigger (all of L0 and all of L1 once
// anything is due) and equals it when every file is due and every L1 file
// lies under one.
TEST(VlsmL0DueTest, ScoreSeedsAndDebtAgreeOnRandomL0s) {
  std::mt19937 rng(7);
  std::vector<std::string> keys;
  const std::vector<KeySpan> l1 = L1UnderRandomL0s();
  for (int round = 0; round < 2000; ++round) {
    const std::vector<KeySpan> l0 = RandomL0(&rng, 1 + rng() % 24, &keys);
    const RangedL0Triggers t =
        Triggers(1 + static_cast<int>(rng() % 6),
                 rng() % 2 ? (4 + rng() % 40) * kMiB : 0);
    SCOPED_TRACE("round " + std::to_string(round));
    const Seeds due = DueL0Seeds(l0, Ucmp(), t, /*count_busy=*/false);
    EXPECT_EQ(RangedL0Score(l0, Ucmp(), t) >= 1, !due.empty());
    for (const std::vector<size_t>& seed : due) {
      for (size_t i : seed) {
        EXPECT_FALSE(l0[i].busy) << "busy files are no seed of a new step";
      }
    }
    uint64_t all_l0 = 0;
    bool any_busy = false;
    for (const KeySpan& s : l0) {
      all_l0 += s.bytes;
      any_busy = any_busy || s.busy;
    }
    const L0DebtTerm term = RangedL0Debt(l0, l1, Ucmp(), t);
    const bool owed_rocksdbs_way =
        !DueL0Seeds(l0, Ucmp(), t, /*count_busy=*/true).empty() || any_busy;
    const uint64_t rocksdbs_way = owed_rocksdbs_way ? all_l0 + 9 * kMiB : 0;
    EXPECT_LE(term.l0_bytes + term.below_bytes, rocksdbs_way);
    if (term.l0_bytes == all_l0 && all_l0 > 0) {
      // Every file owed: L1 files under none of L0's keys stay unowed.
      uint64_t l1_under_l0 = 0;
      for (const KeySpan& f : l1) {
        for (const KeySpan& s : l0) {
          if (SpansOverlap(f, s, Ucmp())) {
            l1_under_l0 += f.bytes;
            break;
          }
        }
      }
      EXPECT_GE(term.below_bytes, l1_under_l0);
    }
  }
}

// Files for spans, as a version holds them (l0 newest first, a level in key
// order); `owned` keeps them.
std::vector<FileMetaData*> FilesOf(
    const std::vector<KeySpan>& spans,
    std::vector<std::unique_ptr<FileMetaData>>* owned) {
  std::vector<FileMetaData*> files;
  for (const KeySpan& s : spans) {
    auto f = std::make_unique<FileMetaData>();
    f->fd = FileDescriptor(owned->size() + 1, 0, s.bytes);
    f->smallest = InternalKey(s.smallest, 100, kTypeValue);
    // A piece ending at a range tombstone's end: the sentinel key.
    f->largest = s.exclusive_end ? InternalKey(s.largest, kMaxSequenceNumber,
                                               kTypeRangeDeletion)
                                 : InternalKey(s.largest, 100, kTypeValue);
    f->epoch_number = s.epoch;
    f->being_compacted = s.busy;
    files.push_back(f.get());
    owned->push_back(std::move(f));
  }
  return files;
}

// The model keeps what the due steps owe at rest, so that the score and the
// estimate under the DB mutex read it instead of closing every due range
// again. Its answers must be the rule's, whatever runs: on random L0s with
// random busy files (as running steps and picks leave them) and random
// triggers, the kept answer equals RangedL0Debt and RangedL0Score over the
// spans as they are now; and the kept term is the one used whenever no busy
// file lies outside the owed ones, so the fast path is what the test checks.
TEST(VlsmL0DueTest, TheModelsKeptAnswersAreTheRules) {
  std::mt19937 rng(5);
  std::vector<std::string> keys;
  const std::vector<KeySpan> l1_spans = L1UnderRandomL0s();
  int kept_with_busy_files = 0, computed_afresh = 0;
  for (int round = 0; round < 1000; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    std::vector<KeySpan> spans = RandomL0(&rng, 1 + rng() % 24, &keys);
    for (KeySpan& s : spans) {
      s.busy = false;  // as the version is prepared: busy flags come later
    }
    std::vector<std::unique_ptr<FileMetaData>> owned;
    const std::vector<FileMetaData*> l0 = FilesOf(spans, &owned);
    const std::vector<FileMetaData*> l1 = FilesOf(l1_spans, &owned);
    const RangedL0Triggers t =
        Triggers(1 + static_cast<int>(rng() % 6),
                 rng() % 2 ? (4 + rng() % 40) * kMiB : 0);
    VlsmL0Model model(l0, Ucmp());
    model.KeepDebtAtRest(l1, t);
    const std::vector<bool> owed =
        RangedL0DebtAtRest(spans, l1_spans, Ucmp(), t).owed;
    for (int pick = 0; pick < 4; ++pick) {
      // Nothing busy; then owed files busy (a due step running); then any.
      for (size_t i = 0; i < l0.size(); ++i) {
        l0[i]->being_compacted =
            pick > 0 && (pick % 2 == 1 ? owed[i] : true) && rng() % 5 == 0;
      }
      const std::vector<KeySpan> now = model.SpansNow();
      const L0DebtTerm want = RangedL0Debt(now, SpansOf(l1), Ucmp(), t);
      const L0DebtTerm got = model.DebtNow(l1, t);
      EXPECT_EQ(got.l0_bytes, want.l0_bytes);
      EXPECT_EQ(got.below_bytes, want.below_bytes);
      EXPECT_EQ(model.ScoreNow(t), RangedL0Score(now, Ucmp(), t));
      const bool any_busy = std::any_of(
          now.begin(), now.end(), [](const KeySpan& s) { return s.busy; });
      const bool kept = model.DebtAtRestAnswers(l1, t);
      if (!any_busy) {
        EXPECT_TRUE(kept) << "nothing busy: the kept term answers";
      }
      kept_with_busy_files += kept && any_busy;
      computed_afresh += !kept;
      // Other triggers (SetOptions since the version was prepared) are
      // computed afresh, and still right.
      const RangedL0Triggers other = Triggers(t.depth + 1, t.byte_target);
      EXPECT_FALSE(model.DebtAtRestAnswers(l1, other));
      EXPECT_EQ(model.DebtNow(l1, other).l0_bytes,
                RangedL0Debt(now, SpansOf(l1), Ucmp(), other).l0_bytes);
    }
  }
  // Both paths were taken with busy files (the seed fixes the counts).
  EXPECT_GT(kept_with_busy_files, 100);
  EXPECT_GT(computed_afresh, 100);
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
