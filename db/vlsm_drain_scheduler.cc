// DBImpl's part of the drain at rest (db/compaction/vlsm_drain_at_rest.h):
// the periodic task and DB::WaitForCompact arm the drain of every column
// family at rest and schedule a compaction; the picker takes the steps.
// SetOptions hands the drain's options here, which writes them into the
// column family's settings object and persists them.
// Member functions of DBImpl declared by patch 0019, defined here so the
// logic stays out of upstream's files.
#include "db/column_family.h"
#include "db/compaction/vlsm_drain_at_rest.h"
#include "db/db_impl/db_impl.h"
#include "logging/logging.h"
#include "rocksdb/vlsm.h"
#include "test_util/sync_point.h"
#include "util/cast_util.h"

namespace ROCKSDB_NAMESPACE {

void DBImpl::VlsmScheduleDrains(bool declare_rest) {
  mutex_.AssertHeld();
  // Nothing to arm where no compaction can run: a read-only or secondary
  // DB (never opened for writes), paused background work, shutdown. A
  // drain armed there would count as pending work that never runs, and
  // WaitForCompact would wait for it forever.
  if (shutting_down_.load(std::memory_order_acquire) || !opened_successfully_ ||
      bg_work_paused_ > 0 || bg_compaction_paused_ > 0) {
    return;
  }
  bool scheduled = false;
  for (ColumnFamilyData* cfd : *versions_->GetColumnFamilySet()) {
    if (cfd->IsDropped() || !cfd->initialized()) {
      continue;
    }
    VlsmRestClock* rest = cfd->compaction_picker()->vlsm_rest();
    if (declare_rest) {
      rest->DeclareRest();
    }
    if (VlsmArmDrain(*cfd->current()->storage_info(),
                     *cfd->GetLatestMutableCFOptions(), rest, declare_rest)) {
      EnqueuePendingCompaction(cfd);
      scheduled = true;
    }
  }
  if (scheduled) {
    MaybeScheduleFlushOrCompaction();
  }
}

Status DBImpl::VlsmSetOptions(
    ColumnFamilyHandle* column_family,
    const std::unordered_map<std::string, std::string>& options_map,
    bool* handled) {
  // Most calls carry no drain setting: they are upstream's alone, and cost
  // no lock here.
  *handled = false;
  for (const auto& kv : options_map) {
    *handled = *handled || IsVlsmDrainSetting(kv.first);
  }
  if (!*handled) {
    return Status::OK();
  }
  // Every value checked before anything is applied: all or none.
  VlsmDrainSettings checked;
  std::unordered_map<std::string, std::string> upstream_options;
  Status s = ParseVlsmDrainOptions(options_map, &checked, &upstream_options);
  if (!s.ok()) {
    return s;
  }
  // Upstream's options first (their own checks); the drain's only if they
  // were taken.
  if (!upstream_options.empty()) {
    s = SetOptions(column_family, upstream_options);
    if (!s.ok()) {
      return s;
    }
  }
  auto* cfd =
      static_cast_with_check<ColumnFamilyHandleImpl>(column_family)->cfd();
  VlsmDrainSettings settings;
  {
    // The OPTIONS file is written under the options mutex, as SetOptions
    // writes it (taken here, after upstream's SetOptions released it).
    InstrumentedMutexLock ol(&options_mutex_);
    InstrumentedMutexLock l(&mutex_);
    // Onto the settings as they are now (another call may have set other
    // drain settings meanwhile); the values were checked above.
    VlsmRestClock* rest = cfd->compaction_picker()->vlsm_rest();
    settings = rest->settings();
    ParseVlsmDrainOptions(options_map, &settings, &upstream_options)
        .PermitUncheckedError();
    rest->set_settings(settings);
    // Turned on, a column family already at rest may drain now.
    VlsmScheduleDrains(/*declare_rest=*/false);
    // Persisted as upstream's SetOptions persists its options: the settings
    // object is in the column family's options (options/vlsm_drain_settings.h)
    // unless they were opened without one. A failure to write is returned
    // (with the settings, and any upstream options of the same call, already
    // in force, as upstream's SetOptions leaves its own). A read-only DB
    // (never opened for writes) writes nothing: its directory may be another
    // process's, and it never compacts. (A secondary DB refuses SetOptions,
    // as upstream's does, before this.)
    if (opened_successfully_) {
      s = WriteOptionsFile(WriteOptions(), /*db_mutex_already_held=*/true);
    }
  }
  ROCKS_LOG_INFO(immutable_db_options_.info_log, "[%s] vLSM drain at rest: %s",
                 cfd->GetName().c_str(),
                 VlsmDrainSettingsString(settings).c_str());
  return s;
}

void DBImpl::VlsmDrainAtRestTask() {
  TEST_SYNC_POINT("DBImpl::VlsmDrainAtRestTask:Start");
  InstrumentedMutexLock l(&mutex_);
  VlsmScheduleDrains(/*declare_rest=*/false);
}

}  // namespace ROCKSDB_NAMESPACE
