// The ranged L0 layout (issue 20; docs/design/ranged-layout.md): its
// decisions as pure functions over user-key ranges, so that each is tested
// without a DB. In use under compaction_pri = kVlsmRanged:
// OlderOverlapClosure closes the due steps of vlsm_l0_due.h over older files
// (PickRangedL0, the estimate); MaxDepth and RangedDepthTrigger feed the due
// rule (vlsm_l0_due.h), L0MemtablesWorth the write-stall count
// (VlsmL0StallCount); the sweeps and overlap tests serve where flushes are
// cut too (vlsm_flush_split_keys.cc, which keeps its own ranges and runs).
//
// Why. In the paper's layout L0 is a FIFO of whole flushes and each L0 -> L1
// step takes one flush: narrow, but each step rewrites the L1 range for one
// flush's worth of new data, about 1 + L1/M bytes written per byte flushed.
// Letting L0 hold d flushes before a step cuts that to 1 + L1/(d*M), but a
// step over all of L0 is then L1 + d*M wide (RocksDB's tiered L0). The
// ranged layout keeps both: L0 holds d flushes, and a step takes one key
// range of L0 (every flush's piece of it) with the L1 files below it.
//
// Worked example. L1 is cut at "g" and "p"; three flushes were split there:
//
//          [a .. f]   [g .. o]   [p .. z]     flush 3 (epoch 3)
//          [b .. f]   [h .. n]   [q .. y]     flush 2 (epoch 2)
//          [a .. e]   [g .. o]   [p .. x]     flush 1 (epoch 1)
//     L1:  [a .. f]   [g .. o]   [p .. z]
//
// Depth (the most L0 files covering one key) is 3. A step for "g".."o"
// takes the three middle pieces and L1's middle file: a third of the width
// of a step over all of L0, at the same cost per byte flushed.
//
// The read-order rule (vlsm_picker.h, VlsmCheckL0Order) holds because a step
// takes, with every L0 file, every OLDER L0 file that overlaps it: reads
// search L0 newest first and then L1, so a newer version may stay in L0
// above an older one moved to L1, never the other way round. Newer files
// that overlap may stay (they still shadow what goes to L1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rocksdb/comparator.h"
#include "rocksdb/rocksdb_namespace.h"
#include "rocksdb/slice.h"

namespace ROCKSDB_NAMESPACE {

struct FileMetaData;

// One file as these functions see it. Keys are user keys; a file's range
// includes its range tombstones. Both ends are in the range, except when the
// file ends at a range tombstone's end (its largest key is the sentinel
// key@kMaxSeq): it holds nothing at that user key. Split flushes end a piece
// so wherever a deletion crosses a guard (db/vlsm_flush_split.h).
struct KeySpan {
  Slice smallest;
  Slice largest;
  uint64_t epoch = 0;  // L0: a larger epoch holds newer data
  uint64_t bytes = 0;
  bool busy = false;           // taking part in a running compaction
  bool exclusive_end = false;  // `largest` itself is not in the range
};

// ucmp->CompareWithoutTimestamp(a, b), without the virtual call for the
// bytewise comparator, the common case: the L0 decisions sort and sweep
// thousands of keys at every version install, under the DB mutex, where a
// virtual call per comparison is most of their cost (tools/vlsm_l0_cost
// measures it).
inline int CompareUserKeys(const Comparator* ucmp, const Slice& a,
                           const Slice& b) {
  static const Comparator* const kBytewise = BytewiseComparator();
  return ucmp == kBytewise ? a.compare(b) : ucmp->CompareWithoutTimestamp(a, b);
}

// The order of user keys (CompareUserKeys), for sorts and binary searches.
struct UserKeyLess {
  const Comparator* ucmp;
  bool operator()(const Slice& a, const Slice& b) const {
    return CompareUserKeys(ucmp, a, b) < 0;
  }
};

// A file's span, and the spans of a level's files in the level's order. The
// slices point into the files' keys: the files must outlive the spans.
KeySpan SpanOf(const FileMetaData& file);
std::vector<KeySpan> SpansOf(const std::vector<FileMetaData*>& files);

// One end of a span, for sweeps over L0 in key order. At one key, exclusive
// ends come first (the span does not reach the key), then the starts, then
// inclusive ends (the span holds the key): a sweep that adds a span at its
// start and drops it at its end then holds, after the starts at a key, the
// spans covering that key.
struct L0End {
  enum Order : int { kExclusiveEnd = 0, kStart = 1, kEnd = 2 };
  Slice key;
  Order order;
  size_t span;  // index into the spans
};

// The ends of the spans (with count_busy = false, of those not being
// compacted), in that order.
//
// `all_ends`, when given, is SortedL0Ends(l0, ucmp, true) sorted before (a
// version's L0 model holds it: VlsmL0Model::ends()): the ends are taken from
// it, busy spans left out unless count_busy, instead of sorted again. The
// order among ends of one kind at one key may then differ from a fresh
// sort's; no sweep here depends on it (each acts on a key's ends of one kind
// together).
std::vector<L0End> SortedL0Ends(const std::vector<KeySpan>& l0,
                                const Comparator* ucmp, bool count_busy,
                                const std::vector<L0End>* all_ends = nullptr);

// Whether the span ends before `key` (holds no key at or above it): the
// binary-search test of sweeps over sorted, disjoint spans.
bool SpanEndsBefore(const KeySpan& span, const Slice& key,
                    const Comparator* ucmp);

// Widens *hull to cover `span` too (both ends, an end that holds its key
// winning over an exclusive one at the same key).
void WidenToCover(KeySpan* hull, const KeySpan& span, const Comparator* ucmp);

// Whether two spans share a user key: the one overlap test of the L0 order
// rule, for the closure below and VlsmCheckL0Order alike. (RocksDB's own L0
// overlap tests include a sentinel's user key: stricter than needed, and
// still correct.)
bool SpansOverlap(const KeySpan& a, const KeySpan& b, const Comparator* ucmp);

// L0's depth: the most spans that cover any one user key (0 for none).
// With count_busy = false, spans in a running compaction do not count, as
// RocksDB's L0 score counts only files not being compacted.
// `all_ends` as for SortedL0Ends.
int MaxDepth(const std::vector<KeySpan>& l0, const Comparator* ucmp,
             bool count_busy = true,
             const std::vector<L0End>* all_ends = nullptr);

// The L0 inputs of the step that starts from `seed`: the seed, then, until
// nothing changes, every span older than one already taken whose range
// overlaps it. Older means later in l0, which is in L0's order, newest first:
// the order reads search L0 in and VlsmCheckL0Order checks. Not the epoch:
// the outputs of one compaction share an epoch (and so will the pieces of
// one split flush), yet two of them can share a user key. Ascending indexes
// into l0.
std::vector<size_t> OlderOverlapClosure(const std::vector<KeySpan>& l0,
                                        const std::vector<size_t>& seed,
                                        const Comparator* ucmp);

// L0's bytes in memtables' worth, rounded up (0 for an empty L0): the unit
// of the ranged layout's write stall triggers (VlsmL0StallCount). A memtable's
// worth is write_buffer_size; a flush writes less than that when it
// compresses, so L0 then holds more flushes before writes slow down.
int L0MemtablesWorth(uint64_t l0_bytes, uint64_t memtable_bytes);

// Whether two files of L0 (newest first, as a version keeps it) share an
// epoch: the pieces of one split flush. While it holds, every layout's stall
// count is L0's bytes in memtables' worth (VlsmL0StallCount).
bool L0HoldsASplitFlush(const std::vector<FileMetaData*>& l0);

// The depth at which the ranged layout compacts a range of L0: one more than
// L1's whole memtables' worth (L1 bytes / memtable bytes, rounded down), at
// most the configured depth trigger (level0_file_num_compaction_trigger).
//
// Why. A step over a range rewrites the range's L1 bytes for the range's L0
// bytes: about 1 + L1/(d*M) bytes written per byte flushed at depth d with
// memtables of M bytes. Compacting once L0 holds about L1's bytes (d*M ~ L1)
// keeps that near 2 at any L1 size, and keeps the step about twice the
// range's L1 bytes wide. With a fixed depth a fresh DB's first step would
// take the trigger's worth of whole flushes (a flush is not cut while L1 is
// empty) and the next one all of the new L1 with the flushes written
// meanwhile: at depth 32 with 8 MiB memtables, steps of hundreds of MiB.
// Once L1 holds the trigger's memtables' worth (less one: an L1 at its target
// less the file an L1 -> L2 step just took), the configured depth rules; so
// in a settled tree the depth is at most about L1's target in memtables'
// worth, whatever is configured.
int RangedDepthTrigger(int depth_trigger, uint64_t l1_bytes,
                       uint64_t memtable_bytes);

}  // namespace ROCKSDB_NAMESPACE
