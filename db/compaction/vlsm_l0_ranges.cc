#include "db/compaction/vlsm_l0_ranges.h"

#include <algorithm>
#include <cassert>
#include <utility>

#include "db/dbformat.h"
#include "db/version_edit.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// Whether `key` is at or below the span's end.
bool UpToEnd(const Slice& key, const KeySpan& s, const Comparator* ucmp) {
  const int c = CompareUserKeys(ucmp, key, s.largest);
  return c < 0 || (c == 0 && !s.exclusive_end);
}

}  // namespace

std::vector<L0End> SortedL0Ends(const std::vector<KeySpan>& l0,
                                const Comparator* ucmp, bool count_busy,
                                const std::vector<L0End>* all_ends) {
  std::vector<L0End> ends;
  if (all_ends != nullptr) {
    assert(all_ends->size() == 2 * l0.size());
    ends.reserve(all_ends->size());
    for (const L0End& e : *all_ends) {
      if (count_busy || !l0[e.span].busy) {
        ends.push_back(e);
      }
    }
    return ends;
  }
  for (size_t i = 0; i < l0.size(); ++i) {
    const KeySpan& s = l0[i];
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

void WidenToCover(KeySpan* hull, const KeySpan& span, const Comparator* ucmp) {
  if (CompareUserKeys(ucmp, span.smallest, hull->smallest) < 0) {
    hull->smallest = span.smallest;
  }
  const int c = CompareUserKeys(ucmp, span.largest, hull->largest);
  if (c > 0 || (c == 0 && hull->exclusive_end && !span.exclusive_end)) {
    hull->largest = span.largest;
    hull->exclusive_end = span.exclusive_end;
  }
}

bool SpanEndsBefore(const KeySpan& span, const Slice& key,
                    const Comparator* ucmp) {
  return !UpToEnd(key, span, ucmp);
}

bool SpansOverlap(const KeySpan& a, const KeySpan& b, const Comparator* ucmp) {
  return UpToEnd(a.smallest, b, ucmp) && UpToEnd(b.smallest, a, ucmp);
}

KeySpan SpanOf(const FileMetaData& f) {
  KeySpan span{f.smallest.user_key(), f.largest.user_key(), f.epoch_number,
               f.fd.GetFileSize(), f.being_compacted};
  span.exclusive_end =
      f.largest.size() > 0 &&
      ExtractInternalKeyFooter(f.largest.Encode()) == kRangeTombstoneSentinel;
  return span;
}

std::vector<KeySpan> SpansOf(const std::vector<FileMetaData*>& files) {
  std::vector<KeySpan> spans;
  spans.reserve(files.size());
  for (const FileMetaData* f : files) {
    spans.push_back(SpanOf(*f));
  }
  return spans;
}

int MaxDepth(const std::vector<KeySpan>& l0, const Comparator* ucmp,
             bool count_busy, const std::vector<L0End>* all_ends) {
  // A sweep over the ends: +1 where a span starts, -1 where it ends.
  int depth = 0;
  int deepest = 0;
  for (const L0End& end : SortedL0Ends(l0, ucmp, count_busy, all_ends)) {
    depth += end.order == L0End::kStart ? +1 : -1;
    deepest = std::max(deepest, depth);
  }
  return deepest;
}

bool L0HoldsASplitFlush(const std::vector<FileMetaData*>& l0) {
  // L0 is kept newest first, so the pieces of one flush are neighbours.
  for (size_t i = 1; i < l0.size(); ++i) {
    if (l0[i]->epoch_number == l0[i - 1]->epoch_number &&
        l0[i]->epoch_number != kUnknownEpochNumber) {
      return true;
    }
  }
  return false;
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

std::vector<size_t> OlderOverlapClosure(const std::vector<KeySpan>& l0,
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
  std::vector<KeySpan> groups;
  std::vector<size_t> closure;
  for (size_t i = 0; i < l0.size(); ++i) {
    const KeySpan& f = l0[i];
    // The first group not ending before f starts; groups from there on that
    // overlap f are contiguous.
    auto first = std::partition_point(
        groups.begin(), groups.end(),
        [&](const KeySpan& g) { return SpanEndsBefore(g, f.smallest, ucmp); });
    auto last = first;
    while (last != groups.end() && SpansOverlap(*last, f, ucmp)) {
      ++last;
    }
    if (!in_seed[i] && first == last) {
      continue;
    }
    closure.push_back(i);
    // f joins the groups it overlaps into one.
    KeySpan merged = f;
    for (auto g = first; g != last; ++g) {
      WidenToCover(&merged, *g, ucmp);
    }
    groups.insert(groups.erase(first, last), merged);
  }
  return closure;
}

}  // namespace ROCKSDB_NAMESPACE
