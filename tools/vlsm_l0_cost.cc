// vlsm_l0_cost: what the ranged layout's L0 decisions cost under the DB
// mutex. ComputeCompactionScore (L0's score, and at its end the estimate of
// pending compaction bytes with L0's term range by range) runs at every
// version install and after every pick; PickRangedL0 at every pick. Both
// hold the DB mutex, so every writer that needs it waits for them.
//
// The version: L1 of `l1_files` files over disjoint key ranges; L0 of
// `flushes` split flushes, newest first, each cut into one piece per group
// of L1 files so that there are `l0_files` pieces in all, every range as
// deep as there are flushes (the worst case for the estimate: every range
// due, every closure taken). Each figure is the median over `repeats` calls
// (with the lowest and highest), in microseconds, also under stock's
// kMinOverlappingRatio on the same version for scale; the score once more
// with one step running (its L0 files busy, as between a pick and its
// install); and L0's score and term computed afresh from the spans, as
// every call did before the version kept them, side by side.
//
//   vlsm_l0_cost [l0_files=300,1000] [l1_files=300] [flushes=32] [repeats=200]
//
// Prints one JSON object per line.
#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "db/compaction/compaction_picker_level.h"
#include "db/compaction/vlsm_l0_model.h"
#include "db/compaction/vlsm_picker.h"
#include "db/vlsm_write_stalls.h"
#include "db/version_set.h"
#include "rocksdb/vlsm.h"

namespace ROCKSDB_NAMESPACE {
namespace {

struct Figures {
  double median_us = 0, min_us = 0, max_us = 0;
};

template <typename F>
Figures Time(int repeats, F&& f) {
  std::vector<double> us;
  for (int i = 0; i < repeats; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    const auto t1 = std::chrono::steady_clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
  }
  std::sort(us.begin(), us.end());
  return {us[us.size() / 2], us.front(), us.back()};
}

std::string Key(int i) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%07d", i);
  return buf;
}

class Version {
 public:
  Version(CompactionPri pri, int l0_files, int l1_files, int flushes)
      : icmp_(BytewiseComparator()), options_(MakeOptions(pri)),
        ioptions_(options_), moptions_(options_), picker_(ioptions_, &icmp_) {
    moptions_.RefreshDerivedOptions(ioptions_);
    ioptions_.cf_paths.emplace_back("dummy", ~uint64_t{0});
    vstorage_ = std::make_unique<VersionStorageInfo>(
        &icmp_, icmp_.user_comparator(), options_.num_levels,
        kCompactionStyleLevel, nullptr, false,
        EpochNumberRequirement::kMightMissing, ioptions_.clock,
        options_.bottommost_file_compaction_delay,
        OffpeakTimeOption(MutableDBOptions().daily_offpeak_time_utc));
    // Keys 0 .. 1000 * l1_files; L1 file j holds [1000 j, 1000 j + 999].
    const int pieces = std::max(l0_files / std::max(flushes, 1), 1);
    const int group = std::max(l1_files / pieces, 1);
    uint64_t number = 1;
    for (int e = flushes; e >= 1; --e) {  // newest first
      for (int p = 0; p < pieces; ++p) {
        const int lo = 1000 * group * p + e;
        const int hi = 1000 * group * (p + 1) - 1 - e;
        Add(0, number++, lo, hi, 1 << 20, static_cast<uint64_t>(e));
      }
    }
    for (int j = 0; j < l1_files; ++j) {
      Add(1, number++, 1000 * j, 1000 * j + 999, 8 << 20, 0);
    }
    vstorage_->PrepareForVersionAppend(ioptions_, moptions_);
    vstorage_->ComputeCompactionScore(ioptions_, moptions_);
    vstorage_->SetFinalized();
  }

  size_t L0Files() const { return vstorage_->LevelFiles(0).size(); }

  void Score() { vstorage_->ComputeCompactionScore(ioptions_, moptions_); }

  void Pick() {
    CompactionInputFiles in;
    if (moptions_.vlsm_layout == VlsmLayout::kRanged) {
      PickRangedL0({"default", vstorage_.get(), &picker_, moptions_, 1, -1},
                   &in);
    }
  }

  // Marks the L0 files of the step the picker takes (the ranged pick, or
  // the oldest quarter of L0 under stock) as being compacted, as a running
  // step leaves them while the next scores are computed.
  void RunOneStep() {
    CompactionInputFiles in;
    if (moptions_.vlsm_layout == VlsmLayout::kRanged) {
      PickRangedL0({"default", vstorage_.get(), &picker_, moptions_, 1, -1},
                   &in);
    } else {
      const std::vector<FileMetaData*>& l0 = vstorage_->LevelFiles(0);
      in.files.assign(l0.end() - static_cast<long>(l0.size() / 4), l0.end());
    }
    for (FileMetaData* f : in.files) {
      f->being_compacted = true;
    }
  }

  uint64_t Estimate() const {
    return vstorage_->estimated_compaction_needed_bytes();
  }

  // L0's score and L0's term of the estimate computed afresh from the
  // spans, as every call did before the version kept them (and as a call
  // still does when a running step holds a file outside the owed ones):
  // the same rule, side by side with what the kept model costs.
  uint64_t L0RuleAfresh() const {
    const std::shared_ptr<const VlsmL0Model> model = VlsmL0ModelOf(*vstorage_);
    const std::vector<KeySpan> spans = model->SpansNow();
    const RangedL0Triggers t = RangedL0TriggersOf(*vstorage_, moptions_);
    const double score = RangedL0Score(spans, icmp_.user_comparator(), t,
                                       &model->ends());
    const L0DebtTerm term =
        RangedL0Debt(spans, SpansOf(vstorage_->LevelFiles(1)),
                     icmp_.user_comparator(), t, &model->ends());
    return term.l0_bytes + term.below_bytes + (score >= 1 ? 1 : 0);
  }

 private:
  static Options MakeOptions(CompactionPri pri) {
    Options o;
    o.num_levels = 5;
    VlsmOptions v;
    v.l0_layout = VlsmL0Layout::kRanged;
    v.ranged_l0_depth = 8;
    ConfigureVlsm(&o, v);
    o.compaction_pri = pri;
    o.max_bytes_for_level_base = 256ull << 20;
    o.level0_slowdown_writes_trigger = 1 << 20;  // no byte cap: depth only
    o.ttl = 0;
    o.periodic_compaction_seconds = 0;
    return o;
  }

  void Add(int level, uint64_t number, int lo, int hi, uint64_t size,
           uint64_t epoch) {
    auto* f = new FileMetaData(
        number, 0, size, InternalKey(Key(lo), 100 + epoch, kTypeValue),
        InternalKey(Key(hi), 100 + epoch, kTypeValue), 100 + epoch,
        100 + epoch, false, Temperature::kUnknown, kInvalidBlobFileNumber,
        kUnknownOldestAncesterTime, kUnknownFileCreationTime,
        epoch == 0 ? kUnknownEpochNumber : epoch, kUnknownFileChecksum,
        kUnknownFileChecksumFuncName, kNullUniqueId64x2, 0, 0, true);
    f->compensated_file_size = size;
    vstorage_->AddFile(level, f);
    files_.emplace_back(f);
  }

  InternalKeyComparator icmp_;
  Options options_;
  ImmutableOptions ioptions_;
  MutableCFOptions moptions_;
  LevelCompactionPicker picker_;
  std::unique_ptr<VersionStorageInfo> vstorage_;
  std::vector<std::unique_ptr<FileMetaData>> files_;
};

std::vector<int> ParseList(const char* s) {
  std::vector<int> out;
  for (const char* p = s; *p;) {
    out.push_back(std::atoi(p));
    while (*p && *p != ',') ++p;
    if (*p == ',') ++p;
  }
  return out;
}

int Main(int argc, char** argv) {
  std::vector<int> l0_sizes = {300, 1000};
  int l1_files = 300, flushes = 32, repeats = 200;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string key = arg.substr(0, eq);
    const char* value = eq == std::string::npos ? "" : argv[i] + eq + 1;
    if (key == "l0_files") {
      l0_sizes = ParseList(value);
    } else if (key == "l1_files") {
      l1_files = std::atoi(value);
    } else if (key == "flushes") {
      flushes = std::atoi(value);
    } else if (key == "repeats") {
      repeats = std::atoi(value);
    } else {
      std::fprintf(stderr,
                   "usage: vlsm_l0_cost [l0_files=300,1000] [l1_files=300] "
                   "[flushes=32] [repeats=200]\nunknown argument: %s\n",
                   argv[i]);
      return 2;
    }
  }
  if (l0_sizes.empty() || l1_files < 1 || flushes < 1 || repeats < 1) {
    std::fprintf(stderr, "vlsm_l0_cost: every count must be >= 1\n");
    return 2;
  }
  for (int l0 : l0_sizes) {
    for (CompactionPri pri : {kVlsmRanged, kMinOverlappingRatio}) {
      Version v(pri, l0, l1_files, flushes);
      const Figures score = Time(repeats, [&] { v.Score(); });
      uint64_t sink = 0;
      const Figures afresh =
          pri == kVlsmRanged
              ? Time(repeats, [&] { sink += v.L0RuleAfresh(); })
              : Figures{};  // the ranged rule: nothing to compare under stock
      const Figures pick = Time(repeats, [&] { v.Pick(); });
      v.RunOneStep();
      const Figures busy = Time(repeats, [&] { v.Score(); });
      std::printf(
          "{\"compaction_pri\": \"%s\", \"l0_files\": %zu, \"l1_files\": %d, "
          "\"flushes\": %d, \"estimate_bytes\": %" PRIu64
          ", \"compute_compaction_score_us\": {\"median\": %.1f, \"min\": "
          "%.1f, \"max\": %.1f}, \"pick_ranged_l0_us\": {\"median\": %.1f, "
          "\"min\": %.1f, \"max\": %.1f}, "
          "\"compute_compaction_score_one_step_running_us\": {\"median\": "
          "%.1f, \"min\": %.1f, \"max\": %.1f}, "
          "\"l0_score_and_term_afresh_us\": {\"median\": %.1f, \"min\": "
          "%.1f, \"max\": %.1f}}\n",
          pri == kVlsmRanged ? "kVlsmRanged" : "kMinOverlappingRatio",
          v.L0Files(), l1_files, flushes, v.Estimate(), score.median_us,
          score.min_us, score.max_us, pick.median_us, pick.min_us,
          pick.max_us, busy.median_us, busy.min_us, busy.max_us,
          afresh.median_us, afresh.min_us, afresh.max_us);
      if (sink == 1) std::printf("\n");  // keeps the timed calls
    }
  }
  return 0;
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) { return ROCKSDB_NAMESPACE::Main(argc, argv); }
