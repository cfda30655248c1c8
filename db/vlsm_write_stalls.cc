#include "db/vlsm_write_stalls.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cinttypes>
#include <cstdio>
#include <string>

#include "db/compaction/vlsm_layout_rules.h"
#include "db/compaction/vlsm_level_walk.h"
#include "db/version_set.h"
#include "options/cf_options.h"
#include "rocksdb/env.h"
#include "test_util/sync_point.h"

namespace ROCKSDB_NAMESPACE {

int VlsmL0StallCount(const VersionStorageInfo& vstorage,
                     const ImmutableOptions& ioptions,
                     const MutableCFOptions& moptions, int stock_count) {
  if (ioptions.compaction_style != kCompactionStyleLevel) {
    return stock_count;  // not L0's files (universal: every sorted run)
  }
  return VlsmLayoutRulesOf(moptions.vlsm_layout)
      .L0StallCount(vstorage, moptions, stock_count);
}

void VlsmRescoreL0StallCount(VersionStorageInfo* vstorage,
                             const ImmutableOptions& ioptions,
                             const MutableCFOptions& moptions) {
  if (ioptions.compaction_style != kCompactionStyleLevel) {
    return;
  }
  vstorage->set_l0_delay_trigger_count(
      VlsmL0StallCount(*vstorage, ioptions, moptions,
                       static_cast<int>(vstorage->LevelFiles(0).size())));
}

L0DebtTerm VlsmL0DebtTermOf(const VersionStorageInfo& vstorage,
                            const MutableCFOptions& moptions) {
  return VlsmLayoutRulesOf(moptions.vlsm_layout).L0Debt(vstorage, moptions);
}

int VlsmL0SpeedupTrigger(const MutableCFOptions& moptions) {
  const int trigger = moptions.level0_file_num_compaction_trigger;
  return IsVlsmLayout(moptions.vlsm_layout)
             ? std::min(trigger, moptions.level0_slowdown_writes_trigger)
             : trigger;
}

bool VlsmLevelDueNow(const VersionStorageInfo& vstorage,
                     const MutableCFOptions& moptions, int level) {
  if (level == 0) {
    return VlsmLayoutRulesOf(moptions.vlsm_layout).L0DueNow(vstorage, moptions);
  }
  uint64_t free_bytes = 0;
  for (const FileMetaData* f : vstorage.LevelFiles(level)) {
    if (!f->being_compacted) {
      free_bytes += f->compensated_file_size;
    }
  }
  return free_bytes > 0 && free_bytes >= vstorage.MaxBytesForLevel(level);
}

namespace {
std::atomic<uint64_t> liveness_breaks{0};
}  // namespace

uint64_t VlsmLivenessBreaks() { return liveness_breaks.load(); }

bool VlsmCheckLiveness(const VersionStorageInfo& vstorage,
                       const MutableCFOptions& moptions, Logger* logger) {
  if (!IsVlsmLayout(moptions.vlsm_layout) ||
      moptions.disable_auto_compactions) {
    return true;
  }
  const int l0_count = vstorage.l0_delay_trigger_count();
  // Writes wait at the slowdown trigger; Flush() waits one memtable short
  // of it, but not while L0 is under its compaction trigger
  // (DBImpl::WaitUntilFlushWouldNotStallWrites: the next flush makes L0
  // due).
  const bool waits_on_l0 =
      l0_count >= moptions.level0_slowdown_writes_trigger ||
      (l0_count + 1 >= moptions.level0_slowdown_writes_trigger &&
       l0_count >= moptions.level0_file_num_compaction_trigger);
  uint64_t debt = vstorage.estimated_compaction_needed_bytes();
  if (debt == 0 && !waits_on_l0) {
    return true;
  }
  for (int level = 0; level < vstorage.num_levels(); ++level) {
    for (const FileMetaData* f : vstorage.LevelFiles(level)) {
      if (f->being_compacted) {
        return true;
      }
    }
  }
  for (int level = 0; level <= vstorage.MaxInputLevel(); ++level) {
    if (VlsmLevelDueNow(vstorage, moptions, level)) {
      return true;
    }
  }
  // The estimate the version holds may be stale: upstream does not score a
  // version again after a compaction that failed at shutdown, or while
  // background work is stopped, released its files (which the estimate
  // owed while they ran). Nothing due and nothing running: what is owed now?
  debt = VlsmEstimateCompactionBytes(vstorage, moptions,
                                     VlsmL0DebtTermOf(vstorage, moptions));
  if (debt == 0 && !waits_on_l0) {
    return true;
  }
  liveness_breaks.fetch_add(1);
  // Log, not ROCKS_LOG_ERROR: that macro cuts upstream's source directory off
  // __FILE__ by its length, past the end of a shorter path outside it.
  // The version as the rule saw it: each level's bytes over its target.
  std::string levels;
  for (int level = 0; level < vstorage.num_levels(); ++level) {
    char buf[64];
    std::snprintf(buf, sizeof(buf), "%sL%d %" PRIu64 "/%" PRIu64,
                  level == 0 ? "" : ", ", level, vstorage.NumLevelBytes(level),
                  level == 0 ? moptions.max_bytes_for_level_base
                             : vstorage.MaxBytesForLevel(level));
    levels += buf;
  }
  Log(InfoLogLevel::ERROR_LEVEL, logger,
      "vLSM liveness broken: writes may wait (pending compaction "
      "bytes %" PRIu64
      ", L0 stall count %d, slowdown trigger %d) "
      "but no compaction is due or running; compaction_pri %d, L0 %zu "
      "files, levels (bytes/target) %s",
      debt, l0_count, moptions.level0_slowdown_writes_trigger,
      static_cast<int>(moptions.compaction_pri), vstorage.LevelFiles(0).size(),
      levels.c_str());
  bool expected = false;
  TEST_SYNC_POINT_CALLBACK("VlsmCheckLiveness:Broken", &expected);
  assert(expected);
  (void)expected;
  return false;
}

}  // namespace ROCKSDB_NAMESPACE
