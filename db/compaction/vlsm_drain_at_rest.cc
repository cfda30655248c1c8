#include "db/compaction/vlsm_drain_at_rest.h"

#include <algorithm>
#include <cassert>
#include <cinttypes>
#include <limits>
#include <memory>

#include "db/compaction/compaction.h"
#include "db/compaction/compaction_picker.h"
#include "db/compaction/vlsm_l0_due.h"
#include "db/compaction/vlsm_l0_model.h"
#include "db/compaction/vlsm_layout_rules.h"
#include "db/compaction/vlsm_picker.h"
#include "db/compaction/vlsm_read_paid_l0.h"
#include "db/version_set.h"
#include "options/cf_options.h"
#include "rocksdb/env.h"
#include "rocksdb/system_clock.h"

namespace ROCKSDB_NAMESPACE {

VlsmRestClock::VlsmRestClock(const ImmutableOptions& ioptions)
    : clock_(ioptions.clock),
      settings_(VlsmDrainSettingsIn(ioptions.table_properties_collector_factories)),
      last_flush_micros_(NowMicros()) {
  if (settings_ == nullptr) {
    // Options without the settings object (compaction_pri set without
    // ConfigureVlsm): the defaults, changed by SetOptions, not persisted.
    settings_ = std::make_shared<VlsmDrainAtRestSettings>();
  }
}

uint64_t VlsmRestClock::NowMicros() const {
  return clock_ == nullptr ? 0 : clock_->NowMicros();
}

void VlsmRestClock::OnFlush() {
  const uint64_t now = NowMicros();
  const uint64_t gap = now - std::min(now, last_flush_micros_);
  // The gap from open to the first flush is not a flush interval, nor is a
  // gap long enough to be a rest: after a night's pause one flush would
  // make the next rest hours away.
  if (flushed_ && gap < QuietMicrosNeeded()) {
    flush_interval_micros_ = flush_interval_micros_ == 0
                                 ? gap
                                 : (3 * flush_interval_micros_ + gap) / 4;
  }
  flushed_ = true;
  last_flush_micros_ = now;
  drain_armed_ = false;
  drain_finished_ = false;
  read_steps_declined_.clear();
}

uint64_t VlsmRestClock::QuietMicrosNeeded() const {
  const VlsmDrainSettings settings = settings_->Get();
  const uint64_t floor =
      uint64_t{settings.min_quiet_seconds} * uint64_t{1000000};
  // Saturating: a huge interval count must not wrap to a short wait.
  const uint64_t intervals = settings.flush_intervals;
  const uint64_t by_flushes =
      flush_interval_micros_ != 0 &&
              intervals > UINT64_MAX / flush_interval_micros_
          ? UINT64_MAX
          : intervals * flush_interval_micros_;
  return std::max(floor, by_flushes);
}

bool VlsmRestClock::QuietNow() const {
  if (clock_ == nullptr) {
    return false;
  }
  const uint64_t now = NowMicros();
  return now >= last_flush_micros_ &&
         now - last_flush_micros_ >= QuietMicrosNeeded();
}

bool VlsmDrainEnabled(const MutableCFOptions& moptions,
                      const VlsmRestClock& rest) {
  return VlsmLayoutRulesOf(moptions.vlsm_layout).DrainsAtRest() &&
         rest.settings().enabled && !moptions.disable_auto_compactions;
}

namespace {

// The drain's triggers: the due rule's (DueL0Seeds) with the depth one
// above the depth the drain leaves, and no byte rule.
RangedL0Triggers DrainTriggers() {
  RangedL0Triggers drain;
  drain.depth = kVlsmRestL0Depth + 1;
  drain.byte_target = 0;
  return drain;
}

// Whether a level's score says a compaction is due (the sorted scores'
// first is the highest; NeedsCompaction's loop, without the drain).
bool OtherCompactionDue(const VersionStorageInfo& vstorage) {
  for (int i = 0; i <= vstorage.MaxInputLevel(); ++i) {
    if (vstorage.CompactionScore(i) >= 1) {
      return true;
    }
  }
  return false;
}

// The depth seeds (see VlsmDrainHasWork): none once the drain finished.
std::vector<std::vector<size_t>> DepthSeedsOf(const VlsmL0Now& l0,
                                              const VlsmRestClock& rest) {
  if (rest.drain_finished()) {
    return {};
  }
  return l0.DueSeeds(DrainTriggers());
}

}  // namespace

bool VlsmDrainHasWork(const VersionStorageInfo& vstorage,
                      const VlsmRestClock& rest) {
  // The read-paid files first: the periodic task asks every second, and L0's
  // model is built only while the depth seeds may matter.
  return !ReadPaidSeedsOf(vstorage, rest.read_steps_declined()).empty() ||
         (!rest.drain_finished() &&
          !DepthSeedsOf(VlsmL0Now(vstorage), rest).empty());
}

bool VlsmArmDrain(const VersionStorageInfo& vstorage,
                  const MutableCFOptions& moptions, VlsmRestClock* rest,
                  bool rest_declared) {
  if (!VlsmDrainEnabled(moptions, *rest)) {
    rest->DisarmDrain();
    return false;
  }
  if (rest->drain_armed()) {
    // Scheduled when it was armed; every install since schedules again.
    return false;
  }
  if (!(rest_declared || rest->QuietNow()) ||
      !VlsmDrainHasWork(vstorage, *rest)) {
    return false;
  }
  rest->ArmDrain();
  return true;
}

bool VlsmPickDrainStep(const std::string& cf_name, VersionStorageInfo* vstorage,
                       CompactionPicker* picker,
                       const ImmutableOptions& ioptions,
                       const MutableCFOptions& moptions, int* start_level,
                       int* output_level,
                       CompactionInputFiles* start_level_inputs,
                       CompactionReason* reason) {
  VlsmRestClock* rest = picker->vlsm_rest();
  if (!rest->drain_armed()) {
    return false;
  }
  if (!VlsmDrainEnabled(moptions, *rest)) {
    rest->DisarmDrain();
    return false;
  }
  // Due work first, and one L0 compaction at a time: wait, armed.
  if (OtherCompactionDue(*vstorage) ||
      !picker->level0_compactions_in_progress()->empty()) {
    return false;
  }
  const VlsmL0Now l0(*vstorage);
  const std::vector<KeySpan>& spans = l0.spans();
  const VlsmL0PickRequest request =
      VlsmBaseLevelPickRequest(cf_name, vstorage, picker, ioptions, moptions);
  bool must_wait = false;
  // The depth seeds first, each step within max_compaction_bytes.
  const std::vector<std::vector<size_t>> depth = DepthSeedsOf(l0, *rest);
  bool picked = !depth.empty() &&
                PickL0StepFromSeeds(request, spans, depth,
                                    moptions.max_compaction_bytes,
                                    start_level_inputs, &must_wait);
  // Then the read-paid files, each step within what its reads paid.
  size_t read_paid_declined = 0;
  for (const VlsmReadPaidSeed& seed :
       picked ? std::vector<VlsmReadPaidSeed>{}
              : ReadPaidSeedsOf(*vstorage, rest->read_steps_declined())) {
    const uint64_t bound =
        moptions.max_compaction_bytes == 0
            ? seed.budget
            : std::min(seed.budget, moptions.max_compaction_bytes);
    bool busy = false;
    uint64_t step_bytes = 0;
    if (PickL0StepFromSeeds(request, spans, {{seed.index}}, bound,
                            start_level_inputs, &busy, &step_bytes)) {
      picked = true;
      break;
    }
    if (busy) {
      must_wait = true;
      continue;
    }
    // Asked again once its reads pay for this step (passed over for its
    // bound, it cost more than the budget); never, until a flush, if it is
    // over max_compaction_bytes, which no budget lifts.
    const bool over_max = moptions.max_compaction_bytes != 0 &&
                          step_bytes > moptions.max_compaction_bytes;
    assert(over_max || step_bytes > seed.budget);
    rest->DeclineReadStep(
        vstorage->LevelFiles(0)[seed.index]->fd.GetNumber(),
        over_max ? std::numeric_limits<uint64_t>::max() : step_bytes);
    ++read_paid_declined;
  }
  if (picked) {
    *start_level = 0;
    *output_level = request.output_level;
    *reason = CompactionReason::kVlsmDrainAtRest;
    return true;
  }
  if (must_wait) {
    return false;
  }
  // Every depth seed left needs a step over max_compaction_bytes (they wait
  // for the next flush or declared rest: FinishDrain), every read-paid file
  // a step over what its reads paid (declined until they pay for it).
  rest->FinishDrain();
  Log(InfoLogLevel::INFO_LEVEL, ioptions.logger,
      "[%s] vLSM drain at rest: done; L0 depth %d, %zu files; %zu ranges "
      "need a step over max_compaction_bytes (%" PRIu64
      "), %zu read files a step over what their reads paid",
      cf_name.c_str(), MaxDepth(spans, vstorage->user_comparator()),
      spans.size(), depth.size(), moptions.max_compaction_bytes,
      read_paid_declined);
  return false;
}

}  // namespace ROCKSDB_NAMESPACE
