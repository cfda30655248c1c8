// vlsm_decision_trace: every decision the fork makes on one seeded,
// single-threaded workload, as text. A refactor must leave it byte-identical:
// timing-dependent runs cannot see a changed decision; this can.
//
//   vlsm_decision_trace --layout=ranged|single|stock [--seed=N] [--rounds=N]
//                       [--db=DIR] [--out=FILE] [--expect=FILE]
//
// --expect compares the trace with a committed one and exits 1 at the first
// line that differs (tests/vlsm/decision_trace/, ctest -R decision_trace);
// scripts/decision_trace.sh --update rewrites them after a change meant to
// change decisions.
//
// What it records, after every version install:
//   - each flush's new L0 files (a split flush's pieces: the split keys);
//   - each compaction's reason, inputs, output level and outputs (the cut
//     points of vSSTs, the ranges of ranged L0 steps);
//   - the version's compaction scores (level by level, as sorted), the
//     estimate of pending compaction bytes (and under the vLSM layouts the
//     L0 steps' yield it takes), L0's stall count, the write
//     controller's state (stopped, delayed, the delayed write rate) and the
//     column family's write-stall counters, and the vLSM L0 properties;
//   - what the flush listener is told (triggered_writes_slowdown/stop).
//
// Why it is deterministic. Compactions run on one LOW thread. In each
// round a task holds that thread while the round's flushes (manual, one
// memtable each, on the HIGH thread) install: the scores, the estimate and
// the write-stall decisions of each install are taken with nothing else
// running, and L0 builds up as under load. Then the task lets go and the
// compactions the versions call for run one after another with no writes
// (WaitForCompact), each recorded at its install from the listener, which
// runs on that thread before the next pick. Keys and values come from a
// seeded std::mt19937_64; nothing depends on time (writes that the write
// controller delays only sleep; a round's flushes end early when writes
// stop, and its compactions run).
// Compression is off and the host name is not stored, so file sizes do not
// depend on the machine or on a compression library's version.
#include <algorithm>
#include <cinttypes>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "db/column_family.h"
#include "db/db_impl/db_impl.h"
#include "db/version_set.h"
#include "db/write_controller.h"
#include "options/vlsm_drain_settings.h"
#include "options/vlsm_layout.h"
#include "rocksdb/db.h"
#include "rocksdb/env.h"
#include "rocksdb/listener.h"
#include "rocksdb/options.h"
#include "rocksdb/vlsm.h"

namespace ROCKSDB_NAMESPACE {
namespace {

struct Args {
  std::string layout = "ranged";
  uint64_t seed = 1;
  int rounds = 14;
  std::string db;
  std::string out;
  std::string expect;
};

constexpr int kFlushesPerRound = 6;
constexpr int kWritesPerFlush = 300;  // ~75 KB: one memtable, never two
constexpr int kValueBytes = 200;
constexpr uint64_t kKeySpace = 20000;

// The RocksDB-shaped configurations at 1/256 of their sizes (128 KiB
// memtables, 32 KiB files, L1 1 MiB), through the one call a user makes.
Status ConfigureLayout(const std::string& layout, Options* o) {
  o->create_if_missing = true;
  o->compression = kNoCompression;
  o->num_levels = 5;
  o->max_background_jobs = 1;  // one flush thread, one compaction thread
  o->max_subcompactions = 1;
  o->delayed_write_rate = 64 << 20;
  o->stats_dump_period_sec = 0;
  o->stats_persist_period_sec = 0;
  // Table properties hold the host name by default: file sizes, and the
  // byte-based decisions, would then differ from machine to machine.
  o->db_host_id = "vlsm-decision-trace";
  if (layout == "stock") {
    o->write_buffer_size = 128 << 10;
    o->max_write_buffer_number = 4;
    o->target_file_size_base = 32 << 10;
    o->max_bytes_for_level_base = 1 << 20;
    o->level_compaction_dynamic_level_bytes = false;
    o->soft_pending_compaction_bytes_limit = 4 << 20;
    o->hard_pending_compaction_bytes_limit = 8 << 20;
    return Status::OK();
  }
  VlsmOptions v = layout == "ranged" ? VlsmOptions::Ranged() : VlsmOptions();
  if (layout != "ranged" && layout != "single") {
    return Status::InvalidArgument("--layout: ranged, single or stock, not " +
                                   layout);
  }
  v.sst_size = 32 << 10;
  v.memtable_size = 128 << 10;
  v.l1_size = 1 << 20;
  v.soft_pending_compaction_bytes_limit = 4 << 20;
  v.hard_pending_compaction_bytes_limit = 8 << 20;
  if (layout == "ranged") {
    // L0's stall triggers of the trace's scale (the preset's until issue
    // 52), so that its short workload reaches write slowdowns; the
    // preset's own, 40 / 72, would leave them untraced.
    v.ranged_slowdown_trigger = 17;
    v.ranged_stop_trigger = 21;
  }
  return ConfigureVlsm(o, v);
}

std::string Printable(const Slice& s) {
  std::string out;
  for (char c : s.ToString()) {
    if (c >= 0x20 && c < 0x7f) {
      out += c;
    } else {
      char buf[8];
      std::snprintf(buf, sizeof(buf), "\\x%02x", static_cast<unsigned char>(c));
      out += buf;
    }
  }
  return out;
}

std::string FileText(const FileMetaData& f) {
  return "#" + std::to_string(f.fd.GetNumber()) + " [" +
         Printable(f.smallest.user_key()) + " .. " +
         Printable(f.largest.user_key()) + "] " +
         std::to_string(f.fd.GetFileSize());
}

// The trace, appended from the main thread and from the listener's thread
// (never at once: see the header).
class Trace {
 public:
  void Line(const std::string& line) {
    std::lock_guard<std::mutex> l(mu_);
    text_ += line + "\n";
  }
  std::string Text() {
    std::lock_guard<std::mutex> l(mu_);
    return text_;
  }

 private:
  std::mutex mu_;
  std::string text_;
};

DBImpl* ImplOf(DB* db) { return static_cast<DBImpl*>(db->GetRootDB()); }

ColumnFamilyData* DefaultCfdOf(DB* db) {
  return static_cast<ColumnFamilyHandleImpl*>(db->DefaultColumnFamily())->cfd();
}

// The decisions a version install left behind, read under the DB mutex.
std::string StateOf(DB* db) {
  DBImpl* impl = ImplOf(db);
  ColumnFamilyData* cfd = DefaultCfdOf(db);
  std::ostringstream s;
  {
    InstrumentedMutexLock lock(impl->mutex());
    const VersionStorageInfo* vs = cfd->current()->storage_info();
    char buf[64];
    s << "  scores";
    for (int i = 0; i + 1 < vs->num_levels(); ++i) {
      std::snprintf(buf, sizeof(buf), " L%d=%.6f", vs->CompactionScoreLevel(i),
                    vs->CompactionScore(i));
      s << buf;
    }
    s << "\n  debt " << vs->estimated_compaction_needed_bytes()
      << " l0-stall-count " << vs->l0_delay_trigger_count() << " base-level "
      << vs->base_level();
    if (IsVlsmLayout(cfd->GetLatestMutableCFOptions()->vlsm_layout)) {
      // What recent L0 steps added below per L0 byte: the estimate's
      // inflow from L0 (db/compaction/vlsm_l0_yield.h).
      std::snprintf(buf, sizeof(buf), " l0-yield %.6f", vs->vlsm_l0_yield());
      s << buf;
    }
    const WriteController& wc = impl->write_controller();
    s << " write "
      << (wc.IsStopped()    ? "stopped"
          : wc.NeedsDelay() ? "delayed"
                            : "normal")
      << " rate " << wc.delayed_write_rate();
  }
  std::map<std::string, std::string> stalls;
  db->GetMapProperty(DB::Properties::kCFWriteStallStats, &stalls);
  s << "\n  stalls";
  for (const auto& [name, count] : stalls) {
    if (count != "0") {
      s << " " << name << "=" << count;
    }
  }
  s << "\n  vlsm";
  for (const char* p :
       {VlsmProperties::kL0Depth, VlsmProperties::kL0Bytes,
        VlsmProperties::kL0StallCount, VlsmProperties::kL0DepthTrigger}) {
    uint64_t v = 0;
    s << " " << (std::string(p).substr(std::string("rocksdb.vlsm.").size()))
      << "=" << (db->GetIntProperty(p, &v) ? std::to_string(v) : "?");
  }
  return s.str();
}

// The files of `level` in the current version, in its order: number and text.
std::vector<std::pair<uint64_t, std::string>> LevelFiles(DB* db, int level) {
  InstrumentedMutexLock lock(ImplOf(db)->mutex());
  std::vector<std::pair<uint64_t, std::string>> files;
  for (const FileMetaData* f :
       DefaultCfdOf(db)->current()->storage_info()->LevelFiles(level)) {
    files.emplace_back(f->fd.GetNumber(), FileText(*f));
  }
  return files;
}

std::string LevelFilesText(DB* db, int level) {
  std::string out;
  for (const auto& file : LevelFiles(db, level)) {
    out += "    " + file.second + "\n";
  }
  return out;
}

// The files of `level` in the current version, by number.
std::map<uint64_t, std::string> FilesOf(DB* db, int level) {
  const auto files = LevelFiles(db, level);
  return std::map<uint64_t, std::string>(files.begin(), files.end());
}

class Recorder : public EventListener {
 public:
  explicit Recorder(Trace* trace) : trace_(trace) {}

  void OnFlushCompleted(DB*, const FlushJobInfo& info) override {
    std::lock_guard<std::mutex> l(mu_);
    flush_told_.push_back("  flush listener: slowdown " +
                          std::to_string(info.triggered_writes_slowdown) +
                          " stop " +
                          std::to_string(info.triggered_writes_stop));
    cv_.notify_all();
  }

  // The listener lines of `count` flushes, waited for: OnFlushCompleted runs
  // on the flush thread after the install that Flush() waits for.
  std::vector<std::string> TakeFlushLines(size_t count) {
    std::unique_lock<std::mutex> l(mu_);
    cv_.wait(l, [&] { return flush_told_.size() >= count; });
    std::vector<std::string> lines;
    lines.swap(flush_told_);
    return lines;
  }

  void OnCompactionCompleted(DB* db, const CompactionJobInfo& ci) override {
    std::ostringstream s;
    s << "compaction " << GetCompactionReasonString(ci.compaction_reason)
      << " -> L" << ci.output_level << (ci.status.ok() ? "" : " FAILED")
      << "\n  in";
    for (const CompactionFileInfo& f : ci.input_file_infos) {
      s << " L" << f.level << "#" << f.file_number;
    }
    s << "\n  out";
    // The outputs with their key ranges: the cut points.
    const std::map<uint64_t, std::string> now = FilesOf(db, ci.output_level);
    for (const CompactionFileInfo& f : ci.output_file_infos) {
      auto it = now.find(f.file_number);
      s << "\n    "
        << (it != now.end() ? it->second : "#" + std::to_string(f.file_number));
    }
    s << "\n" << StateOf(db);
    trace_->Line(s.str());
  }

 private:
  Trace* trace_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::vector<std::string> flush_told_;
};

// Holds the one compaction thread for its lifetime. The state is shared
// with the held thread, which still touches it after the hold is gone.
class CompactionHold {
 public:
  explicit CompactionHold(Env* env) : state_(std::make_shared<State>()) {
    env->Schedule(&CompactionHold::Run, new std::shared_ptr<State>(state_),
                  Env::Priority::LOW);
    std::unique_lock<std::mutex> l(state_->mu);
    state_->cv.wait(l, [&] { return state_->holding; });
  }
  ~CompactionHold() {
    std::lock_guard<std::mutex> l(state_->mu);
    state_->released = true;
    state_->cv.notify_all();
  }

 private:
  struct State {
    std::mutex mu;
    std::condition_variable cv;
    bool holding = false;
    bool released = false;
  };
  static void Run(void* arg) {
    std::unique_ptr<std::shared_ptr<State>> owned(
        static_cast<std::shared_ptr<State>*>(arg));
    State& state = **owned;
    std::unique_lock<std::mutex> l(state.mu);
    state.holding = true;
    state.cv.notify_all();
    state.cv.wait(l, [&] { return state.released; });
  }
  std::shared_ptr<State> state_;
};

std::string Key(const char* prefix, uint64_t i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%s%08" PRIu64, prefix, i);
  return buf;
}

// The round's workload, by round number: uniform keys, an ascending
// sequence, a descending one, a hot range, deletes with a range deletion,
// then again.
enum class Pattern { kUniform, kAscending, kDescending, kHot, kDeletes };
constexpr Pattern kPatterns[] = {Pattern::kUniform,    Pattern::kUniform,
                                 Pattern::kAscending,  Pattern::kHot,
                                 Pattern::kDescending, Pattern::kDeletes};
const char* PatternName(Pattern p) {
  switch (p) {
    case Pattern::kUniform:
      return "uniform";
    case Pattern::kAscending:
      return "ascending";
    case Pattern::kDescending:
      return "descending";
    case Pattern::kHot:
      return "hot range";
    case Pattern::kDeletes:
      return "deletes and a range deletion";
  }
  return "?";
}

// A live SetOptions in some rounds: the layout value and the stall count
// must follow a switch (patch 0003 makes compaction_pri mutable).
std::map<std::string, std::string> LiveChangeFor(const std::string& layout,
                                                 int round) {
  if (round == 5) {
    return {{"write_buffer_size", std::to_string(96 << 10)}};
  }
  if (layout == "stock") {
    return {};
  }
  if (round == 8) {
    return {{"compaction_pri", layout == "ranged" ? "kVlsm" : "kVlsmRanged"}};
  }
  if (round == 10) {
    return {{"compaction_pri", "kMinOverlappingRatio"}};
  }
  if (round == 11) {
    return {{"compaction_pri", layout == "ranged" ? "kVlsmRanged" : "kVlsm"}};
  }
  return {};
}

int Run(const Args& args) {
  Options options;
  Status s = ConfigureLayout(args.layout, &options);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.ToString().c_str());
    return 2;
  }
  Env* env = Env::Default();
  env->SetBackgroundThreads(1, Env::Priority::LOW);
  env->SetBackgroundThreads(1, Env::Priority::HIGH);
  Trace trace;
  auto recorder = std::make_shared<Recorder>(&trace);
  options.listeners.push_back(recorder);
  const std::string path =
      args.db.empty() ? "/tmp/vlsm_decision_trace_" + args.layout : args.db;
  DestroyDB(path, options);
  // The drain at rest off (db/compaction/vlsm_drain_at_rest.h): the traces
  // record the decisions made without it, which the drain must not change;
  // its own decisions depend on how long the DB was quiet. Only the ranged
  // layout drains, and ConfigureVlsm gave it the settings object. Set in
  // the options, not by SetOptions after open: that would write an OPTIONS
  // file and so shift every file number the trace records.
  if (const auto drain = VlsmDrainSettingsIn(
          options.table_properties_collector_factories)) {
    VlsmDrainSettings off;
    off.enabled = false;
    drain->Set(off);
  }
  DB* raw = nullptr;
  s = DB::Open(options, path, &raw);
  if (!s.ok()) {
    std::fprintf(stderr, "open %s: %s\n", path.c_str(), s.ToString().c_str());
    return 2;
  }
  std::unique_ptr<DB> db(raw);
  trace.Line("# vlsm_decision_trace layout=" + args.layout +
             " seed=" + std::to_string(args.seed) +
             " rounds=" + std::to_string(args.rounds));

  std::mt19937_64 rng(args.seed);
  std::map<std::string, std::string> model;  // what the DB must hold
  uint64_t ascending = 0;
  uint64_t descending = 1u << 30;
  size_t flushes = 0;
  for (int round = 0; round < args.rounds; ++round) {
    const Pattern pattern = kPatterns[round % std::size(kPatterns)];
    trace.Line("round " + std::to_string(round) + ": " + PatternName(pattern));
    {
      CompactionHold hold(env);
      // Under the hold: the compactions a switch calls for run below, after
      // the round's flushes, as every other round's do.
      for (const auto& [name, value] : LiveChangeFor(args.layout, round)) {
        s = db->SetOptions({{name, value}});
        trace.Line("set " + name + "=" + value + ": " + s.ToString() + "\n" +
                   StateOf(db.get()));
      }
      auto writes_stopped = [&db] {
        return ImplOf(db.get())->write_controller().IsStopped();
      };
      for (int f = 0; f < kFlushesPerRound; ++f) {
        // A stop (after a flush, or a live switch of the layout) would hold
        // the next write until the held compactions run.
        if (writes_stopped()) {
          trace.Line("writes stopped: the round's flushes end here");
          break;
        }
        WriteBatch batch;
        for (int w = 0; w < kWritesPerFlush; ++w) {
          std::string key;
          switch (pattern) {
            case Pattern::kUniform:
              key = Key("u", rng() % kKeySpace);
              break;
            case Pattern::kAscending:
              key = Key("s", ascending++);
              break;
            case Pattern::kDescending:
              key = Key("r", descending--);
              break;
            case Pattern::kHot:
              key = Key("u", 5000 + rng() % 400);
              break;
            case Pattern::kDeletes:
              key = Key("u", rng() % kKeySpace);
              if (w % 2 == 0) {
                batch.Delete(key);
                model.erase(key);
                continue;
              }
              break;
          }
          std::string value = key + "@" + std::to_string(round);
          value.resize(kValueBytes, static_cast<char>('a' + rng() % 26));
          batch.Put(key, value);
          model[key] = value;
        }
        if (pattern == Pattern::kDeletes && f == 0) {
          const uint64_t from = rng() % kKeySpace;
          const std::string begin = Key("u", from);
          const std::string end = Key("u", from + 500);
          batch.DeleteRange(begin, end);
          model.erase(model.lower_bound(begin), model.lower_bound(end));
        }
        s = db->Write(WriteOptions(), &batch);
        if (!s.ok()) {
          std::fprintf(stderr, "write: %s\n", s.ToString().c_str());
          return 2;
        }
        const std::map<uint64_t, std::string> before = FilesOf(db.get(), 0);
        FlushOptions fo;
        fo.allow_write_stall = true;  // the held compactions cannot end one
        s = db->Flush(fo);
        if (!s.ok()) {
          std::fprintf(stderr, "flush: %s\n", s.ToString().c_str());
          return 2;
        }
        ++flushes;
        std::string line = "flush " + std::to_string(flushes) + "\n  L0 +";
        for (const auto& [number, text] : FilesOf(db.get(), 0)) {
          if (before.count(number) == 0) {
            line += "\n    " + text;
          }
        }
        line += "\n" + StateOf(db.get());
        for (const std::string& told : recorder->TakeFlushLines(1)) {
          line += "\n" + told;
        }
        trace.Line(line);
      }
      trace.Line("compactions run");
    }
    s = db->WaitForCompact(WaitForCompactOptions());
    if (!s.ok()) {
      std::fprintf(stderr, "wait for compact: %s\n", s.ToString().c_str());
      return 2;
    }
  }
  trace.Line("settled: L0\n" + LevelFilesText(db.get(), 0) + "L1\n" +
             LevelFilesText(db.get(), 1));

  // The data, checked: a decision that loses a write is a wrong decision.
  size_t checked = 0;
  std::unique_ptr<Iterator> it(db->NewIterator(ReadOptions()));
  auto want = model.begin();
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++want, ++checked) {
    if (want == model.end() || it->key() != want->first ||
        it->value() != want->second) {
      std::fprintf(stderr, "data: key %s differs from the model\n",
                   it->key().ToString().c_str());
      return 2;
    }
  }
  if (!it->status().ok() || want != model.end()) {
    std::fprintf(stderr, "data: %s, %zu of %zu keys\n",
                 it->status().ToString().c_str(), checked, model.size());
    return 2;
  }
  trace.Line("data: " + std::to_string(checked) + " keys, as written");
  it.reset();
  db.reset();
  DestroyDB(path, options);

  const std::string text = trace.Text();
  if (!args.out.empty()) {
    std::ofstream(args.out) << text;
  } else if (args.expect.empty()) {
    std::fputs(text.c_str(), stdout);
  }
  if (args.expect.empty()) {
    return 0;
  }
  std::ifstream in(args.expect);
  if (!in) {
    std::fprintf(stderr, "--expect: cannot read %s\n", args.expect.c_str());
    return 2;
  }
  std::istringstream got(text);
  std::string want_line, got_line;
  for (int line = 1;; ++line) {
    const bool more_want = static_cast<bool>(std::getline(in, want_line));
    const bool more_got = static_cast<bool>(std::getline(got, got_line));
    if (!more_want && !more_got) {
      std::printf("decision trace %s: identical to %s (%d lines)\n",
                  args.layout.c_str(), args.expect.c_str(), line - 1);
      return 0;
    }
    if (more_want != more_got || want_line != got_line) {
      std::printf(
          "decision trace %s differs from %s at line %d:\n  expected: %s\n"
          "  got:      %s\n",
          args.layout.c_str(), args.expect.c_str(), line,
          more_want ? want_line.c_str() : "(end)",
          more_got ? got_line.c_str() : "(end)");
      return 1;
    }
  }
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  ROCKSDB_NAMESPACE::Args args;
  const std::map<std::string, std::function<void(const char*)>> flags = {
      {"--layout", [&](const char* v) { args.layout = v; }},
      {"--seed",
       [&](const char* v) { args.seed = std::strtoull(v, nullptr, 10); }},
      {"--rounds", [&](const char* v) { args.rounds = std::atoi(v); }},
      {"--db", [&](const char* v) { args.db = v; }},
      {"--out", [&](const char* v) { args.out = v; }},
      {"--expect", [&](const char* v) { args.expect = v; }},
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const size_t eq = a.find('=');
    auto flag =
        eq == std::string::npos ? flags.end() : flags.find(a.substr(0, eq));
    if (flag == flags.end()) {
      std::fprintf(stderr,
                   "usage: %s --layout=ranged|single|stock [--seed=N] "
                   "[--rounds=N] [--db=DIR] [--out=FILE] [--expect=FILE]\n",
                   argv[0]);
      return 2;
    }
    flag->second(argv[i] + eq + 1);
  }
  if (args.rounds < 1) {
    std::fprintf(stderr, "--rounds must be at least 1\n");
    return 2;
  }
  return ROCKSDB_NAMESPACE::Run(args);
}
