#include "db/compaction/vlsm_l0_sublevels.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "db/version_set.h"
#include "monitoring/perf_context_imp.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// Both ends included: touching spans overlap (see the header).
bool Touches(const KeySpan& a, const KeySpan& b, const Comparator* ucmp) {
  return CompareUserKeys(ucmp, a.smallest, b.largest) <= 0 &&
         CompareUserKeys(ucmp, b.smallest, a.largest) <= 0;
}

VlsmL0ReadPath ReadPathFromEnvironment() {
  const char* v = std::getenv("VLSM_L0_READ_PATH");
  if (v == nullptr || std::strcmp(v, "auto") == 0) {
    return VlsmL0ReadPath::kAuto;
  }
  if (std::strcmp(v, "sublevels") == 0) {
    return VlsmL0ReadPath::kSublevels;
  }
  if (std::strcmp(v, "files") == 0) {
    return VlsmL0ReadPath::kFiles;
  }
  std::fprintf(stderr,
               "VLSM_L0_READ_PATH=%s is not auto, sublevels or files; "
               "ignored (auto)\n",
               v);
  return VlsmL0ReadPath::kAuto;
}

std::atomic<VlsmL0ReadPath>& ReadPath() {
  static std::atomic<VlsmL0ReadPath> path{ReadPathFromEnvironment()};
  return path;
}

}  // namespace

namespace {

// Each sublevel's spans (indexes into l0), sublevel 0 first, each in key
// order: AssignL0Sublevels's rule, kept as the runs it builds so that the
// sublevels reads take need no sort of their own.
std::vector<std::vector<size_t>> L0SublevelRuns(const std::vector<KeySpan>& l0,
                                                const Comparator* ucmp) {
  // A run's spans are sorted by smallest key and disjoint, so their largest
  // keys are sorted too, and the one span of a run that can overlap [s, l]
  // is the last one starting at or before l.
  std::vector<std::vector<size_t>> runs;
  auto starts_after = [&](const Slice& key, size_t span) {
    return CompareUserKeys(ucmp, key, l0[span].smallest) < 0;
  };
  for (size_t i = l0.size(); i-- > 0;) {  // oldest first
    const KeySpan& f = l0[i];
    size_t placed = 0;
    for (size_t r = runs.size(); r-- > 0;) {  // the highest overlap wins
      const std::vector<size_t>& run = runs[r];
      auto after =
          std::upper_bound(run.begin(), run.end(), f.largest, starts_after);
      if (after != run.begin() &&
          CompareUserKeys(ucmp, l0[*(after - 1)].largest, f.smallest) >= 0) {
        placed = r + 1;
        break;
      }
    }
    if (placed == runs.size()) {
      runs.emplace_back();
    }
    std::vector<size_t>& run = runs[placed];
    run.insert(
        std::upper_bound(run.begin(), run.end(), f.largest, starts_after), i);
  }
  return runs;
}

}  // namespace

std::vector<int> AssignL0Sublevels(const std::vector<KeySpan>& l0,
                                   const Comparator* ucmp) {
  std::vector<int> sublevel(l0.size(), 0);
  const std::vector<std::vector<size_t>> runs = L0SublevelRuns(l0, ucmp);
  for (size_t r = 0; r < runs.size(); ++r) {
    for (size_t i : runs[r]) {
      sublevel[i] = static_cast<int>(r);
    }
  }
  return sublevel;
}

std::unique_ptr<VlsmL0Sublevels> BuildVlsmL0Sublevels(
    const std::vector<FileMetaData*>& l0, const std::vector<KeySpan>& spans,
    const Comparator* ucmp, Arena* arena) {
  const std::vector<std::vector<size_t>> runs = L0SublevelRuns(spans, ucmp);
  assert(L0SublevelsKeepEpochOrder(spans, AssignL0Sublevels(spans, ucmp),
                                   ucmp));
  auto sublevels = std::make_unique<VlsmL0Sublevels>();
  sublevels->newest_first.resize(runs.size());
  std::vector<FileMetaData*> files;
  for (size_t r = 0; r < runs.size(); ++r) {
    // A run is in key order already: disjoint in user keys, so ordered by
    // smallest user key as a level is (FindFileInRange).
    files.clear();
    for (size_t i : runs[r]) {
      files.push_back(l0[i]);
    }
    DoGenerateLevelFilesBrief(&sublevels->newest_first[runs.size() - 1 - r],
                              files, arena);
  }
  sublevels->oldest_file = l0.empty() ? nullptr : l0.back();
  return sublevels;
}

int L0SublevelCount(const std::vector<int>& sublevels) {
  return sublevels.empty()
             ? 0
             : *std::max_element(sublevels.begin(), sublevels.end()) + 1;
}

bool L0SublevelsKeepEpochOrder(const std::vector<KeySpan>& l0,
                               const std::vector<int>& sublevels,
                               const Comparator* ucmp) {
  for (size_t i = 0; i < l0.size(); ++i) {
    for (size_t j = i + 1; j < l0.size(); ++j) {
      if (!Touches(l0[i], l0[j], ucmp)) {
        continue;
      }
      // l0 is newest first: j is older than i, or of the same epoch.
      if (l0[i].epoch == l0[j].epoch ? sublevels[i] == sublevels[j]
                                     : sublevels[i] <= sublevels[j]) {
        return false;
      }
    }
  }
  return true;
}

void VlsmSetL0ReadPathForTest(VlsmL0ReadPath path) { ReadPath().store(path); }

VlsmL0ReadPath VlsmL0ReadPathForTest() {
  return ReadPath().load(std::memory_order_relaxed);
}

namespace {

// The file of `run` that may hold a visible version of ikey's user key
// `ukey`, or null; `compare` is the comparator's CompareWithoutTimestamp.
template <typename Compare>
const FdWithKeyRange* RunFileHolding(const LevelFilesBrief& run,
                                     const Slice& ukey, const Slice& ikey,
                                     const InternalKeyComparator& icmp,
                                     const Compare& compare,
                                     uint64_t* comparisons) {
  // The first file whose largest user key is at or after ukey, and that
  // comparison's result (the search compares every file it lands on).
  size_t lo = 0;
  size_t hi = run.num_files;
  int hi_vs_key = 1;
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    const int c = compare(ExtractUserKey(run.files[mid].largest_key), ukey);
    ++*comparisons;
    if (c < 0) {
      lo = mid + 1;
    } else {
      hi = mid;
      hi_vs_key = c;
    }
  }
  if (lo == run.num_files) {
    return nullptr;
  }
  const FdWithKeyRange& f = run.files[lo];
  if (hi_vs_key == 0) {
    // ukey is f's largest user key: f holds a visible version only if its
    // largest internal key sorts at or after the read's (the versions of a
    // key sort newest first). The next file starts past ukey. (icmp counts
    // this comparison itself.)
    if (icmp.Compare(f.largest_key, ikey) < 0) {
      return nullptr;
    }
  }
  ++*comparisons;
  return compare(ukey, ExtractUserKey(f.smallest_key)) < 0 ? nullptr : &f;
}

template <typename Compare>
const FdWithKeyRange* NextL0FileFor(const VlsmL0Sublevels& sublevels,
                                    const InternalKeyComparator& icmp,
                                    const Slice& ikey, size_t* next,
                                    const Compare& compare) {
  const Slice ukey = ExtractUserKey(ikey);
  const std::vector<LevelFilesBrief>& runs = sublevels.newest_first;
  uint64_t comparisons = 0;
  const FdWithKeyRange* found = nullptr;
  while (found == nullptr && *next < runs.size()) {
    found = RunFileHolding(runs[(*next)++], ukey, ikey, icmp, compare,
                           &comparisons);
  }
  PERF_COUNTER_ADD(user_key_comparison_count, comparisons);
  return found;
}

int CompareBytewise(const Slice& a, const Slice& b) { return a.compare(b); }

// Calls search(compare) with the comparator's CompareWithoutTimestamp: a
// memcmp for the bytewise comparator, decided once per read.
template <typename Search>
auto WithUserKeyCompare(const Comparator* ucmp, const Search& search) {
  static const Comparator* const kBytewise = BytewiseComparator();
  if (ucmp == kBytewise) {
    return search(CompareBytewise);
  }
  return search([ucmp](const Slice& a, const Slice& b) {
    return ucmp->CompareWithoutTimestamp(a, b);
  });
}

}  // namespace

const FdWithKeyRange* VlsmNextL0FileFor(const VlsmL0Sublevels& sublevels,
                                        const Comparator* ucmp,
                                        const InternalKeyComparator& icmp,
                                        const Slice& ikey, size_t* next) {
  return WithUserKeyCompare(ucmp, [&](const auto& compare) {
    return NextL0FileFor(sublevels, icmp, ikey, next, compare);
  });
}

size_t VlsmL0RunFileFor(const LevelFilesBrief& run, const Comparator* ucmp,
                        const InternalKeyComparator& icmp, const Slice& ikey) {
  return WithUserKeyCompare(ucmp, [&](const auto& compare) {
    uint64_t comparisons = 0;
    const FdWithKeyRange* f = RunFileHolding(run, ExtractUserKey(ikey), ikey,
                                             icmp, compare, &comparisons);
    PERF_COUNTER_ADD(user_key_comparison_count, comparisons);
    return f == nullptr ? run.num_files
                        : static_cast<size_t>(f - run.files);
  });
}

}  // namespace ROCKSDB_NAMESPACE
