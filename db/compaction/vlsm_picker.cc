#include "db/compaction/vlsm_picker.h"

#include <algorithm>
#include <cassert>
#include <cinttypes>
#include <cmath>
#include <cstdint>
#include <unordered_set>

#include "db/compaction/compaction.h"
#include "db/compaction/compaction_picker.h"
#include "db/compaction/sorted_run_overlap.h"
#include "db/compaction/vlsm_l0_ranges.h"
#include "db/version_set.h"
#include "logging/logging.h"
#include "options/cf_options.h"
#include "options/compaction_pri_name.h"

namespace ROCKSDB_NAMESPACE {

CompactionPri LiveSwitchHome(CompactionPri opened) {
  return IsVlsmCompactionPri(opened) ? kMinOverlappingRatio : opened;
}

Status CheckLiveCompactionPriSwitch(CompactionPri opened, CompactionPri from,
                                    CompactionPri to) {
  const CompactionPri home = LiveSwitchHome(opened);
  auto may_switch = [home](CompactionPri pri) {
    return pri == home || IsVlsmCompactionPri(pri);
  };
  if (from == to || (may_switch(from) && may_switch(to))) {
    return Status::OK();
  }
  return Status::InvalidArgument(
      std::string("compaction_pri: a live column family switches only "
                  "between kVlsm, kVlsmRanged and ") +
      CompactionPriName(home) +
      " (the stock priority it opened with), not from " +
      CompactionPriName(from) + " to " + CompactionPriName(to) +
      "; reopen it with the priority you want");
}

namespace {
// S_M and f of any column family's options, as the cut rule takes them.
VsstCutPolicy VsstCutPolicyOf(uint64_t target_file_size_base,
                              double max_bytes_for_level_multiplier,
                              bool align_with_l2 = false) {
  // f as a whole number (both vLSM layouts refuse a fraction:
  // CheckVlsmOptions); a
  // stock DB's fraction rounds down here, for every user alike.
  const double f = max_bytes_for_level_multiplier;
  const uint64_t growth =
      std::isfinite(f) && f >= 1 && f < 1e18 ? static_cast<uint64_t>(f) : 1;
  return VsstCutPolicy(target_file_size_base, growth, align_with_l2);
}
}  // namespace

uint64_t VsstOverlapBoundOf(uint64_t target_file_size_base,
                            double max_bytes_for_level_multiplier) {
  return VsstCutPolicyOf(target_file_size_base, max_bytes_for_level_multiplier)
      .overlap_bound();
}

VsstCutPolicy VsstCutPolicyFor(const MutableCFOptions& mutable_cf_options) {
  // The ranged layout aligns L1's files with L2's (vsst_cut_policy.h); the
  // paper's layout keeps its two rules.
  return VsstCutPolicyOf(
      mutable_cf_options.target_file_size_base,
      mutable_cf_options.max_bytes_for_level_multiplier,
      mutable_cf_options.compaction_pri == CompactionPri::kVlsmRanged);
}

std::optional<VsstCutPolicy> VsstCutPolicyForOutputsOf(
    const Compaction& c, bool is_penultimate_level) {
  if (!IsVlsmCompactionPri(c.mutable_cf_options()->compaction_pri) ||
      is_penultimate_level ||
      c.output_level() != kVlsmVsstLevel) {
    return std::nullopt;
  }
  return VsstCutPolicyFor(*c.mutable_cf_options());
}

namespace {

// Whether an L0 -> L1 step over l0_inputs may start now: the L1 files in
// its range (to a clean cut) are in no running compaction, and no running
// compaction writes into that range of output_level.
bool L1RangeIsFree(const std::string& cf_name, VersionStorageInfo* vstorage,
                   CompactionPicker* picker,
                   const CompactionInputFiles& l0_inputs, int output_level,
                   int penultimate_level) {
  InternalKey smallest;
  InternalKey largest;
  picker->GetRange(l0_inputs, &smallest, &largest);
  CompactionInputFiles l1_inputs;
  l1_inputs.level = output_level;
  vstorage->GetOverlappingInputs(output_level, &smallest, &largest,
                                 &l1_inputs.files);
  return (l1_inputs.empty() ||
          picker->ExpandInputsToCleanCut(cf_name, vstorage, &l1_inputs)) &&
         !picker->FilesRangeOverlapWithCompaction({l0_inputs}, output_level,
                                                  penultimate_level);
}

// The start of both L0 picks: clears start_level_inputs (an L0 input set)
// and says whether an L0 -> L1 step may start at all. One L0 compaction at a
// time: in the single-file layout the head of the queue is either free or in
// the one running compaction; the ranged layout keeps the same rule for now.
bool L0PickMayStart(VersionStorageInfo* vstorage, CompactionPicker* picker,
                    CompactionInputFiles* start_level_inputs) {
  start_level_inputs->clear();
  start_level_inputs->level = 0;
  return !vstorage->LevelFiles(0).empty() &&
         picker->level0_compactions_in_progress()->empty();
}

}  // namespace

bool PickOldestL0File(const std::string& cf_name, VersionStorageInfo* vstorage,
                      CompactionPicker* picker, int output_level,
                      int penultimate_level,
                      CompactionInputFiles* start_level_inputs) {
  if (!L0PickMayStart(vstorage, picker, start_level_inputs)) {
    return false;
  }
  FileMetaData* oldest = vstorage->LevelFiles(0).back();  // L0 is kept newest first
  if (oldest->being_compacted) {
    return false;
  }
  start_level_inputs->files.push_back(oldest);
  if (!L1RangeIsFree(cf_name, vstorage, picker, *start_level_inputs,
                     output_level, penultimate_level)) {
    start_level_inputs->clear();
    return false;
  }
  return true;
}

bool PickRangedL0(const std::string& cf_name, VersionStorageInfo* vstorage,
                  CompactionPicker* picker,
                  const MutableCFOptions& moptions, int output_level,
                  int penultimate_level,
                  CompactionInputFiles* start_level_inputs, bool due_only) {
  if (!L0PickMayStart(vstorage, picker, start_level_inputs)) {
    return false;
  }
  const std::vector<FileMetaData*>& l0 = vstorage->LevelFiles(0);
  const Comparator* ucmp = vstorage->user_comparator();
  const std::vector<L0Span> spans = SpansOf(l0);
  std::vector<std::vector<size_t>> seeds =
      DueL0Seeds(spans, ucmp, RangedL0TriggersOf(*vstorage, moptions),
                 /*count_busy=*/false);
  if (seeds.empty() && !due_only) {
    // Every range, deepest first: a trigger of depth 1 makes each one due.
    seeds = DueL0Seeds(spans, ucmp, RangedL0Triggers{}, /*count_busy=*/false);
  }
  for (const std::vector<size_t>& seed : seeds) {
    CompactionInputFiles candidate;
    candidate.level = 0;
    bool busy = false;
    for (size_t i : OlderOverlapClosure(spans, seed, ucmp)) {
      busy = busy || l0[i]->being_compacted;
      candidate.files.push_back(l0[i]);  // ascending index: newest first
    }
    if (!busy && L1RangeIsFree(cf_name, vstorage, picker, candidate,
                               output_level, penultimate_level)) {
      *start_level_inputs = std::move(candidate);
      return true;
    }
    // Busy here: try the next step.
  }
  return false;
}

bool PickVlsmL0Inputs(const MutableCFOptions& moptions,
                      const std::string& cf_name,
                      VersionStorageInfo* vstorage, CompactionPicker* picker,
                      int output_level, int penultimate_level,
                      CompactionInputFiles* start_level_inputs,
                      bool due_only) {
  assert(IsVlsmCompactionPri(moptions.compaction_pri));
  return moptions.compaction_pri == kVlsmRanged
             ? PickRangedL0(cf_name, vstorage, picker, moptions, output_level,
                            penultimate_level, start_level_inputs, due_only)
             : PickOldestL0File(cf_name, vstorage, picker, output_level,
                                penultimate_level, start_level_inputs);
}

bool VlsmTakeL0Pick(const std::string& cf_name, VersionStorageInfo* vstorage,
                    CompactionPicker* picker, const ImmutableOptions& ioptions,
                    const MutableCFOptions& mutable_cf_options,
                    int* output_level, CompactionInputFiles* start_level_inputs,
                    CompactionReason* reason) {
  const std::vector<FileMetaData*> proposed = start_level_inputs->files;
  *output_level = vstorage->base_level();
  // Work the score proposed is due work; any other proposal (a marked file,
  // TTL, periodic) may start whichever step comes first.
  const bool due_only = *reason == CompactionReason::kLevelL0FilesNum;
  if (!PickVlsmL0Inputs(mutable_cf_options, cf_name, vstorage, picker,
                        *output_level,
                        Compaction::EvaluatePenultimateLevel(
                            vstorage, mutable_cf_options, ioptions, 0,
                            *output_level),
                        start_level_inputs, due_only)) {
    return false;
  }
  if (start_level_inputs->files != proposed) {
    *reason = CompactionReason::kLevelL0FilesNum;
  }
  return true;
}

namespace {

// An L0 file that is not in `taken` but shares an epoch with one that is;
// null if none. (Epoch 0 is unknown, as in DBs from before epochs.)
const FileMetaData* L0FileOfATakenEpochLeftBehind(
    const std::vector<FileMetaData*>& taken,
    const std::vector<FileMetaData*>& l0) {
  const std::unordered_set<const FileMetaData*> in(taken.begin(), taken.end());
  std::unordered_set<uint64_t> epochs;
  for (const FileMetaData* f : taken) {
    if (f->epoch_number != kUnknownEpochNumber) {
      epochs.insert(f->epoch_number);
    }
  }
  for (const FileMetaData* f : l0) {
    if (in.count(f) == 0 && epochs.count(f->epoch_number) != 0) {
      return f;
    }
  }
  return nullptr;
}

std::string FileNumbers(const std::vector<FileMetaData*>& files) {
  std::string out;
  for (const FileMetaData* f : files) {
    out += (out.empty() ? "#" : ", #") + std::to_string(f->fd.GetNumber());
  }
  return out;
}

}  // namespace

Status VlsmCheckL0Order(CompactionPri pri,
                        const std::vector<CompactionInputFiles>& inputs,
                        int output_level,
                        const std::vector<FileMetaData*>& l0_newest_first,
                        bool automatic, const Comparator* ucmp) {
  const CompactionInputFiles* l0_inputs = nullptr;
  for (const CompactionInputFiles& in : inputs) {
    if (in.level == 0 && !in.empty()) {
      l0_inputs = &in;
    }
  }
  if (l0_inputs == nullptr) {
    return Status::OK();
  }
  auto taken = [l0_inputs] {
    return "L0 file(s) " + FileNumbers(l0_inputs->files);
  };
  if (output_level == 0) {
    const FileMetaData* left = L0FileOfATakenEpochLeftBehind(
        l0_inputs->files, l0_newest_first);
    if (left != nullptr) {
      return Status::InvalidArgument(
          "a compaction into L0 takes " + taken() + " but not L0 file #" +
          std::to_string(left->fd.GetNumber()) + " of the same epoch (" +
          std::to_string(left->epoch_number) +
          "; the pieces of one split flush): take all of them or none");
    }
  }
  if (!IsVlsmCompactionPri(pri)) {
    return Status::OK();
  }
  // Named only when a rule is broken: this runs at every registration.
  auto rule = [pri] { return "compaction_pri=" + CompactionPriName(pri); };
  if (output_level == 0) {
    return Status::InvalidArgument(
        rule() + " never compacts L0 into L0 (" + taken() +
        "): compact into L1 instead");
  }
  // The paper's layout is a queue; the ranged layout's picks are any range
  // closed over older overlapping files, which the walk below checks.
  if (automatic && pri == kVlsm &&
      (l0_inputs->size() != 1 || l0_newest_first.empty() ||
       l0_inputs->files[0] != l0_newest_first.back())) {
    return Status::InvalidArgument(
        rule() + ": an automatic compaction takes exactly the "
        "oldest L0 file (" +
        (l0_newest_first.empty() ? std::string("none")
                                 : FileNumbers({l0_newest_first.back()})) +
        "), not " + taken());
  }
  // Walk L0 from the oldest file up: an input is out of order if an older
  // file that overlaps it stays in L0.
  const std::unordered_set<const FileMetaData*> in_set(
      l0_inputs->files.begin(), l0_inputs->files.end());
  std::vector<const FileMetaData*> older_left_behind;
  for (auto it = l0_newest_first.rbegin(); it != l0_newest_first.rend(); ++it) {
    const FileMetaData* f = *it;
    if (in_set.count(f) == 0) {
      older_left_behind.push_back(f);
      continue;
    }
    for (const FileMetaData* older : older_left_behind) {
      if (SpansOverlap(SpanOf(*f), SpanOf(*older), ucmp)) {
        return Status::InvalidArgument(
            rule() + ": the compaction takes L0 file #" +
            std::to_string(f->fd.GetNumber()) + " but not the older L0 file #" +
            std::to_string(older->fd.GetNumber()) +
            " whose key range overlaps it; reads would then find the older "
            "versions first");
      }
    }
  }
  return Status::OK();
}

Status VlsmCheckL0Order(const Compaction& c) {
  if (c.compaction_reason() == CompactionReason::kExternalSstIngestion) {
    return Status::OK();
  }
  std::vector<CompactionInputFiles> inputs(c.num_input_levels());
  for (size_t i = 0; i < inputs.size(); ++i) {
    inputs[i].level = c.level(i);
    inputs[i].files = *c.inputs(i);
  }
  return VlsmCheckL0Order(c.mutable_cf_options()->compaction_pri, inputs,
                          c.output_level(), c.input_vstorage()->LevelFiles(0),
                          !c.is_manual_compaction(),
                          c.immutable_options()->user_comparator);
}

bool VlsmAdmitCompaction(Compaction* c, Logger* logger) {
  const Status order = VlsmCheckL0Order(*c);
  if (order.ok()) {
    return true;
  }
  ROCKS_LOG_ERROR(logger, "Refused compaction: %s", order.ToString().c_str());
  // Only the vLSM layouts' picks keep every rule by construction.
  assert(!IsVlsmCompactionPri(c->mutable_cf_options()->compaction_pri));
  c->MarkFilesBeingCompacted(false);
  return false;
}

void VlsmPutL0Last(int max_input_level, std::vector<double>* scores_by_level) {
  std::vector<double>& score = *scores_by_level;
  const double l0_score = std::max(score[0], 0.0);
  for (int level = 1; level <= max_input_level; ++level) {
    if (score[level] >= 1.0) {
      score[level] += l0_score;  // above L0, same order among themselves
    }
  }
}

int VlsmRangedDepthTriggerOf(const VersionStorageInfo& vstorage,
                             const MutableCFOptions& moptions) {
  return RangedDepthTrigger(
      moptions.level0_file_num_compaction_trigger,
      vstorage.num_levels() > 1 ? vstorage.NumLevelBytes(1) : 0,
      moptions.write_buffer_size);
}

RangedL0Triggers RangedL0TriggersOf(const VersionStorageInfo& vstorage,
                                    const MutableCFOptions& moptions) {
  RangedL0Triggers t;
  t.depth = VlsmRangedDepthTriggerOf(vstorage, moptions);
  // The most L0 may hold before Flush() waits (see the header).
  const uint64_t flush_waits_above =
      static_cast<uint64_t>(
          std::max(moptions.level0_slowdown_writes_trigger - 2, 1)) *
      std::max<uint64_t>(moptions.write_buffer_size, 1);
  t.byte_target =
      std::min<uint64_t>(moptions.max_bytes_for_level_base, flush_waits_above);
  return t;
}

double VlsmRangedL0Score(const VersionStorageInfo& vstorage,
                         const MutableCFOptions& moptions) {
  return RangedL0Score(SpansOf(vstorage.LevelFiles(0)),
                       vstorage.user_comparator(),
                       RangedL0TriggersOf(vstorage, moptions));
}

void VlsmAdjustCompactionScores(const VersionStorageInfo& vstorage,
                                const MutableCFOptions& moptions,
                                int max_input_level,
                                std::vector<double>* scores_by_level) {
  if (moptions.compaction_pri == kVlsm) {
    VlsmPutL0Last(max_input_level, scores_by_level);
  } else if (moptions.compaction_pri == kVlsmRanged) {
    (*scores_by_level)[0] = VlsmRangedL0Score(vstorage, moptions);
  }
}

int VlsmL0StallCount(const MutableCFOptions& moptions,
                     const std::vector<FileMetaData*>& l0, int stock_count) {
  if (moptions.compaction_pri != kVlsmRanged) {
    return stock_count;
  }
  return L0MemtablesWorth(TotalFileSize(l0), moptions.write_buffer_size);
}

L0DebtTerm VlsmL0DebtTermOf(const VersionStorageInfo& vstorage,
                            const MutableCFOptions& moptions) {
  const std::vector<FileMetaData*>& l0 = vstorage.LevelFiles(0);
  const int base = vstorage.base_level();
  // With one level there is no base level: the estimate adds nothing below.
  const bool has_base = base >= 1 && base < vstorage.num_levels();
  if (moptions.compaction_pri == kVlsmRanged) {
    if (l0.empty() || !has_base) {
      return {};
    }
    return RangedL0Debt(SpansOf(l0), SpansOf(vstorage.LevelFiles(base)),
                        vstorage.user_comparator(),
                        RangedL0TriggersOf(vstorage, moptions));
  }
  // Stock's test and sums, as EstimateCompactionBytesNeeded had them.
  const uint64_t l0_bytes = TotalFileSize(l0);
  if (static_cast<int>(l0.size()) <
          moptions.level0_file_num_compaction_trigger &&
      l0_bytes < moptions.max_bytes_for_level_base) {
    return {};
  }
  return {l0_bytes, has_base ? vstorage.NumLevelBytes(base) : 0};
}

bool VlsmCheckLiveness(const VersionStorageInfo& vstorage,
                       const MutableCFOptions& moptions, Logger* logger) {
  if (!IsVlsmCompactionPri(moptions.compaction_pri) ||
      moptions.disable_auto_compactions) {
    return true;
  }
  const uint64_t debt = vstorage.estimated_compaction_needed_bytes();
  const int l0_count = vstorage.l0_delay_trigger_count();
  const bool writes_may_wait =
      debt > 0 || l0_count + 1 >= moptions.level0_slowdown_writes_trigger;
  // Scores are sorted, highest first.
  if (!writes_may_wait || vstorage.CompactionScore(0) >= 1) {
    return true;
  }
  for (int level = 0; level < vstorage.num_levels(); ++level) {
    for (const FileMetaData* f : vstorage.LevelFiles(level)) {
      if (f->being_compacted) {
        return true;
      }
    }
  }
  ROCKS_LOG_ERROR(logger,
                  "vLSM liveness broken: writes may wait (pending compaction "
                  "bytes %" PRIu64 ", L0 stall count %d, slowdown trigger %d) "
                  "but no compaction is due (highest score %.3f, level %d) "
                  "or running",
                  debt, l0_count, moptions.level0_slowdown_writes_trigger,
                  vstorage.CompactionScore(0), vstorage.CompactionScoreLevel(0));
  assert(false);
  return false;
}

int VlsmL0StallCountOf(const VersionStorageInfo& vstorage,
                       const MutableCFOptions& moptions) {
  return VlsmL0StallCount(moptions, vstorage.LevelFiles(0),
                          vstorage.NumLevelFiles(0));
}

std::vector<size_t> OrderL1FilesGoodFirst(
    const InternalKeyComparator& icmp,
    const std::vector<FileMetaData*>& l1_files,
    const std::vector<FileMetaData*>& l2_files, const VsstCutPolicy& policy) {
  struct Candidate {
    size_t index;
    bool good;
    double ratio;
  };
  std::vector<Candidate> candidates;
  candidates.reserve(l1_files.size());

  const std::vector<uint64_t> overlaps =
      L2OverlapPerL1File(l1_files, l2_files, icmp.user_comparator());
  for (size_t i = 0; i < l1_files.size(); ++i) {
    const uint64_t size = std::max<uint64_t>(l1_files[i]->fd.GetFileSize(), 1);
    candidates.push_back({i, policy.IsGood(overlaps[i]),
                          static_cast<double>(overlaps[i]) /
                              static_cast<double>(size)});
  }
  // Stable: equal keys keep key order, so ties go to the smaller key.
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) {
                     if (a.good != b.good) {
                       return a.good;
                     }
                     return a.ratio < b.ratio;
                   });
  std::vector<size_t> order;
  order.reserve(candidates.size());
  for (const Candidate& c : candidates) {
    order.push_back(c.index);
  }
  return order;
}

}  // namespace ROCKSDB_NAMESPACE
