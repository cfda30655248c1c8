// LsmMetricsCollector: listener callbacks account flushes, compactions and
// stall episodes as they happen; one sampling thread reads a few DB
// properties per period for the time series and the user byte count.
//
// Locking: mu_ guards all state. Callbacks run on RocksDB's background
// threads without the DB mutex, and the sampler reads DB properties before
// taking mu_, so mu_ and the DB mutex are never held together. attach_mu_
// serializes Attach, Detach and Report: Report reads the DB outside mu_,
// and must not do so while Detach hands the DB back to be closed.
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <unordered_map>

#include "db/compaction/vsst_cut_policy.h"
#include "rocksdb/db.h"
#include "rocksdb/lsm_metrics.h"
#include "rocksdb/options.h"
#include "rocksdb/vlsm.h"

namespace ROCKSDB_NAMESPACE {

namespace {

using SteadyClock = std::chrono::steady_clock;

double SecondsBetween(SteadyClock::time_point from, SteadyClock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

double ProcessCpuSeconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + tv.tv_usec / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// "…/000123.sst" -> 123; 0 when the name has no number.
uint64_t FileNumberOf(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const char* name = path.c_str() + (slash == std::string::npos ? 0 : slash + 1);
  return std::strtoull(name, nullptr, 10);
}

ByteDistribution Summarize(std::vector<uint64_t> values) {
  ByteDistribution d;
  if (values.empty()) {
    return d;
  }
  std::sort(values.begin(), values.end());
  d.count = values.size();
  d.max = values.back();
  for (uint64_t v : values) {
    d.total += v;
  }
  d.mean = static_cast<double>(d.total) / static_cast<double>(d.count);
  // Nearest rank: the smallest value with at least 99% of values <= it.
  const size_t rank = (d.count * 99 + 99) / 100;
  d.p99 = values[std::max<size_t>(rank, 1) - 1];
  return d;
}

// What RocksDB counts for the DB since it was opened, whether or not
// statistics are enabled.
struct DbCounters {
  uint64_t user_bytes = 0;
  uint64_t user_keys = 0;
  uint64_t writer_stall_micros = 0;
  uint64_t l0_files = 0;
  uint64_t l0_depth = 0;
  uint64_t l0_sublevels = 0;
  uint64_t l0_bytes = 0;
  uint64_t pending_compaction_bytes = 0;
  // The write controller stops or delays writes right now.
  bool writes_stalled = false;
};

uint64_t MapValue(const std::map<std::string, std::string>& m,
                  const char* key) {
  auto it = m.find(key);
  return it == m.end() ? 0 : std::strtoull(it->second.c_str(), nullptr, 10);
}

// The DB-wide counters only: a fixed handful of values (constant cost).
void ReadDbStats(DB* db, DbCounters* c) {
  std::map<std::string, std::string> stats;
  if (db->GetMapProperty(DB::Properties::kDBStats, &stats)) {
    c->user_bytes = MapValue(stats, "db.user_bytes_written");
    c->user_keys = MapValue(stats, "db.user_keys_written");
    c->writer_stall_micros = MapValue(stats, "db.user_write_stall_micros");
  }
}

DbCounters ReadDbCounters(DB* db) {
  DbCounters c;
  ReadDbStats(db, &c);
  std::string l0;
  if (db->GetProperty(DB::Properties::kNumFilesAtLevelPrefix + "0", &l0)) {
    c.l0_files = std::strtoull(l0.c_str(), nullptr, 10);
  }
  db->GetIntProperty(VlsmProperties::kL0Depth, &c.l0_depth);
  db->GetIntProperty(VlsmProperties::kL0Sublevels, &c.l0_sublevels);
  db->GetIntProperty(VlsmProperties::kL0Bytes, &c.l0_bytes);
  db->GetIntProperty(DB::Properties::kEstimatePendingCompactionBytes,
                     &c.pending_compaction_bytes);
  uint64_t stopped = 0, delayed_rate = 0;
  db->GetIntProperty(DB::Properties::kIsWriteStopped, &stopped);
  db->GetIntProperty(DB::Properties::kActualDelayedWriteRate, &delayed_rate);
  c.writes_stalled = stopped != 0 || delayed_rate != 0;
  return c;
}

}  // namespace

class LsmMetricsCollector::Impl {
 public:
  explicit Impl(const Config& config) : config_(config) {}
  ~Impl() { StopSampler(); }

  Status Attach(DB* db, EventListener* self) {
    std::lock_guard<std::mutex> attach_lock(attach_mu_);
    int listed = 0;
    for (const auto& listener : db->GetOptions().listeners) {
      listed += listener.get() == self ? 1 : 0;
    }
    if (listed != 1) {
      return Status::InvalidArgument(
          listed == 0
              ? "LsmMetricsCollector: add the collector to options.listeners "
                "before DB::Open, then Attach the opened DB"
              : "LsmMetricsCollector: listed more than once in "
                "options.listeners; it would count every event that often");
    }
    const Options options = db->GetOptions();
    ColumnFamilyMetaData meta;
    db->GetColumnFamilyMetaData(&meta);
    const DbCounters counters = ReadDbCounters(db);
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (db_ != nullptr) {
        return Status::InvalidArgument(
            "LsmMetricsCollector: already attached to a DB; Detach it first");
      }
      db_ = db;
      ucmp_ = options.comparator;
      overlap_bound_ = config_.l1_overlap_bound;
      if (overlap_bound_ == 0) {
        overlap_bound_ = VsstOverlapBoundOf(
            options.target_file_size_base,
            options.max_bytes_for_level_multiplier);
      }
      // (f + 2) * S_M: one upper file, the f files it overlaps below, and
      // one more at each end (issue 20's widest step). Fixed at the first
      // Attach, so that every step is judged against one bound.
      if (step_width_bound_ == 0) {
        step_width_bound_ = config_.step_width_bound;
      }
      if (step_width_bound_ == 0) {
        step_width_bound_ =
            VsstOverlapBoundOf(options.target_file_size_base,
                               options.max_bytes_for_level_multiplier) +
            2 * options.target_file_size_base;
      }
      const auto now = SteadyClock::now();
      if (!ever_attached_) {
        first_attach_ = now;
        ever_attached_ = true;
      }
      attach_time_ = now;
      period_start_ = now;
      period_stalled_s_ = 0;
      period_saw_stall_ = false;
      attach_counters_ = counters;
      last_counters_ = counters;
      recent_flush_jobs_.fill(RecentFlushJob{});  // job ids restart per open
      cpu_at_attach_ = ProcessCpuSeconds();
      for (const auto& level : meta.levels) {
        for (const auto& file : level.files) {
          file_sizes_[file.file_number] = file.size;
        }
      }
      stop_sampler_ = false;
    }
    sampler_ = std::thread([this] { SampleLoop(); });
    return Status::OK();
  }

  void Detach() {
    std::lock_guard<std::mutex> attach_lock(attach_mu_);
    DB* db;
    {
      std::lock_guard<std::mutex> lock(mu_);
      db = db_;
    }
    if (db == nullptr) {
      return;
    }
    StopSampler();
    uint64_t events_before;
    {
      std::lock_guard<std::mutex> lock(mu_);
      events_before = stall_events_;
    }
    const auto read_time = SteadyClock::now();
    const DbCounters counters = ReadDbCounters(db);
    ColumnFamilyMetaData meta;
    db->GetColumnFamilyMetaData(&meta);
    std::lock_guard<std::mutex> lock(mu_);
    const auto now = SteadyClock::now();
    ReconcileStallLocked(counters, events_before, read_time);
    RecordSampleLocked(counters, now);
    if (in_episode_) {
      EndEpisodeLocked(now);
    }
    TakeCensusLocked(meta);
    retired_.user_bytes += counters.user_bytes - attach_counters_.user_bytes;
    retired_.user_keys += counters.user_keys - attach_counters_.user_keys;
    retired_.writer_stall_micros +=
        counters.writer_stall_micros - attach_counters_.writer_stall_micros;
    retired_elapsed_s_ += SecondsBetween(attach_time_, now);
    retired_cpu_s_ += ProcessCpuSeconds() - cpu_at_attach_;
    condition_by_cf_.clear();
    db_ = nullptr;
  }

  void SetOperationCount(uint64_t operations) {
    std::lock_guard<std::mutex> lock(mu_);
    operations_ = operations;
  }

  // The attached DB, to read outside mu_ (the caller holds attach_mu_,
  // which keeps it open; see the top).
  DB* CurrentDb() const {
    std::lock_guard<std::mutex> lock(mu_);
    return db_;
  }

  // Writers' stall time so far: earlier attachments' plus, while attached,
  // the live counter since Attach. One place, so that Report and
  // StallCounters agree exactly.
  uint64_t WriterStallMicrosLocked(const DbCounters& live, bool attached) const {
    return retired_.writer_stall_micros +
           (attached ? live.writer_stall_micros -
                           attach_counters_.writer_stall_micros
                     : 0);
  }

  LsmMetricsReport Report() const {
    std::lock_guard<std::mutex> attach_lock(attach_mu_);
    DB* const db = CurrentDb();
    // While attached, read live figures (outside our lock; see the top).
    DbCounters live;
    ColumnFamilyMetaData meta;
    if (db != nullptr) {
      live = ReadDbCounters(db);
      db->GetColumnFamilyMetaData(&meta);
    }
    std::lock_guard<std::mutex> lock(mu_);
    LsmMetricsReport r;
    const bool attached = db_ != nullptr && db_ == db;
    const auto now = SteadyClock::now();
    r.elapsed_s = retired_elapsed_s_ +
                  (attached ? SecondsBetween(attach_time_, now) : 0);
    r.user_bytes = retired_.user_bytes +
                   (attached ? live.user_bytes - attach_counters_.user_bytes : 0);
    r.user_keys = retired_.user_keys +
                  (attached ? live.user_keys - attach_counters_.user_keys : 0);
    const uint64_t writer_stall_micros =
        WriterStallMicrosLocked(live, attached);
    r.writer_stall_s = writer_stall_micros / 1e6;
    r.flush_bytes = flush_bytes_;
    r.compaction_read_bytes = compaction_read_bytes_;
    r.compaction_write_bytes = compaction_write_bytes_;
    r.drain_compactions = drain_compactions_;
    r.drain_read_bytes = drain_read_bytes_;
    r.drain_write_bytes = drain_write_bytes_;
    if (r.user_bytes > 0) {
      r.io_amplification =
          static_cast<double>(flush_bytes_ + compaction_read_bytes_ +
                              compaction_write_bytes_) /
          static_cast<double>(r.user_bytes);
    }
    std::vector<uint64_t> every_step;
    for (const LevelAccount& account : levels_) {
      LevelIo io = account.io;
      io.input_bytes_per_compaction = Summarize(account.input_bytes);
      r.levels.push_back(io);
      every_step.insert(every_step.end(), account.input_bytes.begin(),
                        account.input_bytes.end());
    }
    r.step_width_bound = step_width_bound_;
    r.steps_over_bound = static_cast<uint64_t>(
        std::count_if(every_step.begin(), every_step.end(),
                      [&](uint64_t w) { return w > step_width_bound_; }));
    r.input_bytes_per_step = Summarize(std::move(every_step));
    r.wide_compactions = wide_compactions_;

    r.stall_episodes = episodes_;
    if (in_episode_) {  // the one still running, up to now
      r.stall_episodes.push_back(current_);
      r.stall_episodes.back().duration_s = SecondsBetween(episode_start_, now);
    }
    for (const StallEpisode& e : r.stall_episodes) {
      ++r.stall_count;
      r.stop_count += e.stopped ? 1 : 0;
      r.stall_total_s += e.duration_s;
      r.stall_longest_s = std::max(r.stall_longest_s, e.duration_s);
    }
    r.samples = samples_;

    if (attached) {
      r.l1 = CensusL1Vssts(meta, ucmp_, overlap_bound_);
      FillTreeShape(meta, &r.level_bytes, &r.level_files);
    } else {
      r.l1 = census_;
      r.level_bytes = level_bytes_;
      r.level_files = level_files_;
    }

    r.cpu_s = retired_cpu_s_ +
              (attached ? ProcessCpuSeconds() - cpu_at_attach_ : 0);
    r.operations = operations_ != 0 ? operations_ : r.user_keys;
    if (r.operations > 0) {
      r.cpu_us_per_op = r.cpu_s * 1e6 / static_cast<double>(r.operations);
    }
    return r;
  }

  LsmStallCounters StallCounters() const {
    // As Report: attach_mu_ keeps the DB open while it is read outside mu_.
    std::lock_guard<std::mutex> attach_lock(attach_mu_);
    DB* const db = CurrentDb();
    DbCounters live;
    if (db != nullptr) {
      ReadDbStats(db, &live);
    }
    std::lock_guard<std::mutex> lock(mu_);
    const bool attached = db_ != nullptr && db_ == db;
    LsmStallCounters c;
    const uint64_t writer_stall_micros =
        WriterStallMicrosLocked(live, attached);
    c.writer_stall_s = writer_stall_micros / 1e6;
    c.stall_count = episodes_.size() + (in_episode_ ? 1 : 0);
    c.stall_total_s = ended_stall_total_s_;
    if (in_episode_) {
      c.stall_total_s += SecondsBetween(episode_start_, SteadyClock::now());
    }
    c.samples = sample_count_;
    c.stalled_samples = stalled_sample_count_;
    c.in_stall = in_episode_;
    return c;
  }

  void OnCompactionBegin(const CompactionJobInfo& ci) {
    std::lock_guard<std::mutex> lock(mu_);
    RunningCompaction& running = running_[ci.job_id];
    running.episodes.clear();
    if (in_episode_) {
      running.episodes.push_back(episodes_.size());  // index current_ will get
    }
  }

  void OnCompactionCompleted(const CompactionJobInfo& ci) {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<size_t> overlapped_episodes;
    auto running = running_.find(ci.job_id);
    if (running != running_.end()) {
      overlapped_episodes = std::move(running->second.episodes);
      running_.erase(running);
    }
    if (!ci.status.ok() || db_ == nullptr) {
      // Failed: nothing installed. Detached: outside the measured window
      // (for example a compaction finishing while the DB closes).
      return;
    }
    LevelAccount& account = LevelLocked(ci.output_level);
    std::set<uint64_t> input_numbers;
    for (const auto& input : ci.input_file_infos) {
      input_numbers.insert(input.file_number);
    }
    bool moved_only = !ci.output_file_infos.empty();
    for (const auto& output : ci.output_file_infos) {
      moved_only = moved_only && input_numbers.count(output.file_number) > 0;
    }
    if (moved_only) {
      ++account.io.trivial_moves;
      for (const auto& input : ci.input_file_infos) {
        account.io.trivial_move_bytes += SizeOfLocked(input.file_number);
      }
      return;
    }

    const uint64_t read = ci.stats.total_input_bytes;
    const uint64_t written =
        ci.stats.total_output_bytes + ci.stats.total_output_bytes_blob;
    // Split what was read between the two levels from the inputs' sizes;
    // the job's own total stays authoritative.
    uint64_t from_level = 0;
    uint64_t files_from_level = 0;
    for (const auto& input : ci.input_file_infos) {
      if (input.level == ci.output_level) {
        from_level += SizeOfLocked(input.file_number);
        ++files_from_level;
      }
    }
    from_level = std::min(from_level, read);
    if (read > step_width_bound_) {
      WideStep wide;
      wide.time_s = SecondsBetween(first_attach_, SteadyClock::now());
      wide.output_level = ci.output_level;
      wide.input_bytes = read;
      wide.upper_files = ci.input_file_infos.size() - files_from_level;
      wide.upper_bytes = read - from_level;
      wide.level_files = files_from_level;
      wide.level_bytes = from_level;
      wide.reason = GetCompactionReasonString(ci.compaction_reason);
      wide_compactions_.push_back(std::move(wide));
    }
    ++account.io.compactions;
    account.io.read_from_level_bytes += from_level;
    account.io.read_from_upper_bytes += read - from_level;
    account.io.written_bytes += written;
    account.input_bytes.push_back(read);
    compaction_read_bytes_ += read;
    compaction_write_bytes_ += written;
    if (ci.compaction_reason == CompactionReason::kVlsmDrainAtRest) {
      ++drain_compactions_;
      drain_read_bytes_ += read;
      drain_write_bytes_ += written;
    }

    for (size_t index : overlapped_episodes) {
      StallEpisode& e = index < episodes_.size() ? episodes_[index] : current_;
      ++e.compactions;
      e.compacted_bytes += read + written;
      if (std::find(e.output_levels.begin(), e.output_levels.end(),
                    ci.output_level) == e.output_levels.end()) {
        e.output_levels.push_back(ci.output_level);
        std::sort(e.output_levels.begin(), e.output_levels.end());
      }
    }
  }

  void OnTableFileCreated(const TableFileCreationInfo& info) {
    if (!info.status.ok()) {
      return;
    }
    std::lock_guard<std::mutex> lock(mu_);
    file_sizes_[FileNumberOf(info.file_path)] = info.file_size;
    // Only flushes inside the measured window (not the one at DB close).
    if (info.reason == TableFileCreationReason::kFlush && db_ != nullptr) {
      LevelAccount& l0 = LevelLocked(0);
      l0.io.written_bytes += info.file_size;
      flush_bytes_ += info.file_size;
      // The ranged layout writes one flush as several files (one job id):
      // one flush, one step, as wide as its pieces together.
      size_t* step = FlushStepOfJobLocked(info.job_id);
      if (step != nullptr) {
        l0.input_bytes[*step] += info.file_size;
      } else {
        ++l0.io.compactions;
        l0.input_bytes.push_back(info.file_size);
        recent_flush_jobs_[next_flush_job_slot_] = {info.job_id,
                                                    l0.input_bytes.size() - 1};
        next_flush_job_slot_ =
            (next_flush_job_slot_ + 1) % recent_flush_jobs_.size();
      }
    }
  }

  // The step of a recent flush job, or null. Job ids are unique within one
  // open DB; a flush's pieces are written one after another, and few flushes
  // run at once, so the last few jobs are enough to remember.
  size_t* FlushStepOfJobLocked(int job_id) {
    for (auto& recent : recent_flush_jobs_) {
      if (recent.step != SIZE_MAX && recent.job_id == job_id) {
        return &recent.step;
      }
    }
    return nullptr;
  }

  void OnTableFileDeleted(const TableFileDeletionInfo& info) {
    std::lock_guard<std::mutex> lock(mu_);
    file_sizes_.erase(FileNumberOf(info.file_path));
  }

  void OnStallConditionsChanged(const WriteStallInfo& info) {
    std::lock_guard<std::mutex> lock(mu_);
    if (db_ == nullptr) {
      return;
    }
    ++stall_events_;
    condition_by_cf_[info.cf_name] = info.condition.cur;
    bool stalled = false;
    bool stopped = false;
    for (const auto& entry : condition_by_cf_) {
      stalled = stalled || entry.second != WriteStallCondition::kNormal;
      stopped = stopped || entry.second == WriteStallCondition::kStopped;
    }
    const auto now = SteadyClock::now();
    if (stalled && !in_episode_) {
      in_episode_ = true;
      episode_start_ = now;
      current_ = StallEpisode();
      current_.start_s = SecondsBetween(first_attach_, now);
      period_saw_stall_ = true;
      // Compactions already running work for this episode too.
      for (auto& running : running_) {
        running.second.episodes.push_back(episodes_.size());
      }
    }
    if (in_episode_ && stopped) {
      current_.stopped = true;
    }
    if (!stalled && in_episode_) {
      EndEpisodeLocked(now);
    }
  }

 private:
  struct LevelAccount {
    LevelIo io;
    std::vector<uint64_t> input_bytes;  // per compaction, for the width
  };
  struct RunningCompaction {
    // Indexes into episodes_ (episodes_.size() means the open current_).
    std::vector<size_t> episodes;
  };

  LevelAccount& LevelLocked(int level) {
    const size_t index = static_cast<size_t>(std::max(level, 0));
    while (levels_.size() <= index) {
      levels_.emplace_back();
      levels_.back().io.level = static_cast<int>(levels_.size()) - 1;
    }
    return levels_[index];
  }

  uint64_t SizeOfLocked(uint64_t file_number) const {
    auto it = file_sizes_.find(file_number);
    return it == file_sizes_.end() ? 0 : it->second;
  }

  void EndEpisodeLocked(SteadyClock::time_point now) {
    current_.duration_s = SecondsBetween(episode_start_, now);
    period_stalled_s_ +=
        SecondsBetween(std::max(episode_start_, period_start_), now);
    episodes_.push_back(current_);
    // Summed in episode order, as Report sums them.
    ended_stall_total_s_ += current_.duration_s;
    in_episode_ = false;
  }

  // RocksDB queues stall notifications under the DB mutex but delivers them
  // later from whichever thread queued them (a flush, a compaction, a
  // writer switching memtables), so two can arrive in the opposite order
  // to the changes: "stalled" last while the DB is back to normal. Left
  // alone, that episode would run until Detach. Hence, once per sample:
  // when the write controller said "not stalled" (read at `read_time`)
  // and no notification arrived since before that read, the episode is
  // over. A later notification of an older change can only open a new
  // episode, which the next sample closes the same way.
  void ReconcileStallLocked(const DbCounters& counters, uint64_t events_before,
                            SteadyClock::time_point read_time) {
    if (!in_episode_ || counters.writes_stalled ||
        stall_events_ != events_before) {
      return;
    }
    for (auto& entry : condition_by_cf_) {
      entry.second = WriteStallCondition::kNormal;
    }
    EndEpisodeLocked(std::max(read_time, episode_start_));
  }

  void RecordSampleLocked(const DbCounters& counters,
                          SteadyClock::time_point now) {
    const double period_s = SecondsBetween(period_start_, now);
    double stalled_s = period_stalled_s_;
    if (in_episode_) {
      stalled_s += SecondsBetween(std::max(episode_start_, period_start_), now);
    }
    const bool stalled = period_saw_stall_ || in_episode_;
    // Counted whether or not samples are kept, for StallCounters.
    ++sample_count_;
    stalled_sample_count_ += stalled ? 1 : 0;
    if (config_.keep_samples) {
      LsmSample s;
      s.time_s = SecondsBetween(first_attach_, now);
      s.stalled = stalled;
      s.stalled_fraction =
          period_s > 0 ? std::min(1.0, stalled_s / period_s) : 0;
      s.l0_files = counters.l0_files;
      s.l0_depth = counters.l0_depth;
      s.l0_sublevels = counters.l0_sublevels;
      s.l0_bytes = counters.l0_bytes;
      s.pending_compaction_bytes = counters.pending_compaction_bytes;
      s.user_bytes = counters.user_bytes - last_counters_.user_bytes;
      s.running_compactions = running_.size();
      samples_.push_back(s);
    }
    last_counters_ = counters;
    period_start_ = now;
    period_stalled_s_ = 0;
    period_saw_stall_ = in_episode_;
  }

  void TakeCensusLocked(const ColumnFamilyMetaData& meta) {
    census_ = CensusL1Vssts(meta, ucmp_, overlap_bound_);
    FillTreeShape(meta, &level_bytes_, &level_files_);
  }

  static void FillTreeShape(const ColumnFamilyMetaData& meta,
                            std::vector<uint64_t>* bytes,
                            std::vector<uint64_t>* files) {
    bytes->clear();
    files->clear();
    for (const auto& level : meta.levels) {
      bytes->push_back(level.size);
      files->push_back(level.files.size());
    }
  }

  void SampleLoop() {
    const auto period = std::chrono::milliseconds(
        std::max<uint64_t>(config_.sample_period_ms, 1));
    auto next = SteadyClock::now() + period;
    for (;;) {
      DB* db;
      uint64_t events_before;
      {
        std::unique_lock<std::mutex> lock(mu_);
        if (sampler_cv_.wait_until(lock, next,
                                   [this] { return stop_sampler_; })) {
          return;
        }
        db = db_;
        events_before = stall_events_;
      }
      const auto read_time = SteadyClock::now();
      const DbCounters counters = ReadDbCounters(db);
      std::lock_guard<std::mutex> lock(mu_);
      ReconcileStallLocked(counters, events_before, read_time);
      RecordSampleLocked(counters, SteadyClock::now());
      next += period;
    }
  }

  void StopSampler() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_sampler_ = true;
    }
    sampler_cv_.notify_all();
    if (sampler_.joinable()) {
      sampler_.join();
    }
  }

  const Config config_;
  mutable std::mutex attach_mu_;  // taken before mu_, never inside it
  mutable std::mutex mu_;
  std::condition_variable sampler_cv_;
  std::thread sampler_;
  bool stop_sampler_ = false;

  DB* db_ = nullptr;
  const Comparator* ucmp_ = nullptr;
  uint64_t overlap_bound_ = 0;
  uint64_t step_width_bound_ = 0;  // LsmMetricsReport::step_width_bound
  std::vector<WideStep> wide_compactions_;
  bool ever_attached_ = false;
  SteadyClock::time_point first_attach_;
  SteadyClock::time_point attach_time_;
  DbCounters attach_counters_;  // RocksDB's counters restart at every open
  DbCounters last_counters_;
  DbCounters retired_;          // sums over earlier attachments
  double retired_elapsed_s_ = 0;
  double retired_cpu_s_ = 0;
  double cpu_at_attach_ = 0;
  uint64_t operations_ = 0;

  uint64_t flush_bytes_ = 0;
  struct RecentFlushJob {
    int job_id = 0;
    size_t step = SIZE_MAX;  // index into L0's input_bytes; SIZE_MAX: unused
  };
  std::array<RecentFlushJob, 16> recent_flush_jobs_{};
  size_t next_flush_job_slot_ = 0;
  uint64_t compaction_read_bytes_ = 0;
  uint64_t compaction_write_bytes_ = 0;
  uint64_t drain_compactions_ = 0;  // of the compactions above
  uint64_t drain_read_bytes_ = 0;
  uint64_t drain_write_bytes_ = 0;
  std::vector<LevelAccount> levels_;
  std::unordered_map<uint64_t, uint64_t> file_sizes_;  // live table files
  std::unordered_map<int, RunningCompaction> running_;  // by job id

  std::map<std::string, WriteStallCondition> condition_by_cf_;
  uint64_t stall_events_ = 0;  // notifications received, to detect new ones
  bool in_episode_ = false;
  SteadyClock::time_point episode_start_;
  StallEpisode current_;
  std::vector<StallEpisode> episodes_;
  double ended_stall_total_s_ = 0;  // sum of episodes_' durations

  SteadyClock::time_point period_start_;
  double period_stalled_s_ = 0;
  bool period_saw_stall_ = false;
  std::vector<LsmSample> samples_;
  uint64_t sample_count_ = 0;  // recorded periods, kept or not
  uint64_t stalled_sample_count_ = 0;

  L1VsstCensus census_;
  std::vector<uint64_t> level_bytes_;
  std::vector<uint64_t> level_files_;
};

LsmMetricsCollector::LsmMetricsCollector() : LsmMetricsCollector(Config()) {}
LsmMetricsCollector::LsmMetricsCollector(const Config& config)
    : impl_(new Impl(config)) {}
LsmMetricsCollector::~LsmMetricsCollector() = default;

Status LsmMetricsCollector::Attach(DB* db) {
  if (db == nullptr) {
    return Status::InvalidArgument("LsmMetricsCollector: Attach(nullptr)");
  }
  return impl_->Attach(db, this);
}
void LsmMetricsCollector::Detach() { impl_->Detach(); }
void LsmMetricsCollector::SetOperationCount(uint64_t operations) {
  impl_->SetOperationCount(operations);
}
LsmMetricsReport LsmMetricsCollector::Report() const { return impl_->Report(); }
LsmStallCounters LsmMetricsCollector::StallCounters() const {
  return impl_->StallCounters();
}

void LsmMetricsCollector::OnCompactionBegin(DB* /*db*/,
                                            const CompactionJobInfo& ci) {
  impl_->OnCompactionBegin(ci);
}
void LsmMetricsCollector::OnCompactionCompleted(DB* /*db*/,
                                                const CompactionJobInfo& ci) {
  impl_->OnCompactionCompleted(ci);
}
void LsmMetricsCollector::OnTableFileCreated(
    const TableFileCreationInfo& info) {
  impl_->OnTableFileCreated(info);
}
void LsmMetricsCollector::OnTableFileDeleted(
    const TableFileDeletionInfo& info) {
  impl_->OnTableFileDeleted(info);
}
void LsmMetricsCollector::OnStallConditionsChanged(const WriteStallInfo& info) {
  impl_->OnStallConditionsChanged(info);
}

}  // namespace ROCKSDB_NAMESPACE
