#include "db/compaction/vlsm_flush_split_keys.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "db/compaction/vlsm_l0_model.h"
#include "db/compaction/vlsm_layout_rules.h"
#include "db/version_set.h"
#include "options/cf_options.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// How many distinct epochs (flushes) `epochs` holds.
size_t DistinctEpochs(std::vector<uint64_t> epochs) {
  std::sort(epochs.begin(), epochs.end());
  return static_cast<size_t>(std::unique(epochs.begin(), epochs.end()) -
                             epochs.begin());
}

// A key range of L0 as flushes cut it: its first key, and one flush's share
// of the bytes of the files that start in it (their bytes over the flushes
// that wrote them).
struct L0Range {
  Slice start;
  double bytes_per_flush = 0;
};

// Where L0's ranges start, ascending: sweeping the ends of the files not
// being compacted in key order, at every file start that follows a file end
// (or opens the sweep). See L0RangesOf for why not only where runs of
// overlapping files start.
std::vector<Slice> RangeStarts(const std::vector<KeySpan>& l0,
                               const Comparator* ucmp) {
  std::vector<Slice> starts;
  bool after_end = true;
  for (const L0End& e : SortedL0Ends(l0, ucmp, /*count_busy=*/false)) {
    if (e.order == L0End::kStart && after_end &&
        (starts.empty() || CompareUserKeys(ucmp, starts.back(), e.key) < 0)) {
      starts.push_back(e.key);
    }
    after_end = e.order != L0End::kStart;
  }
  return starts;
}

// The range (index into `starts`, ascending) that holds `key`: the last
// start at or below it, or the first range for a key below every start (a
// sliver dropped from the starts joins the range above it).
size_t RangeHolding(const std::vector<Slice>& starts, const Slice& key,
                    const Comparator* ucmp) {
  const size_t k =
      std::upper_bound(starts.begin(), starts.end(), key, UserKeyLess{ucmp}) -
      starts.begin();
  return k == 0 ? 0 : k - 1;
}

// L0's ranges among the files not being compacted, ascending. Sweeping the
// files' ends in key order, a range starts at every file start that follows
// a file end (or opens the sweep): where a run of overlapping files starts,
// and also where flushes were cut inside a run that one older piece
// straddles (the piece in flight when a step over the range was picked).
// Only run starts would lose those cuts once L1's boundaries they came from
// moved, and the range would coarsen again. Ranges whose flushes wrote less
// than `sliver_bytes` each are slivers: dropped, their files join the range
// below (below every range, the first).
std::vector<L0Range> L0RangesOf(const std::vector<KeySpan>& l0,
                                const Comparator* ucmp, double sliver_bytes) {
  const std::vector<Slice> starts = RangeStarts(l0, ucmp);
  // The ranges from `starts`: each file in the one that holds its first key.
  auto ranges_from = [&](const std::vector<Slice>& firsts) {
    std::vector<uint64_t> bytes(firsts.size(), 0);
    std::vector<std::vector<uint64_t>> epochs(firsts.size());
    for (const KeySpan& s : l0) {
      if (s.busy || firsts.empty()) {
        continue;
      }
      const size_t k = RangeHolding(firsts, s.smallest, ucmp);
      bytes[k] += s.bytes;
      epochs[k].push_back(s.epoch);
    }
    std::vector<L0Range> ranges;
    for (size_t k = 0; k < firsts.size(); ++k) {
      ranges.push_back({firsts[k], static_cast<double>(bytes[k]) /
                                       static_cast<double>(std::max<size_t>(
                                           DistinctEpochs(epochs[k]), 1))});
    }
    return ranges;
  };
  std::vector<Slice> kept;
  for (const L0Range& r : ranges_from(starts)) {
    if (r.bytes_per_flush >= sliver_bytes) {
      kept.push_back(r.start);
    }
  }
  return ranges_from(kept);
}

// A connected run of L0 files (files being compacted included): the span
// from its first key to its last, its bytes, the flushes that wrote it, and
// whether its first file is being compacted.
struct L0Run {
  KeySpan span;
  size_t flushes = 0;
  bool starts_busy = false;
};

// L0's runs, ascending, from the same sweep as MaxDepth (vlsm_l0_ranges.h):
// a run starts where the depth rises from 0 and ends where it falls back to
// 0.
std::vector<L0Run> L0RunsOf(const std::vector<KeySpan>& l0,
                            const Comparator* ucmp) {
  std::vector<L0Run> runs;
  std::vector<std::vector<uint64_t>> epochs;
  int depth = 0;
  for (const L0End& e : SortedL0Ends(l0, ucmp, /*count_busy=*/true)) {
    const KeySpan& s = l0[e.span];
    if (e.order == L0End::kStart) {
      if (depth == 0) {
        runs.push_back({s, 0, s.busy});
        runs.back().span.bytes = 0;
        epochs.emplace_back();
      }
      runs.back().span.bytes += s.bytes;
      epochs.back().push_back(s.epoch);
      ++depth;
    } else {
      // Ends come in key order, an inclusive end after an exclusive one at
      // the same key: the last end seen is the run's.
      --depth;
      runs.back().span.largest = e.key;
      runs.back().span.exclusive_end = e.order == L0End::kExclusiveEnd;
    }
  }
  for (size_t i = 0; i < runs.size(); ++i) {
    runs[i].flushes = DistinctEpochs(std::move(epochs[i]));
  }
  return runs;
}

// A range of L0 (or a run being compacted) whose flushes each wrote less than
// this is a *sliver*, not a guard: the key or two each flush has at the ends
// of the key space, or between guards close together. There each flush's
// keys are ranges of their own, and as guards every flush would add more,
// until they passed the piece cap and thinned. Not cut, a sliver is covered
// by the next flush's piece and joins the range it lies in. Why an eighth of
// min_piece_bytes: a range that a cut from L1 made is expected to get at
// least min_piece_bytes from each flush, so it stays a guard even where
// flushes put several times less there than expected, while a key or two a
// flush stays far below it.
double SliverBytes(uint64_t min_piece_bytes) {
  return static_cast<double>(min_piece_bytes) / 8;
}

// Whether L0 holds data in `range`: files being compacted are leaving L0
// and do not count.
bool L0HoldsDataIn(const std::vector<KeySpan>& l0, const KeySpan& range,
                   const Comparator* ucmp) {
  for (const KeySpan& s : l0) {
    if (!s.busy && SpansOverlap(s, range, ucmp)) {
      return true;
    }
  }
  return false;
}

// Sorts `keys` ascending and drops repeats.
void SortDistinct(std::vector<Slice>* keys, const Comparator* ucmp) {
  const UserKeyLess less{ucmp};
  std::sort(keys->begin(), keys->end(), less);
  keys->erase(std::unique(keys->begin(), keys->end(),
                          [&](const Slice& a, const Slice& b) {
                            return !less(a, b) && !less(b, a);
                          }),
              keys->end());
}

// The first key of a run that starts with files being compacted is a guard,
// unless a range of files not being compacted starts inside the run, or the
// run is a sliver. A flush written during a step over [g, p) must still cut
// at g, or its piece would reach from the range below g into [g, p) and join
// them in L0 for good. But once such a flush is in L0, its piece there starts
// at its own first key, h, and that is the range's guard: cutting at g too
// would leave [g, h), a key or two, as a sliver that every later flush cuts
// again.
bool BusyRunStartIsGuard(const L0Run& run, const std::vector<L0Range>& ranges,
                         const Comparator* ucmp, double sliver_bytes) {
  if (!run.starts_busy) {
    return false;
  }
  const UserKeyLess less{ucmp};
  for (const L0Range& r : ranges) {
    if (!less(r.start, run.span.smallest) &&
        !SpanEndsBefore(run.span, r.start, ucmp)) {
      return false;  // a range starts inside the run
    }
  }
  const double per_flush =
      static_cast<double>(run.span.bytes) /
      static_cast<double>(std::max<size_t>(run.flushes, 1));
  return per_flush >= sliver_bytes;
}

// Each guard moves down to the highest L1 boundary (an L1 file's first key,
// the first file's excepted) at or below it, if that is above the guard below
// it and L0 holds no data (files being compacted aside) from there up to the
// guard. Guards stay ascending and distinct. Example: L0's run [h, z] above
// [a, f]; L1's files [a, f] and [g, z]: the guard h becomes g. This is the
// state after every step: a step over [g, p) writes L1 files from g, while
// the flush written during the step starts its piece at its own first key,
// h. Cut at h, later flushes' keys in [g, h) would go to the range below,
// whose pieces would reach into the L1 file starting at g, and each step over
// that range would rewrite the file for a key or two. Where L0 holds data
// between the boundary and the guard, the guard stays: moved down, it would
// cut through the range below's pieces.
void AlignGuardsWithL1(const std::vector<KeySpan>& l0,
                       const std::vector<KeySpan>& l1, const Comparator* ucmp,
                       std::vector<Slice>* guards) {
  const UserKeyLess less{ucmp};
  // L1's boundaries: every file's first key but the first file's.
  const auto first_boundary = l1.begin() + std::min<size_t>(l1.size(), 1);
  for (size_t i = 0; i < guards->size(); ++i) {
    const Slice guard = (*guards)[i];
    // The highest L1 boundary at or below the guard.
    const auto above =
        std::upper_bound(first_boundary, l1.end(), guard,
                         [&](const Slice& key, const KeySpan& f) {
                           return less(key, f.smallest);
                         });
    if (above == first_boundary) {
      continue;  // no boundary at or below it
    }
    const Slice boundary = std::prev(above)->smallest;
    if (!less(boundary, guard) ||
        (i > 0 && !less((*guards)[i - 1], boundary))) {
      continue;  // already there, or at or below the guard under it
    }
    KeySpan between{boundary, guard};
    between.exclusive_end = true;  // [boundary, guard)
    if (!L0HoldsDataIn(l0, between, ucmp)) {
      (*guards)[i] = boundary;
    }
  }
}

// The guards, ascending and distinct: the first key of every range of L0
// (`ranges`, from L0RangesOf: slivers are already dropped) and of the runs
// being compacted that keep one (BusyRunStartIsGuard), each then moved down
// to L1 (AlignGuardsWithL1).
std::vector<Slice> GuardsOf(const std::vector<KeySpan>& l0,
                            const std::vector<KeySpan>& l1,
                            const std::vector<L0Range>& ranges,
                            const std::vector<L0Run>& all_runs,
                            const Comparator* ucmp, double sliver_bytes) {
  std::vector<Slice> guards;
  for (const L0Range& r : ranges) {
    guards.push_back(r.start);
  }
  for (const L0Run& r : all_runs) {
    if (BusyRunStartIsGuard(r, ranges, ucmp, sliver_bytes)) {
      guards.push_back(r.span.smallest);
    }
  }
  SortDistinct(&guards, ucmp);
  AlignGuardsWithL1(l0, l1, ucmp, &guards);
  return guards;
}

// How many flushes' files (not being compacted) hold keys on both sides of
// `key`: below it, and at or above it.
size_t FlushesStraddling(const std::vector<KeySpan>& l0, const Slice& key,
                         const Comparator* ucmp) {
  const UserKeyLess less{ucmp};
  std::vector<uint64_t> epochs;
  for (const KeySpan& s : l0) {
    if (!s.busy && less(s.smallest, key) && !SpanEndsBefore(s, key, ucmp)) {
      epochs.push_back(s.epoch);
    }
  }
  return DistinctEpochs(std::move(epochs));
}

// Step 1, the candidate cuts, ascending and distinct: the guards, and the
// first key of every L1 file but the first
//  - whose range L0 holds no data in: there a cut splits no run, and the
//    piece above it is expected to span a whole L1 file (a cut at an L1
//    boundary in the gap just below an L0 run would leave a sliver between
//    it and the run's first key); or
//  - that one flush's piece straddles. That is the flush being written when
//    a step over the range was picked, cut at the old guards only: it stays
//    in L0 through the step, and if it blocked the cuts, no flush written
//    meanwhile could cut the range, and it would never get finer. The next
//    step over either side takes that one piece along (older, overlapping),
//    and the sides part. Two flushes deep, a cut would split data they keep
//    together.
std::vector<Slice> CandidateCuts(const std::vector<KeySpan>& l0,
                                 const std::vector<KeySpan>& l1,
                                 const std::vector<Slice>& guards,
                                 const Comparator* ucmp) {
  std::vector<Slice> candidates = guards;
  for (size_t i = 1; i < l1.size(); ++i) {
    if (!L0HoldsDataIn(l0, l1[i], ucmp) ||
        FlushesStraddling(l0, l1[i].smallest, ucmp) == 1) {
      candidates.push_back(l1[i].smallest);
    }
  }
  SortDistinct(&candidates, ucmp);
  return candidates;
}

// The interval of the candidates that holds `key`: interval j holds the keys
// in [candidates[j-1], candidates[j]), the first those below candidates[0],
// the last those from candidates.back() up.
size_t IntervalHolding(const std::vector<Slice>& candidates, const Slice& key,
                       const Comparator* ucmp) {
  return static_cast<size_t>(std::upper_bound(candidates.begin(),
                                              candidates.end(), key,
                                              UserKeyLess{ucmp}) -
                             candidates.begin());
}

// The bytes a flush is expected to put in each interval of the candidates.
struct IntervalWeights {
  std::vector<double> bytes;  // candidates.size() + 1 intervals
  double total = 0;           // added up in the order they were credited
};

// Step 2, the weights. A flush's keys are expected to spread as the data
// does: every L1 file weighs its bytes in the interval that holds its first
// key, and every L0 range one flush's share of its bytes (its bytes over the
// flushes that wrote them), so that a backlog of d flushes in one range does
// not make that range d times likelier (counted whole, L0's backlog made the
// smallest piece so large that a range being compacted was never cut).
IntervalWeights WeighIntervals(const std::vector<Slice>& candidates,
                               const std::vector<KeySpan>& l1,
                               const std::vector<L0Range>& ranges,
                               const Comparator* ucmp) {
  IntervalWeights weights;
  weights.bytes.assign(candidates.size() + 1, 0);
  auto credit = [&](const Slice& first_key, double bytes) {
    weights.bytes[IntervalHolding(candidates, first_key, ucmp)] += bytes;
    weights.total += bytes;
  };
  for (const KeySpan& s : l1) {
    credit(s.smallest, static_cast<double>(s.bytes));
  }
  for (const L0Range& r : ranges) {
    credit(r.start, r.bytes_per_flush);
  }
  return weights;
}

// The intervals where the flush is expected to have keys at all: those that
// weigh something, and those that hold the first key of a run of L0 files,
// runs being compacted included (they weigh nothing, but the flush's keys
// fall there too).
std::vector<bool> IntervalsHoldingData(const std::vector<Slice>& candidates,
                                       const IntervalWeights& weights,
                                       const std::vector<L0Run>& all_runs,
                                       const Comparator* ucmp) {
  std::vector<bool> holds_data(weights.bytes.size(), false);
  for (size_t j = 0; j < weights.bytes.size(); ++j) {
    holds_data[j] = weights.bytes[j] > 0;
  }
  for (const L0Run& r : all_runs) {
    holds_data[IntervalHolding(candidates, r.span.smallest, ucmp)] = true;
  }
  return holds_data;
}

// The least a piece cut from L1 is expected to hold, on the weights' scale:
// a max_pieces-th of the total, and min_piece_bytes as the same share of the
// total as of the flush, whichever is more.
double SmallestPiece(double total, const FlushSplitLimits& limits) {
  return std::max(total / static_cast<double>(limits.max_pieces),
                  total * static_cast<double>(limits.min_piece_bytes) /
                      static_cast<double>(limits.flush_bytes));
}

// Step 3, the thinning, from the left. Every guard is cut once any data is
// expected below it (an L1 file, an L0 range or run, busy or not), whether
// or not the piece since the last cut weighs anything: dropping one would
// merge L0's ranges for good, since the next flush's piece would overlap
// both and later flushes could then only cut around that wider run (a range
// being compacted weighs nothing, and dropping the guard above it would join
// it to the next range). Any other candidate is cut once the piece since the
// last cut and everything above the candidate are each expected to hold the
// smallest piece, so the cuts from L1 make at most max_pieces pieces. More
// guards than a flush may have pieces (no flush cut them so: a guard set that
// grew in L0's gaps over time): then the guards thin like the other cuts.
std::vector<std::string> ThinCuts(const std::vector<Slice>& candidates,
                                  const std::vector<Slice>& guards,
                                  const IntervalWeights& weights,
                                  const std::vector<bool>& holds_data,
                                  const FlushSplitLimits& limits,
                                  const Comparator* ucmp) {
  const UserKeyLess less{ucmp};
  const double smallest_piece = SmallestPiece(weights.total, limits);
  const bool keep_guards = guards.size() <= limits.max_pieces;
  std::vector<std::string> keys;
  double piece = 0;
  double consumed = 0;
  bool data_below = false;
  for (size_t j = 0; j < candidates.size(); ++j) {
    piece += weights.bytes[j];
    consumed += weights.bytes[j];
    data_below = data_below || holds_data[j];
    const bool keep_guard =
        keep_guards &&
        std::binary_search(guards.begin(), guards.end(), candidates[j], less) &&
        data_below;
    if (keep_guard || (piece >= smallest_piece &&
                       weights.total - consumed >= smallest_piece)) {
      keys.push_back(candidates[j].ToString());
      piece = 0;
    }
  }
  return keys;
}

}  // namespace

std::vector<std::string> FlushSplitKeys(const std::vector<KeySpan>& l0,
                                        const std::vector<KeySpan>& l1,
                                        const Comparator* ucmp,
                                        const FlushSplitLimits& limits) {
  if (l1.empty() || limits.max_pieces <= 1 || limits.flush_bytes == 0) {
    return {};
  }
  const double sliver_bytes = SliverBytes(limits.min_piece_bytes);
  const std::vector<L0Range> ranges = L0RangesOf(l0, ucmp, sliver_bytes);
  const std::vector<L0Run> all_runs = L0RunsOf(l0, ucmp);
  const std::vector<Slice> guards =
      GuardsOf(l0, l1, ranges, all_runs, ucmp, sliver_bytes);
  const std::vector<Slice> candidates = CandidateCuts(l0, l1, guards, ucmp);
  const IntervalWeights weights = WeighIntervals(candidates, l1, ranges, ucmp);
  if (weights.total <= 0) {
    return {};
  }
  return ThinCuts(candidates, guards, weights,
                  IntervalsHoldingData(candidates, weights, all_runs, ucmp),
                  limits, ucmp);
}

std::vector<std::string> L0GuardKeys(const std::vector<KeySpan>& l0,
                                     const std::vector<KeySpan>& l1,
                                     const Comparator* ucmp,
                                     uint64_t min_piece_bytes) {
  const double sliver_bytes = SliverBytes(min_piece_bytes);
  std::vector<std::string> keys;
  for (const Slice& g : GuardsOf(l0, l1, L0RangesOf(l0, ucmp, sliver_bytes),
                                 L0RunsOf(l0, ucmp), ucmp, sliver_bytes)) {
    keys.push_back(g.ToString());
  }
  return keys;
}

uint64_t VlsmMinFlushPieceBytes(const MutableCFOptions& moptions) {
  return moptions.target_file_size_base / 8;
}

int VlsmGuardLevel(const VersionStorageInfo& base) {
  // Guards come from L1's files; while L1 is empty (manual compactions to
  // the bottom, or early on), from the first level below with files, as
  // Pebble takes them from Lbase: the key space is cut where the data is.
  int level = std::max(base.base_level(), 1);
  while (level < base.num_levels() && base.LevelFiles(level).empty()) {
    ++level;
  }
  return level;
}

std::vector<std::string> VlsmFlushCutsOf(const MutableCFOptions& moptions,
                                         const ImmutableCFOptions& ioptions,
                                         const VersionStorageInfo& base,
                                         uint64_t flush_bytes) {
  if (!VlsmLayoutRulesOf(moptions.vlsm_layout).SplitsFlushes() ||
      ioptions.compaction_style != kCompactionStyleLevel) {
    return {};
  }
  const int level = VlsmGuardLevel(base);
  if (level >= base.num_levels()) {
    return {};
  }
  FlushSplitLimits limits;
  limits.flush_bytes = flush_bytes;
  limits.min_piece_bytes = VlsmMinFlushPieceBytes(moptions);
  limits.max_pieces = kVlsmMaxFlushPieces;
  return VlsmL0Now(base).FlushCuts(SpansOf(base.LevelFiles(level)), limits);
}

std::vector<std::string> VlsmL0GuardsOf(const MutableCFOptions& moptions,
                                        const VersionStorageInfo& base) {
  const int level = VlsmGuardLevel(base);
  const std::vector<KeySpan> below = level < base.num_levels()
                                         ? SpansOf(base.LevelFiles(level))
                                         : std::vector<KeySpan>{};
  return VlsmL0Now(base).GuardKeys(below, VlsmMinFlushPieceBytes(moptions));
}

}  // namespace ROCKSDB_NAMESPACE
