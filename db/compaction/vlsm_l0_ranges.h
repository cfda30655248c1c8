// The ranged L0 layout (issue 20; spec section 8): its decisions as pure
// functions over user-key ranges, so that each is tested without a DB.
// In use under compaction_pri = kVlsmRanged: OlderOverlapClosure closes the
// due steps of vlsm_l0_due.h over older files (PickRangedL0, the estimate);
// FlushSplitKeys cuts every flush (db/vlsm_flush_split.h), and L0GuardKeys,
// the guards among its cuts, cut L1's outputs (vlsm_l1_guard_cuts.h); MaxDepth
// and RangedDepthTrigger feed the due rule (vlsm_l0_due.h), L0MemtablesWorth
// the write-stall count (VlsmL0StallCount).
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
#include <string>
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
struct L0Span {
  Slice smallest;
  Slice largest;
  uint64_t epoch = 0;  // L0: a larger epoch holds newer data
  uint64_t bytes = 0;
  bool busy = false;   // taking part in a running compaction
  bool exclusive_end = false;  // `largest` itself is not in the range
};

// ucmp->CompareWithoutTimestamp(a, b), without the virtual call for the
// bytewise comparator, the common case: the L0 decisions sort and sweep
// thousands of keys at every version install, under the DB mutex (at 1,000
// L0 files the virtual calls were most of a millisecond; tools/vlsm_l0_cost).
inline int CompareUserKeys(const Comparator* ucmp, const Slice& a,
                           const Slice& b) {
  static const Comparator* const kBytewise = BytewiseComparator();
  return ucmp == kBytewise ? a.compare(b) : ucmp->CompareWithoutTimestamp(a, b);
}

// A file's span, and the spans of a level's files in the level's order. The
// slices point into the files' keys: the files must outlive the spans.
L0Span SpanOf(const FileMetaData& file);
std::vector<L0Span> SpansOf(const std::vector<FileMetaData*>& files);

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
std::vector<L0End> SortedL0Ends(const std::vector<L0Span>& l0,
                                const Comparator* ucmp, bool count_busy);

// Whether the span ends before `key` (holds no key at or above it): the
// binary-search test of sweeps over sorted, disjoint spans.
bool SpanEndsBefore(const L0Span& span, const Slice& key,
                    const Comparator* ucmp);

// Widens *hull to cover `span` too (both ends, an end that holds its key
// winning over an exclusive one at the same key).
void WidenToCover(L0Span* hull, const L0Span& span, const Comparator* ucmp);

// Whether two spans share a user key: the one overlap test of the L0 order
// rule, for the closure below and VlsmCheckL0Order alike. (RocksDB's own L0
// overlap tests include a sentinel's user key: stricter than needed, and
// still correct.)
bool SpansOverlap(const L0Span& a, const L0Span& b, const Comparator* ucmp);

// L0's depth: the most spans that cover any one user key (0 for none).
// With count_busy = false, spans in a running compaction do not count, as
// RocksDB's L0 score counts only files not being compacted.
int MaxDepth(const std::vector<L0Span>& l0, const Comparator* ucmp,
             bool count_busy = true);

// The L0 inputs of the step that starts from `seed`: the seed, then, until
// nothing changes, every span older than one already taken whose range
// overlaps it. Older means later in l0, which is in L0's order, newest first:
// the order reads search L0 in and VlsmCheckL0Order checks. Not the epoch:
// the outputs of one compaction share an epoch (and so will the pieces of
// one split flush), yet two of them can share a user key. Ascending indexes
// into l0.
std::vector<size_t> OlderOverlapClosure(const std::vector<L0Span>& l0,
                                        const std::vector<size_t>& seed,
                                        const Comparator* ucmp);

// L0's bytes in memtables' worth, rounded up (0 for an empty L0): the unit
// of the ranged layout's write stall triggers (VlsmL0StallCount). A memtable's
// worth is write_buffer_size; a flush writes less than that when it
// compresses, so L0 then holds more flushes before writes slow down.
int L0MemtablesWorth(uint64_t l0_bytes, uint64_t memtable_bytes);

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
// meanwhile: measured 224 MiB and 451 MiB at depth 32 with 8 MiB memtables.
// Once L1 holds the trigger's memtables' worth (less one: an L1 at its target
// less the file an L1 -> L2 step just took), the configured depth rules; so
// in a settled tree the depth is at most about L1's target in memtables'
// worth, whatever is configured.
int RangedDepthTrigger(int depth_trigger, uint64_t l1_bytes,
                       uint64_t memtable_bytes);

// How a flush may be cut.
struct FlushSplitLimits {
  uint64_t flush_bytes = 0;      // what the flush is expected to write
  uint64_t min_piece_bytes = 0;  // no piece expected smaller (S_M / 8)
  size_t max_pieces = 1;         // no more pieces per flush
};

// The user keys at which a flush is cut, ascending: the first piece holds
// the keys below keys[0], piece i the keys in [keys[i-1], keys[i]), the last
// the keys from keys.back() up. Empty: one piece.
//
// The cuts are *guards* that stay put while L0 holds data around them, so
// that the pieces of successive flushes line up (if they straddled each
// other, the closure above would chain ranges into one wide step). A
// candidate cut is
//  - the first key of every connected run of L0 files (L0 holds no data
//    just below it: cutting there keeps the runs apart), and
//  - the first key of every L1 file (l1 sorted by key) except the first,
//    where that file's range holds no L0 data: cutting there splits no run,
//    and the piece above the cut is expected to span a whole L1 file (a cut
//    at an L1 boundary in the gap just below an L0 run would leave a piece
//    of a key or two between it and the run's first key); or where one
//    flush's piece straddles it (the flush in flight when a step over the
//    range was picked: if it blocked the cuts, the range would never get
//    finer; the next step over either side takes it along). Where two or
//    more flushes straddle it, a cut would split data they keep together.
// Files being compacted (busy) block no cut and weigh nothing: they are
// leaving L0, and if a whole flush being compacted blocked the cuts, every
// flush written meanwhile would be whole too, and the layout would never
// split again. The first key of a run that starts with busy files is still
// a guard (below): a flush written during a step over [g, p) cuts at g. Once
// such a flush's piece is in L0, the first key of its run, h, is the guard
// instead, and not both are cut (that would leave [g, h), a key or two, as
// a sliver range that every later flush cuts again).
// Every guard then moves down to the highest L1 boundary at or below it
// where L0 holds no other data between the two (and no lower than the guard
// below): so h becomes g again, where the step's L1 files start. Cut at h,
// later flushes' keys in [g, h) would go to the range below, whose pieces
// would reach into the L1 file starting at g, and each step over that range
// would rewrite the file for a key or two.
// Every guard is always cut once any data (an L1 file, an L0 run, busy or
// not) is expected below it: L0's guards are kept, or the ranges would
// coarsen flush by flush, each flush's wider piece merging L0's runs for
// the next. The cuts from L1 are thinned from the left so that every piece
// they make is expected to hold at least max(flush_bytes / max_pieces,
// min_piece_bytes), expecting the flush's keys to spread as the data does:
// each L1 file's bytes, and one flush's share of each L0 run (its bytes over
// the flushes that wrote it). The guards L0 holds are not counted against
// those limits (unless L0 holds more guards than max_pieces: then they thin
// too). A run whose flushes wrote less than an eighth of min_piece_bytes
// each is a sliver, not a guard (the ends of the key space, or between
// guards close together, where each flush has a key or two: as guards,
// every flush would add more). With an empty L1 (the caller passes the
// first non-empty level below L0, VlsmFlushSplitKeysFor) only L0's guards
// can cut; with every level below L0 empty the flush is not cut at all.
std::vector<std::string> FlushSplitKeys(const std::vector<L0Span>& l0,
                                        const std::vector<L0Span>& l1,
                                        const Comparator* ucmp,
                                        const FlushSplitLimits& limits);

// The guards FlushSplitKeys keeps cut (ascending; before it thins them for
// the piece cap): where flushes written now are cut whatever the weights
// say. With the same `min_piece_bytes` as the flush's limits. Ranged L0 -> L1
// steps cut their L1 outputs at these keys too (VlsmCutAtL0Guards), so that
// L1's files line up with L0's ranges: a step over a range then rewrites the
// L1 files under that range and no more.
std::vector<std::string> L0GuardKeys(const std::vector<L0Span>& l0,
                                     const std::vector<L0Span>& l1,
                                     const Comparator* ucmp,
                                     uint64_t min_piece_bytes);

}  // namespace ROCKSDB_NAMESPACE
