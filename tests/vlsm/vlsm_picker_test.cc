// The vLSM picks on a synthetic VersionStorageInfo, as upstream's
// compaction_picker_test builds one: which files a compaction takes.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "db/compaction/compaction.h"
#include "db/compaction/compaction_picker_level.h"
#include "db/compaction/sorted_run_overlap.h"
#include "db/compaction/vlsm_l0_ranges.h"
#include "db/compaction/vlsm_l0_order.h"
#include "db/compaction/vlsm_l0_yield.h"
#include "db/compaction/vlsm_level_walk.h"
#include "db/compaction/vlsm_picker.h"
#include "db/vlsm_write_stalls.h"
#include "options/vlsm_live_switch.h"
#include "db/version_set.h"
#include "gtest/gtest.h"
#include "rocksdb/lsm_metrics.h"
#include "rocksdb/metadata.h"
#include "rocksdb/vlsm.h"
#include "test_util/sync_point.h"
#include "util/random.h"

namespace ROCKSDB_NAMESPACE {
namespace {

constexpr uint64_t kMiB = 1 << 20;

class VlsmPickerTest : public testing::TestWithParam<CompactionPri> {
 public:
  VlsmPickerTest()
      : icmp_(BytewiseComparator()),
        options_(MakeOptions(GetParam())),
        ioptions_(options_),
        mutable_cf_options_(options_),
        picker_(ioptions_, &icmp_) {
    mutable_cf_options_.RefreshDerivedOptions(ioptions_);
    ioptions_.cf_paths.emplace_back("dummy", ~uint64_t{0});
    NewVersion();
  }

  // An empty version to add files to (files added before stay alive in
  // files_: a test may build a second state after the first).
  void NewVersion() {
    vstorage_ = std::make_unique<VersionStorageInfo>(
        &icmp_, icmp_.user_comparator(), options_.num_levels,
        kCompactionStyleLevel, nullptr, false,
        EpochNumberRequirement::kMightMissing, ioptions_.clock,
        options_.bottommost_file_compaction_delay,
        OffpeakTimeOption(mutable_db_options_.daily_offpeak_time_utc));
  }

  // S_M = 1 MiB, f = 8, Phi = 32: L1 target 8 MiB, overlap bound 8 MiB.
  static Options MakeOptions(CompactionPri pri) {
    Options o;
    o.num_levels = 5;
    VlsmOptions v;
    v.sst_size = 1 * kMiB;
    EXPECT_TRUE(ConfigureVlsm(&o, v).ok());
    o.compaction_pri = pri;  // the stock control runs with the same sizes
    o.ttl = 0;
    o.periodic_compaction_seconds = 0;
    return o;
  }

  // Adds files level by level; L0 files must be added newest first, as a
  // VersionStorageInfo keeps them.
  FileMetaData* Add(int level, uint64_t number, const char* smallest,
                    const char* largest, uint64_t size,
                    SequenceNumber seq = 100) {
    auto* f = new FileMetaData(
        number, 0, size, InternalKey(smallest, seq, kTypeValue),
        InternalKey(largest, seq, kTypeValue), seq, seq, false,
        Temperature::kUnknown, kInvalidBlobFileNumber,
        kUnknownOldestAncesterTime, kUnknownFileCreationTime,
        kUnknownEpochNumber, kUnknownFileChecksum,
        kUnknownFileChecksumFuncName, kNullUniqueId64x2, 0, 0, true);
    f->compensated_file_size = size;
    vstorage_->AddFile(level, f);
    files_.emplace_back(f);
    return f;
  }

  // L1 as three 1 MiB files 10 "a".."h", 11 "i".."p", 12 "q".."z" (or
  // numbered from `first`: a version's file numbers are unique, and
  // PrepareForVersionAppend asserts it).
  void AddL1Thirds(uint64_t first = 10) {
    Add(1, first, "a", "h", 1 * kMiB);
    Add(1, first + 1, "i", "p", 1 * kMiB);
    Add(1, first + 2, "q", "z", 1 * kMiB);
  }

  void Finalize() {
    vstorage_->PrepareForVersionAppend(ioptions_, mutable_cf_options_);
    vstorage_->ComputeCompactionScore(ioptions_, mutable_cf_options_);
    vstorage_->SetFinalized();
  }

  std::unique_ptr<Compaction> Pick() {
    return std::unique_ptr<Compaction>(picker_.PickCompaction(
        "default", mutable_cf_options_, mutable_db_options_, {}, nullptr,
        vstorage_.get(), &log_buffer_));
  }

  // The version's L0 files with these numbers, as an L0 input set (in L0
  // order, newest first).
  CompactionInputFiles L0Numbered(const std::vector<uint64_t>& numbers) {
    CompactionInputFiles in;
    in.level = 0;
    for (FileMetaData* f : vstorage_->LevelFiles(0)) {
      if (std::find(numbers.begin(), numbers.end(), f->fd.GetNumber()) !=
          numbers.end()) {
        in.files.push_back(f);
      }
    }
    return in;
  }

  static std::vector<uint64_t> Numbers(const Compaction& c, size_t which) {
    std::vector<uint64_t> out;
    for (const FileMetaData* f : *c.inputs(which)) {
      out.push_back(f->fd.GetNumber());
    }
    return out;
  }

  InternalKeyComparator icmp_;
  Options options_;
  ImmutableOptions ioptions_;
  MutableCFOptions mutable_cf_options_;
  MutableDBOptions mutable_db_options_;
  LevelCompactionPicker picker_;
  std::unique_ptr<VersionStorageInfo> vstorage_;
  std::vector<std::unique_ptr<FileMetaData>> files_;
  LogBuffer log_buffer_{InfoLogLevel::INFO_LEVEL, nullptr};
};

// Five overlapping L0 files: vLSM takes only the oldest (number 1), stock
// leveled takes all of them (tiering).
TEST_P(VlsmPickerTest, L0TakesOnlyTheOldestFile) {
  for (uint64_t n = 5; n >= 1; --n) {  // newest first
    Add(0, n, "a", "z", 1 * kMiB, /*seq=*/100 + n);
  }
  AddL1Thirds();
  Finalize();
  auto c = Pick();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->start_level(), 0);
  EXPECT_EQ(c->output_level(), 1);
  if (GetParam() == kVlsm) {
    EXPECT_EQ(Numbers(*c, 0), std::vector<uint64_t>({1}));
  } else {
    EXPECT_EQ(c->num_input_files(0), 5u);
  }
  EXPECT_EQ(Numbers(*c, 1), std::vector<uint64_t>({10, 11, 12}));
}

// The oldest file overlaps only part of L1, and newer L0 files overlap it:
// vLSM still takes the one file and only the L1 files in its range.
TEST_P(VlsmPickerTest, L0TakesOldestFileAndItsL1OverlapOnly) {
  Add(0, 3, "a", "z", 1 * kMiB, 103);
  Add(0, 2, "c", "k", 1 * kMiB, 102);
  Add(0, 1, "j", "m", 1 * kMiB, 101);  // oldest
  AddL1Thirds();
  Finalize();
  auto c = Pick();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->start_level(), 0);
  if (GetParam() == kVlsm) {
    EXPECT_EQ(Numbers(*c, 0), std::vector<uint64_t>({1}));
    EXPECT_EQ(Numbers(*c, 1), std::vector<uint64_t>({11}));
  } else {
    EXPECT_GT(c->num_input_files(0), 1u);
  }
}

// While an L0 compaction runs, vLSM never starts L0->L0, however many L0
// files pile up; stock leveled does (intra-L0) once L1 is busy.
TEST_P(VlsmPickerTest, NoIntraL0WhileL0Busy) {
  // Ten L0 files in disjoint ranges would be trivially movable; give them
  // overlapping ranges so they must merge.
  for (uint64_t n = 10; n >= 1; --n) {
    Add(0, n, "a", "z", 1 * kMiB, 100 + n);
  }
  FileMetaData* l1 = Add(1, 20, "a", "z", 1 * kMiB);
  l1->being_compacted = true;  // L1 busy: L0->L1 is blocked
  Finalize();
  auto c = Pick();
  if (GetParam() == kVlsm) {
    EXPECT_EQ(c, nullptr) << "vLSM must wait for L1, not compact L0->L0";
  } else {
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->output_level(), 0) << "stock leveled picks intra-L0 here";
  }
}

// A second pick while the first L0->L1 compaction runs takes no L0 file.
TEST_P(VlsmPickerTest, OneL0CompactionAtATime) {
  for (uint64_t n = 6; n >= 1; --n) {
    Add(0, n, "a", "z", 1 * kMiB, 100 + n);
  }
  Add(1, 10, "a", "z", 1 * kMiB);
  Finalize();
  auto first = Pick();
  ASSERT_NE(first, nullptr);
  auto second = Pick();
  if (second != nullptr) {
    EXPECT_NE(second->start_level(), 0);
    EXPECT_NE(second->output_level(), 0);
  }
  if (GetParam() == kVlsm) {
    EXPECT_EQ(Numbers(*first, 0), std::vector<uint64_t>({1}));
  }
}

// L1 over its 8 MiB target (12 MiB), with L2 sized so that the lowest
// overlap *ratio* belongs to a poor vSST, which stock kMinOverlappingRatio
// picks and vLSM skips for the best good vSST:
//   10 "a".."b" 1 MiB,   L2 overlap 9 MiB -> ratio  9, poor (> 8 MiB)
//   11 "c".."d" 0.5 MiB, L2 overlap 5 MiB -> ratio 10, good
//   12 "e".."f" 0.5 MiB, L2 overlap 6 MiB -> ratio 12, good
//   13..22 "g".."p", 1 MiB each, L2 overlap 20 MiB each -> ratio 20, poor
// good_busy marks files 11 and 12 (and their L2 files) as being compacted.
void AddGoodAndPoorVssts(VlsmPickerTest* t, bool good_busy) {
  t->Add(1, 10, "a", "b", 1 * kMiB);
  t->Add(1, 11, "c", "d", kMiB / 2)->being_compacted = good_busy;
  t->Add(1, 12, "e", "f", kMiB / 2)->being_compacted = good_busy;
  const char* ks[] = {"g", "h", "i", "j", "k", "l", "m", "n", "o", "p"};
  for (int i = 0; i < 10; ++i) {
    t->Add(1, 13 + i, (std::string(ks[i]) + "0").c_str(),
           (std::string(ks[i]) + "9").c_str(), 1 * kMiB);
  }
  t->Add(2, 100, "a0", "b9", 9 * kMiB);
  t->Add(2, 101, "c0", "d9", 5 * kMiB)->being_compacted = good_busy;
  t->Add(2, 102, "e0", "f9", 6 * kMiB)->being_compacted = good_busy;
  for (int i = 0; i < 10; ++i) {
    t->Add(2, 110 + i, (std::string(ks[i]) + "00").c_str(),
           (std::string(ks[i]) + "99").c_str(), 20 * kMiB);
  }
  t->Finalize();
}

TEST_P(VlsmPickerTest, L1PrefersGoodVsstsByRatio) {
  AddGoodAndPoorVssts(this, /*good_busy=*/false);
  auto c = Pick();
  ASSERT_NE(c, nullptr);
  ASSERT_EQ(c->start_level(), 1);
  if (GetParam() == kVlsm) {
    EXPECT_EQ(Numbers(*c, 0), std::vector<uint64_t>({11}));
  } else {
    EXPECT_EQ(Numbers(*c, 0), std::vector<uint64_t>({10}));
  }
}

TEST_P(VlsmPickerTest, L1FallsBackToLowestRatioWhenNoGoodVsstIsFree) {
  // The good files are busy: vLSM takes the poor file with the lowest ratio
  // rather than waiting.
  AddGoodAndPoorVssts(this, /*good_busy=*/true);
  auto c = Pick();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->start_level(), 1);
  EXPECT_EQ(Numbers(*c, 0), std::vector<uint64_t>({10}));
}

// Many L0 files and L1 over its target: stock ranks L0 first (its score is
// the file count), vLSM drains L1 first so the next L0->L1 step stays narrow.
TEST_P(VlsmPickerTest, LevelsOverTargetGoBeforeL0) {
  for (uint64_t n = 12; n >= 1; --n) {
    Add(0, n, "a", "z", 1 * kMiB, 100 + n);
  }
  for (int i = 0; i < 10; ++i) {  // 10 MiB in L1, target 8 MiB
    std::string lo(1, static_cast<char>('a' + 2 * i));
    std::string hi(1, static_cast<char>('b' + 2 * i));
    Add(1, 20 + i, lo.c_str(), hi.c_str(), 1 * kMiB);
  }
  Finalize();
  auto c = Pick();
  ASSERT_NE(c, nullptr);
  if (GetParam() == kVlsm) {
    EXPECT_EQ(c->start_level(), 1);
    EXPECT_EQ(c->output_level(), 2);
  } else {
    EXPECT_EQ(c->start_level(), 0);
  }
}

// Issue 19: the head of L0 (file 1, "c".."p") waits because an L1 file in
// its range is in a running compaction; a newer L0 file over the same keys
// (file 2, "c".."d") is marked for compaction. No compaction may take file 2
// without file 1: reads would then find file 1's older versions first.
TEST_P(VlsmPickerTest, MarkedNewerL0FileWaitsForTheOlderOverlappingOne) {
  FileMetaData* newer = Add(0, 2, "c", "d", 1 * kMiB, 102);
  newer->marked_for_compaction = true;
  Add(0, 1, "c", "p", 1 * kMiB, 101);  // oldest
  AddL1Thirds();
  for (const auto& f : files_) {
    if (f->fd.GetNumber() == 11) {
      f->being_compacted = true;  // "i".."p": an L1 -> L2 compaction runs
    }
  }
  Finalize();
  ASSERT_EQ(vstorage_->FilesMarkedForCompaction().size(), 1u);
  auto c = Pick();
  if (c != nullptr && c->start_level() == 0) {
    EXPECT_EQ(c->num_input_files(0), 2u) << "took file 2 without file 1";
  }
  if (GetParam() == kVlsm) {
    EXPECT_EQ(c, nullptr);  // the queue waits for its head
  }
}

// The same marked file once the head is free: vLSM takes the head (file 1)
// alone, into L1; the marked file's turn comes next, in L0 order.
TEST_P(VlsmPickerTest, MarkedL0FileTurnsIntoTheHeadOfTheQueue) {
  FileMetaData* newer = Add(0, 2, "c", "d", 1 * kMiB, 102);
  newer->marked_for_compaction = true;
  Add(0, 1, "c", "p", 1 * kMiB, 101);
  AddL1Thirds();
  Finalize();
  auto c = Pick();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->start_level(), 0);
  EXPECT_EQ(c->output_level(), 1);
  if (GetParam() == kVlsm) {
    EXPECT_EQ(Numbers(*c, 0), std::vector<uint64_t>({1}));
  } else {
    EXPECT_EQ(c->num_input_files(0), 2u);
  }
}

TEST_P(VlsmPickerTest, L0OrderRuleOnGivenInputs) {
  Add(0, 4, "x", "z", 1 * kMiB, 104);  // newest, apart from the others
  Add(0, 3, "c", "f", 1 * kMiB, 103);
  Add(0, 2, "e", "k", 1 * kMiB, 102);
  Add(0, 1, "a", "d", 1 * kMiB, 101);  // oldest
  AddL1Thirds();
  Finalize();
  const std::vector<FileMetaData*>& l0 = vstorage_->LevelFiles(0);
  ASSERT_EQ(l0.back()->fd.GetNumber(), 1u);
  const Comparator* ucmp = BytewiseComparator();
  const CompactionPri pri = GetParam();
  auto check = [&](std::vector<uint64_t> numbers, int output, bool automatic) {
    return VlsmCheckL0Order(VlsmLayoutOf(pri), {L0Numbered(numbers)}, output,
                            l0, automatic, ucmp);
  };
  // Rules every priority satisfies.
  EXPECT_TRUE(check({1}, 1, true).ok());
  EXPECT_TRUE(check({1, 2, 3}, 1, false).ok());
  EXPECT_TRUE(check({4}, 1, false).ok()) << "no older file overlaps file 4";
  if (pri != kVlsm) {
    EXPECT_TRUE(check({3}, 1, false).ok()) << "other priorities are not checked";
    return;
  }
  // File 3 overlaps the older files 2 and 1: left behind, their
  // versions would be read first.
  Status s = check({3}, 1, false);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("#3 but not the older L0 file #1"), std::string::npos)
      << s.ToString();
  EXPECT_TRUE(check({2, 3}, 1, false).IsInvalidArgument());
  // An automatic compaction takes exactly the oldest file.
  s = check({1, 2}, 1, true);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("exactly the oldest L0 file (#1)"), std::string::npos)
      << s.ToString();
  EXPECT_TRUE(check({4}, 1, true).IsInvalidArgument());
  // Never L0 -> L0.
  s = check({1, 2}, 0, false);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("never compacts L0 into L0"), std::string::npos);
}

// L0 one file short of a slowdown trigger that equals its compaction
// trigger (upstream allows it: SanitizeOptions raises a lower slowdown
// trigger to the compaction trigger): writes do not wait, and Flush() does
// not either (WaitUntilFlushWouldNotStallWrites passes while L0 is under its
// compaction trigger), so nothing needs to be due; the liveness check holds.
// (Under kVlsm; under the stock control it checks nothing.)
TEST_P(VlsmPickerTest, LivenessHoldsOneFileShortOfASlowdownAtTheTrigger) {
  mutable_cf_options_.level0_file_num_compaction_trigger = 4;
  mutable_cf_options_.level0_slowdown_writes_trigger = 4;
  Add(0, 3, "a", "c", kMiB / 4, 103);
  Add(0, 2, "a", "c", kMiB / 4, 102);
  Add(0, 1, "a", "c", kMiB / 4, 101);
  AddL1Thirds();
  Finalize();
  ASSERT_EQ(vstorage_->l0_delay_trigger_count(), 3);
  ASSERT_EQ(vstorage_->estimated_compaction_needed_bytes(), 0u);
  const uint64_t before = VlsmLivenessBreaks();
  EXPECT_TRUE(VlsmCheckLiveness(*vstorage_, mutable_cf_options_, nullptr));
  EXPECT_EQ(VlsmLivenessBreaks(), before);
}

// The ranged layout's pick (PickRangedL0, issue 20): three flushes cut at
// L1's boundaries "i" and "q" (AddL1Thirds), newest first, with epochs.
class RangedPickTest : public VlsmPickerTest {
 public:
  // Memtables of 64 KiB: L1's 3 MiB (AddL1Thirds) is 48 memtables' worth,
  // more than any depth trigger here, so the trigger set is the one in force
  // (RangedDepthTrigger); and the slowdown out of reach, so that L0's bytes
  // in those small memtables do not force a step. The tests of a small L1
  // and of the slowdown set their own.
  RangedPickTest() {
    mutable_cf_options_.write_buffer_size = kMiB / 16;
    mutable_cf_options_.level0_slowdown_writes_trigger = 1 << 20;
  }

  FileMetaData* AddL0(uint64_t number, const char* smallest,
                      const char* largest, uint64_t epoch,
                      uint64_t size = kMiB / 4) {
    FileMetaData* f = Add(0, number, smallest, largest, size, 100 + epoch);
    f->epoch_number = epoch;
    return f;
  }

  // Flush e's pieces are numbered 10*e + 1..3, left to right.
  void AddAlignedFlush(uint64_t e) {
    AddL0(10 * e + 1, "a", "h", e);
    AddL0(10 * e + 2, "i", "p", e);
    AddL0(10 * e + 3, "q", "z", e);
  }

  // Flushes `flushes`..1 cut in thirds over L1 in thirds, depth trigger set.
  // L1's files are numbered from 1000: flush 1's pieces are 11..13.
  void AddAlignedFlushesOverL1(uint64_t flushes, int depth_trigger) {
    mutable_cf_options_.level0_file_num_compaction_trigger = depth_trigger;
    for (uint64_t e = flushes; e >= 1; --e) {
      AddAlignedFlush(e);
    }
    AddL1Thirds(1000);
    Finalize();
  }

  // Flushes 4, 3 and 2 cut at L1's boundaries, and a newest piece, file 50
  // ("j".."k", epoch 5), in the middle range, over L1 in thirds: the middle
  // range is four deep, the others three.
  void AddFlushesUnderANewerMiddlePiece() {
    AddL0(50, "j", "k", 5);
    for (uint64_t e = 4; e >= 2; --e) {
      AddAlignedFlush(e);
    }
    AddL1Thirds();
  }

  bool PickRanged(std::vector<uint64_t>* numbers) {
    CompactionInputFiles in;
    const bool picked =
        PickRangedL0({"default", vstorage_.get(), &picker_,
                      mutable_cf_options_, 1, -1},
                     &in);
    numbers->clear();
    for (const FileMetaData* f : in.files) {
      numbers->push_back(f->fd.GetNumber());
    }
    return picked;
  }
};

// The middle range holds a fourth, newest piece: it is the deepest and
// goes first, with every flush's piece of it and nothing else.
TEST_P(RangedPickTest, DeepestRangeFirst) {
  AddFlushesUnderANewerMiddlePiece();
  Finalize();
  std::vector<uint64_t> taken;
  ASSERT_TRUE(PickRanged(&taken));
  EXPECT_EQ(taken, (std::vector<uint64_t>{50, 42, 32, 22}));
}

// An older whole-key-range flush (file 1) under the pieces: any range
// must take it along, as it is older and overlaps. The newer pieces of the
// other ranges stay in L0, where reads still find them before file 1's
// older versions in L1.
TEST_P(RangedPickTest, OlderOverlappingFilesComeAlong) {
  AddAlignedFlush(3);
  AddAlignedFlush(2);
  AddL0(1, "a", "z", 1);
  AddL1Thirds();
  Finalize();
  std::vector<uint64_t> taken;
  ASSERT_TRUE(PickRanged(&taken));
  EXPECT_EQ(taken, (std::vector<uint64_t>{31, 21, 1}));
}

// The deepest range's L1 file is in a running L1 -> L2 compaction: that
// range is skipped, not waited for; the next range goes.
TEST_P(RangedPickTest, BusyRangesAreSkipped) {
  AddFlushesUnderANewerMiddlePiece();
  for (const auto& f : files_) {
    if (f->fd.GetNumber() == 11) {
      f->being_compacted = true;  // L1 "i".."p"
    }
  }
  Finalize();
  std::vector<uint64_t> taken;
  ASSERT_TRUE(PickRanged(&taken));
  EXPECT_EQ(taken, (std::vector<uint64_t>{41, 31, 21}));
  // With every L1 file busy, nothing may start.
  for (const auto& f : files_) {
    if (f->fd.GetNumber() >= 10 && f->fd.GetNumber() <= 12) {
      f->being_compacted = true;
    }
  }
  EXPECT_FALSE(PickRanged(&taken));
  EXPECT_TRUE(taken.empty());
}

// The depth trigger is the ranged layout's L0 trigger, also above f: ten
// whole flushes of 1/2 MiB (5 MiB, under L1's 8 MiB target) do not start a
// step at a trigger of 12; twelve do, and the step takes them all (each
// covers every key). Ten whole 1 MiB flushes do: 10 MiB is over L1's target,
// the byte rule (as stock's L0 score counts L0's bytes over L1's target).
TEST_P(RangedPickTest, L0WaitsForTheDepthTriggerAboveF) {
  mutable_cf_options_.level0_file_num_compaction_trigger = 12;
  for (uint64_t e = 10; e >= 1; --e) {
    AddL0(100 + e, "a", "z", e, kMiB / 2);
  }
  AddL1Thirds();
  Finalize();
  EXPECT_EQ(Pick(), nullptr) << "10 flushes, trigger 12, 5 MiB";
}

TEST_P(RangedPickTest, L0OverL1sTargetCompactsBelowTheDepthTrigger) {
  mutable_cf_options_.level0_file_num_compaction_trigger = 12;
  for (uint64_t e = 10; e >= 1; --e) {
    AddL0(100 + e, "a", "z", e, kMiB);
  }
  AddL1Thirds();
  Finalize();
  std::unique_ptr<Compaction> c = Pick();
  ASSERT_NE(c, nullptr) << "10 flushes, trigger 12, 10 MiB";
  EXPECT_EQ(c->num_input_files(0), 10u);
}

TEST_P(RangedPickTest, L0CompactsAtTheDepthTrigger) {
  mutable_cf_options_.level0_file_num_compaction_trigger = 12;
  for (uint64_t e = 12; e >= 1; --e) {
    AddL0(100 + e, "a", "z", e, kMiB);
  }
  AddL1Thirds();
  Finalize();
  std::unique_ptr<Compaction> c = Pick();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->start_level(), 0);
  EXPECT_EQ(c->num_input_files(0), 12u);
}

// Split flushes: five flushes cut in thirds are 15 L0 files but only five
// deep. The L0 score counts depth, so the step waits for the sixth flush
// (a file count would have fired at the second).
TEST_P(RangedPickTest, SplitFlushesCompactAtTheDepthNotTheFileCount) {
  AddAlignedFlushesOverL1(5, /*depth_trigger=*/6);
  EXPECT_EQ(Pick(), nullptr) << "15 pieces, depth 5, trigger 6";
}

TEST_P(RangedPickTest, SplitFlushesCompactOneRangeAtTheDepthTrigger) {
  AddAlignedFlushesOverL1(6, /*depth_trigger=*/6);
  std::unique_ptr<Compaction> c = Pick();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->num_input_files(0), 6u) << "one range: every flush's piece";
}

// While L1 is small, a range compacts once its L0 holds about its L1's
// bytes (RangedDepthTrigger), not at the configured depth: a fresh DB's
// first steps would otherwise take the trigger's worth of whole flushes
// (nothing cuts a flush while L1 is empty) and then all of the new L1 with
// them. Memtables of 1 MiB over L1's 3 MiB: the trigger is 4, not 6.
TEST_P(RangedPickTest, ASmallL1LowersTheDepthTrigger) {
  mutable_cf_options_.write_buffer_size = kMiB;
  AddAlignedFlushesOverL1(4, /*depth_trigger=*/6);
  std::unique_ptr<Compaction> c = Pick();
  ASSERT_NE(c, nullptr) << "depth 4 over L1's 3 memtables' worth";
  EXPECT_EQ(c->num_input_files(0), 4u) << "one range: every flush's piece";
}

TEST_P(RangedPickTest, ASmallL1StillWaitsBelowItsBytes) {
  mutable_cf_options_.write_buffer_size = kMiB;
  AddAlignedFlushesOverL1(3, /*depth_trigger=*/6);
  EXPECT_EQ(Pick(), nullptr) << "depth 3, trigger 4 over L1's 3 MiB";
}

// With an empty L1 every flush is whole; the first one goes to L1 at once,
// so that the next flushes find guards to cut at.
TEST_P(RangedPickTest, AnEmptyL1TakesTheFirstFlush) {
  mutable_cf_options_.level0_file_num_compaction_trigger = 32;
  AddL0(1, "a", "z", 1, 8 * kMiB);
  Finalize();
  std::unique_ptr<Compaction> c = Pick();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->num_input_files(0), 1u);
  EXPECT_EQ(c->num_input_files(1), 0u);
}

// With sequential keys every flush lands beside the last: depth stays 1 while
// L0's bytes grow. Past the byte target L0 must compact, or writes would
// slow down, and Flush() wait, with no L0 step scheduled to end it
// (RangedL0TriggersOf). `files` flushes of 1 MiB side by side, slowdown at
// 6 memtables of 1 MiB, depth trigger 4: Flush() waits once L0 holds more
// than 4 MiB (one more memtable would reach the slowdown), so the byte
// target is 4 MiB, under L1's 8 MiB target.
class SequentialFlushesTest : public RangedPickTest {
 public:
  void AddSequentialFlushes(int files) {
    mutable_cf_options_.level0_file_num_compaction_trigger = 4;
    mutable_cf_options_.level0_slowdown_writes_trigger = 6;
    mutable_cf_options_.write_buffer_size = kMiB;
    const char* keys[] = {"k1", "k2", "k3", "k4", "k5", "k6"};
    for (int i = files - 1; i >= 0; --i) {  // newest first
      AddL0(100 + i, keys[i], keys[i], 1 + i, kMiB);
    }
    AddL1Thirds();
    Finalize();
  }
};

TEST_P(SequentialFlushesTest, TheByteTargetIsWhereFlushWouldWait) {
  AddSequentialFlushes(1);
  EXPECT_EQ(RangedL0TriggersOf(*vstorage_, mutable_cf_options_).byte_target,
            4 * kMiB);
  mutable_cf_options_.level0_slowdown_writes_trigger = 20;
  EXPECT_EQ(RangedL0TriggersOf(*vstorage_, mutable_cf_options_).byte_target,
            8 * kMiB)
      << "L1's target, under the 18 MiB where Flush() would wait";
}

TEST_P(SequentialFlushesTest, L0WaitsBelowTheByteTargetAtDepthOne) {
  AddSequentialFlushes(3);
  EXPECT_EQ(vstorage_->l0_delay_trigger_count(), 3);
  EXPECT_EQ(Pick(), nullptr);
  EXPECT_EQ(vstorage_->estimated_compaction_needed_bytes(), 0u);
}

// At the byte target the oldest flush goes first (alone: nothing older
// overlaps it), and the estimate owes what the byte rule's steps take: the
// oldest flush, 1 MiB, which brings L0 back under the target, and nothing
// in L1 (no L1 file overlaps "k1").
TEST_P(SequentialFlushesTest, L0CompactsAtTheByteTargetEvenAtDepthOne) {
  AddSequentialFlushes(4);
  EXPECT_EQ(vstorage_->l0_delay_trigger_count(), 4);
  std::unique_ptr<Compaction> c = Pick();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->start_level(), 0);
  EXPECT_EQ(Numbers(*c, 0), (std::vector<uint64_t>{100}));
}

TEST_P(SequentialFlushesTest, TheEstimateOwesTheByteRulesStepsOnly) {
  AddSequentialFlushes(6);
  // 6 MiB over a 4 MiB target: the three oldest (k1, k2, k3) are due, which
  // leaves 3 MiB; "k1".."k3" lie in L1's first file ("a".."h", 1 MiB).
  const L0DebtTerm t = VlsmL0DebtTermOf(*vstorage_, mutable_cf_options_);
  EXPECT_EQ(t.l0_bytes, 3 * kMiB);
  EXPECT_EQ(t.below_bytes, 1 * kMiB);
}

// The stall count is L0's bytes in memtables' worth, rounded up: pieces of
// one flush add up to one memtable, not to one per piece.
TEST_P(RangedPickTest, StallCountIsL0BytesInMemtables) {
  mutable_cf_options_.write_buffer_size = kMiB;
  // 3 pieces of 1/4 MiB each per flush; the trigger as configured.
  AddAlignedFlushesOverL1(
      5, mutable_cf_options_.level0_file_num_compaction_trigger);
  EXPECT_EQ(vstorage_->l0_delay_trigger_count(), 4) << "15/4 MiB, rounded up";
}

// A file marked for compaction (here the newest, alone above every other
// key) proposes a step before the trigger: the ranged pick replaces the
// proposal with the deepest range, and the reason says the L0 pick is the
// layout's, not the mark's.
TEST_P(RangedPickTest, AMarkedFileStartsTheDeepestRange) {
  mutable_cf_options_.level0_file_num_compaction_trigger = 12;
  AddL0(60, "zz", "zz", 6)->marked_for_compaction = true;
  AddFlushesUnderANewerMiddlePiece();
  Finalize();
  ASSERT_EQ(vstorage_->FilesMarkedForCompaction().size(), 1u);
  std::unique_ptr<Compaction> c = Pick();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(Numbers(*c, 0), (std::vector<uint64_t>{50, 42, 32, 22}));
  EXPECT_EQ(c->compaction_reason(), CompactionReason::kLevelL0FilesNum);
}

// The same shape through the whole picker: under kVlsmRanged the choke
// point (VlsmTakeL0Pick) runs the ranged pick.
TEST_P(RangedPickTest, ThePickerTakesTheRangedPick) {
  AddFlushesUnderANewerMiddlePiece();
  Finalize();
  std::unique_ptr<Compaction> c = Pick();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->start_level(), 0);
  EXPECT_EQ(c->output_level(), 1);
  EXPECT_EQ(Numbers(*c, 0), (std::vector<uint64_t>{50, 42, 32, 22}));
  EXPECT_EQ(Numbers(*c, 1), (std::vector<uint64_t>{11}));
}

// The L0 order rule under kVlsmRanged: an automatic pick may take several
// L0 files, or a newer file alone, as long as no older overlapping file
// stays behind; never L0 -> L0.
TEST_P(RangedPickTest, L0OrderRuleForRangedPicks) {
  AddL0(4, "x", "z", 4);  // newest, apart from the others
  AddL0(3, "c", "f", 3);
  AddL0(2, "e", "k", 2);
  AddL0(1, "a", "d", 1);  // oldest
  AddL1Thirds();
  Finalize();
  const std::vector<FileMetaData*>& l0 = vstorage_->LevelFiles(0);
  auto check = [&](std::vector<uint64_t> numbers, int output) {
    return VlsmCheckL0Order(VlsmLayout::kRanged, {L0Numbered(numbers)}, output,
                            l0, /*automatic=*/true, BytewiseComparator());
  };
  EXPECT_TRUE(check({1, 2}, 1).ok());
  EXPECT_TRUE(check({1, 2, 3}, 1).ok());
  EXPECT_TRUE(check({4}, 1).ok()) << "no older file overlaps file 4";
  Status s = check({2, 3}, 1);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("compaction_pri=kVlsmRanged: the compaction "
                              "takes L0 file #3 but not the older L0 file #1"),
            std::string::npos)
      << s.ToString();
  s = check({1, 2}, 0);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("kVlsmRanged never compacts L0 into L0"),
            std::string::npos)
      << s.ToString();
}

// After a switch away from kVlsmRanged, stock picking may compact L0 into L0
// (intra-L0). Its output takes the smallest input epoch: with one piece of a
// split flush taken and another left behind, the output would overlap the
// left one at the same epoch, which VersionBuilder rejects as corruption. So
// under every compaction_pri a compaction into L0 takes a flush's pieces all
// or none.
TEST_P(RangedPickTest, IntoL0TakesAllPiecesOfAFlushOrNone) {
  AddL0(32, "m", "z", 3);  // flush 3, two pieces
  AddL0(31, "a", "l", 3);
  AddL0(20, "a", "z", 2);  // flush 2, whole
  AddL1Thirds();
  Finalize();
  const std::vector<FileMetaData*>& l0 = vstorage_->LevelFiles(0);
  auto check = [&](std::vector<uint64_t> numbers) {
    return VlsmCheckL0Order(VlsmLayout::kStock, {L0Numbered(numbers)},
                            /*output_level=*/0, l0, /*automatic=*/true,
                            BytewiseComparator());
  };
  EXPECT_TRUE(check({32, 31, 20}).ok());
  EXPECT_TRUE(check({20}).ok());
  const Status s = check({32, 20});
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("a compaction into L0 takes L0 file(s) #32, #20 "
                              "but not L0 file #31 of the same epoch (3"),
            std::string::npos)
      << s.ToString();
  // Into L1 the stock priorities keep their own rules.
  EXPECT_TRUE(VlsmCheckL0Order(VlsmLayout::kStock, {L0Numbered({32, 20})}, 1,
                               l0, true, BytewiseComparator())
                  .ok());
}

// The estimate of pending compaction bytes owes L0 range by range
// (VlsmL0DebtTermOf), so a ranged step is progress to the limits and to a
// write delay, which adjusts at every install on whether the estimate grew
// (the delayed rate falls) or fell (it rises). Four flushes in thirds over
// L1 in thirds, at a depth trigger of 4, owe all of L0 and L1: 3 + 3 MiB.
// After a step over the middle range (its pieces now in L1's middle file)
// the two ranges left owe 2 + 2 MiB (RocksDB's term, all of L0 and L1,
// would still owe 2 + 4 MiB). The next flush raises it again.
TEST_P(RangedPickTest, ARangedStepLowersTheEstimate) {
  AddAlignedFlushesOverL1(4, /*depth_trigger=*/4);
  const uint64_t before = vstorage_->estimated_compaction_needed_bytes();
  EXPECT_EQ(before, 6 * kMiB);

  // The version after the step.
  auto after_step = [&](bool with_flush_5) {
    NewVersion();
    if (with_flush_5) {
      AddAlignedFlush(5);
    }
    for (uint64_t e = 4; e >= 1; --e) {
      AddL0(10 * e + 1, "a", "h", e);
      AddL0(10 * e + 3, "q", "z", e);
    }
    Add(1, 1000, "a", "h", 1 * kMiB);
    Add(1, 1003, "i", "p", 2 * kMiB);
    Add(1, 1002, "q", "z", 1 * kMiB);
    Finalize();
  };
  after_step(false);
  const uint64_t after = vstorage_->estimated_compaction_needed_bytes();
  EXPECT_EQ(after, 4 * kMiB);
  after_step(true);
  EXPECT_GT(vstorage_->estimated_compaction_needed_bytes(), after);
}

// Five flushes in thirds are 15 L0 files but five deep at a depth trigger
// of 6: no step is due, so nothing is owed (stock's file count, 15 >= 6,
// would owe L0's 3.75 MiB and L1's 3 MiB).
TEST_P(RangedPickTest, DebtEstimateOwesNothingForL0BelowItsDepthTrigger) {
  mutable_cf_options_.write_buffer_size = kMiB / 4;  // keep the trigger at 6
  AddAlignedFlushesOverL1(5, /*depth_trigger=*/6);
  const L0DebtTerm t = VlsmL0DebtTermOf(*vstorage_, mutable_cf_options_);
  EXPECT_EQ(t.l0_bytes + t.below_bytes, 0u);
  EXPECT_EQ(vstorage_->estimated_compaction_needed_bytes(), 0u);
}

// At the depth trigger every range is due: all of L0 (6 x 3 pieces of
// 1/4 MiB) and all of L1 (3 MiB), which stays under its target.
TEST_P(RangedPickTest, DebtEstimateOwesL0AndL1AtTheDepthTrigger) {
  mutable_cf_options_.write_buffer_size = kMiB / 4;
  AddAlignedFlushesOverL1(6, /*depth_trigger=*/6);
  EXPECT_EQ(vstorage_->estimated_compaction_needed_bytes(), 15 * kMiB / 2);
}

// While a ranged step runs, its files are still owed. Five flushes in
// thirds and a sixth piece in the middle range: only the middle range is at
// the depth trigger of 6, and it is in a step. It owes its six pieces
// (1.5 MiB) and the L1 file under it (1 MiB) until the step installs; the
// other ranges, five deep, owe nothing yet. (RocksDB's term owed all of L0
// and L1, 7 MiB.)
TEST_P(RangedPickTest, DebtEstimateOwesTheRunningStepOnly) {
  mutable_cf_options_.write_buffer_size = kMiB / 4;
  mutable_cf_options_.level0_file_num_compaction_trigger = 6;
  AddL0(62, "i", "p", 6)->being_compacted = true;
  for (uint64_t e = 5; e >= 1; --e) {
    AddL0(10 * e + 1, "a", "h", e);
    AddL0(10 * e + 2, "i", "p", e)->being_compacted = true;
    AddL0(10 * e + 3, "q", "z", e);
  }
  AddL1Thirds(1000);  // flush 1's pieces are 11..13
  Finalize();
  EXPECT_EQ(vstorage_->estimated_compaction_needed_bytes(), 5 * kMiB / 2);
}

// Under any other compaction_pri, L0's term is stock's: all of L0 and the
// base level once L0 reaches its file trigger.
TEST_P(RangedPickTest, OtherPrioritiesOweL0AsStockDoes) {
  mutable_cf_options_.compaction_pri = kMinOverlappingRatio;
  mutable_cf_options_.RefreshDerivedOptions(ioptions_);
  AddAlignedFlushesOverL1(4, /*depth_trigger=*/8);
  const L0DebtTerm t = VlsmL0DebtTermOf(*vstorage_, mutable_cf_options_);
  EXPECT_EQ(t.l0_bytes, 3 * kMiB) << "12 files reach the file trigger of 8";
  EXPECT_EQ(t.below_bytes, 3 * kMiB);
  EXPECT_EQ(vstorage_->estimated_compaction_needed_bytes(), 6 * kMiB);
}

// The liveness rule on random versions (VlsmCheckLiveness): whenever writes
// may wait on compaction (the estimate above zero, or L0's stall count
// within one of the slowdown trigger, where Flush() waits), a compaction is
// due; and when L0 is due and nothing runs, the picker returns a step. L0s
// of up to 40 files over random key ranges (flush pieces, whole flushes,
// sequential runs), random triggers, L1 in thirds, L2 and L3 random.
TEST_P(RangedPickTest, LivenessHoldsOnRandomVersions) {
  Random rnd(37);
  static const char* kKeys[] = {"a", "c", "e", "g", "i", "k", "m",
                                "o", "q", "s", "u", "w", "y", "z"};
  int due_and_picked = 0;
  for (int trial = 0; trial < 400; ++trial) {
    NewVersion();
    mutable_cf_options_.level0_file_num_compaction_trigger =
        1 + static_cast<int>(rnd.Uniform(8));
    mutable_cf_options_.level0_slowdown_writes_trigger =
        2 + static_cast<int>(rnd.Uniform(30));
    mutable_cf_options_.write_buffer_size = kMiB / (1 + rnd.Uniform(8));
    const int files = 1 + static_cast<int>(rnd.Uniform(40));
    for (int i = files; i >= 1; --i) {  // newest first
      const int lo = static_cast<int>(rnd.Uniform(13));
      const int hi = lo + static_cast<int>(rnd.Uniform(14 - lo));
      AddL0(1000 + i, kKeys[lo], kKeys[hi], static_cast<uint64_t>(i),
            kMiB / (1 + rnd.Uniform(4)));
    }
    // L1 in thirds of 1 to 5 MiB (its target is 8), and below it L2 and L3
    // files over single keys, some levels over their targets (256 MiB and
    // 2 GiB): the priced terms of the levels below L0 owe too.
    Add(1, 10, "a", "h", kMiB * (1 + rnd.Uniform(5)));
    Add(1, 11, "i", "p", kMiB * (1 + rnd.Uniform(5)));
    Add(1, 12, "q", "z", kMiB * (1 + rnd.Uniform(5)));
    for (int level = 2; level <= 3; ++level) {
      uint64_t number = 100 * static_cast<uint64_t>(level);
      for (int k = 0; k < 14; ++k) {
        if (rnd.OneIn(3)) {
          Add(level, number++, kKeys[k], kKeys[k],
              kMiB * (1 + rnd.Uniform(level == 2 ? 60 : 300)));
        }
      }
    }
    Finalize();
    SCOPED_TRACE("trial " + std::to_string(trial));
    EXPECT_TRUE(VlsmCheckLiveness(*vstorage_, mutable_cf_options_, nullptr));
    if (vstorage_->CompactionScore(0) >= 1 &&
        vstorage_->CompactionScoreLevel(0) == 0) {
      std::unique_ptr<Compaction> c = Pick();
      EXPECT_NE(c, nullptr) << "L0 is due and nothing runs";
      if (c != nullptr) {
        picker_.ReleaseCompactionFiles(c.get(), Status::OK());  // next trial
        ++due_and_picked;
      }
    }
  }
  EXPECT_GT(due_and_picked, 100) << "the trials reach the due states";
}

// The levels below L0 priced as the picker pays them (vlsm_level_walk.h),
// under both vLSM layouts (their L1 order is good vSSTs first, below it
// kMinOverlappingRatio's).
class PricedLevelsTest : public VlsmPickerTest {
 public:
  // A file of `level` over user keys [lo, hi] (two-letter keys "aa".."zz",
  // numbered by position: key(i) for i in [0, 26 * 26)).
  static std::string KeyAt(int i) {
    return std::string(1, static_cast<char>('a' + i / 26)) +
           static_cast<char>('a' + i % 26);
  }
  FileMetaData* AddSpan(int level, int lo, int hi, uint64_t size) {
    return Add(level, next_number_++, KeyAt(lo).c_str(), KeyAt(hi).c_str(),
               size);
  }

  // One step of the walk as Compaction::IsTrivialMove and the picker's
  // inputs define it, computed the slow way: every file of the two levels
  // below compared with `f` by user key.
  uint64_t BruteStepRead(int level, const FileMetaData* f) const {
    const Comparator* ucmp = icmp_.user_comparator();
    auto overlap = [&](int below) {
      uint64_t bytes = 0;
      if (below >= vstorage_->num_levels()) {
        return bytes;
      }
      for (const FileMetaData* g : vstorage_->LevelFiles(below)) {
        if (ucmp->Compare(g->largest.user_key(), f->smallest.user_key()) >=
                0 &&
            ucmp->Compare(g->smallest.user_key(), f->largest.user_key()) <=
                0) {
          bytes += g->fd.GetFileSize();
        }
      }
      return bytes;
    };
    const uint64_t size = f->fd.GetFileSize();
    const uint64_t next = overlap(level + 1);
    const bool trivial =
        next == 0 &&
        size + overlap(level + 2) <= mutable_cf_options_.max_compaction_bytes;
    return trivial ? 0 : size + next;
  }

  // The fewest files in the version's pick order whose bytes reach `need`:
  // what they move and read, the slow way.
  PricedMove BrutePrice(int level, uint64_t need) const {
    PricedMove p;
    const std::vector<FileMetaData*>& files = vstorage_->LevelFiles(level);
    for (int i : vstorage_->FilesByCompactionPri(level)) {
      if (p.moved >= need) {
        break;
      }
      p.moved += files[static_cast<size_t>(i)]->fd.GetFileSize();
      p.read += BruteStepRead(level, files[static_cast<size_t>(i)]);
    }
    return p;
  }

  // The header's worked example (vlsm_level_walk.h): L1 in pick order A
  // (2 MiB, nothing under it), B (2 over 3 of L2), C (2 over 12), D (2 over
  // 20); L2 35 MiB.
  void AddWorkedExample() {
    AddSpan(1, 0, 9, 2 * kMiB);    // A
    AddSpan(1, 20, 29, 2 * kMiB);  // B
    AddSpan(1, 40, 49, 2 * kMiB);  // C
    AddSpan(1, 60, 69, 2 * kMiB);  // D
    AddSpan(2, 22, 25, 3 * kMiB);
    AddSpan(2, 42, 45, 12 * kMiB);
    AddSpan(2, 62, 65, 20 * kMiB);
  }

  uint64_t next_number_ = 100;
};

// The header's worked example: L1 at its 8 MiB target with L0's due steps
// owing 4 MiB into it. The walk takes A (no L2 under it: a trivial move)
// and B (2 MiB over 3 of L2): 4 MiB moved, 5 read. L2's 35 + 4 MiB stay
// under its target. Upstream's ratio would owe 4 x (1 + 35 / 12) of L1.
TEST_P(PricedLevelsTest, TheWorkedExample) {
  AddWorkedExample();
  Finalize();
  EXPECT_EQ(vstorage_->estimated_compaction_needed_bytes(), 0u)
      << "L1 at its target owes nothing";
  const L0DebtTerm l0{4 * kMiB, 0};
  EXPECT_EQ(VlsmEstimateCompactionBytes(*vstorage_, mutable_cf_options_, l0),
            4 * kMiB + 5 * kMiB);
  const PricedMove walked = PriceLevelExcess(
      VlsmLevelWalksOf(*vstorage_, mutable_cf_options_)->level(1), 4 * kMiB);
  EXPECT_EQ(walked.moved, 4 * kMiB);
  EXPECT_EQ(walked.read, 5 * kMiB);
}

// The worked example under updates: the recent L0 steps added half a
// byte below per L0 byte (vlsm_l0_yield.h), so L0's 4 MiB due bring 2 into
// L1. The walk takes A alone (2 MiB moved, a trivial move: 0 read) where
// it took A and B (5 read) at a yield of 1.
TEST_P(PricedLevelsTest, L0sInflowIsItsDueBytesAtTheStepsYield) {
  AddWorkedExample();
  Finalize();
  const L0DebtTerm l0{4 * kMiB, 0};
  vstorage_->set_vlsm_l0_yield(0.5);
  EXPECT_EQ(VlsmEstimateCompactionBytes(*vstorage_, mutable_cf_options_, l0),
            4 * kMiB + 0);
  // A yield of 0.75: 3 MiB in, so 3 must leave: A, then B (2 + 2 MiB
  // moved, 0 + 5 read).
  vstorage_->set_vlsm_l0_yield(0.75);
  EXPECT_EQ(VlsmEstimateCompactionBytes(*vstorage_, mutable_cf_options_, l0),
            4 * kMiB + 5 * kMiB);
  // L0's own term never shrinks: with nothing over L1's target after the
  // inflow, the due L0 steps are owed whole.
  vstorage_->set_vlsm_l0_yield(0.5);
  EXPECT_GE(VlsmEstimateCompactionBytes(*vstorage_, mutable_cf_options_, l0),
            l0.l0_bytes);
}

// What a step out of L0 adds below per L0 byte, over the last
// kVlsmL0YieldSteps steps, clamped to [0.5, 1].
TEST(VlsmL0YieldTest, TheRecentStepsYieldClamped) {
  VlsmL0Yield y;
  EXPECT_EQ(y.InflowPerL0Byte(), 1.0) << "no step yet: upstream's inflow";
  // Inserts: a step of 100 L0 bytes over 200 below writes 300: 1 per byte.
  y.Record(100, 200, 300);
  EXPECT_EQ(y.InflowPerL0Byte(), 1.0);
  // Updates: 100 over 200 writes 270; with the insert step, (100 + 70) /
  // 200 = 0.85.
  y.Record(100, 200, 270);
  EXPECT_DOUBLE_EQ(y.InflowPerL0Byte(), 0.85);
  // A step that read nothing from L0 is not one: nothing changes.
  y.Record(0, 200, 200);
  EXPECT_EQ(y.steps(), 2u);
  EXPECT_DOUBLE_EQ(y.InflowPerL0Byte(), 0.85);
  // Sixteen steps that add 0.1 per byte push the two out, and the yield
  // stops at the clamp's floor.
  for (size_t i = 0; i < kVlsmL0YieldSteps; ++i) {
    y.Record(100, 200, 210);
  }
  EXPECT_EQ(y.steps(), kVlsmL0YieldSteps);
  EXPECT_EQ(y.InflowPerL0Byte(), kVlsmL0YieldMin);
  // Deletes that remove more below than the step writes: still the floor.
  y.Record(100, 500, 50);
  EXPECT_EQ(y.InflowPerL0Byte(), kVlsmL0YieldMin);
  // Sixteen insert steps later the updates are forgotten; a step cannot add
  // more than it moves (the ceiling), whatever its bytes say.
  for (size_t i = 0; i < kVlsmL0YieldSteps; ++i) {
    y.Record(100, 0, 130);
  }
  EXPECT_EQ(y.InflowPerL0Byte(), kVlsmL0YieldMax);
  // Half the window at 0.6 (the other half still 1.3 each): 0.95; then
  // the 1.3s give way to 1.0s: (0.6 + 1.0) / 2 = 0.8.
  for (size_t i = 0; i < kVlsmL0YieldSteps / 2; ++i) {
    y.Record(100, 100, 160);
  }
  EXPECT_DOUBLE_EQ(y.InflowPerL0Byte(), 0.95);
  for (size_t i = 0; i < kVlsmL0YieldSteps / 2; ++i) {
    y.Record(100, 100, 200);
  }
  EXPECT_DOUBLE_EQ(y.InflowPerL0Byte(), 0.8);
}

// Through the hook (patch 0020): a version whose L1 is over its target owes
// what the walk prices. The worked example's L1 with a fifth file, E, of
// 4 MiB over 2 MiB of L2 (ratio 0.5, a good vSST): L1 holds 12 MiB, 4 over
// its target; the walk takes A (trivial) and E: 6 MiB moved, 6 read. L2's
// 37 + 6 MiB stay under its target. Upstream's cascade would owe
// 4 x (1 + 37 / 12) MiB, about 16.3.
TEST_P(PricedLevelsTest, TheVersionsEstimateIsTheWalksPrice) {
  AddSpan(1, 0, 9, 2 * kMiB);    // A
  AddSpan(1, 20, 29, 2 * kMiB);  // B
  AddSpan(1, 30, 39, 4 * kMiB);  // E
  AddSpan(1, 40, 49, 2 * kMiB);  // C
  AddSpan(1, 60, 69, 2 * kMiB);  // D
  AddSpan(2, 22, 25, 3 * kMiB);
  AddSpan(2, 32, 35, 2 * kMiB);
  AddSpan(2, 42, 45, 12 * kMiB);
  AddSpan(2, 62, 65, 20 * kMiB);
  Finalize();
  EXPECT_EQ(vstorage_->estimated_compaction_needed_bytes(), 6 * kMiB);
}

// Where a level's files cannot move trivially at all (here the next level
// is written with another compression, as bottommost_compression makes the
// last level), every file pays: the worked example's L1 with L2 the last
// non-empty level, compressed otherwise. A reads 2 MiB, B 5.
TEST_P(PricedLevelsTest, NoTrivialMovesWhereCompressionDiffers) {
  mutable_cf_options_.compression = kNoCompression;
  mutable_cf_options_.bottommost_compression = kZSTD;
  AddWorkedExample();
  Finalize();
  const L0DebtTerm l0{4 * kMiB, 0};
  EXPECT_EQ(VlsmEstimateCompactionBytes(*vstorage_, mutable_cf_options_, l0),
            4 * kMiB + 2 * kMiB + 5 * kMiB);
}

// Past the level's files the rest is priced at upstream's ratio: L1 empty,
// L0 owing 12 MiB into its 8 MiB target; L2 holds 4 MiB, so the 4 MiB over
// the target read 4 x (1 + 4 / 12) MiB and move on.
TEST_P(PricedLevelsTest, PastTheLevelsFilesTheRatioPrices) {
  AddSpan(2, 10, 19, 4 * kMiB);
  Finalize();
  const L0DebtTerm l0{12 * kMiB, 0};
  const uint64_t ratio_priced = static_cast<uint64_t>(
      4.0 * kMiB * (4.0 / 12.0 + 1));
  EXPECT_EQ(VlsmEstimateCompactionBytes(*vstorage_, mutable_cf_options_, l0),
            12 * kMiB + ratio_priced);
}

// A file over nothing in the next level moves trivially only while it and
// the level after that under it fit max_compaction_bytes, as
// Compaction::IsTrivialMove decides.
TEST_P(PricedLevelsTest, ATrivialMoveNeedsRoomForItsGrandparents) {
  const uint64_t max = mutable_cf_options_.max_compaction_bytes;
  EXPECT_EQ(VlsmFileStepReadBytes(kMiB, 0, max - kMiB, max), 0u);
  EXPECT_EQ(VlsmFileStepReadBytes(kMiB, 0, max, max), kMiB);
  EXPECT_EQ(VlsmFileStepReadBytes(kMiB, 3 * kMiB, 0, max), 4 * kMiB);
}

// The walk against the slow definition on random versions: L1 to L4 of
// random files (good and poor vSSTs, empty next levels, big grandparents),
// every level and random needs, exactly.
TEST_P(PricedLevelsTest, TheWalkMatchesTheSlowDefinitionOnRandomVersions) {
  Random rnd(52);
  int trivial_steps = 0;
  int paid_steps = 0;
  for (int trial = 0; trial < 200; ++trial) {
    NewVersion();
    for (int level = 1; level <= 4; ++level) {
      if (rnd.OneIn(5)) {
        continue;  // an empty level
      }
      int key = static_cast<int>(rnd.Uniform(20));
      while (key < 26 * 26 - 2) {
        const int hi = key + static_cast<int>(rnd.Uniform(30));
        if (hi >= 26 * 26) {
          break;
        }
        AddSpan(level, key, hi, kMiB / 4 * (1 + rnd.Uniform(level * 8)));
        key = hi + 1 + static_cast<int>(rnd.Uniform(level == 1 ? 60 : 8));
      }
    }
    Finalize();
    SCOPED_TRACE("trial " + std::to_string(trial));
    const std::shared_ptr<const VlsmLevelWalks> walks =
        VlsmLevelWalksOf(*vstorage_, mutable_cf_options_);
    for (int level = 1; level <= vstorage_->MaxInputLevel(); ++level) {
      const uint64_t bytes = vstorage_->NumLevelBytes(level);
      for (uint64_t need : {uint64_t{0}, uint64_t{1}, bytes / 3, bytes / 2,
                            bytes, bytes + kMiB}) {
        const PricedMove fast = PriceLevelExcess(walks->level(level), need);
        const PricedMove slow = BrutePrice(level, need);
        EXPECT_EQ(fast.moved, slow.moved) << "level " << level;
        EXPECT_EQ(fast.read, slow.read) << "level " << level;
      }
      const std::vector<FileMetaData*>& files = vstorage_->LevelFiles(level);
      for (const FileMetaData* f : files) {
        (BruteStepRead(level, f) == 0 ? trivial_steps : paid_steps)++;
      }
    }
  }
  EXPECT_GT(trivial_steps, 100) << "the versions reach trivial moves";
  EXPECT_GT(paid_steps, 100);
}

// The walk prices what the picker then takes: one level over its target
// (L1, then L2), the picker run until it stops, each pick's bytes moved and
// read (0 for a trivial move) summed, against the walk for the level's
// excess: within one file's step. The next level's files lie inside the
// upper files' key ranges, so no two picks want one file below (the picker
// would skip the second while the first runs, which the walk does not
// model). Under some L2 files with nothing below them the level after
// (L4) holds more than max_compaction_bytes, so they cannot move
// trivially; each such file has neighbours with files below them, because
// the picker grows a would-be trivial move by up to three neighbours with
// nothing below them before it checks the grandparents, and a grown move
// that fails that check rewrites them all, which the walk prices at
// nothing (vlsm_level_walk.h says so).
TEST_P(PricedLevelsTest, TheWalkPricesWhatThePickerTakes) {
  Random rnd(5252);
  mutable_cf_options_.max_compaction_bytes = 64 * kMiB;
  int trivial_picks = 0;
  int grandparent_bound_files = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const int level = 1 + trial % 2;
    NewVersion();
    // The level's target as the version will compute it once finalized.
    uint64_t target = mutable_cf_options_.max_bytes_for_level_base;
    for (int l = 1; l < level; ++l) {
      target = static_cast<uint64_t>(
          static_cast<double>(target) *
          mutable_cf_options_.max_bytes_for_level_multiplier *
          mutable_cf_options_.MaxBytesMultiplerAdditional(l));
    }
    // Upper files in slots of 10 keys, up to the target and a quarter
    // more; a slot has a file below it or (one in three) none; an empty
    // slot between two full ones may get a big grandparent (L2 trials).
    const uint64_t unit = level == 1 ? kMiB / 4 : 4 * kMiB;
    std::vector<uint64_t> sizes, below;
    uint64_t upper = 0;
    while (upper < target + target / 4) {
      sizes.push_back(unit * (1 + rnd.Uniform(4)));
      below.push_back(rnd.OneIn(3) ? 0
                                   : kMiB * (1 + rnd.Uniform(level == 1 ? 12
                                                                          : 30)));
      upper += sizes.back();
    }
    ASSERT_LT(sizes.size(), 67u) << "slots run out of keys";
    uint64_t step_max = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
      const int lo = static_cast<int>(i) * 10;
      AddSpan(level, lo, lo + 8, sizes[i]);
      if (below[i] > 0) {
        AddSpan(level + 1, lo + 2, lo + 4, below[i]);
      }
      const bool walled_in = i > 0 && i + 1 < sizes.size() &&
                             below[i - 1] > 0 && below[i + 1] > 0;
      if (level == 2 && below[i] == 0 && walled_in && rnd.OneIn(2)) {
        AddSpan(4, lo + 5, lo + 6, 70 * kMiB);
        ++grandparent_bound_files;
      }
      step_max = std::max(step_max, sizes[i] + below[i]);
    }
    Finalize();
    SCOPED_TRACE("trial " + std::to_string(trial) + " level " +
                 std::to_string(level));
    ASSERT_EQ(vstorage_->MaxBytesForLevel(level), target);
    const PricedMove walked = PriceLevelExcess(
        VlsmLevelWalksOf(*vstorage_, mutable_cf_options_)->level(level),
        upper - target);
    PricedMove picked;
    std::vector<std::unique_ptr<Compaction>> running;
    for (std::unique_ptr<Compaction> c = Pick(); c != nullptr; c = Pick()) {
      ASSERT_EQ(c->start_level(), level);
      picked.moved += TotalFileSize(*c->inputs(0));
      if (c->IsTrivialMove()) {
        ++trivial_picks;
      } else {
        picked.read += c->CalculateTotalInputSize();
      }
      running.push_back(std::move(c));
    }
    for (const auto& c : running) {
      picker_.ReleaseCompactionFiles(c.get(), Status::OK());
    }
    EXPECT_LE(std::max(walked.moved, picked.moved) -
                  std::min(walked.moved, picked.moved),
              step_max);
    EXPECT_LE(std::max(walked.read, picked.read) -
                  std::min(walked.read, picked.read),
              step_max);
  }
  EXPECT_GT(trivial_picks, 30) << "the trials reach trivial moves";
  EXPECT_GT(grandparent_bound_files, 5) << "and the grandparent bound";
}

INSTANTIATE_TEST_CASE_P(VlsmLayouts, PricedLevelsTest,
                        testing::Values(kVlsm, kVlsmRanged),
                        [](const testing::TestParamInfo<CompactionPri>& p) {
                          return p.param == kVlsm ? "Vlsm" : "VlsmRanged";
                        });

// The liveness check fires on a state that breaks the rule: an estimate
// that owes what no rule makes due (injected through the sync point
// "VlsmEstimateCompactionBytes:Owed", as a bug in the estimate would),
// with nothing running. The break is counted (VlsmLivenessBreaks); in
// builds with assertions it would fail the process unless announced
// through the sync point "VlsmCheckLiveness:Broken", as here. And an
// estimate the version holds that its own rules do not owe (computed under
// another rule, as a live switch's race or a compaction failed at shutdown
// leaves it) is not a break: the check computes the estimate again.
TEST_P(RangedPickTest, TheLivenessCheckFiresOnABrokenState) {
#ifdef NDEBUG
  GTEST_SKIP() << "needs sync points (a build with assertions)";
#else
  mutable_cf_options_.write_buffer_size = kMiB / 4;  // keep the trigger at 6
  MutableCFOptions ranged = mutable_cf_options_;
  ranged.level0_file_num_compaction_trigger = 6;
  // 15 files, 5 deep: under the ranged rule nothing is due.
  AddAlignedFlushesOverL1(5, /*depth_trigger=*/6);
  ASSERT_EQ(vstorage_->estimated_compaction_needed_bytes(), 0u);
  for (int level = 0; level <= vstorage_->MaxInputLevel(); ++level) {
    ASSERT_FALSE(VlsmLevelDueNow(*vstorage_, ranged, level)) << level;
  }
  const uint64_t before = VlsmLivenessBreaks();
  EXPECT_TRUE(VlsmCheckLiveness(*vstorage_, ranged, nullptr));

  int announced = 0;
  SyncPoint::GetInstance()->SetCallBack(
      "VlsmEstimateCompactionBytes:Owed",
      [](void* arg) { *static_cast<uint64_t*>(arg) += kMiB; });
  SyncPoint::GetInstance()->SetCallBack("VlsmCheckLiveness:Broken",
                                        [&](void* arg) {
                                          *static_cast<bool*>(arg) = true;
                                          ++announced;
                                        });
  SyncPoint::GetInstance()->EnableProcessing();
  NewVersion();
  AddAlignedFlushesOverL1(5, /*depth_trigger=*/6);
  EXPECT_EQ(vstorage_->estimated_compaction_needed_bytes(), kMiB);
  EXPECT_FALSE(VlsmCheckLiveness(*vstorage_, ranged, nullptr));
  SyncPoint::GetInstance()->DisableProcessing();
  SyncPoint::GetInstance()->ClearAllCallBacks();
  EXPECT_EQ(VlsmLivenessBreaks(), before + 1);
  EXPECT_EQ(announced, 1);

  // The version scored under a stock priority: its estimate is stock's
  // (all of L0 and L1 at the file trigger), which the ranged rules do not
  // owe. Checked under the ranged layout, not a break.
  mutable_cf_options_.compaction_pri = kMinOverlappingRatio;
  mutable_cf_options_.RefreshDerivedOptions(ioptions_);
  NewVersion();
  AddAlignedFlushesOverL1(5, /*depth_trigger=*/6);
  ASSERT_EQ(vstorage_->estimated_compaction_needed_bytes(), 27 * kMiB / 4)
      << "stock's term: all of L0 (3.75 MiB) and of L1 (3 MiB)";
  EXPECT_TRUE(VlsmCheckLiveness(*vstorage_, ranged, nullptr));
  EXPECT_EQ(VlsmLivenessBreaks(), before + 1);
#endif
}

INSTANTIATE_TEST_CASE_P(Ranged, RangedPickTest, testing::Values(kVlsmRanged),
                        [](const testing::TestParamInfo<CompactionPri>&) {
                          return "VlsmRanged";
                        });
INSTANTIATE_TEST_CASE_P(Ranged, SequentialFlushesTest,
                        testing::Values(kVlsmRanged),
                        [](const testing::TestParamInfo<CompactionPri>&) {
                          return "VlsmRanged";
                        });

// Live switches of compaction_pri: among the two vLSM layouts and the home
// priority (the stock one the column family opened with), nothing else.
TEST(LiveCompactionPriSwitchTest, AmongTheVlsmLayoutsAndHome) {
  EXPECT_EQ(LiveSwitchHome(kVlsm), kMinOverlappingRatio);
  EXPECT_EQ(LiveSwitchHome(kVlsmRanged), kMinOverlappingRatio);
  EXPECT_EQ(LiveSwitchHome(kRoundRobin), kRoundRobin);
  for (CompactionPri opened : {kVlsm, kVlsmRanged, kMinOverlappingRatio}) {
    for (CompactionPri from : {kVlsm, kVlsmRanged, kMinOverlappingRatio}) {
      for (CompactionPri to : {kVlsm, kVlsmRanged, kMinOverlappingRatio}) {
        EXPECT_TRUE(CheckLiveCompactionPriSwitch(opened, from, to).ok())
            << int(opened) << " " << int(from) << " " << int(to);
      }
    }
  }
  Status s = CheckLiveCompactionPriSwitch(kRoundRobin, kVlsmRanged,
                                          kMinOverlappingRatio);
  EXPECT_TRUE(s.IsInvalidArgument());
  EXPECT_NE(s.ToString().find("between kVlsm, kVlsmRanged and kRoundRobin"),
            std::string::npos)
      << s.ToString();
  EXPECT_TRUE(CheckLiveCompactionPriSwitch(kVlsmRanged, kVlsmRanged,
                                           kOldestLargestSeqFirst)
                  .IsInvalidArgument());
}

// The ranged pick against the L0 order rule (VlsmCheckL0Order, issue 19),
// on random L0 shapes: up to six flushes, each whole or cut into pieces at
// random keys (pieces of one flush share its epoch and do not overlap).
// Every step DueL0Seeds proposes (by depth at a trigger of 1, every range;
// and by bytes, oldest first), closed by OlderOverlapClosure, keeps the
// rule. The seeds alone (a range's files without the older files that
// overlap them) break it on some shapes: the closure is what keeps it.
TEST(RangedL0OrderTest, EveryRangedStepKeepsTheL0OrderRule) {
  const Comparator* ucmp = BytewiseComparator();
  Random rnd(20261124);
  int seeds_alone_broke_the_rule = 0;
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<std::unique_ptr<FileMetaData>> owned;
    std::vector<FileMetaData*> l0;  // newest first
    const int flushes = 1 + static_cast<int>(rnd.Uniform(6));
    uint64_t number = 1000;
    for (int e = flushes; e >= 1; --e) {
      // Cut keys ascending; each piece [lo, hi] lies inside its cut range.
      std::string cuts = "a";
      for (char c = 'b'; c <= 'z'; ++c) {
        if (rnd.OneIn(6)) {
          cuts.push_back(c);
        }
      }
      cuts.push_back('z' + 1);
      for (size_t i = 0; i + 1 < cuts.size(); ++i) {
        const char lo = static_cast<char>(
            cuts[i] + rnd.Uniform(static_cast<int>(cuts[i + 1] - cuts[i])));
        const char hi = static_cast<char>(
            lo + rnd.Uniform(static_cast<int>(cuts[i + 1] - lo)));
        if (rnd.OneIn(4)) {
          continue;  // no keys of this flush in that range
        }
        const SequenceNumber seq = 100 * e;
        auto f = std::make_unique<FileMetaData>(
            number++, 0, kMiB, InternalKey(std::string(1, lo), seq, kTypeValue),
            InternalKey(std::string(1, hi), seq, kTypeValue), seq, seq, false,
            Temperature::kUnknown, kInvalidBlobFileNumber,
            kUnknownOldestAncesterTime, kUnknownFileCreationTime,
            static_cast<uint64_t>(e), kUnknownFileChecksum,
            kUnknownFileChecksumFuncName, kNullUniqueId64x2, 0, 0, true);
        l0.push_back(f.get());
        owned.push_back(std::move(f));
      }
    }
    const std::vector<KeySpan> spans = SpansOf(l0);
    auto check = [&](const std::vector<size_t>& picked) {
      CompactionInputFiles in;
      in.level = 0;
      for (size_t i : picked) {
        in.files.push_back(l0[i]);
      }
      return VlsmCheckL0Order(VlsmLayout::kRanged, {in}, 1, l0,
                              /*automatic=*/true, ucmp);
    };
    RangedL0Triggers by_bytes;
    by_bytes.depth = 100;
    by_bytes.byte_target = kMiB;
    for (const RangedL0Triggers& triggers : {RangedL0Triggers{}, by_bytes}) {
      for (const std::vector<size_t>& seed :
           DueL0Seeds(spans, ucmp, triggers, /*count_busy=*/false)) {
        const Status s = check(OlderOverlapClosure(spans, seed, ucmp));
        EXPECT_TRUE(s.ok()) << "trial " << trial << ": " << s.ToString();
        if (!check(seed).ok()) {
          seeds_alone_broke_the_rule++;
        }
      }
    }
  }
  EXPECT_GT(seeds_alone_broke_the_rule, 0);
}

TEST(VlsmPutL0LastTest, OnlyLevelsOverTargetMoveAboveL0) {
  std::vector<double> scores = {12.0, 1.25, 0.5, 3.0, 0.0};
  VlsmPutL0Last(3, &scores);
  EXPECT_EQ(scores[0], 12.0);
  EXPECT_GT(scores[1], scores[0]);
  EXPECT_EQ(scores[2], 0.5);
  EXPECT_GT(scores[3], scores[1]) << "order among levels over target kept";
  EXPECT_EQ(scores[4], 0.0) << "beyond max_input_level untouched";
}

INSTANTIATE_TEST_CASE_P(VlsmAndStock, VlsmPickerTest,
                        testing::Values(kVlsm, kMinOverlappingRatio),
                        [](const testing::TestParamInfo<CompactionPri>& p) {
                          return p.param == kVlsm ? "Vlsm" : "Stock";
                        });

TEST(OrderL1FilesGoodFirstTest, GoodByRatioThenPoorByRatio) {
  InternalKeyComparator icmp(BytewiseComparator());
  auto file = [](uint64_t n, const char* lo, const char* hi, uint64_t size) {
    auto* f = new FileMetaData();
    f->fd = FileDescriptor(n, 0, size);
    f->smallest = InternalKey(lo, 1, kTypeValue);
    f->largest = InternalKey(hi, 1, kTypeValue);
    return std::unique_ptr<FileMetaData>(f);
  };
  std::vector<std::unique_ptr<FileMetaData>> keep;
  auto add = [&](std::vector<FileMetaData*>* level, uint64_t n,
                 const char* lo, const char* hi, uint64_t size) {
    keep.push_back(file(n, lo, hi, size));
    level->push_back(keep.back().get());
  };
  std::vector<FileMetaData*> l1, l2;
  add(&l1, 1, "a", "c", 4);   // overlap 2+3 = 5   ratio 1.25 good
  add(&l1, 2, "d", "f", 1);   // overlap 3 (shared) + 20 = 23 poor, ratio 23
  add(&l1, 3, "g", "h", 10);  // overlap 20 (shared) ratio 2, poor (> 16)
  add(&l1, 4, "x", "y", 5);   // overlap 0, ratio 0 good
  add(&l2, 10, "a", "b", 2);
  add(&l2, 11, "c", "d", 3);  // straddles files 1 and 2
  add(&l2, 12, "e", "g", 20);  // straddles files 2 and 3
  const VsstCutPolicy policy(2, 8);  // bound 16
  EXPECT_EQ(OrderL1FilesGoodFirst(icmp, l1, l2, policy),
            std::vector<size_t>({3, 0, 2, 1}));
  EXPECT_TRUE(OrderL1FilesGoodFirst(icmp, {}, l2, policy).empty());
  EXPECT_EQ(OrderL1FilesGoodFirst(icmp, l1, {}, policy),
            std::vector<size_t>({0, 1, 2, 3}));
}

// An L1 file that ends on the user key an L2 file starts with overlaps that
// file: compacting it rewrites the L2 file (RocksDB takes inputs by user
// key). By internal key it would not: L1's newer version of "k" sorts before
// L2's older one. The picker and the metrics census must call it the same.
TEST(OrderL1FilesGoodFirstTest, ASharedBoundaryUserKeyIsOverlap) {
  InternalKeyComparator icmp(BytewiseComparator());
  auto file = [](uint64_t n, const char* lo, const char* hi, uint64_t size,
                 SequenceNumber seq) {
    auto* f = new FileMetaData();
    f->fd = FileDescriptor(n, 0, size);
    f->smallest = InternalKey(lo, seq, kTypeValue);
    f->largest = InternalKey(hi, seq, kTypeValue);
    return std::unique_ptr<FileMetaData>(f);
  };
  std::vector<std::unique_ptr<FileMetaData>> keep;
  auto add = [&](std::vector<FileMetaData*>* level, uint64_t n, const char* lo,
                 const char* hi, uint64_t size, SequenceNumber seq) {
    keep.push_back(file(n, lo, hi, size, seq));
    level->push_back(keep.back().get());
  };
  std::vector<FileMetaData*> l1, l2;
  add(&l1, 1, "a", "k", 4, 100);   // ends on "k": overlap 20, poor
  add(&l1, 2, "m", "n", 4, 100);   // overlap 8, good, ratio 2
  add(&l2, 10, "k", "kz", 20, 5);  // starts on "k", an older version
  add(&l2, 11, "m", "n", 8, 5);
  const VsstCutPolicy policy(2, 8);  // bound 16
  EXPECT_EQ(OrderL1FilesGoodFirst(icmp, l1, l2, policy),
            std::vector<size_t>({1, 0}));

  ColumnFamilyMetaData meta;
  auto sst = [](const FileMetaData* f) {
    SstFileMetaData m;
    m.smallestkey = f->smallest.user_key().ToString();
    m.largestkey = f->largest.user_key().ToString();
    m.size = f->fd.GetFileSize();
    return m;
  };
  meta.levels.emplace_back(0, 0, std::vector<SstFileMetaData>{});
  meta.levels.emplace_back(1, 8, std::vector<SstFileMetaData>{sst(l1[0]), sst(l1[1])});
  meta.levels.emplace_back(2, 28, std::vector<SstFileMetaData>{sst(l2[0]), sst(l2[1])});
  const L1VsstCensus census =
      CensusL1Vssts(meta, BytewiseComparator(), policy.overlap_bound());
  EXPECT_EQ(census.poor, 1u);
  EXPECT_EQ(census.poor_bytes, 4u);
  EXPECT_EQ(census.good, 1u);
}

// The walk behind both the picker's order and the metrics census, on plain
// integer key ranges [lo, hi].
TEST(OverlapBytesPerFileTest, SharedEdgesCountForBothAndGapsForNone) {
  struct Range {
    int lo, hi;
    uint64_t size;
  };
  struct ByInt {
    int Smallest(const Range& r) const { return r.lo; }
    int Largest(const Range& r) const { return r.hi; }
    uint64_t Size(const Range& r) const { return r.size; }
    int Compare(int a, int b) const { return a < b ? -1 : (a > b ? 1 : 0); }
  };
  const std::vector<Range> upper = {{10, 19, 1}, {20, 30, 1}, {50, 60, 1}, {90, 95, 1}};
  const std::vector<Range> lower = {
      {0, 5, 100},    // ends before every upper file
      {8, 12, 2},     // straddles the start of the first
      {15, 20, 4},    // straddles the first and the second
      {25, 40, 8},    // runs past the second into the gap
      {41, 49, 16},   // in the gap: no upper file overlaps it
      {60, 70, 32},   // starts on the third's last key
      {96, 99, 64}};  // after every upper file
  EXPECT_EQ(OverlapBytesPerFile(upper, lower, ByInt{}),
            std::vector<uint64_t>({2 + 4, 4 + 8, 32, 0}));
  EXPECT_EQ(OverlapBytesPerFile(upper, std::vector<Range>{}, ByInt{}),
            std::vector<uint64_t>({0, 0, 0, 0}));
  EXPECT_TRUE(OverlapBytesPerFile(std::vector<Range>{}, lower, ByInt{}).empty());
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE
