// The figures vLSM is judged by, measured while a DB runs: I/O amplification
// (total and per level), write stalls, compaction chain width and length,
// L1 vSST quality, and CPU per operation. Works on stock leveled DBs as well,
// so one run of each gives a side-by-side comparison.
//
//   auto collector = std::make_shared<LsmMetricsCollector>();
//   options.listeners.push_back(collector);      // before DB::Open
//   DB::Open(options, path, &db);
//   collector->Attach(db);                        // starts the sampler
//   ... workload ...
//   collector->Detach();                          // before closing the DB
//   std::string json = LsmMetricsToJson(collector->Report());
//
// Everything counts what happens between Attach and Detach (summed over
// repeated Attach/Detach of reopened DBs); a flush at DB close, after
// Detach, is not in the report.
//
// Cost: nothing per key. Work happens in listener callbacks (once per flush,
// compaction, table file and stall change) and in one sampling thread that
// reads a few DB properties per period.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rocksdb/listener.h"
#include "rocksdb/metadata.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

class Comparator;
class DB;

// max, mean, P99 of a set of byte counts.
struct ByteDistribution {
  uint64_t count = 0;
  uint64_t max = 0;
  double mean = 0;
  uint64_t p99 = 0;
  uint64_t total = 0;
};

// Compaction I/O attributed to the level a compaction writes (its output
// level). Flushes are reported as level 0.
struct LevelIo {
  int level = 0;
  uint64_t compactions = 0;    // flushes for level 0; excludes trivial moves
  uint64_t trivial_moves = 0;  // metadata-only moves into this level
  uint64_t trivial_move_bytes = 0;
  uint64_t read_from_upper_bytes = 0;  // input files from the level above
  uint64_t read_from_level_bytes = 0;  // input files already at this level
  uint64_t written_bytes = 0;
  // Chain width: input bytes (both levels) per compaction into this level.
  ByteDistribution input_bytes_per_compaction;
};

// A compaction wider than LsmMetricsReport::step_width_bound, with what it
// took, so that its cause shows: many upper-level bytes (an L0 backlog, a
// wide L1 file) or much overlap in the output level.
struct WideStep {
  double time_s = 0;         // seconds since the first Attach, at completion
  int output_level = 0;
  uint64_t input_bytes = 0;  // upper_bytes + level_bytes
  uint64_t upper_files = 0;  // input files from levels above output_level
  uint64_t upper_bytes = 0;
  uint64_t level_files = 0;  // input files already at output_level
  uint64_t level_bytes = 0;
  std::string reason;        // GetCompactionReasonString's name
};

// One stall episode: from the moment any column family enters the delayed or
// stopped state until every one is back to normal.
struct StallEpisode {
  double start_s = 0;     // seconds since Attach
  double duration_s = 0;
  bool stopped = false;   // reached kStopped (else only kDelayed)
  // Chain length: the compactions that ran while writes waited.
  uint64_t compactions = 0;
  uint64_t compacted_bytes = 0;  // input + output bytes of those compactions
  std::vector<int> output_levels;  // distinct, ascending
};

// Once per sampling period.
struct LsmSample {
  double time_s = 0;             // seconds since Attach
  bool stalled = false;          // delayed or stopped at any point in the period
  double stalled_fraction = 0;   // share of the period in a stall episode
  uint64_t l0_files = 0;
  uint64_t l0_depth = 0;         // VlsmProperties::kL0Depth
  uint64_t l0_sublevels = 0;     // VlsmProperties::kL0Sublevels
  uint64_t l0_bytes = 0;
  uint64_t pending_compaction_bytes = 0;
  uint64_t user_bytes = 0;       // written by the user in this period
  uint64_t running_compactions = 0;
};

// The stall figures of LsmMetricsReport, so far, without the rest: for a
// caller that polls while the DB runs (a status line once a second). The
// collector keeps them as running totals, so reading them costs the same
// however long the run, and they need no kept samples (keep_samples=false
// works).
struct LsmStallCounters {
  uint64_t stall_count = 0;  // episodes, including one in progress
  double stall_total_s = 0;  // including one in progress, up to now
  double writer_stall_s = 0;  // as LsmMetricsReport::writer_stall_s
  uint64_t samples = 0;          // sampling periods recorded
  uint64_t stalled_samples = 0;  // of which LsmSample::stalled would be true
  bool in_stall = false;         // an episode is in progress now
};

// L1 files against L2. A vSST is good when the L2 bytes it overlaps are at
// most overlap_bound (f * S_M: what one L1->L2 step may rewrite).
struct L1VsstCensus {
  uint64_t overlap_bound = 0;
  uint64_t good = 0;
  uint64_t poor = 0;
  uint64_t good_bytes = 0;
  uint64_t poor_bytes = 0;
  // Power-of-two buckets: bucket i counts files of [2^i, 2^(i+1)) bytes
  // (bucket 0 includes empty files).
  std::vector<uint64_t> size_log2_histogram;
  // Overlap relative to the bound in tenths: bucket i counts files whose L2
  // overlap is in [i/10, (i+1)/10) of overlap_bound; the last bucket (20)
  // holds everything at twice the bound or more.
  std::vector<uint64_t> overlap_tenths_histogram;
};

struct LsmMetricsReport {
  double elapsed_s = 0;
  uint64_t user_bytes = 0;  // RocksDB's "db.user_bytes_written"
  uint64_t user_keys = 0;   // RocksDB's "db.user_keys_written"
  uint64_t flush_bytes = 0;
  uint64_t compaction_read_bytes = 0;
  uint64_t compaction_write_bytes = 0;
  // Of those, the drain at rest's steps (CompactionReason::kVlsmDrainAtRest,
  // docs/design/ranged-layout.md): L0 compacted below its trigger once
  // writes stopped. Paid debt like any compaction's, and counted apart so
  // reports can tell.
  uint64_t drain_compactions = 0;
  uint64_t drain_read_bytes = 0;
  uint64_t drain_write_bytes = 0;
  // (flush + compaction read + compaction written) / user bytes; 0 when no
  // user bytes were written.
  double io_amplification = 0;
  std::vector<LevelIo> levels;  // index == level
  // Every step, flushes included (a split flush is one step): a
  // compaction's input bytes, a flush's written bytes, whatever the level.
  ByteDistribution input_bytes_per_step;
  // The widest step wanted: (f + 2) * S_M from the DB's options at the first
  // Attach (f as the L1 census rounds it, S_M = target_file_size_base)
  // unless configured. Steps over it, and every compaction over it with its
  // inputs.
  uint64_t step_width_bound = 0;
  uint64_t steps_over_bound = 0;
  std::vector<WideStep> wide_compactions;

  // Stalls as RocksDB's write controller reported them.
  uint64_t stall_count = 0;
  uint64_t stop_count = 0;  // episodes that reached kStopped
  double stall_total_s = 0;
  double stall_longest_s = 0;
  // Time writers actually waited (RocksDB's "db.user_write_stall_micros").
  double writer_stall_s = 0;
  std::vector<StallEpisode> stall_episodes;
  std::vector<LsmSample> samples;

  L1VsstCensus l1;          // taken at Detach (or Report while attached)
  std::vector<uint64_t> level_bytes;  // live bytes per level at that moment
  std::vector<uint64_t> level_files;

  double cpu_s = 0;            // process user + system CPU since Attach
  uint64_t operations = 0;     // see LsmMetricsCollector::SetOperationCount
  double cpu_us_per_op = 0;
};

// Classify L1 against L2 from a column family's metadata (public data only,
// so it also works on read-only or closed-and-reopened DBs).
L1VsstCensus CensusL1Vssts(const ColumnFamilyMetaData& meta,
                           const Comparator* ucmp, uint64_t overlap_bound);

class LsmMetricsCollector : public EventListener {
 public:
  struct Config {
    uint64_t sample_period_ms = 1000;
    // f * S_M for the L1 census; 0 = from the DB's options at Attach
    // (target_file_size_base * max_bytes_for_level_multiplier).
    uint64_t l1_overlap_bound = 0;
    // LsmMetricsReport::step_width_bound; 0 = (f + 2) * S_M from the DB's
    // options at the first Attach.
    uint64_t step_width_bound = 0;
    // Keep the per-period samples (the time series) in the report.
    bool keep_samples = true;
  };

  LsmMetricsCollector();
  explicit LsmMetricsCollector(const Config& config);
  ~LsmMetricsCollector() override;

  // Starts measuring `db` (its default column family) and the sampling
  // thread. The collector must also be in the DB's options.listeners.
  // One DB at a time; InvalidArgument if another is attached or the
  // collector is not exactly once among db's listeners.
  Status Attach(DB* db);
  // Takes the final sample and the L1 census, stops the sampler. Call before
  // the DB is closed. No-op when nothing is attached.
  void Detach();

  // The number of operations CPU time is divided by. Without it, operations
  // are the user keys written (right for write-only workloads).
  void SetOperationCount(uint64_t operations);

  // A consistent snapshot; safe to call at any time from any thread.
  // Copies the whole history and takes the L1 census: for the end of a run.
  LsmMetricsReport Report() const;
  // The stall figures only, at a cost independent of the run's length
  // (one DB property read, no history copied); same totals as Report().
  LsmStallCounters StallCounters() const;

  const char* Name() const override { return "LsmMetricsCollector"; }
  void OnCompactionBegin(DB* db, const CompactionJobInfo& ci) override;
  void OnCompactionCompleted(DB* db, const CompactionJobInfo& ci) override;
  void OnTableFileCreated(const TableFileCreationInfo& info) override;
  void OnTableFileDeleted(const TableFileDeletionInfo& info) override;
  void OnStallConditionsChanged(const WriteStallInfo& info) override;

 private:
  class Impl;
  std::unique_ptr<Impl> impl_;
};

// The report as JSON (one object; field names as in the structs above).
std::string LsmMetricsToJson(const LsmMetricsReport& report);
// The report as a readable block for the end of a benchmark's output.
std::string LsmMetricsToText(const LsmMetricsReport& report);

}  // namespace ROCKSDB_NAMESPACE
