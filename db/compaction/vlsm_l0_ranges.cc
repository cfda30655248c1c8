#include "db/compaction/vlsm_l0_ranges.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <utility>

#include "db/dbformat.h"
#include "db/version_edit.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// Whether `key` is at or below the span's end.
bool UpToEnd(const Slice& key, const L0Span& s, const Comparator* ucmp) {
  const int c = CompareUserKeys(ucmp, key, s.largest);
  return c < 0 || (c == 0 && !s.exclusive_end);
}

}  // namespace

std::vector<L0End> SortedL0Ends(const std::vector<L0Span>& l0,
                                const Comparator* ucmp, bool count_busy) {
  std::vector<L0End> ends;
  for (size_t i = 0; i < l0.size(); ++i) {
    const L0Span& s = l0[i];
    if (count_busy || !s.busy) {
      ends.push_back({s.smallest, L0End::kStart, i});
      ends.push_back(
          {s.largest, s.exclusive_end ? L0End::kExclusiveEnd : L0End::kEnd, i});
    }
  }
  std::sort(ends.begin(), ends.end(), [ucmp](const L0End& a, const L0End& b) {
    const int c = CompareUserKeys(ucmp, a.key, b.key);
    return c != 0 ? c < 0 : a.order < b.order;
  });
  return ends;
}

namespace {

size_t DistinctEpochs(std::vector<uint64_t> epochs) {
  std::sort(epochs.begin(), epochs.end());
  return static_cast<size_t>(std::unique(epochs.begin(), epochs.end()) -
                             epochs.begin());
}

// Where L0's ranges start, ascending: sweeping the files' ends in key order,
// at every file start that follows a file end (or opens the sweep). See
// L0RangesOf below for why not only where runs of overlapping files start.
std::vector<Slice> RangeStarts(const std::vector<L0Span>& l0,
                               const Comparator* ucmp, bool count_busy) {
  std::vector<Slice> starts;
  bool after_end = true;
  for (const L0End& e : SortedL0Ends(l0, ucmp, count_busy)) {
    if (e.order == L0End::kStart && after_end &&
        (starts.empty() ||
         CompareUserKeys(ucmp, starts.back(), e.key) < 0)) {
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
      std::upper_bound(starts.begin(), starts.end(), key,
                       [ucmp](const Slice& a, const Slice& b) {
                         return CompareUserKeys(ucmp, a, b) < 0;
                       }) -
      starts.begin();
  return k == 0 ? 0 : k - 1;
}

// A key range of L0 as flushes cut it: its first key, and one flush's share
// of the bytes of the files that start in it (their bytes over the flushes
// that wrote them).
struct L0Range {
  Slice start;
  double bytes_per_flush = 0;
};

// L0's ranges among the files not being compacted, ascending (see
// FlushSplitKeys in the header). Sweeping the files' ends in key order, a
// range starts at every file start that follows a file end (or opens the
// sweep): where a run of overlapping files starts, and also where flushes
// were cut inside a run that one older piece straddles (the piece in flight
// when a step over the range was picked). Only run starts would lose those
// cuts once L1's boundaries they came from moved, and the range would
// coarsen again. Ranges whose flushes wrote less than `sliver_bytes` each
// are slivers and join the range below.
std::vector<L0Range> L0RangesOf(const std::vector<L0Span>& l0,
                                const Comparator* ucmp, double sliver_bytes) {
  const std::vector<Slice> starts =
      RangeStarts(l0, ucmp, /*count_busy=*/false);
  // The ranges from `starts`: each file in the one that holds its first key.
  auto ranges_from = [&](const std::vector<Slice>& firsts) {
    std::vector<uint64_t> bytes(firsts.size(), 0);
    std::vector<std::vector<uint64_t>> epochs(firsts.size());
    for (const L0Span& s : l0) {
      if (s.busy || firsts.empty()) {
        continue;
      }
      const size_t k = RangeHolding(firsts, s.smallest, ucmp);
      bytes[k] += s.bytes;
      epochs[k].push_back(s.epoch);
    }
    std::vector<L0Range> ranges;
    for (size_t k = 0; k < firsts.size(); ++k) {
      ranges.push_back(
          {firsts[k],
           static_cast<double>(bytes[k]) /
               static_cast<double>(std::max<size_t>(DistinctEpochs(epochs[k]), 1))});
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
  L0Span span;
  size_t flushes = 0;
  bool starts_busy = false;
};

// L0's runs, ascending, from the same sweep as MaxDepth: a run starts where
// the depth rises from 0 and ends where it falls back to 0.
std::vector<L0Run> L0RunsOf(const std::vector<L0Span>& l0,
                            const Comparator* ucmp) {
  std::vector<L0Run> runs;
  std::vector<std::vector<uint64_t>> epochs;
  int depth = 0;
  for (const L0End& e : SortedL0Ends(l0, ucmp, /*count_busy=*/true)) {
    const L0Span& s = l0[e.span];
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

}  // namespace

void WidenToCover(L0Span* hull, const L0Span& span, const Comparator* ucmp) {
  if (CompareUserKeys(ucmp, span.smallest, hull->smallest) < 0) {
    hull->smallest = span.smallest;
  }
  const int c = CompareUserKeys(ucmp, span.largest, hull->largest);
  if (c > 0 || (c == 0 && hull->exclusive_end && !span.exclusive_end)) {
    hull->largest = span.largest;
    hull->exclusive_end = span.exclusive_end;
  }
}

bool SpanEndsBefore(const L0Span& span, const Slice& key,
                    const Comparator* ucmp) {
  return !UpToEnd(key, span, ucmp);
}

bool SpansOverlap(const L0Span& a, const L0Span& b, const Comparator* ucmp) {
  return UpToEnd(a.smallest, b, ucmp) && UpToEnd(b.smallest, a, ucmp);
}

L0Span SpanOf(const FileMetaData& f) {
  L0Span span{f.smallest.user_key(), f.largest.user_key(), f.epoch_number,
              f.fd.GetFileSize(), f.being_compacted};
  span.exclusive_end = f.largest.size() > 0 &&
                       ExtractInternalKeyFooter(f.largest.Encode()) ==
                           kRangeTombstoneSentinel;
  return span;
}

std::vector<L0Span> SpansOf(const std::vector<FileMetaData*>& files) {
  std::vector<L0Span> spans;
  spans.reserve(files.size());
  for (const FileMetaData* f : files) {
    spans.push_back(SpanOf(*f));
  }
  return spans;
}

int MaxDepth(const std::vector<L0Span>& l0, const Comparator* ucmp,
             bool count_busy) {
  // A sweep over the ends: +1 where a span starts, -1 where it ends.
  int depth = 0;
  int deepest = 0;
  for (const L0End& end : SortedL0Ends(l0, ucmp, count_busy)) {
    depth += end.order == L0End::kStart ? +1 : -1;
    deepest = std::max(deepest, depth);
  }
  return deepest;
}

int L0MemtablesWorth(uint64_t l0_bytes, uint64_t memtable_bytes) {
  const uint64_t unit = std::max<uint64_t>(memtable_bytes, 1);
  const uint64_t worth = (l0_bytes + unit - 1) / unit;
  return static_cast<int>(std::min<uint64_t>(worth, INT32_MAX));
}

int RangedDepthTrigger(int depth_trigger, uint64_t l1_bytes,
                       uint64_t memtable_bytes) {
  const int configured = std::max(depth_trigger, 1);
  if (memtable_bytes == 0) {
    return configured;
  }
  // One more than L1's whole memtables: an L1 at its target less the file
  // an L1 -> L2 step just took keeps the configured depth.
  const uint64_t l1_memtables = l1_bytes / memtable_bytes + 1;
  return static_cast<int>(
      std::min<uint64_t>(l1_memtables, static_cast<uint64_t>(configured)));
}

std::vector<size_t> OlderOverlapClosure(const std::vector<L0Span>& l0,
                                        const std::vector<size_t>& seed,
                                        const Comparator* ucmp) {
  // One pass, newest first: a file is taken if it is in the seed or
  // overlaps a newer taken file, and every newer file is settled before it.
  // The taken files so far are kept as the key ranges of their connected
  // groups (`groups`, ascending and disjoint), so that each file is tested
  // with one binary search rather than against every taken file: the debt
  // estimate asks for the closure of every due range at each version
  // install, under the DB mutex, with hundreds of L0 files.
  std::vector<bool> in_seed(l0.size(), false);
  for (size_t i : seed) {
    in_seed[i] = true;
  }
  std::vector<L0Span> groups;
  std::vector<size_t> closure;
  for (size_t i = 0; i < l0.size(); ++i) {
    const L0Span& f = l0[i];
    // The first group not ending before f starts; groups from there on that
    // overlap f are contiguous.
    auto first = std::partition_point(
        groups.begin(), groups.end(),
        [&](const L0Span& g) { return SpanEndsBefore(g, f.smallest, ucmp); });
    auto last = first;
    while (last != groups.end() && SpansOverlap(*last, f, ucmp)) {
      ++last;
    }
    if (!in_seed[i] && first == last) {
      continue;
    }
    closure.push_back(i);
    // f joins the groups it overlaps into one.
    L0Span merged = f;
    for (auto g = first; g != last; ++g) {
      WidenToCover(&merged, *g, ucmp);
    }
    groups.insert(groups.erase(first, last), merged);
  }
  return closure;
}

namespace {

// Whether L0 holds data in `range`: files being compacted are leaving L0
// and do not count (the flush cut's one test of "L0 holds data there").
bool L0HoldsDataIn(const std::vector<L0Span>& l0, const L0Span& range,
                   const Comparator* ucmp) {
  for (const L0Span& s : l0) {
    if (!s.busy && SpansOverlap(s, range, ucmp)) {
      return true;
    }
  }
  return false;
}

// See FlushSplitKeys in the header: each guard moves down to the highest L1
// boundary (an L1 file's first key, the first file's excepted) at or below
// it, if that is above the guard below it and L0 holds no data (files being
// compacted aside) from there up to the guard. Guards stay ascending and
// distinct. Worked example: L0's run [h, z] above [a, f]; L1's files [a, f]
// and [g, z]: the guard "h" becomes "g", so the next flush's keys in [g, h)
// land in the range that L1's file [g, z] lies under.
void AlignGuardsWithL1(const std::vector<L0Span>& l0,
                       const std::vector<L0Span>& l1, const Comparator* ucmp,
                       std::vector<Slice>* guards) {
  auto less = [ucmp](const Slice& a, const Slice& b) {
    return CompareUserKeys(ucmp, a, b) < 0;
  };
  // L1's boundaries: every file's first key but the first file's.
  const auto first_boundary = l1.begin() + std::min<size_t>(l1.size(), 1);
  for (size_t i = 0; i < guards->size(); ++i) {
    const Slice guard = (*guards)[i];
    // The highest L1 boundary at or below the guard.
    const auto above = std::upper_bound(
        first_boundary, l1.end(), guard,
        [&](const Slice& key, const L0Span& f) { return less(key, f.smallest); });
    if (above == first_boundary) {
      continue;  // no boundary at or below it
    }
    const Slice boundary = std::prev(above)->smallest;
    if (!less(boundary, guard) || (i > 0 && !less((*guards)[i - 1], boundary))) {
      continue;  // already there, or at or below the guard under it
    }
    L0Span between{boundary, guard};
    between.exclusive_end = true;  // [boundary, guard)
    if (!L0HoldsDataIn(l0, between, ucmp)) {
      (*guards)[i] = boundary;
    }
  }
}

// Sorts `keys` ascending and drops repeats.
void SortDistinct(std::vector<Slice>* keys, const Comparator* ucmp) {
  auto less = [ucmp](const Slice& a, const Slice& b) {
    return CompareUserKeys(ucmp, a, b) < 0;
  };
  std::sort(keys->begin(), keys->end(), less);
  keys->erase(std::unique(keys->begin(), keys->end(),
                          [&](const Slice& a, const Slice& b) {
                            return !less(a, b) && !less(b, a);
                          }),
              keys->end());
}

// The guards (see FlushSplitKeys in the header), ascending and distinct,
// from L0's ranges and runs as L0RangesOf and L0RunsOf found them, each then
// moved down to L1 (AlignGuardsWithL1):
std::vector<Slice> GuardsOf(const std::vector<L0Span>& l0,
                            const std::vector<L0Span>& l1,
                            const std::vector<L0Range>& ranges,
                            const std::vector<L0Run>& all_runs,
                            const Comparator* ucmp, double sliver_bytes) {
  auto less = [ucmp](const Slice& a, const Slice& b) {
    return CompareUserKeys(ucmp, a, b) < 0;
  };
  // - The first key of every range of L0 (L0RangesOf above; not slivers:
  //   where each flush has a key or two, each flush's keys are ranges of
  //   their own, and as guards each flush would add more, until they passed
  //   the piece cap and thinned. Not cut, a sliver is covered by the next
  //   flush's piece and joins the range it lies in).
  // - The first key of every run that starts with files being compacted,
  //   unless a range of files not being compacted starts inside it. A flush
  //   written during a step over [g, p) must still cut at g, or its piece
  //   would reach from the range below g into [g, p) and join them in L0
  //   for good. But once such a flush is in L0, its piece there starts at
  //   its own first key, h, and that is the range's guard: cutting at g too
  //   would leave [g, h), a key or two, as a sliver that every later flush
  //   cuts again.
  std::vector<Slice> guards;
  for (const L0Range& r : ranges) {
    guards.push_back(r.start);
  }
  for (const L0Run& r : all_runs) {
    bool settled_inside = false;
    for (const L0Range& n : ranges) {
      settled_inside = settled_inside || (!less(n.start, r.span.smallest) &&
                                          UpToEnd(n.start, r.span, ucmp));
    }
    const double per_flush =
        static_cast<double>(r.span.bytes) /
        static_cast<double>(std::max<size_t>(r.flushes, 1));
    if (r.starts_busy && !settled_inside && per_flush >= sliver_bytes) {
      guards.push_back(r.span.smallest);
    }
  }
  SortDistinct(&guards, ucmp);
  AlignGuardsWithL1(l0, l1, ucmp, &guards);
  return guards;
}

}  // namespace

std::vector<std::string> FlushSplitKeys(const std::vector<L0Span>& l0,
                                        const std::vector<L0Span>& l1,
                                        const Comparator* ucmp,
                                        const FlushSplitLimits& limits) {
  if (l1.empty() || limits.max_pieces <= 1 || limits.flush_bytes == 0) {
    return {};
  }
  auto less = [ucmp](const Slice& a, const Slice& b) {
    return CompareUserKeys(ucmp, a, b) < 0;
  };

  // Files being compacted are leaving L0: they block no cut and weigh
  // nothing (L0RangesOf and L0HoldsDataIn see only the others).
  const double sliver_bytes =
      static_cast<double>(limits.min_piece_bytes) / 8;
  const std::vector<L0Range> ranges = L0RangesOf(l0, ucmp, sliver_bytes);
  const std::vector<L0Run> all_runs = L0RunsOf(l0, ucmp);

  // The guards, the keys L0 already holds apart: kept (below), whatever the
  // weights say.
  const std::vector<Slice> guards =
      GuardsOf(l0, l1, ranges, all_runs, ucmp, sliver_bytes);
  // How many flushes' files (not being compacted) hold keys on both sides
  // of `key`.
  auto flushes_straddling = [&](const Slice& key) {
    std::vector<uint64_t> epochs;
    for (const L0Span& s : l0) {
      if (!s.busy && less(s.smallest, key) && UpToEnd(key, s, ucmp)) {
        epochs.push_back(s.epoch);
      }
    }
    return DistinctEpochs(std::move(epochs));
  };
  // The candidate cuts, ascending and distinct: the guards, and the first
  // key of every L1 file (but the first)
  //  - whose range L0 holds no data in: there a cut splits no run, and the
  //    piece above it is expected to span a whole L1 file (a cut at an L1
  //    boundary in the gap just below an L0 run would leave a sliver, as
  //    above); or
  //  - that one flush's piece straddles. That is the flush being written
  //    when a step over the range was picked, cut at the old guards only:
  //    it stays in L0 through the step, and if it blocked the cuts, no
  //    flush written meanwhile could cut the range finer, and the range
  //    would never get finer. The next step over either side takes that
  //    one piece along (older, overlapping), and the sides part. Two
  //    flushes deep, a cut would split data they keep together.
  std::vector<Slice> candidates = guards;
  for (size_t i = 1; i < l1.size(); ++i) {
    if (!L0HoldsDataIn(l0, l1[i], ucmp) || flushes_straddling(l1[i].smallest) == 1) {
      candidates.push_back(l1[i].smallest);
    }
  }
  SortDistinct(&candidates, ucmp);
  auto is_guard = [&](const Slice& key) {
    return std::binary_search(guards.begin(), guards.end(), key, less);
  };

  // Where the flush's bytes are expected: interval j holds the keys in
  // [candidates[j-1], candidates[j]); every L1 file weighs its bytes in the
  // interval that holds its first key, and every L0 range one flush's share
  // of it (its bytes over the flushes that wrote it): a flush's keys spread
  // as the data does, and a backlog of d flushes in one range does not make
  // that range d times likelier (counted whole, L0's backlog made the
  // smallest piece so large that a range being compacted was never cut).
  std::vector<double> weight(candidates.size() + 1, 0);
  double total = 0;
  auto credit = [&](const Slice& first_key, double bytes) {
    const size_t j =
        std::upper_bound(candidates.begin(), candidates.end(), first_key,
                         less) -
        candidates.begin();
    weight[j] += bytes;
    total += bytes;
  };
  for (const L0Span& s : l1) {
    credit(s.smallest, static_cast<double>(s.bytes));
  }
  for (const L0Range& r : ranges) {
    credit(r.start, r.bytes_per_flush);
  }
  if (total <= 0) {
    return {};
  }
  // Where data is expected at all: intervals that hold the first key of an
  // L1 file, an L0 range or a run of L0 files, busy runs included (they
  // weigh nothing, but the flush's keys fall there too).
  std::vector<bool> holds_data(weight.size(), false);
  for (size_t j = 0; j < weight.size(); ++j) {
    holds_data[j] = weight[j] > 0;
  }
  for (const L0Run& r : all_runs) {
    holds_data[std::upper_bound(candidates.begin(), candidates.end(),
                                r.span.smallest, less) -
               candidates.begin()] = true;
  }

  // Cut at every guard L0 holds (once some data is expected below it):
  // dropping one would merge L0's ranges for good, since the next flush's
  // piece would overlap both and later flushes could then only cut around
  // that wider run; the ranges would coarsen flush by flush. Between
  // guards, thin the new cuts from L1 from the left: cut once the piece so
  // far and everything after the cut are each expected to reach the smallest
  // piece allowed, so the new cuts make at most max_pieces pieces.
  const double smallest_piece =
      std::max(total / static_cast<double>(limits.max_pieces),
               total * static_cast<double>(limits.min_piece_bytes) /
                   static_cast<double>(limits.flush_bytes));
  // More guards than a flush may have pieces (no flush cut them so: a guard
  // set that grew in L0's gaps over time): then the guards thin too.
  const bool keep_guards = guards.size() <= limits.max_pieces;
  std::vector<std::string> keys;
  double piece = 0;
  double consumed = 0;
  bool data_below = false;
  for (size_t j = 0; j < candidates.size(); ++j) {
    piece += weight[j];
    consumed += weight[j];
    data_below = data_below || holds_data[j];
    // Once any data is expected below, every guard is kept, whether or not
    // the piece since the last cut weighs anything: a range being compacted
    // weighs nothing, and dropping the guard above it would join it to the
    // next range.
    const bool keep_guard =
        keep_guards && is_guard(candidates[j]) && data_below;
    if (keep_guard ||
        (piece >= smallest_piece && total - consumed >= smallest_piece)) {
      keys.push_back(candidates[j].ToString());
      piece = 0;
    }
  }
  return keys;
}

std::vector<std::string> L0GuardKeys(const std::vector<L0Span>& l0,
                                     const std::vector<L0Span>& l1,
                                     const Comparator* ucmp,
                                     uint64_t min_piece_bytes) {
  const double sliver_bytes = static_cast<double>(min_piece_bytes) / 8;
  std::vector<std::string> keys;
  for (const Slice& g : GuardsOf(l0, l1, L0RangesOf(l0, ucmp, sliver_bytes),
                                 L0RunsOf(l0, ucmp), ucmp, sliver_bytes)) {
    keys.push_back(g.ToString());
  }
  return keys;
}

}  // namespace ROCKSDB_NAMESPACE
