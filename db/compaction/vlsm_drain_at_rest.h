// The drain at rest (compaction_pri = kVlsmRanged): once writes stop, L0 is
// compacted down to one sorted run over any key, so a settled tree reads
// like RocksDB's.
//
// Why. The ranged layout compacts a range of L0 only at its depth trigger,
// so at rest it keeps up to d - 1 flushes over a key: every read then pays
// for 6 to 27 sorted runs of L0 where RocksDB has 0 to 3 files. No rule
// below a trigger does this work, and none should while writes run (the
// estimate owes nothing below a trigger by design: vlsm_l0_due.h). The drain
// does it only while the column family is at rest.
//
// At rest, defined by numbers (VlsmRestClock::QuietNow):
//   - no flush for max(vlsm_rest_min_seconds, vlsm_rest_flush_intervals x
//     the recent flush interval), counted from the last flush or from open
//     (VlsmDrainSettings);
//     or the caller declared rest: DB::WaitForCompact, which waits for
//     compactions to end, arms the drain at once (a flush still stops it);
//   - and no compaction due: no level's score >= 1 (VlsmPickDrainStep checks
//     it when it picks; a due step always goes first).
// The recent flush interval is an average of the gaps between flushes
// (weight 1/4 to the newest), so a writer that slows down lengthens the
// wait with it; a gap that was itself a rest does not count.
//
// Who does what (each step in one place):
//   - FlushJob::Run tells the clock of every flush: VlsmRestClock::OnFlush
//     ends a rest and disarms the drain (patch 0019).
//   - The periodic task "vlsm_drain_at_rest" (PeriodicTaskScheduler, every
//     second) and DB::WaitForCompact call DBImpl::VlsmScheduleDrains
//     (db/vlsm_drain_scheduler.cc): for each ranged column family at rest
//     whose L0 is deeper than kVlsmRestL0Depth or holds a read-paid file,
//     VlsmArmDrain arms the drain and a compaction is scheduled.
//   - While armed, LevelCompactionPicker::NeedsCompaction says yes, and when
//     the picker finds no other work it asks VlsmPickDrainStep for one
//     bounded step: the deepest range of L0 deeper than kVlsmRestL0Depth
//     (DepthSeedsOf, the same DueL0Seeds the due rule uses), with every older
//     L0 file that overlaps it (the L0 order rule), and the L1 files below;
//     at most max_compaction_bytes ((f + 2) * S_M) of input, fewer of the
//     range's newest files if need be. CompactionReason::kVlsmDrainAtRest
//     tags it. When no step is left the drain disarms.
//   - Below depth 1, reads decide: an L0 file whose sampled reads paid for
//     its step is taken too, after the deepest ranges
//     (vlsm_read_paid_l0.h); a tree nobody reads keeps its one run.
//   - A write that makes a flush disarms it: the step running finishes
//     (one step, at most (f + 2) * S_M of input, is all a burst waits for)
//     and no other starts.
//
// Worked example. kVlsmRestL0Depth 1; L0 newest first after a write burst,
// L1 cut at "g" and "p":
//
//     epoch 9   [a .. f]   [g .. o]
//     epoch 8   [a .. f]              [p .. z]
//     L1        [a .. f]   [g .. o]   [p .. z]
//
// [a .. f] is two deep: the first step takes both pieces and L1's [a .. f].
// [g .. o] and [p .. z] are one deep: they stay, and the drain disarms. A
// read now meets one sorted run of L0 over any key, as RocksDB's at rest
// meets at most level0_file_num_compaction_trigger - 1 files.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "db/compaction/vlsm_read_paid_l0.h"
#include "options/vlsm_drain_settings.h"
#include "rocksdb/listener.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

class CompactionPicker;
class SystemClock;
class VersionStorageInfo;
struct CompactionInputFiles;
struct ImmutableOptions;
struct MutableCFOptions;

// The depth the drain leaves L0 at: one sorted run over any key (no user
// key under two L0 files), against RocksDB's up to three files at rest.
constexpr int kVlsmRestL0Depth = 1;

// The drain's settings (VlsmDrainSettings) live in an object of the options
// system (options/vlsm_drain_settings.h), which the column family's
// VlsmRestClock reads; DB::SetOptions hands them to DBImpl::VlsmSetOptions,
// which writes them there and persists them.

// A column family's rest: when it last flushed, how often it flushes, and
// whether the drain is armed. One per column family, in its
// CompactionPicker (patch 0019); every call under the DB mutex.
class VlsmRestClock {
 public:
  // The column family's clock (ImmutableOptions::clock; may be null in
  // pickers built for tests, which then never come to rest by time) and its
  // drain settings (the VlsmDrainAtRest object of its options, a copy of
  // its own since SanitizeOptions; defaults if they hold none).
  explicit VlsmRestClock(const ImmutableOptions& ioptions);

  // A flush installed its files: a rest ends here, and the drain disarms.
  void OnFlush();
  // DB::WaitForCompact: the caller waits for compactions to end, so the
  // drain may run now, quiet or not (VlsmArmDrain's rest_declared), even if
  // it finished since the last flush.
  void DeclareRest() { drain_finished_ = false; }

  VlsmDrainSettings settings() const { return settings_->Get(); }
  void set_settings(const VlsmDrainSettings& s) { settings_->Set(s); }

  // How long, in microseconds, the column family must go without a flush to
  // be at rest (see the header's definition).
  uint64_t QuietMicrosNeeded() const;
  // Whether no flush for QuietMicrosNeeded.
  bool QuietNow() const;

  // Armed: the picker takes drain steps. Finished: the drain found nothing
  // left to take since the last flush or declared rest, and is not armed
  // again until one (so an L0 left over a range it may not take is not
  // looked at every second).
  bool drain_armed() const { return drain_armed_; }
  bool drain_finished() const { return drain_finished_; }
  void ArmDrain() { drain_armed_ = true; }
  void DisarmDrain() { drain_armed_ = false; }
  void FinishDrain() {
    drain_armed_ = false;
    drain_finished_ = true;
  }

  // L0 files whose step cost more than their reads had paid
  // (vlsm_read_paid_l0.h), with the bytes it cost: asked for again once
  // their reads pay that, or after the next flush, so that a finished drain
  // is not re-armed for them every second.
  const VlsmDeclinedReadSteps& read_steps_declined() const {
    return read_steps_declined_;
  }
  void DeclineReadStep(uint64_t file_number, uint64_t step_bytes) {
    read_steps_declined_[file_number] = step_bytes;
  }

  // The recent flush interval (0 before two flushes), for logs and tests.
  uint64_t flush_interval_micros() const { return flush_interval_micros_; }

 private:
  uint64_t NowMicros() const;

  SystemClock* clock_;
  std::shared_ptr<VlsmDrainAtRestSettings> settings_;
  uint64_t last_flush_micros_;  // or when the clock was made (DB open)
  uint64_t flush_interval_micros_ = 0;
  bool flushed_ = false;  // a flush seen since open
  bool drain_armed_ = false;
  bool drain_finished_ = false;
  VlsmDeclinedReadSteps read_steps_declined_;
};

// Whether the drain is on for a column family: the ranged layout, the
// option vlsm_drain_at_rest, and automatic compactions on.
bool VlsmDrainEnabled(const MutableCFOptions& moptions,
                      const VlsmRestClock& rest);

// Arms the drain of one column family if it is enabled, at rest (quiet, or
// rest_declared: DB::WaitForCompact) and it has work (VlsmDrainHasWork): L0
// deeper than kVlsmRestL0Depth, or a read-paid file; returns whether it
// armed it now (the caller then schedules a compaction; a drain armed
// before was scheduled then, and each install since schedules again). The
// periodic task and DB::WaitForCompact call it (through
// DBImpl::VlsmScheduleDrains).
bool VlsmArmDrain(const VersionStorageInfo& vstorage,
                  const MutableCFOptions& moptions, VlsmRestClock* rest,
                  bool rest_declared);

// The picker's drain step, asked when it found no other work: returns true
// with *start_level = 0, *output_level = the base level, the L0 inputs
// (newest first) and *reason = kVlsmDrainAtRest, when the drain is armed,
// no level's score is >= 1, no L0 compaction runs and a bounded step is
// free: a depth seed's step within max_compaction_bytes, else a read-paid
// file's within its budget. Disarms the drain when no step is left to take
// (none left, or every one left is over its bound: the read-paid files are
// then declined); keeps it armed when a step must only wait.
bool VlsmPickDrainStep(const std::string& cf_name, VersionStorageInfo* vstorage,
                       CompactionPicker* picker,
                       const ImmutableOptions& ioptions,
                       const MutableCFOptions& moptions, int* start_level,
                       int* output_level,
                       CompactionInputFiles* start_level_inputs,
                       CompactionReason* reason);

// Whether the drain has a step to try: a depth seed (a key L0 covers more
// than kVlsmRestL0Depth deep; none once the drain finished, until the next
// flush or declared rest) or a read-paid file (ReadPaidSeedsOf,
// vlsm_read_paid_l0.h).
bool VlsmDrainHasWork(const VersionStorageInfo& vstorage,
                      const VlsmRestClock& rest);

}  // namespace ROCKSDB_NAMESPACE
