#include "db/compaction/vlsm_picker.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <memory>

#include "db/compaction/compaction.h"
#include "db/compaction/compaction_picker.h"
#include "db/compaction/sorted_run_overlap.h"
#include "db/compaction/vlsm_l0_model.h"
#include "db/version_set.h"
#include "options/cf_options.h"

namespace ROCKSDB_NAMESPACE {

namespace {

// Whether an L0 -> L1 step over l0_inputs may start now: the L1 files in
// its range (to a clean cut) are in no running compaction, and no running
// compaction writes into that range of the request's output level.
// *l1_bytes (if given): those L1 files' bytes.
bool L1RangeIsFree(const VlsmL0PickRequest& r,
                   const CompactionInputFiles& l0_inputs,
                   uint64_t* l1_bytes = nullptr) {
  InternalKey smallest;
  InternalKey largest;
  r.picker->GetRange(l0_inputs, &smallest, &largest);
  CompactionInputFiles l1_inputs;
  l1_inputs.level = r.output_level;
  r.vstorage->GetOverlappingInputs(r.output_level, &smallest, &largest,
                                   &l1_inputs.files);
  if (!(l1_inputs.empty() || r.picker->ExpandInputsToCleanCut(
                                 r.cf_name, r.vstorage, &l1_inputs)) ||
      r.picker->FilesRangeOverlapWithCompaction({l0_inputs}, r.output_level,
                                                r.penultimate_level)) {
    return false;
  }
  if (l1_bytes != nullptr) {
    *l1_bytes = TotalFileSize(l1_inputs.files);
  }
  return true;
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

bool PickOldestL0File(const VlsmL0PickRequest& request,
                      CompactionInputFiles* start_level_inputs) {
  if (!L0PickMayStart(request.vstorage, request.picker, start_level_inputs)) {
    return false;
  }
  FileMetaData* oldest =
      request.vstorage->LevelFiles(0).back();  // L0 is kept newest first
  if (oldest->being_compacted) {
    return false;
  }
  start_level_inputs->files.push_back(oldest);
  if (!L1RangeIsFree(request, *start_level_inputs)) {
    start_level_inputs->clear();
    return false;
  }
  return true;
}

bool PickRangedL0(const VlsmL0PickRequest& request,
                  CompactionInputFiles* start_level_inputs, bool due_only) {
  VersionStorageInfo* vstorage = request.vstorage;
  if (!L0PickMayStart(vstorage, request.picker, start_level_inputs)) {
    return false;
  }
  const VlsmL0Now l0(*vstorage);
  std::vector<std::vector<size_t>> seeds =
      l0.DueSeeds(RangedL0TriggersOf(*vstorage, request.moptions));
  if (seeds.empty() && !due_only) {
    // Every range, deepest first: a trigger of depth 1 makes each one due.
    seeds = l0.DueSeeds(RangedL0Triggers{});
  }
  return PickL0StepFromSeeds(request, l0.spans(), seeds, /*max_input_bytes=*/0,
                             start_level_inputs);
}

bool PickL0StepFromSeeds(const VlsmL0PickRequest& request,
                         const std::vector<KeySpan>& spans,
                         const std::vector<std::vector<size_t>>& seeds,
                         uint64_t max_input_bytes,
                         CompactionInputFiles* start_level_inputs,
                         bool* must_wait, uint64_t* over_bound) {
  start_level_inputs->clear();
  start_level_inputs->level = 0;
  uint64_t smallest_over = 0;
  auto passed_over = [&smallest_over](uint64_t step_bytes) {
    if (smallest_over == 0 || step_bytes < smallest_over) {
      smallest_over = step_bytes;
    }
  };
  const std::vector<FileMetaData*>& l0 = request.vstorage->LevelFiles(0);
  const Comparator* ucmp = request.vstorage->user_comparator();
  for (const std::vector<size_t>& seed : seeds) {
    // The whole seed, then (bounded) its oldest files only: a step over the
    // oldest files at a key leaves the newer ones above, as the L0 order
    // rule allows. Unbounded, only the whole seed is tried.
    const size_t fewest = max_input_bytes == 0 ? seed.size() : 1;
    for (size_t taken = seed.size(); taken >= fewest; --taken) {
      const std::vector<size_t> oldest(seed.end() - taken, seed.end());
      CompactionInputFiles candidate;
      candidate.level = 0;
      bool busy = false;
      uint64_t bytes = 0;
      for (size_t i : OlderOverlapClosure(spans, oldest, ucmp)) {
        busy = busy || l0[i]->being_compacted;
        bytes += l0[i]->fd.GetFileSize();
        candidate.files.push_back(l0[i]);  // ascending index: newest first
      }
      if (max_input_bytes > 0 && bytes > max_input_bytes) {
        passed_over(bytes);
        continue;  // fewer files
      }
      uint64_t l1_bytes = 0;
      if (busy || !L1RangeIsFree(request, candidate, &l1_bytes)) {
        if (must_wait != nullptr) {
          *must_wait = true;
        }
        break;  // busy here: try the next seed
      }
      if (max_input_bytes > 0 && bytes + l1_bytes > max_input_bytes) {
        passed_over(bytes + l1_bytes);
        continue;
      }
      *start_level_inputs = std::move(candidate);
      return true;
    }
  }
  if (over_bound != nullptr) {
    *over_bound = smallest_over;
  }
  return false;
}

bool PickVlsmL0Inputs(const MutableCFOptions& moptions,
                      const std::string& cf_name, VersionStorageInfo* vstorage,
                      CompactionPicker* picker, int output_level,
                      int penultimate_level,
                      CompactionInputFiles* start_level_inputs, bool due_only) {
  const VlsmL0PickRequest request{cf_name,  vstorage,     picker,
                                  moptions, output_level, penultimate_level};
  return VlsmLayoutRulesOf(moptions.vlsm_layout)
      .PickL0(request, due_only, start_level_inputs);
}

VlsmL0PickRequest VlsmBaseLevelPickRequest(const std::string& cf_name,
                                           VersionStorageInfo* vstorage,
                                           CompactionPicker* picker,
                                           const ImmutableOptions& ioptions,
                                           const MutableCFOptions& moptions) {
  const int base = vstorage->base_level();
  return {cf_name, vstorage, picker, moptions, base,
          Compaction::EvaluatePenultimateLevel(vstorage, moptions, ioptions, 0,
                                               base)};
}

bool VlsmTakeL0Pick(const std::string& cf_name, VersionStorageInfo* vstorage,
                    CompactionPicker* picker, const ImmutableOptions& ioptions,
                    const MutableCFOptions& mutable_cf_options,
                    int* output_level, CompactionInputFiles* start_level_inputs,
                    CompactionReason* reason) {
  if (*reason == CompactionReason::kLevelL0FilesNum ||
      *reason == CompactionReason::kVlsmDrainAtRest) {
    // The score's proposal (PickVlsmL0Inputs made it: see the header) or
    // the drain's step (VlsmPickDrainStep, vlsm_drain_at_rest.h).
    return true;
  }
  const std::vector<FileMetaData*> proposed = start_level_inputs->files;
  const VlsmL0PickRequest request = VlsmBaseLevelPickRequest(
      cf_name, vstorage, picker, ioptions, mutable_cf_options);
  *output_level = request.output_level;
  // Not due work: whichever step comes first may start.
  if (!VlsmLayoutRulesOf(mutable_cf_options.vlsm_layout)
           .PickL0(request, /*due_only=*/false, start_level_inputs)) {
    return false;
  }
  if (start_level_inputs->files != proposed) {
    *reason = CompactionReason::kLevelL0FilesNum;
  }
  return true;
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

void VlsmAdjustCompactionScores(const VersionStorageInfo& vstorage,
                                const MutableCFOptions& moptions,
                                int max_input_level,
                                std::vector<double>* scores_by_level) {
  VlsmLayoutRulesOf(moptions.vlsm_layout)
      .ScoreL0(vstorage, moptions, max_input_level, scores_by_level);
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
    candidates.push_back(
        {i, policy.IsGood(overlaps[i]),
         static_cast<double>(overlaps[i]) / static_cast<double>(size)});
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
