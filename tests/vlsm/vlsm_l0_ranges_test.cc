// The ranged L0 layout's pure functions (db/compaction/vlsm_l0_ranges.h):
// L0 depth, the files a ranged step must take, and where a flush is cut
// (db/compaction/vlsm_flush_split_keys.h). (What is due, and the debt:
// vlsm_l0_due_test.cc.)
#include "db/compaction/vlsm_l0_ranges.h"

#include <string>
#include <vector>

#include "db/compaction/vlsm_flush_split_keys.h"
#include "gtest/gtest.h"
#include "rocksdb/comparator.h"
#include "tests/vlsm/key_span_test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace {

using l0_span_test::kMiB;
using l0_span_test::Span;
using l0_span_test::Ucmp;

// A piece of a split flush cut inside a range deletion: it ends at the
// guard's sentinel and holds no key of the guard itself.
KeySpan EndsBefore(const char* smallest, const char* guard, uint64_t epoch = 0,
                  uint64_t bytes = kMiB) {
  KeySpan s = Span(smallest, guard, epoch, bytes);
  s.exclusive_end = true;
  return s;
}

// The header's worked example: three flushes cut at "g" and "p", newest
// first (as a version keeps L0).
std::vector<KeySpan> ThreeAlignedFlushes() {
  return {Span("a", "f", 3), Span("g", "o", 3), Span("p", "z", 3),
          Span("b", "f", 2), Span("h", "n", 2), Span("q", "y", 2),
          Span("a", "e", 1), Span("g", "o", 1), Span("p", "x", 1)};
}

TEST(VlsmL0RangesTest, DepthIsTheMostFilesOverOneKey) {
  EXPECT_EQ(MaxDepth({}, Ucmp()), 0);
  EXPECT_EQ(MaxDepth(ThreeAlignedFlushes(), Ucmp()), 3);
  // Ends are included: two files that share only "c" are two deep there.
  EXPECT_EQ(MaxDepth({Span("a", "c"), Span("c", "e")}, Ucmp()), 2);
  EXPECT_EQ(MaxDepth({Span("a", "b"), Span("c", "d")}, Ucmp()), 1);
  // Whole (unsplit) flushes over every key: depth is the file count.
  EXPECT_EQ(MaxDepth({Span("a", "z"), Span("b", "y"), Span("a", "m")}, Ucmp()),
            3);
  // Files in a running compaction count only when asked to.
  const std::vector<KeySpan> some_busy = {Span("a", "z", 2, kMiB, true),
                                         Span("a", "z", 1)};
  EXPECT_EQ(MaxDepth(some_busy, Ucmp(), /*count_busy=*/true), 2);
  EXPECT_EQ(MaxDepth(some_busy, Ucmp(), /*count_busy=*/false), 1);
}

TEST(VlsmL0RangesTest, ClosureTakesEveryOlderOverlappingFileOnly) {
  // A chain, newest first: D [x,z]@4, C [e,h]@3, B [c,f]@2, A [a,c]@1.
  const std::vector<KeySpan> l0 = {Span("x", "z", 4), Span("e", "h", 3),
                                  Span("c", "f", 2), Span("a", "c", 1)};
  // From C: B overlaps C and is older; A overlaps B and is older. D is
  // disjoint and stays.
  EXPECT_EQ(OlderOverlapClosure(l0, {1}, Ucmp()),
            (std::vector<size_t>{1, 2, 3}));
  // From A: B and C overlap the chain but are newer: they stay in L0,
  // above the older versions that go to L1.
  EXPECT_EQ(OlderOverlapClosure(l0, {3}, Ucmp()), (std::vector<size_t>{3}));
  // From B: A (older, shares "c") comes; C (newer) does not.
  EXPECT_EQ(OlderOverlapClosure(l0, {2}, Ucmp()),
            (std::vector<size_t>{2, 3}));
}

// Older means later in L0's order, as reads search it and as the L0 order
// rule checks it (VlsmCheckL0Order), whatever the epochs say: the outputs of
// one compaction share an epoch (its smallest input's), and so will the
// pieces of one split flush. Two such files, newest first, that share the
// user key "c" (a range tombstone across the cut): from the first, the
// second must come along, or reads would find its older versions of "c"
// first once the first's moved to L1.
TEST(VlsmL0RangesTest, ClosureTakesLaterFilesOfTheSameEpoch) {
  const std::vector<KeySpan> l0 = {Span("a", "c", 5), Span("c", "f", 5),
                                  Span("x", "z", 5)};
  EXPECT_EQ(OlderOverlapClosure(l0, {0}, Ucmp()),
            (std::vector<size_t>{0, 1}));
  // The later file alone closes over nothing: the earlier one is newer.
  EXPECT_EQ(OlderOverlapClosure(l0, {1}, Ucmp()), (std::vector<size_t>{1}));
}

TEST(VlsmL0RangesTest, AlignedPiecesCloseOverOneRange) {
  const std::vector<KeySpan> l0 = ThreeAlignedFlushes();
  // The middle range's pieces: nothing from the other two ranges joins.
  EXPECT_EQ(OlderOverlapClosure(l0, {1, 4, 7}, Ucmp()),
            (std::vector<size_t>{1, 4, 7}));
}

// L1 as four 2 MiB files starting at "a", "g", "n", "t".
std::vector<KeySpan> L1Quarters() {
  return {Span("a", "f", 0, 2 * kMiB), Span("g", "m", 0, 2 * kMiB),
          Span("n", "s", 0, 2 * kMiB), Span("t", "z", 0, 2 * kMiB)};
}

FlushSplitLimits Limits(uint64_t flush, uint64_t min_piece, size_t max_pieces) {
  FlushSplitLimits l;
  l.flush_bytes = flush;
  l.min_piece_bytes = min_piece;
  l.max_pieces = max_pieces;
  return l;
}

using Keys = std::vector<std::string>;

// A range is compacted once its L0 holds about its L1's bytes: the depth
// trigger is one more than L1's whole memtables' worth, at most the
// configured depth.
TEST(VlsmL0RangesTest, DepthTriggerFollowsL1sBytesUpToTheConfiguredDepth) {
  EXPECT_EQ(RangedDepthTrigger(32, 0, 8 * kMiB), 1) << "empty L1";
  EXPECT_EQ(RangedDepthTrigger(32, 7 * kMiB, 8 * kMiB), 1);
  EXPECT_EQ(RangedDepthTrigger(32, 20 * kMiB, 8 * kMiB), 3);
  EXPECT_EQ(RangedDepthTrigger(32, 128 * kMiB, 8 * kMiB), 17);
  EXPECT_EQ(RangedDepthTrigger(32, 248 * kMiB, 8 * kMiB), 32)
      << "a 256 MiB L1 after an L1 -> L2 step took one 8 MiB file";
  EXPECT_EQ(RangedDepthTrigger(32, 240 * kMiB, 8 * kMiB), 31);
  EXPECT_EQ(RangedDepthTrigger(32, 900 * kMiB, 8 * kMiB), 32) << "L1 over target";
  EXPECT_EQ(RangedDepthTrigger(0, 900 * kMiB, 8 * kMiB), 1);
  EXPECT_EQ(RangedDepthTrigger(4, 900 * kMiB, 0), 4);
}

TEST(VlsmL0RangesTest, EmptyL1OrOneFileMeansOnePiece) {
  EXPECT_EQ(FlushSplitKeys({}, {}, Ucmp(), Limits(8 * kMiB, kMiB, 8)), Keys{});
  EXPECT_EQ(FlushSplitKeys({}, {Span("a", "z", 0, 8 * kMiB)}, Ucmp(),
                           Limits(8 * kMiB, kMiB, 8)),
            Keys{});
  // No piece allowed beyond one.
  EXPECT_EQ(FlushSplitKeys({}, L1Quarters(), Ucmp(), Limits(8 * kMiB, 0, 1)),
            Keys{});
}

TEST(VlsmL0RangesTest, CutsAtL1BoundariesWhenL0IsEmpty) {
  EXPECT_EQ(FlushSplitKeys({}, L1Quarters(), Ucmp(),
                           Limits(8 * kMiB, kMiB, 8)),
            (Keys{"g", "n", "t"}));
}

TEST(VlsmL0RangesTest, MinimumPieceSizeThinsTheCuts) {
  // An 8 MiB flush spread as L1 is, pieces of at least 4 MiB: one cut.
  EXPECT_EQ(FlushSplitKeys({}, L1Quarters(), Ucmp(),
                           Limits(8 * kMiB, 4 * kMiB, 8)),
            (Keys{"n"}));
}

TEST(VlsmL0RangesTest, PieceCapThinsTheCuts) {
  EXPECT_EQ(FlushSplitKeys({}, L1Quarters(), Ucmp(),
                           Limits(8 * kMiB, 0, 2)),
            (Keys{"n"}));
  // 26 one-MiB L1 files "a".."z", at most 5 pieces: each piece must expect
  // at least 26/5 MiB, so 6 files per piece and the rest in the last:
  // a-f, g-l, m-r, s-z (4 pieces; a fifth would be 2 MiB).
  std::vector<KeySpan> many;
  std::vector<std::string> firsts;
  for (char c = 'a'; c <= 'z'; ++c) {
    firsts.push_back(std::string(1, c));
  }
  for (const std::string& k : firsts) {
    many.push_back(Span(k.c_str(), k.c_str(), 0, kMiB));
  }
  EXPECT_EQ(FlushSplitKeys({}, many, Ucmp(), Limits(26 * kMiB, 0, 5)),
            (Keys{"g", "m", "s"}));
}

TEST(VlsmL0RangesTest, GuardsStayWhereL0HoldsData) {
  // Two earlier flushes were cut at "g" and "n"; L1 has since been re-cut
  // at "j" (inside L0's data "g".."m") and "p" (where L0 holds nothing). A
  // cut at "j" would split pieces that both flushes keep together: it is
  // not taken. "g" and "n" stay, and "p" is new.
  const std::vector<KeySpan> l0 = {
      Span("a", "f", 2, kMiB), Span("g", "m", 2, kMiB), Span("n", "o", 2, kMiB),
      Span("a", "f", 1, kMiB), Span("g", "m", 1, kMiB), Span("n", "o", 1, kMiB)};
  const std::vector<KeySpan> l1 = {Span("a", "i", 0, kMiB),
                                  Span("j", "o", 0, kMiB),
                                  Span("p", "z", 0, kMiB)};
  const Keys cuts =
      FlushSplitKeys(l0, l1, Ucmp(), Limits(8 * kMiB, kMiB / 8, 8));
  EXPECT_EQ(cuts, (Keys{"g", "n", "p"}));
  // Once L0 holds data across "p" too, "p" is no longer taken.
  std::vector<KeySpan> wider = l0;
  wider[2] = Span("n", "z", 2, kMiB);
  wider[5] = Span("n", "z", 1, kMiB);
  EXPECT_EQ(FlushSplitKeys(wider, l1, Ucmp(), Limits(8 * kMiB, kMiB / 8, 8)),
            (Keys{"g", "n"}));
}

// The guards L0 holds are cut whatever the size limits say. Here a minimum
// piece of half the flush would allow one cut; dropping "g" or "n" would
// give the next flush a piece over two of L0's ranges, merging them into one
// run, and every later flush would then cut only around it: the ranges would
// coarsen flush by flush (a measured run's steps grew to 807 MiB so).
TEST(VlsmL0RangesTest, TheGuardsL0HoldsAreAlwaysCut) {
  const std::vector<KeySpan> l0 = {Span("a", "f", 2, kMiB),
                                  Span("g", "m", 2, kMiB),
                                  Span("n", "z", 2, kMiB)};
  EXPECT_EQ(FlushSplitKeys(l0, L1Quarters(), Ucmp(),
                           Limits(8 * kMiB, 4 * kMiB, 8)),
            (Keys{"g", "n"}));
  // Past the piece cap, the guards thin like any cut (here to none: no cut
  // leaves half the expected bytes on each side).
  EXPECT_EQ(FlushSplitKeys(l0, L1Quarters(), Ucmp(),
                           Limits(8 * kMiB, 4 * kMiB, 2)),
            Keys{});
}

// A flush written while a step compacts the range [g, m] still cuts at g:
// otherwise its first piece would reach from [a, f] into [g, m] and join the
// two ranges in L0 for good (measured: steps of up to 162 L0 files, one
// range's closure reaching across most of L0). Inside the busy range, L1's
// boundaries may cut (the range will be empty of older pieces).
TEST(VlsmL0RangesTest, ARangeBeingCompactedKeepsItsGuard) {
  const std::vector<KeySpan> l0 = {Span("a", "f", 3), Span("g", "m", 3, kMiB, true),
                                  Span("n", "z", 3), Span("g", "m", 2, kMiB, true)};
  const std::vector<KeySpan> l1 = {Span("a", "g", 0), Span("h", "m", 0),
                                  Span("n", "z", 0)};
  EXPECT_EQ(FlushSplitKeys(l0, l1, Ucmp(), Limits(8 * kMiB, kMiB / 8, 8)),
            (Keys{"g", "n"}));
}

// The guard above a range being compacted is kept too, although nothing
// there weighs anything: the busy run weighs nothing, and no L1 file starts
// inside [g, n) (L1's boundaries there moved when steps rewrote it). Keeping
// guards only when the piece since the last cut was expected to hold data
// dropped "n": the flush's piece [g, z] then joined the range being
// compacted to the one above it, and L0's ranges coarsened step by step
// (measured: closed-loop steps of 100-160 L0 files and up to 35 of L1's 36
// files, 593 MiB, at depth trigger 32).
TEST(VlsmL0RangesTest, TheGuardAboveARangeBeingCompactedIsKept) {
  const std::vector<KeySpan> l0 = {Span("a", "f", 3), Span("g", "m", 3, kMiB, true),
                                  Span("n", "z", 3), Span("g", "m", 2, kMiB, true)};
  const std::vector<KeySpan> l1 = {Span("a", "z", 0, 4 * kMiB)};
  EXPECT_EQ(FlushSplitKeys(l0, l1, Ucmp(), Limits(8 * kMiB, kMiB / 8, 8)),
            (Keys{"g", "n"}));
}

// The same when the busy range is the lowest: nothing weighs below the
// guard above it, yet the flush has keys there.
TEST(VlsmL0RangesTest, TheGuardAboveTheLowestRangeBeingCompactedIsKept) {
  const std::vector<KeySpan> l0 = {Span("a", "f", 2, kMiB, true),
                                  Span("n", "z", 2)};
  const std::vector<KeySpan> l1 = {Span("o", "z", 0, 4 * kMiB)};
  EXPECT_EQ(FlushSplitKeys(l0, l1, Ucmp(), Limits(8 * kMiB, kMiB / 8, 8)),
            (Keys{"n"}));
}

// While a step compacts [g, m], the first flush written cut at g; its piece
// there starts at its own first key, "h". The next flush must not cut at
// both g and h: the piece [g, h) would hold a key or two, become an L0 run
// of its own, and its start a guard for good. Every step would leave such a
// sliver (measured: 584 of 1849 pieces were one-key files of about 1 KiB,
// and 50-60 guards a flush, near the piece cap past which guards thin and
// the ranges coarsen). One cut is taken, at g: the non-busy run's start, h,
// moves down to L1's boundary g, as L0 holds nothing else in [g, h)
// (AGuardMovesDownToTheL1BoundaryBelowIt).
TEST(VlsmL0RangesTest, NoSliverAtTheGuardOfARangeBeingCompacted) {
  const std::vector<KeySpan> l0 = {
      Span("a", "f", 4), Span("h", "m", 4), Span("n", "z", 4),
      Span("a", "f", 3), Span("g", "m", 3, kMiB, true), Span("n", "z", 3),
      Span("g", "m", 2, kMiB, true)};
  const std::vector<KeySpan> l1 = {Span("a", "f", 0), Span("g", "m", 0),
                                  Span("n", "z", 0)};
  EXPECT_EQ(FlushSplitKeys(l0, l1, Ucmp(), Limits(8 * kMiB, kMiB / 8, 8)),
            (Keys{"g", "n"}));
}

// The same sliver from an L1 boundary: L1 has a file starting at "g", and
// L0's run above it starts at "h" (the first key its flushes had there).
// Cutting at both would make [g, h) a piece of a key or two; one cut is
// taken, at g.
//
// Why g and not h. This is the state after every step: a step over [g, m)
// writes L1 files from g, the first key among its inputs, while the flush
// written during the step starts its piece at its own first key, h. Cut at
// h, later flushes put the keys they have in [g, h) (a few per flush with
// uniform keys) into the range below, whose pieces then reach into the L1
// file [g, z]: every step over the range below had to rewrite that whole
// L1 file for a key or two (measured with 4 x 32 MiB memtables: L0 -> L1
// steps read 1.23-1.46 MiB of L1 per MiB of L0, against 1.01-1.10 with
// wider ranges). Cut at g, the ranges and L1's files line up.
TEST(VlsmL0RangesTest, AGuardMovesDownToTheL1BoundaryBelowIt) {
  const std::vector<KeySpan> l0 = {Span("a", "f", 2), Span("h", "z", 2)};
  const std::vector<KeySpan> l1 = {Span("a", "f", 0), Span("g", "z", 0)};
  EXPECT_EQ(FlushSplitKeys(l0, l1, Ucmp(), Limits(8 * kMiB, kMiB / 8, 8)),
            (Keys{"g"}));
}

// Where L0 holds data between the L1 boundary and the guard, the guard
// stays: moved down, it would cut through the range below's pieces, and
// the next flush's piece there would overlap them. (Two flushes reach past
// "g" here: where one does, "g" is a cut of its own,
// AnL1BoundaryOneFlushStraddlesIsCut.)
TEST(VlsmL0RangesTest, AGuardStaysWhereL0HoldsDataBelowIt) {
  const std::vector<KeySpan> l0 = {Span("a", "gm", 2), Span("a", "gm", 1),
                                  Span("h", "z", 2)};
  const std::vector<KeySpan> l1 = {Span("a", "f", 0), Span("g", "z", 0)};
  EXPECT_EQ(FlushSplitKeys(l0, l1, Ucmp(), Limits(8 * kMiB, kMiB / 8, 8)),
            (Keys{"h"}));
  // Pieces of a running step there block nothing: they are leaving L0.
  const std::vector<KeySpan> busy = {Span("a", "f", 3),
                                    Span("a", "gm", 2, kMiB, true),
                                    Span("a", "gm", 1, kMiB, true),
                                    Span("h", "z", 3)};
  EXPECT_EQ(FlushSplitKeys(busy, l1, Ucmp(), Limits(8 * kMiB, kMiB / 8, 8)),
            (Keys{"g"}));
}

// A guard moves down only as far as the cut below it: two guards never
// become one, and the order of the cuts stays.
TEST(VlsmL0RangesTest, AGuardMovesNoLowerThanTheGuardBelowIt) {
  // Guards "e" and "h"; L1's one boundary "d" is below both. "e" moves to
  // "d"; "h" stays.
  const std::vector<KeySpan> l0 = {Span("a", "c", 2), Span("e", "f", 2),
                                  Span("h", "z", 2)};
  const std::vector<KeySpan> l1 = {Span("a", "b", 0), Span("d", "z", 0)};
  EXPECT_EQ(FlushSplitKeys(l0, l1, Ucmp(), Limits(8 * kMiB, kMiB / 8, 8)),
            (Keys{"d", "h"}));
}

// L0's backlog in one range weighs one flush's worth there (its bytes over
// the flushes it holds): a flush's keys spread as L1's do, not as L0's
// backlog. Here [n, z] holds 8 flushes of 4 MiB; counted whole, those 32
// MiB made the smallest piece 5 MiB, and the range being compacted, [a, m],
// was not cut at L1's boundary "g" (measured: pieces of 2-4 MiB of 7 MiB
// flushes, 3-4 ranges where the minimum piece allows 7).
TEST(VlsmL0RangesTest, L0sBacklogWeighsOneFlushWhereItLies) {
  std::vector<KeySpan> l0;
  for (uint64_t epoch = 10; epoch >= 3; --epoch) {
    l0.push_back(Span("n", "z", epoch, 4 * kMiB));
  }
  l0.push_back(Span("a", "m", 2, 4 * kMiB, true));
  EXPECT_EQ(FlushSplitKeys(l0, L1Quarters(), Ucmp(),
                           Limits(8 * kMiB, kMiB, 8)),
            (Keys{"g", "n"}));
}

// Where flushes hold less than a key or two per range (the ends of the key
// space, or between guards that lie close together), each flush's keys there
// are runs of their own that overlap nothing, and if every run's first key
// were a guard, each flush would add guards (measured: 48 guards within
// "user10000018".."user10002341", where each flush had a key or two, until
// the guards passed the piece cap, thinned, and the ranges coarsened). A run
// whose flushes wrote less than an eighth of the smallest piece each is a
// sliver, not a guard: the next flush's piece covers it, and it joins the
// range it lies in.
TEST(VlsmL0RangesTest, ASliverRunIsNotAGuard) {
  constexpr uint64_t kKiB = 1 << 10;
  const std::vector<KeySpan> l0 = {
      Span("a", "f", 3), Span("g", "g", 3, kKiB), Span("i", "z", 3),
      Span("h", "h", 2, kKiB), Span("i", "z", 2)};
  const std::vector<KeySpan> l1 = {Span("a", "z", 0, 8 * kMiB)};
  EXPECT_EQ(FlushSplitKeys(l0, l1, Ucmp(), Limits(8 * kMiB, kMiB, 64)),
            (Keys{"i"}));
  // With pieces allowed down to a few KiB they are ranges like any other.
  EXPECT_EQ(FlushSplitKeys(l0, l1, Ucmp(), Limits(8 * kMiB, 4 * kKiB, 64)),
            (Keys{"g", "h", "i"}));
}

// A step over [g, z] took every piece there but one: the flush that was
// being written when the step was picked, cut at the old guards only. Its
// piece [g, z] stayed in L0, and with "no cut where L0 holds data" no flush
// written during the step could cut the range at L1's boundaries: ranges
// never got finer (measured: 5 ranges for a whole run, the widest 3 MiB of
// each 7 MiB flush, steps up to 327 MiB). An L1 boundary that one flush's
// piece straddles is cut: the next step over either side takes that one
// piece along (it is older and overlaps), and the sides part. Two flushes
// deep, the cut would split data that earlier flushes kept together: not
// taken.
TEST(VlsmL0RangesTest, AnL1BoundaryOneFlushStraddlesIsCut) {
  std::vector<KeySpan> l0 = {
      Span("a", "f", 5), Span("g", "z", 5), Span("a", "f", 4),
      Span("g", "z", 4, kMiB, true), Span("a", "f", 3),
      Span("g", "z", 3, kMiB, true)};
  EXPECT_EQ(FlushSplitKeys(l0, L1Quarters(), Ucmp(), Limits(8 * kMiB, kMiB, 64)),
            (Keys{"g", "n", "t"}));
  l0.insert(l0.begin(), Span("g", "z", 6));
  EXPECT_EQ(FlushSplitKeys(l0, L1Quarters(), Ucmp(), Limits(8 * kMiB, kMiB, 64)),
            (Keys{"g"}));
}

// The cut such a straddled range got stays after L1's boundary is gone.
// Flushes 3 and 2 were cut at "n" (then an L1 boundary) under the piece of
// flush 1 that straddles it; since, a step rewrote L1 and "n" is no L1
// boundary. "n" is still where a range of L0 starts (a file starts there
// after files end below it), so it is still cut. With guards only where
// runs of overlapping files start, the straddling piece made [g, z] one
// run: "n" was lost, and the range coarsened back (measured: the one cut a
// step's flushes made in a range half the key space wide was gone after
// the step).
TEST(VlsmL0RangesTest, ACutUnderAStraddlingPieceIsKept) {
  const std::vector<KeySpan> l0 = {
      Span("g", "m", 3), Span("n", "z", 3), Span("g", "m", 2),
      Span("n", "z", 2), Span("g", "z", 1)};
  const std::vector<KeySpan> l1 = {Span("a", "z", 0, 8 * kMiB)};
  EXPECT_EQ(FlushSplitKeys(l0, l1, Ucmp(), Limits(8 * kMiB, kMiB, 64)),
            (Keys{"g", "n"}));
}

TEST(VlsmL0RangesTest, AllKeysInOneL0RunMeansNoCutInsideIt) {
  // Two whole flushes over every key sit in L0: every L1 boundary falls
  // inside both, and only their first key is a candidate. (One flush alone
  // is cut through: AnL1BoundaryOneFlushStraddlesIsCut.)
  const std::vector<KeySpan> l0 = {Span("a", "z", 2, 8 * kMiB),
                                  Span("a", "z", 1, 8 * kMiB)};
  EXPECT_EQ(FlushSplitKeys(l0, L1Quarters(), Ucmp(),
                           Limits(8 * kMiB, kMiB, 8)),
            Keys{});
}

// A whole flush that a running step is compacting is leaving L0: it blocks
// no cut. (If it did, every flush written while it is compacted would be
// whole too, and so would every flush during the next step over them: the
// layout would never split again.)
TEST(VlsmL0RangesTest, FilesBeingCompactedBlockNoCut) {
  const std::vector<KeySpan> l0 = {Span("a", "z", 1, 8 * kMiB, /*busy=*/true)};
  EXPECT_EQ(FlushSplitKeys(l0, L1Quarters(), Ucmp(), Limits(8 * kMiB, kMiB, 8)),
            (Keys{"g", "n", "t"}));
}

// Pieces cut inside a range deletion end at the guard's sentinel: they share
// the guard's user key with the next piece but hold none of its keys. As
// keys they do not overlap; counting them as overlapping would make one
// flush two deep at every guard a deletion crosses, chain neighbouring
// ranges into one step, and drop the guard itself while the pieces live.
TEST(VlsmL0RangesTest, APieceEndingAtASentinelDoesNotReachTheGuard) {
  const std::vector<KeySpan> one_flush = {EndsBefore("a", "g", 1),
                                         EndsBefore("g", "p", 1),
                                         Span("p", "z", 1)};
  EXPECT_EQ(MaxDepth(one_flush, Ucmp()), 1);
  EXPECT_FALSE(SpansOverlap(one_flush[0], one_flush[1], Ucmp()));
  EXPECT_FALSE(SpansOverlap(one_flush[1], one_flush[0], Ucmp()));
  // An older file that starts at the guard is not taken with the piece
  // before it; one that holds a key below the guard is.
  const std::vector<KeySpan> l0 = {EndsBefore("a", "g", 2), Span("g", "o", 1),
                                  Span("f", "f", 1)};
  EXPECT_EQ(OlderOverlapClosure(l0, {0}, Ucmp()),
            (std::vector<size_t>{0, 2}));
  // The guards stay candidates: L0 holds no key on both sides of them.
  const std::vector<KeySpan> l1 = {Span("a", "f", 0), Span("g", "o", 0),
                                  Span("p", "z", 0)};
  EXPECT_EQ(FlushSplitKeys(one_flush, l1, Ucmp(),
                           Limits(8 * kMiB, kMiB / 8, 8)),
            (Keys{"g", "p"}));
}

// The guards (L0GuardKeys): the first key of each of L0's ranges, moved
// down to L1's boundary where L0 holds nothing between, a running step's
// range included, slivers not. Every guard with data below it is one of the
// flush's cuts (FlushSplitKeys): the L1 outputs cut at these keys
// (vlsm_l1_guard_cuts.h) line up with the pieces of the flushes to come.
TEST(VlsmL0RangesTest, GuardsAreTheKeysEveryFlushIsCutAt) {
  const std::vector<KeySpan> l1 = {Span("a", "f", 0), Span("g", "o", 0),
                                  Span("p", "z", 0)};
  EXPECT_EQ(L0GuardKeys(ThreeAlignedFlushes(), l1, Ucmp(), kMiB / 8),
            (Keys{"a", "g", "p"}));
  EXPECT_EQ(FlushSplitKeys(ThreeAlignedFlushes(), l1, Ucmp(),
                           Limits(8 * kMiB, kMiB / 8, 8)),
            (Keys{"g", "p"}));
  // "h" moves down to L1's boundary "g"; no L0 data lies between.
  const std::vector<KeySpan> two_runs = {Span("a", "f", 2), Span("h", "z", 2)};
  const std::vector<KeySpan> l1_at_g = {Span("a", "f", 0), Span("g", "z", 0)};
  EXPECT_EQ(L0GuardKeys(two_runs, l1_at_g, Ucmp(), kMiB / 8),
            (Keys{"a", "g"}));
  // A range being compacted keeps its guard; a sliver (a few bytes a flush,
  // at the end of the key space) is none.
  const std::vector<KeySpan> busy_and_sliver = {
      Span("a", "f", 3), Span("g", "o", 2, kMiB, true), Span("p", "x", 3),
      Span("y", "z", 3, 64)};
  EXPECT_EQ(L0GuardKeys(busy_and_sliver, l1, Ucmp(), kMiB / 8),
            (Keys{"a", "g", "p"}));
  // No L0: no guard; no level below: L0's own.
  EXPECT_EQ(L0GuardKeys({}, l1, Ucmp(), kMiB / 8), Keys{});
  EXPECT_EQ(L0GuardKeys(two_runs, {}, Ucmp(), kMiB / 8), (Keys{"a", "h"}));
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
