#include "db/compaction/vlsm_l0_ranges.h"

#include <algorithm>
#include <set>
#include <utility>

#include "db/dbformat.h"
#include "db/version_edit.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// Whether `key` is at or below the span's end.
bool UpToEnd(const Slice& key, const L0Span& s, const Comparator* ucmp) {
  const int c = ucmp->CompareWithoutTimestamp(key, s.largest);
  return c < 0 || (c == 0 && !s.exclusive_end);
}

bool Covers(const L0Span& s, const Slice& key, const Comparator* ucmp) {
  return ucmp->CompareWithoutTimestamp(s.smallest, key) <= 0 &&
         UpToEnd(key, s, ucmp);
}

}  // namespace

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
  // A sweep over the ends: +1 where a span starts, -1 where it ends. At one
  // key, exclusive ends count first (the span does not reach the key), then
  // the starts, then inclusive ends (the span holds the key).
  struct End {
    Slice key;
    int order;  // 0 exclusive end, 1 start, 2 inclusive end
  };
  std::vector<End> ends;
  for (const L0Span& s : l0) {
    if (count_busy || !s.busy) {
      ends.push_back({s.smallest, 1});
      ends.push_back({s.largest, s.exclusive_end ? 0 : 2});
    }
  }
  std::sort(ends.begin(), ends.end(), [ucmp](const End& a, const End& b) {
    const int c = ucmp->CompareWithoutTimestamp(a.key, b.key);
    return c != 0 ? c < 0 : a.order < b.order;
  });
  int depth = 0;
  int deepest = 0;
  for (const End& end : ends) {
    depth += end.order == 1 ? +1 : -1;
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

double RangedL0Score(int depth, int depth_trigger, int memtables_worth,
                     int slowdown_trigger) {
  const double score =
      static_cast<double>(depth) / static_cast<double>(std::max(depth_trigger, 1));
  if (slowdown_trigger > 0 && memtables_worth >= slowdown_trigger) {
    return std::max(score, 1.0);
  }
  return score;
}

std::vector<std::vector<size_t>> RankedL0Seeds(const std::vector<L0Span>& l0,
                                               const Comparator* ucmp) {
  // Depth only rises where a span starts, so every range of constant depth
  // that is deepest somewhere begins at a span's first key: those keys are
  // the candidates. O(n^2) for n L0 files, fine for the hundreds L0 holds.
  struct Seed {
    std::vector<size_t> covering;
    uint64_t oldest_epoch;
  };
  std::vector<Seed> seeds;
  std::set<std::vector<size_t>> seen;
  for (const L0Span& start : l0) {
    Seed seed{{}, UINT64_MAX};
    for (size_t i = 0; i < l0.size(); ++i) {
      if (Covers(l0[i], start.smallest, ucmp)) {
        seed.covering.push_back(i);
        seed.oldest_epoch = std::min(seed.oldest_epoch, l0[i].epoch);
      }
    }
    if (seen.insert(seed.covering).second) {
      seeds.push_back(std::move(seed));
    }
  }
  std::stable_sort(seeds.begin(), seeds.end(),
                   [](const Seed& a, const Seed& b) {
                     if (a.covering.size() != b.covering.size()) {
                       return a.covering.size() > b.covering.size();
                     }
                     return a.oldest_epoch < b.oldest_epoch;
                   });
  std::vector<std::vector<size_t>> ranked;
  ranked.reserve(seeds.size());
  for (Seed& s : seeds) {
    ranked.push_back(std::move(s.covering));
  }
  return ranked;
}

std::vector<size_t> OlderOverlapClosure(const std::vector<L0Span>& l0,
                                        const std::vector<size_t>& seed,
                                        const Comparator* ucmp) {
  std::vector<bool> taken(l0.size(), false);
  std::vector<size_t> to_visit;
  for (size_t i : seed) {
    if (!taken[i]) {
      taken[i] = true;
      to_visit.push_back(i);
    }
  }
  while (!to_visit.empty()) {
    const size_t t = to_visit.back();
    to_visit.pop_back();
    // Older: later in L0's order (newest first), as reads and the L0
    // order rule see it; epochs can tie (see the header).
    for (size_t o = t + 1; o < l0.size(); ++o) {
      if (!taken[o] && SpansOverlap(l0[o], l0[t], ucmp)) {
        taken[o] = true;
        to_visit.push_back(o);
      }
    }
  }
  std::vector<size_t> closure;
  for (size_t i = 0; i < l0.size(); ++i) {
    if (taken[i]) {
      closure.push_back(i);
    }
  }
  return closure;
}

std::vector<std::string> FlushSplitKeys(const std::vector<L0Span>& l0,
                                        const std::vector<L0Span>& l1,
                                        const Comparator* ucmp,
                                        const FlushSplitLimits& limits) {
  if (l1.empty() || limits.max_pieces <= 1 || limits.flush_bytes == 0) {
    return {};
  }
  auto less = [ucmp](const Slice& a, const Slice& b) {
    return ucmp->CompareWithoutTimestamp(a, b) < 0;
  };
  auto by_first_key = [&](const L0Span& a, const L0Span& b) {
    return less(a.smallest, b.smallest);
  };

  // L0's connected runs: files by first key, merged while they overlap.
  auto runs_of = [&](bool with_busy) {
    std::vector<L0Span> sorted_l0;
    for (const L0Span& s : l0) {
      if (with_busy || !s.busy) {
        sorted_l0.push_back(s);
      }
    }
    std::sort(sorted_l0.begin(), sorted_l0.end(), by_first_key);
    std::vector<L0Span> runs;
    for (const L0Span& s : sorted_l0) {
      if (!runs.empty() && UpToEnd(s.smallest, runs.back(), ucmp)) {
        L0Span& run = runs.back();
        const int c = ucmp->CompareWithoutTimestamp(run.largest, s.largest);
        if (c < 0) {
          run.largest = s.largest;
          run.exclusive_end = s.exclusive_end;
        } else if (c == 0) {
          run.exclusive_end = run.exclusive_end && s.exclusive_end;
        }
        run.bytes += s.bytes;
      } else {
        runs.push_back(s);
      }
    }
    return runs;
  };
  // Files being compacted are leaving L0: they block no cut and weigh
  // nothing. But where their runs start stays a guard: a flush written
  // during a step over [g, p) must still cut at g, or its piece would reach
  // from the range below g into [g, p) and join them in L0 for good.
  const std::vector<L0Span> runs = runs_of(/*with_busy=*/false);
  auto inside_a_run = [&](const Slice& key) {
    for (const L0Span& r : runs) {
      if (less(r.smallest, key) && UpToEnd(key, r, ucmp)) {
        return true;  // the run holds keys on both sides of a cut at key
      }
    }
    return false;
  };

  // The candidate cuts, ascending and distinct. A run's first key is a
  // guard L0 already holds: kept (below), whatever the weights say.
  std::vector<Slice> candidates;
  std::vector<Slice> guards;
  for (const L0Span& r : runs) {
    guards.push_back(r.smallest);
  }
  for (const L0Span& r : runs_of(/*with_busy=*/true)) {
    guards.push_back(r.smallest);
  }
  auto sort_distinct = [&](std::vector<Slice>* keys) {
    std::sort(keys->begin(), keys->end(), less);
    keys->erase(std::unique(keys->begin(), keys->end(),
                            [&](const Slice& a, const Slice& b) {
                              return !less(a, b) && !less(b, a);
                            }),
                keys->end());
  };
  sort_distinct(&guards);
  candidates = guards;
  for (size_t i = 1; i < l1.size(); ++i) {
    if (!inside_a_run(l1[i].smallest)) {
      candidates.push_back(l1[i].smallest);
    }
  }
  sort_distinct(&candidates);
  auto is_guard = [&](const Slice& key) {
    return std::binary_search(guards.begin(), guards.end(), key, less);
  };

  // Where the flush's bytes are expected: interval j holds the keys in
  // [candidates[j-1], candidates[j]); every L1 file and L0 run weighs its
  // bytes in the interval that holds its first key.
  std::vector<double> weight(candidates.size() + 1, 0);
  double total = 0;
  auto credit = [&](const L0Span& s) {
    const size_t j =
        std::upper_bound(candidates.begin(), candidates.end(), s.smallest,
                         less) -
        candidates.begin();
    weight[j] += static_cast<double>(s.bytes);
    total += static_cast<double>(s.bytes);
  };
  for (const L0Span& s : l1) {
    credit(s);
  }
  for (const L0Span& r : runs) {
    credit(r);
  }
  if (total <= 0) {
    return {};
  }
  // Where data is expected at all: intervals that hold the first key of an
  // L1 file or of an L0 run, busy runs included (they weigh nothing, but the
  // flush's keys fall there too).
  std::vector<bool> holds_data(weight.size(), false);
  for (size_t j = 0; j < weight.size(); ++j) {
    holds_data[j] = weight[j] > 0;
  }
  for (const L0Span& r : runs_of(/*with_busy=*/true)) {
    holds_data[std::upper_bound(candidates.begin(), candidates.end(),
                                r.smallest, less) -
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
  // More runs than a flush may have pieces (no flush cut them so: a guard
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

}  // namespace ROCKSDB_NAMESPACE
