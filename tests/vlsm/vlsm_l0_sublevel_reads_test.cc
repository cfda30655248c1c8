// The two ways of reading L0 give the same answers, and both give the
// model's (a std::map). File by file: one table iterator per L0 file, and
// Get's FilePicker walking L0's files newest first. As sublevels: sorted runs
// of non-overlapping L0 files, one LevelIterator per sublevel newest first,
// and Get binary-searching each sublevel. The process-wide test switch of
// db/compaction/vlsm_l0_sublevels.h picks the path at every read, and under
// kVlsmRanged every version is prepared with its sublevels, so each test reads
// the same version both ways: a difference is the sublevel path's (or the
// file path's) bug, not a change of data in between.
//
// Every test first makes L0 deep: tens of overlapping files in several
// sublevels, the property rocksdb.vlsm.l0-sublevels above 1 and below L0's
// file count (AssertDeepL0). With one sublevel, or one file per sublevel, the
// two paths would walk the same files the same way and the comparison would
// prove nothing. The ranged layout cuts a flush at guards (L1's file
// boundaries), so a flush over the whole key space is one sublevel of several
// files (DeepL0Writer). Flushes that stay whole (atomic flush, user-defined
// timestamps, WAL recovery, the stock layout) each write one key region
// instead, so that flushes of different regions share a sublevel
// (RegionRound).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "db/compaction/vlsm_l0_sublevels.h"
#include "gtest/gtest.h"
#include "rocksdb/cache.h"
#include "rocksdb/comparator.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/filter_policy.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/slice_transform.h"
#include "rocksdb/sst_file_writer.h"
#include "rocksdb/table.h"
#include "rocksdb/table_properties.h"
#include "rocksdb/vlsm.h"
#include "tests/test_dir.h"
#include "tests/vlsm/vlsm_db_test_util.h"

namespace ROCKSDB_NAMESPACE {
namespace {

using namespace vlsm_test;  // NOLINT: the shared real-DB test kit

std::string TestDir(const std::string& name) {
  return TestPath("vlsm_l0_sublevel_reads_test", name);
}

const char* PathName(VlsmL0ReadPath path) {
  switch (path) {
    case VlsmL0ReadPath::kAuto:
      return "auto";
    case VlsmL0ReadPath::kSublevels:
      return "sublevels";
    case VlsmL0ReadPath::kFiles:
      return "file by file";
  }
  return "?";
}

// Sets the process-wide L0 read path for one scope, then puts back the one
// in force before (however the scope ends: an ASSERT returns early).
class ScopedL0ReadPath {
 public:
  explicit ScopedL0ReadPath(VlsmL0ReadPath path)
      : before_(VlsmL0ReadPathForTest()) {
    VlsmSetL0ReadPathForTest(path);
  }
  ~ScopedL0ReadPath() { VlsmSetL0ReadPathForTest(before_); }
  ScopedL0ReadPath(const ScopedL0ReadPath&) = delete;
  ScopedL0ReadPath& operator=(const ScopedL0ReadPath&) = delete;

 private:
  const VlsmL0ReadPath before_;
};

// Every test starts and ends with kAuto: the switch is process-wide, and a
// test that failed while a path was forced must not hand it to the next.
class VlsmL0SublevelReadsTest : public testing::Test {
 protected:
  VlsmL0SublevelReadsTest() { VlsmSetL0ReadPathForTest(VlsmL0ReadPath::kAuto); }
  ~VlsmL0SublevelReadsTest() override {
    VlsmSetL0ReadPathForTest(VlsmL0ReadPath::kAuto);
  }
};

// ---------------------------------------------------------------------------
// Keys, values, options.

constexpr int kKeys = 2000;
constexpr size_t kValueBytes = 100;

std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%06d", i);
  return buf;
}

int KeyIndex(const std::string& key) { return std::atoi(key.c_str() + 1); }

std::vector<std::string> AllKeys() {
  std::vector<std::string> keys;
  for (int i = 0; i < kKeys; ++i) {
    keys.push_back(Key(i));
  }
  return keys;
}

// A value of kValueBytes that names what wrote it.
std::string Value(const std::string& tag) {
  std::string v = tag + ".";
  v.resize(std::max(kValueBytes, v.size()), 'v');
  return v;
}

// The ranged layout with the shared tiny sizes (S_M = 32 KiB), held still:
// no automatic compaction, so L0 keeps every flush for the reads to meet.
// No compression, so that L1 is cut into as many files (guards) as its bytes
// say; 64 KiB memtables, so that each round below is one flush.
Options RangedOptions(std::shared_ptr<EventListener> listener = nullptr) {
  Options o = VlsmTestOptions(listener);
  o.compaction_pri = kVlsmRanged;
  o.level0_file_num_compaction_trigger = 4;
  o.disable_auto_compactions = true;
  o.force_consistency_checks = true;
  o.compression = kNoCompression;
  o.write_buffer_size = 64 << 10;
  return o;
}

// VlsmTestOptions' tables (1 KiB blocks) with a Bloom filter, so that Get
// skips L0 files by their filters, and `cache` as the block cache if given.
std::shared_ptr<TableFactory> FilteredTables(
    std::shared_ptr<Cache> cache = nullptr) {
  BlockBasedTableOptions t;
  t.block_size = kBlockSize;
  t.filter_policy.reset(NewBloomFilterPolicy(10));
  if (cache) {
    t.block_cache = std::move(cache);
  }
  return std::shared_ptr<TableFactory>(NewBlockBasedTableFactory(t));
}

// ---------------------------------------------------------------------------
// L0's shape.

// How many sublevels L0 splits into (the same whichever path reads it).
uint64_t L0Sublevels(DB* db, ColumnFamilyHandle* cf) {
  uint64_t n = 0;
  EXPECT_TRUE(db->GetIntProperty(cf, VlsmProperties::kL0Sublevels, &n))
      << VlsmProperties::kL0Sublevels << " is not an integer property";
  return n;
}

size_t L0Files(DB* db, ColumnFamilyHandle* cf) {
  ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(cf, &meta);
  return meta.levels.empty() ? 0 : meta.levels[0].files.size();
}

// L0 is read as several sublevels, fewer than its files: otherwise the two
// paths read it alike and a test on it proves nothing.
void AssertDeepL0(DB* db, ColumnFamilyHandle* cf, const std::string& what) {
  const uint64_t sublevels = L0Sublevels(db, cf);
  const size_t files = L0Files(db, cf);
  ASSERT_GT(sublevels, 1u) << what << ": L0 of " << files << " files";
  ASSERT_LT(sublevels, files)
      << what << ": every L0 file is a sublevel of its own";
}

// ---------------------------------------------------------------------------
// Traces: what a series of reads returned, one line per answer, so that the
// two paths and the model are compared line by line and a failure names the
// first read that differs.

using Trace = std::vector<std::string>;

void ExpectSameTrace(const Trace& want, const Trace& got,
                     const std::string& what) {
  const size_t n = std::min(want.size(), got.size());
  for (size_t i = 0; i < n; ++i) {
    if (want[i] != got[i]) {
      ADD_FAILURE() << what << ": line " << i << " differs\n  want: " << want[i]
                    << "\n  got:  " << got[i];
      return;
    }
  }
  if (want.size() != got.size()) {
    ADD_FAILURE() << what << ": " << want.size() << " lines wanted, "
                  << got.size() << " got; the first unmatched: "
                  << (want.size() > n ? want[n] : got[n]);
  }
}

// Runs `read` under the file-by-file path and under sublevels: the two
// answers must be the same, and the model's (`want`).
void ExpectBothPathsGive(const Trace& want, const std::function<Trace()>& read,
                         const std::string& what) {
  Trace files;
  Trace sublevels;
  {
    ScopedL0ReadPath path(VlsmL0ReadPath::kFiles);
    files = read();
  }
  {
    ScopedL0ReadPath path(VlsmL0ReadPath::kSublevels);
    sublevels = read();
  }
  ExpectSameTrace(files, sublevels, what + ": sublevels vs file by file");
  ExpectSameTrace(want, files, what + ": file by file vs the model");
  ExpectSameTrace(want, sublevels, what + ": sublevels vs the model");
}

std::string KindOf(const Status& s) {
  if (s.ok()) {
    return "ok";
  }
  if (s.IsNotFound()) {
    return "not found";
  }
  if (s.IsIncomplete()) {
    return "incomplete";
  }
  return s.ToString();
}

bool IsIncompleteLine(const std::string& line) {
  static const std::string kSuffix = " incomplete";
  return line.size() >= kSuffix.size() &&
         line.compare(line.size() - kSuffix.size(), kSuffix.size(), kSuffix) ==
             0;
}

// One point read: "key=value", or "key not found" (or the status's kind).
std::string PointLine(const std::string& key, const Status& s,
                      const std::string& value) {
  return s.ok() ? key + "=" + value : key + " " + KindOf(s);
}

std::string TsString(const Slice& ts) {
  uint64_t u = 0;
  return DecodeU64Ts(ts, &u).ok() ? std::to_string(u) : "(bad timestamp)";
}

// ---------------------------------------------------------------------------
// Point reads.

// The keys point reads ask for: every key of `universe`, keys between two of
// them and keys before and after all, in a shuffled order (MultiGet sorts its
// batch; Get takes them as they come).
std::vector<std::string> PointReadKeys(
    const std::vector<std::string>& universe) {
  std::vector<std::string> keys = universe;
  for (size_t i = 0; i < universe.size(); i += 4) {
    keys.push_back(universe[i] + "5");
  }
  keys.push_back("a");
  keys.push_back("~");
  std::shuffle(keys.begin(), keys.end(), std::mt19937(3));
  return keys;
}

Trace ModelPointTrace(const Model& model,
                      const std::vector<std::string>& keys) {
  Trace t;
  for (const std::string& k : keys) {
    auto it = model.find(k);
    t.push_back(it == model.end() ? k + " not found" : k + "=" + it->second);
  }
  return t;
}

// With user-defined timestamps (`with_ts`) a value is "value@timestamp".
Trace GetTrace(DB* db, ColumnFamilyHandle* cf, const ReadOptions& ro,
               const std::vector<std::string>& keys, bool with_ts) {
  Trace t;
  for (const std::string& k : keys) {
    std::string value;
    std::string ts;
    const Status s = db->Get(ro, cf, k, &value, with_ts ? &ts : nullptr);
    if (s.ok() && with_ts) {
      value += "@" + TsString(ts);
    }
    t.push_back(PointLine(k, s, value));
  }
  return t;
}

Trace MultiGetTrace(DB* db, ColumnFamilyHandle* cf, const ReadOptions& ro,
                    const std::vector<std::string>& keys, bool with_ts) {
  constexpr size_t kBatch = 64;
  Trace t;
  for (size_t at = 0; at < keys.size(); at += kBatch) {
    const size_t n = std::min(kBatch, keys.size() - at);
    std::vector<Slice> batch;
    for (size_t i = 0; i < n; ++i) {
      batch.emplace_back(keys[at + i]);
    }
    std::vector<PinnableSlice> values(n);
    std::vector<std::string> timestamps(n);
    std::vector<Status> statuses(n);
    db->MultiGet(ro, cf, n, batch.data(), values.data(),
                 with_ts ? timestamps.data() : nullptr, statuses.data(),
                 /*sorted_input=*/false);
    for (size_t i = 0; i < n; ++i) {
      std::string value = values[i].ToString();
      if (statuses[i].ok() && with_ts) {
        value += "@" + TsString(timestamps[i]);
      }
      t.push_back(PointLine(keys[at + i], statuses[i], value));
    }
  }
  return t;
}

// Get and MultiGet under both paths: the model's answers, and MultiGet the
// same as Get under each path. MultiGet has its own L0 walk
// (FilePickerMultiGet, which patch 0018 takes through the sublevels as it
// takes Get's FilePicker): the two must agree key for key.
void ExpectPointReadsAgree(DB* db, ColumnFamilyHandle* cf,
                           const ReadOptions& ro, const Model& model,
                           const std::vector<std::string>& universe,
                           bool with_ts, const std::string& what) {
  const std::vector<std::string> keys = PointReadKeys(universe);
  ExpectBothPathsGive(
      ModelPointTrace(model, keys),
      [&] {
        Trace get = GetTrace(db, cf, ro, keys, with_ts);
        ExpectSameTrace(get, MultiGetTrace(db, cf, ro, keys, with_ts),
                        what + ": MultiGet vs Get (" +
                            PathName(VlsmL0ReadPathForTest()) + ")");
        return get;
      },
      what + ": Get");
}

// ---------------------------------------------------------------------------
// Iterators: the DB's and the model's behind one interface, so that the same
// series of moves runs on both.

class TracedIterator {
 public:
  virtual ~TracedIterator() = default;
  virtual bool Valid() const = 0;
  virtual void SeekToFirst() = 0;
  virtual void SeekToLast() = 0;
  virtual void Seek(const std::string& target) = 0;
  virtual void SeekForPrev(const std::string& target) = 0;
  virtual void Next() = 0;
  virtual void Prev() = 0;
  // "key=value" (with timestamps "key=value@ts"), or "invalid".
  virtual std::string Entry() const = 0;
  virtual Status status() const = 0;
};

class DbIter : public TracedIterator {
 public:
  DbIter(DB* db, const ReadOptions& ro, ColumnFamilyHandle* cf, bool with_ts)
      : it_(db->NewIterator(ro, cf)), with_ts_(with_ts) {}
  bool Valid() const override { return it_->Valid(); }
  void SeekToFirst() override { it_->SeekToFirst(); }
  void SeekToLast() override { it_->SeekToLast(); }
  void Seek(const std::string& target) override { it_->Seek(target); }
  void SeekForPrev(const std::string& target) override {
    it_->SeekForPrev(target);
  }
  void Next() override { it_->Next(); }
  void Prev() override { it_->Prev(); }
  std::string Entry() const override {
    if (!it_->Valid()) {
      return "invalid";
    }
    std::string e = it_->key().ToString() + "=" + it_->value().ToString();
    if (with_ts_) {
      e += "@" + TsString(it_->timestamp());
    }
    return e;
  }
  Status status() const override { return it_->status(); }

 private:
  std::unique_ptr<Iterator> it_;
  const bool with_ts_;
};

// What DBIter promises, on the model: bounds (a Seek below the lower bound
// starts at it, a SeekForPrev at or above the upper bound starts below it)
// and prefix_same_as_start (after a seek, only keys of the target's prefix).
class ModelIterator : public TracedIterator {
 public:
  ModelIterator(const Model& model, const ReadOptions& ro,
                const SliceTransform* prefix)
      : model_(model),
        pos_(model.end()),
        prefix_extractor_(ro.prefix_same_as_start ? prefix : nullptr) {
    if (ro.iterate_lower_bound != nullptr) {
      lower_ = ro.iterate_lower_bound->ToString();
    }
    if (ro.iterate_upper_bound != nullptr) {
      upper_ = ro.iterate_upper_bound->ToString();
    }
  }
  bool Valid() const override { return valid_; }
  void SeekToFirst() override {
    pos_ = lower_ ? model_.lower_bound(*lower_) : model_.begin();
    prefix_.reset();
    Settle();
    PrefixOfFound();
  }
  void SeekToLast() override {
    pos_ = upper_ ? model_.lower_bound(*upper_) : model_.end();
    prefix_.reset();
    StepBack();
    PrefixOfFound();
  }
  void Seek(const std::string& target) override {
    const std::string& from = lower_ && target < *lower_ ? *lower_ : target;
    pos_ = model_.lower_bound(from);
    PrefixOf(target);
    Settle();
  }
  void SeekForPrev(const std::string& target) override {
    pos_ = upper_ && target >= *upper_ ? model_.lower_bound(*upper_)
                                       : model_.upper_bound(target);
    PrefixOf(target);
    StepBack();
  }
  void Next() override {
    ++pos_;
    Settle();
  }
  void Prev() override { StepBack(); }
  std::string Entry() const override {
    return valid_ ? pos_->first + "=" + pos_->second : "invalid";
  }
  Status status() const override { return Status::OK(); }

 private:
  void PrefixOf(const std::string& target) {
    prefix_.reset();
    if (prefix_extractor_ != nullptr) {
      prefix_ = prefix_extractor_->Transform(target).ToString();
    }
  }
  void PrefixOfFound() {
    if (valid_ && prefix_extractor_ != nullptr) {
      prefix_ = prefix_extractor_->Transform(pos_->first).ToString();
    }
  }
  void StepBack() {
    if (pos_ == model_.begin()) {
      valid_ = false;
      return;
    }
    --pos_;
    Settle();
  }
  void Settle() {
    valid_ = pos_ != model_.end() && (!lower_ || pos_->first >= *lower_) &&
             (!upper_ || pos_->first < *upper_) &&
             (!prefix_ ||
              prefix_extractor_->Transform(pos_->first) == Slice(*prefix_));
  }

  const Model& model_;
  Model::const_iterator pos_;
  bool valid_ = false;
  std::optional<std::string> lower_;
  std::optional<std::string> upper_;
  const SliceTransform* prefix_extractor_;
  std::optional<std::string> prefix_;
};

enum class Op { kSeekToFirst, kSeekToLast, kSeek, kSeekForPrev, kNext, kPrev };

struct IterOp {
  Op op;
  std::string target;
};

// Runs `ops` on one iterator; Next and Prev only where it is valid.
Trace RunOps(TracedIterator* it, const std::vector<IterOp>& ops) {
  Trace t;
  for (const IterOp& o : ops) {
    std::string line;
    switch (o.op) {
      case Op::kSeekToFirst:
        it->SeekToFirst();
        line = "SeekToFirst";
        break;
      case Op::kSeekToLast:
        it->SeekToLast();
        line = "SeekToLast";
        break;
      case Op::kSeek:
        it->Seek(o.target);
        line = "Seek(" + o.target + ")";
        break;
      case Op::kSeekForPrev:
        it->SeekForPrev(o.target);
        line = "SeekForPrev(" + o.target + ")";
        break;
      case Op::kNext:
      case Op::kPrev:
        line = o.op == Op::kNext ? "Next" : "Prev";
        if (!it->Valid()) {
          t.push_back(line + " skipped");
          continue;
        }
        if (o.op == Op::kNext) {
          it->Next();
        } else {
          it->Prev();
        }
        break;
    }
    t.push_back(line + " -> " + it->Entry());
  }
  t.push_back("status " + it->status().ToString());
  return t;
}

Trace ScanForward(TracedIterator* it) {
  Trace t;
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    t.push_back(it->Entry());
  }
  t.push_back("status " + it->status().ToString());
  return t;
}

Trace ScanBackward(TracedIterator* it) {
  Trace t;
  for (it->SeekToLast(); it->Valid(); it->Prev()) {
    t.push_back(it->Entry());
  }
  t.push_back("status " + it->status().ToString());
  return t;
}

// A seek target: a key of `universe`, a point just after one (between two
// keys), or past either end of every key the tests write.
std::string SeekTarget(std::mt19937* rng,
                       const std::vector<std::string>& universe) {
  const uint32_t r = (*rng)() % 16;
  if (r == 0) {
    return "a";
  }
  if (r == 1) {
    return "~";
  }
  const std::string& k = universe[(*rng)() % universe.size()];
  return r % 3 == 0 ? k + "5" : k;
}

// Seeks both ways, each followed by steps that turn around: a turn makes the
// merging iterator reposition every child (every L0 file, or every sublevel's
// LevelIterator, which may have to change files to do it).
std::vector<IterOp> SeekOps(std::mt19937* rng,
                            const std::vector<std::string>& universe,
                            int groups) {
  std::vector<IterOp> ops;
  for (int g = 0; g < groups; ++g) {
    ops.push_back({Op::kSeek, SeekTarget(rng, universe)});
    for (Op o : {Op::kNext, Op::kNext, Op::kNext, Op::kPrev, Op::kPrev}) {
      ops.push_back({o, ""});
    }
    ops.push_back({Op::kSeekForPrev, SeekTarget(rng, universe)});
    for (Op o : {Op::kPrev, Op::kPrev, Op::kPrev, Op::kNext, Op::kNext}) {
      ops.push_back({o, ""});
    }
    if (g % 10 == 0) {
      for (Op o : {Op::kSeekToFirst, Op::kNext, Op::kNext, Op::kSeekToLast,
                   Op::kPrev, Op::kPrev}) {
        ops.push_back({o, ""});
      }
    }
  }
  return ops;
}

// `reads` through the model's iterator and through the DB's under both
// paths. `prefix` is the extractor when `ro` asks for prefix_same_as_start.
void ExpectIteratorReads(DB* db, ColumnFamilyHandle* cf, const ReadOptions& ro,
                         const Model& model, bool with_ts,
                         const std::function<Trace(TracedIterator*)>& reads,
                         const std::string& what,
                         const SliceTransform* prefix = nullptr) {
  ModelIterator m(model, ro, prefix);
  const Trace want = reads(&m);
  ExpectBothPathsGive(
      want,
      [&] {
        DbIter it(db, ro, cf, with_ts);
        return reads(&it);
      },
      what);
}

// Forward and reverse scans of everything, seeks both ways with turns, and
// the same within iterate_lower_bound / iterate_upper_bound (both, only the
// lower, only the upper; targets inside and outside them). Bounds matter to
// the sublevel path: a LevelIterator stops at a file past the upper bound
// and must not skip one that straddles it.
void ExpectIteratorsAgree(DB* db, ColumnFamilyHandle* cf, const ReadOptions& ro,
                          const Model& model,
                          const std::vector<std::string>& universe,
                          bool with_ts, const std::string& what) {
  std::mt19937 rng(7);
  ExpectIteratorReads(db, cf, ro, model, with_ts, ScanForward,
                      what + ": forward scan");
  ExpectIteratorReads(db, cf, ro, model, with_ts, ScanBackward,
                      what + ": reverse scan");
  const std::vector<IterOp> seeks = SeekOps(&rng, universe, 120);
  ExpectIteratorReads(
      db, cf, ro, model, with_ts,
      [&](TracedIterator* it) { return RunOps(it, seeks); }, what + ": seeks");
  for (int b = 0; b < 12; ++b) {
    std::string lo = SeekTarget(&rng, universe);
    std::string hi = SeekTarget(&rng, universe);
    if (hi < lo) {
      std::swap(lo, hi);
    }
    const Slice lo_slice(lo);
    const Slice hi_slice(hi);
    ReadOptions bounded = ro;
    std::string name = what + ": bounds [";
    if (b % 3 != 2) {
      bounded.iterate_lower_bound = &lo_slice;
      name += lo;
    }
    name += ", ";
    if (b % 3 != 1) {
      bounded.iterate_upper_bound = &hi_slice;
      name += hi;
    }
    name += ")";
    ExpectIteratorReads(db, cf, bounded, model, with_ts, ScanForward,
                        name + " forward");
    ExpectIteratorReads(db, cf, bounded, model, with_ts, ScanBackward,
                        name + " backward");
    const std::vector<IterOp> ops = SeekOps(&rng, universe, 6);
    ExpectIteratorReads(
        db, cf, bounded, model, with_ts,
        [&](TracedIterator* it) { return RunOps(it, ops); }, name + " seeks");
  }
}

// Every read kind of one view (`ro`: the latest, a snapshot, a timestamp).
void ExpectAllReadsAgree(DB* db, ColumnFamilyHandle* cf, const ReadOptions& ro,
                         const Model& model,
                         const std::vector<std::string>& universe,
                         const std::string& what, bool with_ts = false) {
  ASSERT_FALSE(model.empty()) << what << ": nothing to read";
  ExpectPointReadsAgree(db, cf, ro, model, universe, with_ts, what);
  ExpectIteratorsAgree(db, cf, ro, model, universe, with_ts, what);
}

// ---------------------------------------------------------------------------
// Writing a deep L0.

// The ranged layout's deep L0, written to the DB and `model` alike: every key
// once, compacted into L1 (whose file boundaries are where the flushes are
// cut), then rounds of one flush each over the whole key space. A round's
// flush is cut into several pieces that tile the keys; each round's pieces
// overlap the last round's, so L0 holds about one sublevel per round and
// several files per sublevel. (Pieces cut inside a range tombstone touch at
// the cut, and touching files stack (vlsm_l0_sublevels.h): a round with a
// deletion across one cut takes two sublevels. So a deletion crosses one
// cut, not several, and L0 keeps far fewer sublevels than files.)
class DeepL0Writer {
 public:
  DeepL0Writer(DB* db, Model* model, uint32_t seed)
      : db_(db), model_(model), rng_(seed) {}

  // Every key once, in key order, flushed in eight parts: eight disjoint L0
  // files, which the compaction below moves to L1 as they are, so L1 has
  // eight files (seven boundaries) whatever the memtable size.
  void LoadL1() {
    for (int i = 0; i < kKeys; ++i) {
      Put(Key(i), Value("base" + std::to_string(i)));
      if ((i + 1) % (kKeys / 8) == 0) {
        ASSERT_TRUE(db_->Flush(FlushOptions()).ok());
      }
    }
    CompactRangeOptions to_l1;
    to_l1.change_level = true;
    to_l1.target_level = 1;
    ASSERT_TRUE(db_->CompactRange(to_l1, nullptr, nullptr).ok());
    ColumnFamilyMetaData meta;
    db_->GetColumnFamilyMetaData(&meta);
    ASSERT_TRUE(meta.levels[0].files.empty());
    for (const SstFileMetaData& f : meta.levels[1].files) {
      boundaries_.push_back(KeyIndex(f.smallestkey));
    }
    std::sort(boundaries_.begin(), boundaries_.end());
    if (!boundaries_.empty()) {
      boundaries_.erase(boundaries_.begin());  // L1's first key cuts nothing
    }
    ASSERT_GE(boundaries_.size(), 4u) << "too few L1 files to cut flushes at";
  }

  // One round's writes: puts, deletes and merges at random keys; one merge
  // to each hot key (so that their operands lie in every sublevel and in
  // L1's base value); and, if `range_deletion`, a deletion across one of the
  // last flush's cuts (guards stay put, so this flush is cut there too: the
  // tombstone is clipped into two pieces), with some keys put back inside it
  // afterwards (newer than the tombstone, in the same pieces).
  void Writes(int round, bool range_deletion) {
    const std::string r = "r" + std::to_string(round);
    for (int i = 0; i < 200; ++i) {
      Put(RandomKey(), Value(r + "." + std::to_string(i)));
    }
    for (int i = 0; i < 25; ++i) {
      Delete(RandomKey());
    }
    for (int i = 0; i < 25; ++i) {
      Merge(RandomKey(), r + "m" + std::to_string(i));
    }
    for (int h = 0; h < kHotKeys; ++h) {
      Merge(HotKey(h), r + "h");
    }
    if (range_deletion) {
      DeleteAcrossACut(r);
    }
  }

  // One round, then its flush.
  void Round(int round, bool range_deletion) {
    Writes(round, range_deletion);
    ASSERT_TRUE(db_->Flush(FlushOptions()).ok());
    NoteCuts();
  }

  void Put(const std::string& k, const std::string& v) {
    ASSERT_TRUE(db_->Put(WriteOptions(), k, v).ok());
    (*model_)[k] = v;
  }
  void Delete(const std::string& k) {
    ASSERT_TRUE(db_->Delete(WriteOptions(), k).ok());
    model_->erase(k);
  }
  void Merge(const std::string& k, const std::string& operand) {
    ASSERT_TRUE(db_->Merge(WriteOptions(), k, operand).ok());
    auto it = model_->find(k);
    std::string merged =
        it == model_->end() ? operand : it->second + "," + operand;
    (*model_)[k] = std::move(merged);
  }
  void DeleteRange(int lo, int hi) {
    ASSERT_TRUE(db_->DeleteRange(WriteOptions(), db_->DefaultColumnFamily(),
                                 Key(lo), Key(hi))
                    .ok());
    model_->erase(model_->lower_bound(Key(lo)), model_->lower_bound(Key(hi)));
  }

 private:
  static constexpr int kHotKeys = 16;
  static std::string HotKey(int h) { return Key(h * (kKeys / kHotKeys) + 7); }
  std::string RandomKey() { return Key(static_cast<int>(rng_() % kKeys)); }

  // Where the newest flush was cut: the first keys of its pieces (the L0
  // files of the newest epoch) but the first.
  void NoteCuts() {
    std::vector<LiveFileMetaData> live;
    db_->GetLiveFilesMetaData(&live);
    uint64_t newest = 0;
    for (const LiveFileMetaData& f : live) {
      if (f.level == 0) {
        newest = std::max(newest, f.epoch_number);
      }
    }
    cuts_.clear();
    for (const LiveFileMetaData& f : live) {
      if (f.level == 0 && f.epoch_number == newest) {
        cuts_.push_back(KeyIndex(f.smallestkey));
      }
    }
    std::sort(cuts_.begin(), cuts_.end());
    if (!cuts_.empty()) {
      cuts_.erase(cuts_.begin());
    }
  }

  // A deletion from a little below one cut to a little above it (before the
  // first flush, an L1 boundary: a candidate cut).
  void DeleteAcrossACut(const std::string& r) {
    const std::vector<int>& at = cuts_.empty() ? boundaries_ : cuts_;
    const int cut = at[rng_() % at.size()];
    const int lo = std::max(0, cut - 5 - static_cast<int>(rng_() % 30));
    const int hi = std::min(kKeys, cut + 5 + static_cast<int>(rng_() % 30));
    DeleteRange(lo, hi);
    for (int i = 0; i < 20; ++i) {
      Put(Key(lo + static_cast<int>(rng_() % (hi - lo))),
          Value(r + ".back" + std::to_string(i)));
    }
  }

  DB* db_;
  Model* model_;
  std::mt19937 rng_;
  std::vector<int> boundaries_;  // L1's file boundaries, as key indexes
  std::vector<int> cuts_;        // the newest flush's cuts, as key indexes
};

// L1, then `rounds` split flushes, a range deletion in every other one.
void WriteDeepL0(DB* db, Model* model, int rounds, uint32_t seed) {
  DeepL0Writer w(db, model, seed);
  ASSERT_NO_FATAL_FAILURE(w.LoadL1());
  for (int r = 0; r < rounds; ++r) {
    ASSERT_NO_FATAL_FAILURE(w.Round(r, r % 2 == 0));
  }
}

constexpr int kRegions = 3;

// Round `round` of whole flushes: writes in one key region only (round %
// kRegions), to every family of `cfs`, then flushes them together. Files of
// different regions do not overlap, so they share sublevels: L0 has fewer
// sublevels than files although no flush is split.
void RegionRound(DB* db, const std::vector<ColumnFamilyHandle*>& cfs,
                 std::vector<Model>* models, int round, std::mt19937* rng) {
  const int span = kKeys / kRegions;
  const int first = (round % kRegions) * span;
  auto key = [&] { return Key(first + static_cast<int>((*rng)() % span)); };
  for (size_t c = 0; c < cfs.size(); ++c) {
    Model& m = (*models)[c];
    const std::string tag =
        "c" + std::to_string(c) + "r" + std::to_string(round);
    for (int i = 0; i < 100; ++i) {
      const std::string k = key();
      const std::string v = Value(tag + "." + std::to_string(i));
      ASSERT_TRUE(db->Put(WriteOptions(), cfs[c], k, v).ok());
      m[k] = v;
    }
    for (int i = 0; i < 15; ++i) {
      const std::string k = key();
      ASSERT_TRUE(db->Delete(WriteOptions(), cfs[c], k).ok());
      m.erase(k);
    }
    for (int i = 0; i < 15; ++i) {
      const std::string k = key();
      const std::string operand = tag + "m" + std::to_string(i);
      ASSERT_TRUE(db->Merge(WriteOptions(), cfs[c], k, operand).ok());
      auto it = m.find(k);
      std::string merged = it == m.end() ? operand : it->second + "," + operand;
      m[k] = std::move(merged);
    }
    if (round % 2 == 1) {  // inside the region: the files stay in it
      const int lo = first + static_cast<int>((*rng)() % (span - 40));
      ASSERT_TRUE(
          db->DeleteRange(WriteOptions(), cfs[c], Key(lo), Key(lo + 30)).ok());
      m.erase(m.lower_bound(Key(lo)), m.lower_bound(Key(lo + 30)));
    }
  }
  ASSERT_TRUE(db->Flush(FlushOptions(), cfs).ok());
}

// ---------------------------------------------------------------------------
// The tests.

// Get and MultiGet on a deep L0 of split flushes, with overwrites, deletes,
// merges and range deletions in every sublevel: a sublevel walk that stops
// at the wrong file, searches sublevels out of order or misses a file at the
// edge of its binary search returns an older version, a deleted key or
// nothing where the file walk returns the newest.
TEST_F(VlsmL0SublevelReadsTest, GetAndMultiGetAgree) {
  const std::string path = TestDir("point");
  const Options options = RangedOptions();
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  Model model;
  ASSERT_NO_FATAL_FAILURE(WriteDeepL0(db.get(), &model, 8, 11));
  ASSERT_NO_FATAL_FAILURE(
      AssertDeepL0(db.get(), db->DefaultColumnFamily(), "point reads"));
  ExpectPointReadsAgree(db.get(), db->DefaultColumnFamily(), ReadOptions(),
                        model, AllKeys(), /*with_ts=*/false, "latest");
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

// A bytewise order that counts the comparisons made with it.
class CountingBytewise : public Comparator {
 public:
  const char* Name() const override { return "vlsm.test.CountingBytewise"; }
  int Compare(const Slice& a, const Slice& b) const override {
    count.fetch_add(1, std::memory_order_relaxed);
    return a.compare(b);
  }
  void FindShortestSeparator(std::string* start,
                             const Slice& limit) const override {
    BytewiseComparator()->FindShortestSeparator(start, limit);
  }
  void FindShortSuccessor(std::string* key) const override {
    BytewiseComparator()->FindShortSuccessor(key);
  }
  mutable std::atomic<uint64_t> count{0};
};

// Get and MultiGet search each sublevel for the one file that may hold a
// key (patch 0018), instead of comparing every key with every L0 file's
// bounds: on a deep L0 they compare fewer keys than the file walk, for the
// same answers (checked above) and the same files probed. Counted by the
// comparator itself, with compactions off: what differs between the two
// runs is the L0 walk. A MultiGet left on the file walk compares as many
// keys under either path and fails here.
TEST_F(VlsmL0SublevelReadsTest, PointReadsSearchSublevelsNotEveryFile) {
  const std::string path = TestDir("counted");
  CountingBytewise counting;
  Options options = RangedOptions();
  options.comparator = &counting;
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  ColumnFamilyHandle* cf = db->DefaultColumnFamily();
  Model model;
  ASSERT_NO_FATAL_FAILURE(WriteDeepL0(db.get(), &model, 8, 11));
  ASSERT_NO_FATAL_FAILURE(AssertDeepL0(db.get(), cf, "counted reads"));
  const std::vector<std::string> keys = PointReadKeys(AllKeys());
  auto comparisons = [&](VlsmL0ReadPath read_path,
                         const std::function<Trace()>& read) {
    ScopedL0ReadPath scoped(read_path);
    read();  // tables opened and cached before counting
    const uint64_t before = counting.count.load();
    read();
    return counting.count.load() - before;
  };
  const auto get = [&] {
    return GetTrace(db.get(), cf, ReadOptions(), keys, false);
  };
  const auto multi_get = [&] {
    return MultiGetTrace(db.get(), cf, ReadOptions(), keys, false);
  };
  const uint64_t get_files = comparisons(VlsmL0ReadPath::kFiles, get);
  const uint64_t get_sublevels = comparisons(VlsmL0ReadPath::kSublevels, get);
  const uint64_t multi_files = comparisons(VlsmL0ReadPath::kFiles, multi_get);
  const uint64_t multi_sublevels =
      comparisons(VlsmL0ReadPath::kSublevels, multi_get);
  std::printf(
      "L0 of %zu files in %" PRIu64 " sublevels, %zu keys: comparisons "
      "Get %" PRIu64 " file by file, %" PRIu64 " by sublevel; MultiGet %" PRIu64
      ", %" PRIu64 "\n",
      L0Files(db.get(), cf), L0Sublevels(db.get(), cf), keys.size(), get_files,
      get_sublevels, multi_files, multi_sublevels);
  EXPECT_LT(get_sublevels, get_files);
  EXPECT_LT(multi_sublevels, multi_files);
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

// Forward and reverse scans, Seek and SeekForPrev with turns, and bounded
// iteration: the sublevels' LevelIterators must merge into exactly what the
// per-file iterators give, at every file change inside a sublevel.
TEST_F(VlsmL0SublevelReadsTest, IteratorsAgree) {
  const std::string path = TestDir("iterators");
  const Options options = RangedOptions();
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  Model model;
  ASSERT_NO_FATAL_FAILURE(WriteDeepL0(db.get(), &model, 8, 12));
  ASSERT_NO_FATAL_FAILURE(
      AssertDeepL0(db.get(), db->DefaultColumnFamily(), "iterators"));
  ExpectIteratorsAgree(db.get(), db->DefaultColumnFamily(), ReadOptions(),
                       model, AllKeys(), /*with_ts=*/false, "latest");
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

// Reads at snapshots taken between flushes, held while later flushes add
// sublevels over them: both paths must skip every version newer than the
// snapshot in every sublevel (and the flushes keep the versions the
// snapshots need, so each key has several in L0).
TEST_F(VlsmL0SublevelReadsTest, SnapshotReadsAgree) {
  const std::string path = TestDir("snapshots");
  const Options options = RangedOptions();
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  Model model;
  DeepL0Writer w(db.get(), &model, 13);
  ASSERT_NO_FATAL_FAILURE(w.LoadL1());
  std::vector<std::pair<int, const Snapshot*>> snapshots;
  std::vector<Model> at_snapshot;
  for (int r = 0; r < 8; ++r) {
    ASSERT_NO_FATAL_FAILURE(w.Round(r, r % 2 == 0));
    if (r == 1 || r == 4) {
      snapshots.emplace_back(r, db->GetSnapshot());
      at_snapshot.push_back(model);
    }
  }
  ASSERT_NO_FATAL_FAILURE(
      AssertDeepL0(db.get(), db->DefaultColumnFamily(), "snapshots"));
  for (size_t i = 0; i < snapshots.size(); ++i) {
    ReadOptions ro;
    ro.snapshot = snapshots[i].second;
    ExpectAllReadsAgree(
        db.get(), db->DefaultColumnFamily(), ro, at_snapshot[i], AllKeys(),
        "snapshot after round " + std::to_string(snapshots[i].first));
  }
  ExpectAllReadsAgree(db.get(), db->DefaultColumnFamily(), ReadOptions(), model,
                      AllKeys(), "latest");
  for (const auto& s : snapshots) {
    db->ReleaseSnapshot(s.second);
  }
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

// GetMergeOperands for every key, under each path.
struct MergeOperandReads {
  Trace stored;  // the operands as stored: "k: a | b"
  Trace joined;  // joined as the append operator joins them: "k=a,b"
  int most_operands = 0;
};

MergeOperandReads ReadMergeOperands(DB* db,
                                    const std::vector<std::string>& keys) {
  constexpr int kMaxOperands = 64;
  GetMergeOperandsOptions options;
  options.expected_max_number_of_operands = kMaxOperands;
  std::vector<PinnableSlice> operands(kMaxOperands);
  MergeOperandReads reads;
  for (const std::string& k : keys) {
    int n = 0;
    const Status s =
        db->GetMergeOperands(ReadOptions(), db->DefaultColumnFamily(), k,
                             operands.data(), &options, &n);
    if (!s.ok()) {
      reads.stored.push_back(k + " " + KindOf(s));
      reads.joined.push_back(k + " " + KindOf(s));
      continue;
    }
    std::string stored;
    std::string joined;
    for (int i = 0; i < n; ++i) {
      stored += (i > 0 ? " | " : "") + operands[i].ToString();
      joined += (i > 0 ? "," : "") + operands[i].ToString();
      operands[i].Reset();
    }
    reads.stored.push_back(k + ": " + stored);
    reads.joined.push_back(k + "=" + joined);
    reads.most_operands = std::max(reads.most_operands, n);
  }
  return reads;
}

// Merge operands spread over L1 and every sublevel (the hot keys take one
// per round): Get must merge all of them in order, newest sublevel last, and
// GetMergeOperands must list the same operands both ways. A sublevel read
// out of order, or one skipped, changes the merged value or the list. The
// model knows the merged value only: a flush may already have merged a
// round's operands of one key into one, so the joined list is checked
// against it, and the stored lists against each other.
TEST_F(VlsmL0SublevelReadsTest, MergeOperandsAgree) {
  const std::string path = TestDir("merges");
  const Options options = RangedOptions();
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  Model model;
  ASSERT_NO_FATAL_FAILURE(WriteDeepL0(db.get(), &model, 8, 14));
  ASSERT_NO_FATAL_FAILURE(
      AssertDeepL0(db.get(), db->DefaultColumnFamily(), "merges"));
  ExpectPointReadsAgree(db.get(), db->DefaultColumnFamily(), ReadOptions(),
                        model, AllKeys(), /*with_ts=*/false, "merged values");

  const std::vector<std::string> keys = AllKeys();
  MergeOperandReads files;
  MergeOperandReads sublevels;
  {
    ScopedL0ReadPath p(VlsmL0ReadPath::kFiles);
    files = ReadMergeOperands(db.get(), keys);
  }
  {
    ScopedL0ReadPath p(VlsmL0ReadPath::kSublevels);
    sublevels = ReadMergeOperands(db.get(), keys);
  }
  ExpectSameTrace(files.stored, sublevels.stored,
                  "GetMergeOperands: sublevels vs file by file");
  const Trace want = ModelPointTrace(model, keys);
  ExpectSameTrace(want, files.joined, "GetMergeOperands file by file joined");
  ExpectSameTrace(want, sublevels.joined, "GetMergeOperands sublevels joined");
  EXPECT_GE(sublevels.most_operands, 4)
      << "no key has operands in several sublevels";
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

// The most L0 files of one flush (one epoch) that hold range tombstones.
size_t MostTombstonePiecesInOneFlush(DB* db) {
  std::vector<LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  TablePropertiesCollection props;
  EXPECT_TRUE(db->GetPropertiesOfAllTables(&props).ok());
  std::map<uint64_t, size_t> per_epoch;
  for (const LiveFileMetaData& m : live) {
    if (m.level != 0) {
      continue;
    }
    auto p = props.find(m.directory + "/" + m.relative_filename);
    if (p != props.end() && p->second->num_range_deletions > 0) {
      ++per_epoch[m.epoch_number];
    }
  }
  size_t most = 0;
  for (const auto& e : per_epoch) {
    most = std::max(most, e.second);
  }
  return most;
}

// Range deletions across the flushes' cuts: a flush clips each tombstone at
// its guards, so one deletion sits in several pieces of one sublevel, and
// older sublevels hold the keys it covers. A sublevel read must apply the
// tombstone of the piece it is in, not leak a covered key at a piece's edge,
// and at a snapshot older than every tombstone must see the keys whole.
TEST_F(VlsmL0SublevelReadsTest, RangeDeletionsAcrossFlushCutsAgree) {
  const std::string path = TestDir("range_deletions");
  const Options options = RangedOptions();
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  Model model;
  DeepL0Writer w(db.get(), &model, 15);
  ASSERT_NO_FATAL_FAILURE(w.LoadL1());
  ASSERT_NO_FATAL_FAILURE(w.Round(0, /*range_deletion=*/false));
  const Snapshot* before_deletions = db->GetSnapshot();
  const Model at_snapshot = model;
  for (int r = 1; r < 8; ++r) {
    ASSERT_NO_FATAL_FAILURE(w.Round(r, /*range_deletion=*/true));
  }
  EXPECT_GE(MostTombstonePiecesInOneFlush(db.get()), 2u)
      << "no range deletion was cut into pieces";
  ASSERT_NO_FATAL_FAILURE(
      AssertDeepL0(db.get(), db->DefaultColumnFamily(), "range deletions"));
  ExpectAllReadsAgree(db.get(), db->DefaultColumnFamily(), ReadOptions(), model,
                      AllKeys(), "latest");
  ReadOptions ro;
  ro.snapshot = before_deletions;
  ExpectAllReadsAgree(db.get(), db->DefaultColumnFamily(), ro, at_snapshot,
                      AllKeys(), "snapshot before the deletions");
  db->ReleaseSnapshot(before_deletions);
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

// Seek, then two Next, in a fresh iterator: whether it completed, and what
// it read.
struct CacheOnlySeek {
  Trace trace;
  bool complete;
};

CacheOnlySeek SeekCacheOnly(DB* db, const ReadOptions& ro,
                            const std::vector<IterOp>& ops) {
  DbIter it(db, ro, db->DefaultColumnFamily(), /*with_ts=*/false);
  Trace t = RunOps(&it, ops);
  return {std::move(t), it.status().ok()};
}

// read_tier = kBlockCacheTier: reads that need a block not in the cache end
// Incomplete. The cache holds every block read (it is larger than the DB),
// and only the first quarter of the keys was read, so reads there complete
// and reads elsewhere do not. A Get visits the same L0 files in the same
// order on both paths (the files whose bounds hold the key, newest first),
// so the two must end the same way for every key (the same status kind),
// and with the model's answer when they complete. MultiGet agrees with Get
// where both complete. A sublevel that searched the wrong file, or one file
// too many, would end Incomplete where the file walk completes, or the
// other way round. An iterator may legitimately differ
// (file by file seeks every L0 file; a sublevel opens one file at a time),
// so iterators are compared only where both complete.
TEST_F(VlsmL0SublevelReadsTest, BlockCacheTierReadsAgreeWhereTheyComplete) {
  const std::string path = TestDir("cache_tier");
  Options options = RangedOptions();
  options.table_factory = FilteredTables(NewLRUCache(8 << 20));
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  Model model;
  ASSERT_NO_FATAL_FAILURE(WriteDeepL0(db.get(), &model, 8, 16));
  ASSERT_NO_FATAL_FAILURE(
      AssertDeepL0(db.get(), db->DefaultColumnFamily(), "cache tier"));

  // Warm the first quarter of the keys, both ways: a Get and a seek (with
  // steps) at every key. File by file, a seek positions every L0 file, and
  // one whose keys all lie above the target reads its first block: warmed
  // here too, so that a seek in the warm quarter completes on that path.
  const int warm = kKeys / 4;
  for (VlsmL0ReadPath p :
       {VlsmL0ReadPath::kFiles, VlsmL0ReadPath::kSublevels}) {
    ScopedL0ReadPath path_scope(p);
    std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
    for (int i = 0; i < warm; ++i) {
      std::string v;
      db->Get(ReadOptions(), Key(i), &v).PermitUncheckedError();
      it->Seek(Key(i));
      for (int n = 0; n < 3 && it->Valid(); ++n) {
        it->Next();
      }
      ASSERT_TRUE(it->status().ok());
    }
  }

  ReadOptions cache_only;
  cache_only.read_tier = kBlockCacheTier;
  const std::vector<std::string> keys = AllKeys();
  const Trace want = ModelPointTrace(model, keys);
  Trace got[2];
  const VlsmL0ReadPath paths[2] = {VlsmL0ReadPath::kFiles,
                                   VlsmL0ReadPath::kSublevels};
  for (int p = 0; p < 2; ++p) {
    ScopedL0ReadPath path_scope(paths[p]);
    got[p] = GetTrace(db.get(), db->DefaultColumnFamily(), cache_only, keys,
                      /*with_ts=*/false);
    // Upstream's MultiGet may complete where Get ends Incomplete (it reads
    // on past a file whose blocks are not cached; seen on both paths alike),
    // so the two agree where both complete.
    const Trace multi = MultiGetTrace(db.get(), db->DefaultColumnFamily(),
                                      cache_only, keys, /*with_ts=*/false);
    for (size_t i = 0; i < keys.size(); ++i) {
      if (!IsIncompleteLine(got[p][i]) && !IsIncompleteLine(multi[i])) {
        EXPECT_EQ(got[p][i], multi[i])
            << "cache-only MultiGet vs Get (" << PathName(paths[p]) << ")";
      }
    }
  }
  ExpectSameTrace(got[0], got[1],
                  "cache-only Get: sublevels vs file by file (status kinds "
                  "and values)");
  for (int p = 0; p < 2; ++p) {
    int found = 0;
    int incomplete = 0;
    int wrong = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (IsIncompleteLine(got[p][i])) {
        ++incomplete;
        continue;
      }
      if (got[p][i] != want[i] && wrong++ == 0) {
        ADD_FAILURE() << "cache-only Get " << PathName(paths[p])
                      << " completed wrong\n  want: " << want[i]
                      << "\n  got:  " << got[p][i];
      }
      found += model.count(keys[i]) > 0;
    }
    EXPECT_EQ(wrong, 0) << PathName(paths[p]);
    EXPECT_GT(found, 0) << PathName(paths[p]) << ": no cache-only Get found "
                        << "a value, the comparison proves little";
    EXPECT_GT(incomplete, 0)
        << PathName(paths[p]) << ": no cache-only Get was incomplete";
  }

  // Seeks in the warm quarter and in the cold half.
  std::mt19937 rng(17);
  int both_complete = 0;
  int any_incomplete = 0;
  for (int s = 0; s < 80; ++s) {
    const int i = s % 2 == 0
                      ? static_cast<int>(rng() % (warm - 10))
                      : kKeys / 2 + static_cast<int>(rng() % (kKeys / 2));
    const std::vector<IterOp> ops = {
        {Op::kSeek, Key(i)}, {Op::kNext, ""}, {Op::kNext, ""}};
    ModelIterator m(model, cache_only, nullptr);
    const Trace model_trace = RunOps(&m, ops);
    CacheOnlySeek read[2];
    for (int p = 0; p < 2; ++p) {
      ScopedL0ReadPath path_scope(paths[p]);
      read[p] = SeekCacheOnly(db.get(), cache_only, ops);
      if (read[p].complete) {
        ExpectSameTrace(model_trace, read[p].trace,
                        std::string("cache-only seek ") + PathName(paths[p]));
      } else {
        ++any_incomplete;
      }
    }
    if (read[0].complete && read[1].complete) {
      ++both_complete;
      ExpectSameTrace(read[0].trace, read[1].trace,
                      "cache-only seek: sublevels vs file by file");
    }
  }
  EXPECT_GT(both_complete, 0) << "no cache-only seek completed both ways";
  EXPECT_GT(any_incomplete, 0) << "no cache-only seek was incomplete";
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

// Prefix seek. With a prefix extractor, Bloom filters hold prefixes, and an
// iterator in prefix mode may skip L0 files (and, on the sublevel path, a
// sublevel's files) whose filter rules the prefix out: prefix_same_as_start
// must still give every key of the target's prefix, both ways.
// total_order_seek ignores the filters; auto_prefix_mode uses them only when
// the upper bound shares the target's prefix, and must read as total order.
TEST_F(VlsmL0SublevelReadsTest, PrefixSeekAgrees) {
  constexpr size_t kPrefixBytes = 6;  // "k00123": ten keys per prefix
  const std::string path = TestDir("prefix");
  Options options = RangedOptions();
  options.prefix_extractor.reset(NewFixedPrefixTransform(kPrefixBytes));
  options.table_factory = FilteredTables();
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  Model model;
  ASSERT_NO_FATAL_FAILURE(WriteDeepL0(db.get(), &model, 8, 18));
  ColumnFamilyHandle* cf = db->DefaultColumnFamily();
  ASSERT_NO_FATAL_FAILURE(AssertDeepL0(db.get(), cf, "prefix"));
  const SliceTransform* prefix = options.prefix_extractor.get();

  // Point reads consult the prefix and whole-key filters.
  ExpectPointReadsAgree(db.get(), cf, ReadOptions(), model, AllKeys(),
                        /*with_ts=*/false, "with prefix filters");

  // prefix_same_as_start: targets of existing prefixes, between keys, and of
  // prefixes no key has (k00200..k00203); each direction on its own (the
  // prefix mode's promise).
  std::mt19937 rng(19);
  std::vector<IterOp> ops;
  for (int t = 0; t < 100; ++t) {
    const int i = static_cast<int>(rng() % (kKeys + 40));
    const std::string target = rng() % 3 == 0 ? Key(i) + "5" : Key(i);
    ops.push_back({Op::kSeek, target});
    for (int n = 0; n < 4; ++n) {
      ops.push_back({Op::kNext, ""});
    }
    ops.push_back({Op::kSeekForPrev, target});
    for (int n = 0; n < 4; ++n) {
      ops.push_back({Op::kPrev, ""});
    }
  }
  ReadOptions same_prefix;
  same_prefix.prefix_same_as_start = true;
  ExpectIteratorReads(
      db.get(), cf, same_prefix, model, /*with_ts=*/false,
      [&](TracedIterator* it) { return RunOps(it, ops); },
      "prefix_same_as_start", prefix);

  ReadOptions total_order;
  total_order.total_order_seek = true;
  ExpectIteratorsAgree(db.get(), cf, total_order, model, AllKeys(),
                       /*with_ts=*/false, "total_order_seek");

  // auto_prefix_mode: an upper bound in the target's prefix (the filters are
  // used), or three prefixes on (they are not).
  for (int b = 0; b < 40; ++b) {
    const int i = static_cast<int>(rng() % kKeys);
    const int prefix_end = i - i % 10 + 10;
    const std::string upper =
        b % 2 == 0 ? Key(i + 1 + static_cast<int>(rng() % (prefix_end - i)))
                   : Key(i + 30);
    const Slice upper_slice(upper);
    ReadOptions auto_prefix;
    auto_prefix.auto_prefix_mode = true;
    auto_prefix.iterate_upper_bound = &upper_slice;
    std::vector<IterOp> bounded = {{Op::kSeek, Key(i)}};
    for (int n = 0; n < 5; ++n) {
      bounded.push_back({Op::kNext, ""});
    }
    ExpectIteratorReads(
        db.get(), cf, auto_prefix, model, /*with_ts=*/false,
        [&](TracedIterator* it) { return RunOps(it, bounded); },
        "auto_prefix_mode seek " + Key(i) + " below " + upper);
  }
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

// User-defined timestamps (BytewiseComparatorWithU64Ts). The ranged layout
// accepts them: CheckVlsmOptions has no rule against a timestamped
// comparator, and the split flush leaves such flushes whole
// (db/vlsm_flush_split.h: guards are plain user keys). So each round writes
// one key region (RegionRound's shape) and rounds of different regions
// share sublevels. Reads at the latest timestamp and at two older ones: the
// sublevel path compares keys without their timestamps to find files (a
// file's bounds carry timestamps), and must return each key's newest version
// at or below the read timestamp, with that version's timestamp.
TEST_F(VlsmL0SublevelReadsTest, UserDefinedTimestampReadsAgree) {
  constexpr int kUdtKeys = 900;
  constexpr int kSpan = kUdtKeys / kRegions;
  const std::string path = TestDir("timestamps");
  Options options = RangedOptions();
  options.comparator = BytewiseComparatorWithU64Ts();
  options.merge_operator.reset();
  // The read-order checker reads keys as plain bytewise keys.
  options.listeners.clear();
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr) << "the ranged layout refused user-defined "
                            "timestamps";

  // key -> timestamp -> the value written then (none: a deletion).
  std::map<std::string, std::map<uint64_t, std::optional<std::string>>> history;
  uint64_t now = 0;
  std::string ts_buf;
  std::mt19937 rng(23);
  std::vector<uint64_t> older;
  for (int round = 0; round < 9; ++round) {
    const int first = (round % kRegions) * kSpan;
    auto key = [&] { return Key(first + static_cast<int>(rng() % kSpan)); };
    for (int i = 0; i < 100; ++i) {
      const std::string k = key();
      const std::string v =
          Value("r" + std::to_string(round) + "." + std::to_string(i));
      const uint64_t ts = ++now;
      ASSERT_TRUE(db->Put(WriteOptions(), k, EncodeU64Ts(ts, &ts_buf), v).ok());
      history[k][ts] = v;
    }
    for (int i = 0; i < 15; ++i) {
      const std::string k = key();
      const uint64_t ts = ++now;
      ASSERT_TRUE(db->Delete(WriteOptions(), k, EncodeU64Ts(ts, &ts_buf)).ok());
      history[k][ts] = std::nullopt;
    }
    if (round % 3 == 2) {
      const int lo = first + static_cast<int>(rng() % (kSpan - 40));
      const uint64_t ts = ++now;
      ASSERT_TRUE(db->DeleteRange(WriteOptions(), Key(lo), Key(lo + 30),
                                  EncodeU64Ts(ts, &ts_buf))
                      .ok());
      for (auto it = history.lower_bound(Key(lo));
           it != history.end() && it->first < Key(lo + 30); ++it) {
        it->second[ts] = std::nullopt;
      }
    }
    ASSERT_TRUE(db->Flush(FlushOptions()).ok());
    if (round == 2 || round == 5) {
      older.push_back(now);
    }
  }
  ASSERT_NO_FATAL_FAILURE(
      AssertDeepL0(db.get(), db->DefaultColumnFamily(), "timestamps"));

  std::vector<std::string> universe;
  for (int i = 0; i < kUdtKeys; ++i) {
    universe.push_back(Key(i));
  }
  // What a read at `read_ts` sees: each key's newest version at or below
  // it, as "value@timestamp".
  auto view_at = [&](uint64_t read_ts) {
    Model view;
    for (const auto& [k, versions] : history) {
      auto v = versions.upper_bound(read_ts);
      if (v == versions.begin()) {
        continue;
      }
      --v;
      if (v->second) {
        view[k] = *v->second + "@" + std::to_string(v->first);
      }
    }
    return view;
  };
  std::vector<uint64_t> read_at = older;
  read_at.push_back(now);
  for (uint64_t read_ts : read_at) {
    std::string read_buf;
    const Slice ts = EncodeU64Ts(read_ts, &read_buf);
    ReadOptions ro;
    ro.timestamp = &ts;
    ExpectAllReadsAgree(db.get(), db->DefaultColumnFamily(), ro,
                        view_at(read_ts), universe,
                        "read timestamp " + std::to_string(read_ts),
                        /*with_ts=*/true);
  }
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

// max_open_files = 20, the least RocksDB allows: its table cache holds 10
// readers (20 less the 10 it keeps for other files), far fewer than L0's
// files, so table readers are evicted and reopened under the reads. The
// sublevel path opens a sublevel's files one at a time as a LevelIterator
// moves; it must hold what it reads while the cache turns over, and find
// what the file path finds.
TEST_F(VlsmL0SublevelReadsTest, FewerOpenFilesThanL0FilesReadsAgree) {
  const std::string path = TestDir("few_open_files");
  Options options = RangedOptions();
  options.max_open_files = 20;
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  Model model;
  ASSERT_NO_FATAL_FAILURE(WriteDeepL0(db.get(), &model, 12, 20));
  ColumnFamilyHandle* cf = db->DefaultColumnFamily();
  ASSERT_GT(L0Files(db.get(), cf), 20u) << "fewer L0 files than open files";
  ASSERT_NO_FATAL_FAILURE(AssertDeepL0(db.get(), cf, "few open files"));
  ExpectAllReadsAgree(db.get(), cf, ReadOptions(), model, AllKeys(),
                      "max_open_files 20");
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

// Reads while flushes add L0 files and ranged steps compact L0 into L1, with
// the path switched back and forth every fraction of a millisecond (the
// switch is read at every read, so reads start on either path and versions
// change under both). Readers check what is certain at any moment:
//  - stable keys, written before the readers start and never again, some
//    overwritten in L0 pieces above their L1 versions: always the last value;
//  - writer keys, rewritten every round in key order with the round number:
//    a read sees at least the round published before it, never a round older
//    than one this reader saw already, never more than one round ahead; a
//    scan (one snapshot) sees every writer key, rounds falling by at most one
//    along the keys (the writer was part way through the next round).
// A stale piece (an older L0 file read before a newer one, or a sublevel
// built from a version that is no longer current) breaks one of these.
TEST_F(VlsmL0SublevelReadsTest, ReadsDuringFlushesAndRangedStepsAgree) {
  constexpr int kStable = 1500;
  constexpr int kWriterKeys = 200;
  constexpr int kRounds = 30;
  constexpr int kReaders = 2;
  const std::string path = TestDir("concurrent");
  auto steps = std::make_shared<L0InputCounter>();
  Options options = RangedOptions(steps);
  options.disable_auto_compactions = false;  // ranged steps under the reads
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);

  auto stable_key = [](int i) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "s%05d", i);
    return std::string(buf);
  };
  auto writer_key = [](int i) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "w%05d", i);
    return std::string(buf);
  };
  auto writer_value = [](int i, int round) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "v%06d", round);
    return Value(std::string(buf) + "." + std::to_string(i));
  };
  auto version_of = [](const Slice& value) {
    int v = 0;
    for (size_t i = 1; i < 7 && i < value.size(); ++i) {
      v = v * 10 + (value[i] - '0');
    }
    return v;
  };

  Model model;
  DeepL0Writer w(db.get(), &model, 29);  // its Put only: keys of its own
  for (int i = 0; i < kStable; ++i) {
    ASSERT_NO_FATAL_FAILURE(
        w.Put(stable_key(i), Value("stable" + std::to_string(i))));
  }
  for (int i = 0; i < kWriterKeys; ++i) {
    ASSERT_NO_FATAL_FAILURE(w.Put(writer_key(i), writer_value(i, 0)));
  }
  CompactRangeOptions to_l1;
  to_l1.change_level = true;
  to_l1.target_level = 1;
  ASSERT_TRUE(db->CompactRange(to_l1, nullptr, nullptr).ok());
  for (int pass = 1; pass <= 2; ++pass) {
    for (int i = 0; i < kStable; i += 3) {
      ASSERT_NO_FATAL_FAILURE(w.Put(
          stable_key(i),
          Value("stable" + std::to_string(i) + "." + std::to_string(pass))));
    }
    ASSERT_TRUE(db->Flush(FlushOptions()).ok());
  }
  const Model stable = model;  // writer keys at round 0 too, not read here
  steps->TakeL0Inputs();

  std::atomic<int> published{0};
  std::atomic<bool> done{false};
  std::mutex failures_mu;
  std::vector<std::string> failures;
  auto fail = [&](const std::string& f) {
    std::lock_guard<std::mutex> lock(failures_mu);
    if (failures.size() < 10) {
      failures.push_back(f);
    }
  };

  std::thread writer([&] {
    for (int r = 1; r <= kRounds; ++r) {
      for (int i = 0; i < kWriterKeys; ++i) {
        const Status s =
            db->Put(WriteOptions(), writer_key(i), writer_value(i, r));
        if (!s.ok()) {
          fail("writer Put: " + s.ToString());
        }
      }
      published.store(r);
      const Status s = db->Flush(FlushOptions());
      if (!s.ok()) {
        fail("writer Flush: " + s.ToString());
      }
    }
    done.store(true);
  });

  std::atomic<int> toggles{0};
  std::atomic<uint64_t> most_sublevels{0};
  std::thread toggler([&] {
    while (!done.load()) {
      VlsmSetL0ReadPathForTest(VlsmL0ReadPath::kSublevels);
      uint64_t n = 0;
      if (db->GetIntProperty(VlsmProperties::kL0Sublevels, &n) &&
          n > most_sublevels.load()) {
        most_sublevels.store(n);
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      VlsmSetL0ReadPathForTest(VlsmL0ReadPath::kFiles);
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      toggles.fetch_add(1);
    }
    VlsmSetL0ReadPathForTest(VlsmL0ReadPath::kAuto);
  });

  std::atomic<int> reads{0};
  auto reader = [&](uint32_t seed) {
    std::mt19937 rng(seed);
    std::vector<int> last_seen(kWriterKeys, 0);
    auto check_stable = [&](const std::string& k, const Status& s,
                            const std::string& v) {
      if (!s.ok() || v != stable.at(k)) {
        fail(k + ": " + KindOf(s) + ", not its stable value");
      }
    };
    auto check_writer = [&](int i, const Status& s, const std::string& v,
                            int published_before) {
      if (!s.ok()) {
        fail(writer_key(i) + ": " + s.ToString());
        return;
      }
      const int version = version_of(v);
      if (v != writer_value(i, version) || version < published_before ||
          version < last_seen[i] || version > published.load() + 1) {
        fail(writer_key(i) + " read round " + std::to_string(version) +
             " after round " + std::to_string(published_before) +
             " was published and round " + std::to_string(last_seen[i]) +
             " was read");
      }
      last_seen[i] = std::max(last_seen[i], version);
    };
    for (int n = 0; !done.load(); ++n) {
      const int p = published.load();
      std::string v;
      const std::string sk = stable_key(static_cast<int>(rng() % kStable));
      check_stable(sk, db->Get(ReadOptions(), sk, &v), v);
      const int wi = static_cast<int>(rng() % kWriterKeys);
      const Status ws = db->Get(ReadOptions(), writer_key(wi), &v);
      check_writer(wi, ws, v, p);

      if (n % 4 == 0) {  // a MultiGet of both kinds
        std::vector<std::string> keys;
        std::vector<int> writer_index;
        for (int k = 0; k < 8; ++k) {
          keys.push_back(stable_key(static_cast<int>(rng() % kStable)));
          writer_index.push_back(-1);
          const int i = static_cast<int>(rng() % kWriterKeys);
          keys.push_back(writer_key(i));
          writer_index.push_back(i);
        }
        std::vector<Slice> slices(keys.begin(), keys.end());
        std::vector<std::string> values;
        const std::vector<Status> statuses =
            db->MultiGet(ReadOptions(), slices, &values);
        for (size_t k = 0; k < keys.size(); ++k) {
          if (writer_index[k] < 0) {
            check_stable(keys[k], statuses[k], values[k]);
          } else {
            check_writer(writer_index[k], statuses[k], values[k], p);
          }
        }
      }
      if (n % 16 == 0) {  // every writer key, one snapshot, forward
        const Slice upper("x");
        ReadOptions ro;
        ro.iterate_upper_bound = &upper;
        std::unique_ptr<Iterator> it(db->NewIterator(ro));
        int count = 0;
        int newest = -1;
        int oldest = INT_MAX;
        int before = INT_MAX;
        bool falling = true;
        for (it->Seek("w"); it->Valid(); it->Next(), ++count) {
          const int version = version_of(it->value());
          if (it->key() != writer_key(count) ||
              it->value() != writer_value(count, version)) {
            fail("scan: " + it->key().ToString() + " at writer key " +
                 std::to_string(count));
            break;
          }
          falling = falling && version <= before;
          before = version;
          newest = std::max(newest, version);
          oldest = std::min(oldest, version);
        }
        if (!it->status().ok() || count != kWriterKeys || !falling ||
            newest - oldest > 1 || oldest < p) {
          fail("forward scan of the writer keys: " + std::to_string(count) +
               " keys, rounds " + std::to_string(oldest) + ".." +
               std::to_string(newest) + (falling ? "" : " not falling") +
               ", round " + std::to_string(p) + " published before; " +
               it->status().ToString());
        }
      }
      if (n % 16 == 8) {  // the same backwards, then stable keys in a row
        const Slice lower("w");
        ReadOptions ro;
        ro.iterate_lower_bound = &lower;
        std::unique_ptr<Iterator> it(db->NewIterator(ro));
        int count = 0;
        int before = -1;
        int newest = -1;
        int oldest = INT_MAX;
        bool rising = true;
        for (it->SeekToLast(); it->Valid(); it->Prev(), ++count) {
          const int version = version_of(it->value());
          if (it->key() != writer_key(kWriterKeys - 1 - count) ||
              it->value() != writer_value(kWriterKeys - 1 - count, version)) {
            fail("reverse scan: " + it->key().ToString() + " at writer key " +
                 std::to_string(kWriterKeys - 1 - count));
            break;
          }
          rising = rising && version >= before;
          before = version;
          newest = std::max(newest, version);
          oldest = std::min(oldest, version);
        }
        if (!it->status().ok() || count != kWriterKeys || !rising ||
            newest - oldest > 1 || oldest < p) {
          fail("reverse scan of the writer keys: " + std::to_string(count) +
               " keys, rounds " + std::to_string(oldest) + ".." +
               std::to_string(newest) +
               (rising ? "" : " not rising backwards") + ", round " +
               std::to_string(p) + " published before; " +
               it->status().ToString());
        }
        // Stable keys in a row (an iterator of its own: the one above
        // starts at "w").
        std::unique_ptr<Iterator> stable_it(db->NewIterator(ReadOptions()));
        const int from = static_cast<int>(rng() % kStable);
        int i = from;
        for (stable_it->Seek(stable_key(from));
             stable_it->Valid() && i < from + 20 && i < kStable;
             stable_it->Next(), ++i) {
          if (stable_it->key().ToString() != stable_key(i) ||
              stable_it->value().ToString() != stable.at(stable_key(i))) {
            fail("stable scan from " + stable_key(from) + ": " +
                 stable_it->key().ToString() + " at " + stable_key(i));
            break;
          }
        }
        if (!stable_it->status().ok() || i < std::min(from + 20, kStable)) {
          fail("stable scan from " + stable_key(from) + " ended at " +
               stable_key(i) + ": " + stable_it->status().ToString());
        }
      }
      reads.fetch_add(1);
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
  };
  std::vector<std::thread> readers;
  for (int r = 0; r < kReaders; ++r) {
    readers.emplace_back(reader, 100 + r);
  }
  writer.join();
  toggler.join();
  for (std::thread& t : readers) {
    t.join();
  }
  const std::vector<size_t> l0_steps = steps->TakeL0Inputs();
  for (const std::string& f : failures) {
    ADD_FAILURE() << f;
  }
  EXPECT_GT(reads.load(), 100);
  EXPECT_GT(toggles.load(), 10);
  EXPECT_GT(most_sublevels.load(), 1u) << "L0 was never read as sublevels";
  EXPECT_FALSE(l0_steps.empty()) << "no ranged step ran under the readers";

  // Settled: every read kind, both ways.
  ASSERT_TRUE(db->WaitForCompact(WaitForCompactOptions()).ok());
  for (int i = 0; i < kWriterKeys; ++i) {
    model[writer_key(i)] = writer_value(i, kRounds);
  }
  std::vector<std::string> universe;
  for (const auto& kv : model) {
    universe.push_back(kv.first);
  }
  ExpectAllReadsAgree(db.get(), db->DefaultColumnFamily(), ReadOptions(), model,
                      universe, "after the concurrent run");
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

// A file ingested over keys L0 holds goes into L0, above every flush, with
// a global sequence number: its keys are stored with sequence 0 and take the
// file's number at read time. Both paths must let it win over the older
// sublevels (and its range deletion cover them), and let a later flush win
// over it.
TEST_F(VlsmL0SublevelReadsTest, ReadsAfterIngestionIntoL0Agree) {
  const std::string path = TestDir("ingest");
  const std::string file = path + ".ingest.sst";
  const Options options = RangedOptions();
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  Model model;
  DeepL0Writer w(db.get(), &model, 31);
  ASSERT_NO_FATAL_FAILURE(w.LoadL1());
  for (int r = 0; r < 6; ++r) {
    ASSERT_NO_FATAL_FAILURE(w.Round(r, r % 2 == 0));
  }
  std::set<uint64_t> before;
  {
    std::vector<LiveFileMetaData> live;
    db->GetLiveFilesMetaData(&live);
    for (const LiveFileMetaData& f : live) {
      before.insert(f.file_number);
    }
  }

  SstFileWriter writer(EnvOptions(), options);
  ASSERT_TRUE(writer.Open(file).ok());
  // The deletion first in the model: the file's puts lie outside it.
  ASSERT_TRUE(writer.DeleteRange(Key(1600), Key(1700)).ok());
  model.erase(model.lower_bound(Key(1600)), model.lower_bound(Key(1700)));
  for (int i = 300; i < 1500; i += 3) {
    const std::string v = Value("ingested" + std::to_string(i));
    ASSERT_TRUE(writer.Put(Key(i), v).ok());
    model[Key(i)] = v;
  }
  ASSERT_TRUE(writer.Finish().ok());
  ASSERT_TRUE(db->IngestExternalFile({file}, IngestExternalFileOptions()).ok());

  std::vector<LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  int ingested = 0;
  for (const LiveFileMetaData& f : live) {
    if (before.count(f.file_number) == 0) {
      ++ingested;
      EXPECT_EQ(f.level, 0) << "the ingested file overlaps L0";
      EXPECT_EQ(f.smallest_seqno, f.largest_seqno);
      EXPECT_GT(f.smallest_seqno, 0u) << "no global sequence number";
    }
  }
  EXPECT_EQ(ingested, 1);
  ColumnFamilyHandle* cf = db->DefaultColumnFamily();
  ASSERT_NO_FATAL_FAILURE(AssertDeepL0(db.get(), cf, "ingested"));
  ExpectAllReadsAgree(db.get(), cf, ReadOptions(), model, AllKeys(),
                      "after the ingestion");
  ASSERT_NO_FATAL_FAILURE(w.Round(6, /*range_deletion=*/true));
  ExpectAllReadsAgree(db.get(), cf, ReadOptions(), model, AllKeys(),
                      "a flush over the ingested file");
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
  std::remove(file.c_str());
}

// Writes left in the WAL, then a reopen: recovery flushes the WAL as whole
// L0 files (one per memtable it fills), newer than the split flushes below
// and built by another path (WriteLevel0TableForRecovery). The first version
// after the open is prepared by recovery, not by a flush: it must have its
// sublevels too, and read as the model says. The WAL holds three passes in
// key order, so a pass's files tile the keys and each pass is about one
// sublevel.
TEST_F(VlsmL0SublevelReadsTest, ReadsAfterWalRecoveryFlushesAgree) {
  const std::string path = TestDir("wal_recovery");
  Options options = RangedOptions();
  options.avoid_flush_during_shutdown = true;
  options.write_buffer_size = 4 << 20;  // nothing flushes while the WAL fills
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  Model model;
  DeepL0Writer w(db.get(), &model, 37);
  ASSERT_NO_FATAL_FAILURE(w.LoadL1());
  ASSERT_NO_FATAL_FAILURE(w.Round(0, true));
  ASSERT_NO_FATAL_FAILURE(w.Round(1, false));
  const size_t flushed = L0Files(db.get(), db->DefaultColumnFamily());
  for (int i = 0; i < kKeys; ++i) {
    ASSERT_NO_FATAL_FAILURE(w.Put(Key(i), Value("wal0." + std::to_string(i))));
  }
  for (int i = 0; i < kKeys; ++i) {
    if (i == 900) {
      ASSERT_NO_FATAL_FAILURE(w.DeleteRange(900, 1000));
    }
    if (i % 7 == 0) {
      ASSERT_NO_FATAL_FAILURE(w.Delete(Key(i)));
    } else if (i % 5 == 0) {
      ASSERT_NO_FATAL_FAILURE(w.Merge(Key(i), "wal1." + std::to_string(i)));
    }
  }
  for (int i = 0; i < kKeys; i += 3) {
    ASSERT_NO_FATAL_FAILURE(w.Put(Key(i), Value("wal2." + std::to_string(i))));
  }
  db.reset();

  // Recovery cuts the WAL into memtables of this size, each an L0 file.
  options.write_buffer_size = 32 << 10;
  DB* raw = nullptr;
  ASSERT_TRUE(DB::Open(options, path, &raw).ok());
  db.reset(raw);
  ColumnFamilyHandle* cf = db->DefaultColumnFamily();
  EXPECT_GE(L0Files(db.get(), cf), flushed + 6)
      << "recovery flushed the WAL into few L0 files";
  ASSERT_NO_FATAL_FAILURE(AssertDeepL0(db.get(), cf, "recovered"));
  ExpectAllReadsAgree(db.get(), cf, ReadOptions(), model, AllKeys(),
                      "after WAL recovery");
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

// atomic_flush with two column families (ranged both): their memtables flush
// together, as whole files (the split flush leaves atomic flushes whole), so
// rounds write one key region each. Each family has sublevels of its own;
// reads of one must not see the other's files, and a MultiGet over both at
// once (one consistent view across families) must agree with the models.
TEST_F(VlsmL0SublevelReadsTest, AtomicFlushOfTwoColumnFamiliesReadsAgree) {
  const std::string path = TestDir("atomic_flush");
  Options options = RangedOptions();
  options.atomic_flush = true;
  options.create_missing_column_families = true;
  const std::vector<ColumnFamilyDescriptor> families = {
      {kDefaultColumnFamilyName, ColumnFamilyOptions(options)},
      {"second", ColumnFamilyOptions(options)}};
  ASSERT_TRUE(DestroyDB(path, options, families).ok());
  std::vector<ColumnFamilyHandle*> handles;
  DB* raw = nullptr;
  ASSERT_TRUE(
      DB::Open(DBOptions(options), path, families, &handles, &raw).ok());
  std::unique_ptr<DB> db(raw);
  std::vector<Model> models(2);
  std::mt19937 rng(41);
  for (int r = 0; r < 9; ++r) {
    ASSERT_NO_FATAL_FAILURE(RegionRound(db.get(), handles, &models, r, &rng));
  }
  for (size_t c = 0; c < handles.size(); ++c) {
    const std::string name = handles[c]->GetName();
    ASSERT_NO_FATAL_FAILURE(AssertDeepL0(db.get(), handles[c], name));
    ExpectAllReadsAgree(db.get(), handles[c], ReadOptions(), models[c],
                        AllKeys(), name);
  }

  std::vector<ColumnFamilyHandle*> cfs;
  std::vector<std::string> keys;
  Trace want;
  const std::vector<std::string> all = AllKeys();
  for (size_t i = 0; i < all.size(); i += 3) {
    for (size_t c = 0; c < handles.size(); ++c) {
      cfs.push_back(handles[c]);
      keys.push_back(all[i]);
      auto it = models[c].find(all[i]);
      want.push_back(std::to_string(c) + ":" +
                     (it == models[c].end() ? all[i] + " not found"
                                            : all[i] + "=" + it->second));
    }
  }
  ExpectBothPathsGive(
      want,
      [&] {
        std::vector<Slice> slices(keys.begin(), keys.end());
        std::vector<std::string> values;
        const std::vector<Status> statuses =
            db->MultiGet(ReadOptions(), cfs, slices, &values);
        Trace t;
        for (size_t i = 0; i < keys.size(); ++i) {
          t.push_back(std::to_string(i % handles.size()) + ":" +
                      PointLine(keys[i], statuses[i], values[i]));
        }
        return t;
      },
      "MultiGet across both column families");
  for (ColumnFamilyHandle* h : handles) {
    ASSERT_TRUE(db->DestroyColumnFamilyHandle(h).ok());
  }
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options, families).ok());
}

// A read-only instance (DB::OpenForReadOnly) of a ranged DB with a deep L0
// and writes left in its WAL: it builds its version from the MANIFEST,
// replays the WAL into a memtable (no flush), and never prepares another
// version. Its one version must have sublevels and read as the model says.
TEST_F(VlsmL0SublevelReadsTest, ReadOnlyInstanceReadsAgree) {
  const std::string path = TestDir("read_only");
  Options options = RangedOptions();
  options.avoid_flush_during_shutdown = true;
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  Model model;
  DeepL0Writer w(db.get(), &model, 43);
  ASSERT_NO_FATAL_FAILURE(w.LoadL1());
  for (int r = 0; r < 7; ++r) {
    ASSERT_NO_FATAL_FAILURE(w.Round(r, r % 2 == 0));
  }
  ASSERT_NO_FATAL_FAILURE(w.Writes(7, true));  // left in the WAL
  db.reset();

  DB* raw = nullptr;
  ASSERT_TRUE(DB::OpenForReadOnly(options, path, &raw).ok());
  std::unique_ptr<DB> read_only(raw);
  ColumnFamilyHandle* cf = read_only->DefaultColumnFamily();
  ASSERT_NO_FATAL_FAILURE(AssertDeepL0(read_only.get(), cf, "read-only"));
  ExpectAllReadsAgree(read_only.get(), cf, ReadOptions(), model, AllKeys(),
                      "read-only instance");
  read_only.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

// A secondary instance (DB::OpenAsSecondary) of a ranged DB, read both ways;
// then the primary flushes two more rounds and leaves a third in its WAL,
// and TryCatchUpWithPrimary installs the primary's newer version (prepared
// by the secondary's own version set from the MANIFEST tail) and replays the
// WAL: the new version's sublevels must be built and read right as well.
TEST_F(VlsmL0SublevelReadsTest, SecondaryInstanceReadsAgree) {
  const std::string path = TestDir("primary");
  const std::string secondary_path = TestDir("secondary");
  const Options options = RangedOptions();
  std::unique_ptr<DB> primary = OpenFreshDb(options, path);
  ASSERT_NE(primary, nullptr);
  Model model;
  DeepL0Writer w(primary.get(), &model, 47);
  ASSERT_NO_FATAL_FAILURE(w.LoadL1());
  for (int r = 0; r < 6; ++r) {
    ASSERT_NO_FATAL_FAILURE(w.Round(r, r % 2 == 0));
  }

  Options secondary_options = options;
  secondary_options.max_open_files = -1;  // as OpenAsSecondary asks
  secondary_options.listeners.clear();    // no flush or compaction to check
  ASSERT_TRUE(Env::Default()->CreateDirIfMissing(secondary_path).ok());
  DB* raw = nullptr;
  ASSERT_TRUE(
      DB::OpenAsSecondary(secondary_options, path, secondary_path, &raw).ok());
  std::unique_ptr<DB> secondary(raw);
  ColumnFamilyHandle* cf = secondary->DefaultColumnFamily();
  ASSERT_NO_FATAL_FAILURE(AssertDeepL0(secondary.get(), cf, "secondary"));
  ExpectAllReadsAgree(secondary.get(), cf, ReadOptions(), model, AllKeys(),
                      "secondary");

  ASSERT_NO_FATAL_FAILURE(w.Round(6, true));
  ASSERT_NO_FATAL_FAILURE(w.Round(7, false));
  ASSERT_NO_FATAL_FAILURE(w.Writes(8, true));  // left in the primary's WAL
  ASSERT_TRUE(secondary->TryCatchUpWithPrimary().ok());
  ASSERT_NO_FATAL_FAILURE(
      AssertDeepL0(secondary.get(), cf, "secondary, caught up"));
  ExpectAllReadsAgree(secondary.get(), cf, ReadOptions(), model, AllKeys(),
                      "secondary after catching up");
  secondary.reset();
  primary.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
  EXPECT_TRUE(DestroyDB(secondary_path, options).ok());  // its info log
}

// kSublevels forces the sublevel path on any layout: a version prepared
// while it is set builds sublevels. Stock leveled picking
// (kMinOverlappingRatio) with the same tiny sizes and whole flushes, one key
// region per round: the sublevel path must not depend on anything the
// ranged layout guarantees (split flushes, guards, epochs shared by pieces).
TEST_F(VlsmL0SublevelReadsTest, StockLayoutWithForcedSublevelsReadsAgree) {
  ScopedL0ReadPath forced(VlsmL0ReadPath::kSublevels);
  const std::string path = TestDir("stock_forced");
  Options options = RangedOptions();
  options.compaction_pri = kMinOverlappingRatio;
  std::unique_ptr<DB> db = OpenFreshDb(options, path);
  ASSERT_NE(db, nullptr);
  std::vector<Model> models(1);
  std::mt19937 rng(53);
  const std::vector<ColumnFamilyHandle*> cfs = {db->DefaultColumnFamily()};
  for (int r = 0; r < 9; ++r) {
    ASSERT_NO_FATAL_FAILURE(RegionRound(db.get(), cfs, &models, r, &rng));
  }
  ASSERT_NO_FATAL_FAILURE(AssertDeepL0(db.get(), cfs[0], "stock, forced"));
  ExpectAllReadsAgree(db.get(), cfs[0], ReadOptions(), models[0], AllKeys(),
                      "stock layout, sublevels forced");
  db.reset();
  ASSERT_TRUE(DestroyDB(path, options).ok());
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
