#include "db/compaction/vlsm_l0_due.h"

#include <algorithm>
#include <set>

namespace ROCKSDB_NAMESPACE {

namespace {

// A candidate seed: the files over one key, and the oldest epoch among them.
struct Seed {
  std::vector<size_t> files;  // ascending indexes into l0
  uint64_t oldest_epoch = UINT64_MAX;
};

// The counted files over every key where a counted file starts, in key
// order. One sweep over the files' ends (SortedL0Ends, as MaxDepth's), so
// O(n log n + n * depth) rather than a scan of L0 per key: the estimate
// asks this at every version install, under the DB mutex. `min_depth`:
// sets smaller than this are not wanted.
std::vector<Seed> SeedsInKeyOrder(const std::vector<KeySpan>& l0,
                                  const Comparator* ucmp, bool count_busy,
                                  size_t min_depth,
                                  const std::vector<L0End>* all_ends) {
  const std::vector<L0End> ends = SortedL0Ends(l0, ucmp, count_busy, all_ends);
  // Every snapshot holds a file that starts at its key, so no two repeat.
  std::vector<Seed> seeds;
  std::set<size_t> active;
  for (size_t e = 0; e < ends.size(); ++e) {
    if (ends[e].order != L0End::kStart) {
      active.erase(ends[e].span);
      continue;
    }
    active.insert(ends[e].span);
    const bool last_start_at_key =
        e + 1 == ends.size() || ends[e + 1].order != L0End::kStart ||
        CompareUserKeys(ucmp, ends[e + 1].key, ends[e].key) != 0;
    if (!last_start_at_key || active.size() < min_depth) {
      continue;
    }
    Seed seed{std::vector<size_t>(active.begin(), active.end())};
    for (size_t i : seed.files) {
      seed.oldest_epoch = std::min(seed.oldest_epoch, l0[i].epoch);
    }
    seeds.push_back(std::move(seed));
  }
  return seeds;
}

// The bytes of l0's files in `which` (all when null), files being
// compacted only if count_busy.
uint64_t CountedBytes(const std::vector<KeySpan>& l0,
                      const std::vector<bool>* which, bool count_busy) {
  uint64_t bytes = 0;
  for (size_t i = 0; i < l0.size(); ++i) {
    if ((which == nullptr || (*which)[i]) && (count_busy || !l0[i].busy)) {
      bytes += l0[i].bytes;
    }
  }
  return bytes;
}

std::vector<bool> Marked(size_t n, const std::vector<size_t>& indexes) {
  std::vector<bool> marked(n, false);
  for (size_t i : indexes) {
    marked[i] = true;
  }
  return marked;
}

// The key ranges of the connected groups of l0's files in `which`
// (overlapping files merged), ascending.
std::vector<KeySpan> HullsOf(const std::vector<KeySpan>& l0,
                             const std::vector<size_t>& which,
                             const Comparator* ucmp) {
  std::vector<KeySpan> spans;
  for (size_t i : which) {
    spans.push_back(l0[i]);
  }
  std::sort(spans.begin(), spans.end(),
            [ucmp](const KeySpan& a, const KeySpan& b) {
              return CompareUserKeys(ucmp, a.smallest, b.smallest) < 0;
            });
  std::vector<KeySpan> hulls;
  for (const KeySpan& s : spans) {
    if (hulls.empty() || !SpansOverlap(hulls.back(), s, ucmp)) {
      hulls.push_back(s);
      continue;
    }
    WidenToCover(&hulls.back(), s, ucmp);
  }
  return hulls;
}

}  // namespace

std::vector<std::vector<size_t>> DueL0Seeds(
    const std::vector<KeySpan>& l0, const Comparator* ucmp,
    const RangedL0Triggers& triggers, bool count_busy,
    const std::vector<L0End>* all_ends) {
  const size_t depth = static_cast<size_t>(std::max(triggers.depth, 1));
  const uint64_t total = CountedBytes(l0, nullptr, count_busy);
  const bool over_bytes =
      triggers.byte_target > 0 && total >= triggers.byte_target;
  // The byte rule may take any range; the depth rule only deep ones.
  std::vector<Seed> seeds =
      SeedsInKeyOrder(l0, ucmp, count_busy, over_bytes ? 1 : depth, all_ends);

  std::vector<const Seed*> by_depth;
  for (const Seed& s : seeds) {
    if (s.files.size() >= depth) {
      by_depth.push_back(&s);
    }
  }
  std::stable_sort(by_depth.begin(), by_depth.end(),
                   [](const Seed* a, const Seed* b) {
                     if (a->files.size() != b->files.size()) {
                       return a->files.size() > b->files.size();
                     }
                     return a->oldest_epoch < b->oldest_epoch;
                   });
  std::vector<std::vector<size_t>> due;
  std::vector<size_t> union_of_seeds;
  for (const Seed* s : by_depth) {
    union_of_seeds.insert(union_of_seeds.end(), s->files.begin(),
                          s->files.end());
    due.push_back(s->files);
  }
  if (!over_bytes) {
    return due;
  }
  // What the steps due by depth take (the closure of a union is the union
  // of the closures) stays out of what the byte rule measures.
  std::vector<bool> taken =
      Marked(l0.size(), OlderOverlapClosure(l0, union_of_seeds, ucmp));
  uint64_t staying = total - CountedBytes(l0, &taken, count_busy);
  std::stable_sort(seeds.begin(), seeds.end(),
                   [](const Seed& a, const Seed& b) {
                     return a.oldest_epoch < b.oldest_epoch;
                   });
  for (Seed& s : seeds) {
    if (staying < triggers.byte_target) {
      break;
    }
    // Taken steps are closed: a seed inside them adds nothing.
    if (std::all_of(s.files.begin(), s.files.end(),
                    [&](size_t i) { return taken[i]; })) {
      continue;
    }
    for (size_t i : OlderOverlapClosure(l0, s.files, ucmp)) {
      if (!taken[i]) {
        taken[i] = true;
        if (count_busy || !l0[i].busy) {
          staying -= l0[i].bytes;
        }
      }
    }
    due.push_back(std::move(s.files));
  }
  return due;
}

double RangedL0ScoreOfShape(int max_depth, uint64_t bytes,
                            const RangedL0Triggers& triggers) {
  const double by_depth = static_cast<double>(max_depth) /
                          static_cast<double>(std::max(triggers.depth, 1));
  if (triggers.byte_target == 0) {
    return by_depth;
  }
  return std::max(by_depth, static_cast<double>(bytes) /
                                static_cast<double>(triggers.byte_target));
}

double RangedL0Score(const std::vector<KeySpan>& l0, const Comparator* ucmp,
                     const RangedL0Triggers& triggers,
                     const std::vector<L0End>* all_ends) {
  return RangedL0ScoreOfShape(
      MaxDepth(l0, ucmp, /*count_busy=*/false, all_ends),
      CountedBytes(l0, nullptr, /*count_busy=*/false), triggers);
}

namespace {

// The term of the owed files (ascending indexes into l0, a closed set): their
// bytes, and the bytes of the files below their key range.
L0DebtTerm TermOf(const std::vector<KeySpan>& l0,
                  const std::vector<size_t>& owed,
                  const std::vector<KeySpan>& below, const Comparator* ucmp) {
  L0DebtTerm term;
  for (size_t i : owed) {
    term.l0_bytes += l0[i].bytes;
  }
  // A step rewrites the files below its key range. The owed files' groups
  // are the steps' ranges (merged where they touch): one walk over both,
  // each file below counted once.
  const std::vector<KeySpan> hulls = HullsOf(l0, owed, ucmp);
  size_t h = 0;
  for (const KeySpan& f : below) {
    // Both are sorted and disjoint: the first hull not ending before f is
    // the only one that can overlap it (the next starts after its end).
    while (h < hulls.size() && SpanEndsBefore(hulls[h], f.smallest, ucmp)) {
      ++h;
    }
    if (h == hulls.size()) {
      break;
    }
    if (SpansOverlap(hulls[h], f, ucmp)) {
      term.below_bytes += f.bytes;
    }
  }
  return term;
}

// The files of the due steps, busy files counted as present (so not
// depending on which are busy), with `extra` seeds added; closed over older
// overlapping files.
std::vector<size_t> OwedFiles(const std::vector<KeySpan>& l0,
                              const Comparator* ucmp,
                              const RangedL0Triggers& triggers,
                              const std::vector<L0End>* all_ends,
                              std::vector<size_t> extra) {
  std::vector<size_t> seeds = std::move(extra);
  for (const std::vector<size_t>& s :
       DueL0Seeds(l0, ucmp, triggers, /*count_busy=*/true, all_ends)) {
    seeds.insert(seeds.end(), s.begin(), s.end());
  }
  if (seeds.empty()) {
    return {};
  }
  return OlderOverlapClosure(l0, seeds, ucmp);
}

}  // namespace

L0DebtAtRest RangedL0DebtAtRest(const std::vector<KeySpan>& l0,
                                const std::vector<KeySpan>& below,
                                const Comparator* ucmp,
                                const RangedL0Triggers& triggers,
                                const std::vector<L0End>* all_ends) {
  L0DebtAtRest at_rest;
  at_rest.triggers = triggers;
  const std::vector<size_t> owed =
      OwedFiles(l0, ucmp, triggers, all_ends, /*extra=*/{});
  at_rest.owed = Marked(l0.size(), owed);
  at_rest.term = TermOf(l0, owed, below, ucmp);
  return at_rest;
}

L0DebtTerm RangedL0Debt(const std::vector<KeySpan>& l0,
                        const std::vector<KeySpan>& below,
                        const Comparator* ucmp,
                        const RangedL0Triggers& triggers,
                        const std::vector<L0End>* all_ends) {
  // A running step is owed until it installs, due or not now (the trigger
  // in force may have risen since it was picked).
  std::vector<size_t> busy;
  for (size_t i = 0; i < l0.size(); ++i) {
    if (l0[i].busy) {
      busy.push_back(i);
    }
  }
  return TermOf(l0, OwedFiles(l0, ucmp, triggers, all_ends, std::move(busy)),
                below, ucmp);
}

}  // namespace ROCKSDB_NAMESPACE
