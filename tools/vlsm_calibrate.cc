// vlsm_calibrate: is a DB's estimate of pending compaction bytes calibrated?
//
// The estimate (rocksdb.estimate-pending-compaction-bytes) is what the
// pending-compaction limits compare and a write delay adjusts on. RocksDB
// documents it as the bytes compaction must rewrite to bring every level
// under its target. This tool measures that promise: it writes `phases`
// phases of `phase_keys` keys (in one of the key orders below), and after
// each one
//   1. flushes and waits for the flush only (a settle's own flush could
//      bring a range to its trigger and make R owe work E never saw);
//   2. reads E, the estimate;
//   3. waits for every compaction (WaitForCompact) with the drain at rest
//      held off, and takes R, the input bytes of the compactions that
//      completed after E was read (a step running when E was read counts
//      whole, as E counts its files); then lets the drain run and waits
//      again: under the ranged layout it compacts L0 below its trigger,
//      which E owes nothing by design, and its output can make L1 -> L2
//      due; all that second wait read is reported apart
//      (settle_drain_read_bytes). (With the drain running during R, those
//      L1 -> L2 steps counted in R: 150-300 MiB over E in ycsb's pairs.);
// and reports E, R, and L0's peak bytes and depth during the phase (sampled
// every 20 ms) and L0's bytes after the settle; and, for the writes, the
// estimate's peak and how long writes were delayed or stopped (samples of
// rocksdb.actual-delayed-write-rate and rocksdb.is-write-stopped), so that
// a flat-out load shows what the limits cost it. Trivial moves read nothing,
// so with sequential keys R is about 0 whatever E owes.
//
// Key orders, over a key space of phases x phase_keys:
//   uniform     every key equally likely;
//   sequential  ascending: each flush lands beside the last;
//   zipfian     YCSB's scrambled Zipfian (theta 0.99): updates of hot keys
//               scattered over the space, so one flush deepens every range
//               at once (issue 52's "every range due on one flush");
//   hotset      a hot set of 20% of the space takes 80% of the writes,
//               uniform within each part (YCSB's hotspot chooser);
//   streams     eight ascending append streams, interleaved, each in its
//               own eighth of the space: every flush is eight stripes.
//
//   vlsm_calibrate --db=DIR --options="a=b;c=d" [--vlsm=S_M,f,Phi[,ranged]]
//                  [--keys=uniform|sequential|zipfian|hotset|streams]
//                  [--phases=5] [--phase_keys=2000000] [--value_bytes=200]
//                  [--seed=1]
//
// --vlsm applies ConfigureVlsm first (as the benchmark tools do for a vLSM
// system: scripts/bench/systems.py), then --options on top. Prints one JSON
// object per pause, then one with the whole run's figures; judging them is
// scripts/bench/calibrate.py's.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "rocksdb/metadata.h"
#include "rocksdb/options.h"
#include "rocksdb/vlsm.h"
#include "tools/vlsm_tool_options.h"
#include "ycsb/key_generators.h"

namespace {

using namespace ROCKSDB_NAMESPACE;

// Sums the input bytes of every compaction that completes: those the
// estimate owes (R), and apart the drain at rest's steps, which compact L0
// below its trigger, where the estimate owes nothing by design.
class CompactionInputMeter : public EventListener {
 public:
  void OnCompactionCompleted(DB*, const CompactionJobInfo& ci) override {
    if (!ci.status.ok()) {
      return;
    }
    if (ci.compaction_reason == CompactionReason::kVlsmDrainAtRest) {
      drain_bytes_ += ci.stats.total_input_bytes;
    } else {
      bytes_ += ci.stats.total_input_bytes;
    }
  }
  uint64_t bytes() const { return bytes_.load(); }
  uint64_t drain_bytes() const { return drain_bytes_.load(); }

 private:
  std::atomic<uint64_t> bytes_{0};
  std::atomic<uint64_t> drain_bytes_{0};
};

// Samples every 20 ms what a phase's writes meet: L0's bytes and depth, the
// estimate (its peak: what the soft and hard limits compared), and whether
// writes were delayed or stopped (the samples' count, in seconds).
// Take() returns the figures since the last call.
class PhaseSampler {
 public:
  struct Figures {
    uint64_t l0_peak_bytes = 0, l0_peak_depth = 0, estimate_peak_bytes = 0;
    double delayed_seconds = 0, stopped_seconds = 0;
  };
  explicit PhaseSampler(DB* db) : db_(db), thread_([this] { Run(); }) {}
  ~PhaseSampler() {
    stop_ = true;
    thread_.join();
  }
  Figures Take() {
    Figures f;
    f.l0_peak_bytes = peak_bytes_.exchange(0);
    f.l0_peak_depth = peak_depth_.exchange(0);
    f.estimate_peak_bytes = peak_estimate_.exchange(0);
    f.delayed_seconds = delayed_.exchange(0) * kPeriod.count() / 1000.0;
    f.stopped_seconds = stopped_.exchange(0) * kPeriod.count() / 1000.0;
    return f;
  }

 private:
  static constexpr std::chrono::milliseconds kPeriod{20};
  void Run() {
    while (!stop_) {
      uint64_t bytes = 0, depth = 0, estimate = 0, stopped = 0, delayed = 0;
      db_->GetIntProperty(VlsmProperties::kL0Bytes, &bytes);
      db_->GetIntProperty(VlsmProperties::kL0Depth, &depth);
      db_->GetIntProperty(DB::Properties::kEstimatePendingCompactionBytes,
                          &estimate);
      db_->GetIntProperty(DB::Properties::kIsWriteStopped, &stopped);
      db_->GetIntProperty(DB::Properties::kActualDelayedWriteRate, &delayed);
      Raise(&peak_bytes_, bytes);
      Raise(&peak_depth_, depth);
      Raise(&peak_estimate_, estimate);
      if (stopped != 0) {
        stopped_.fetch_add(1);
      } else if (delayed != 0) {
        delayed_.fetch_add(1);
      }
      std::this_thread::sleep_for(kPeriod);
    }
  }
  static void Raise(std::atomic<uint64_t>* peak, uint64_t v) {
    uint64_t seen = peak->load();
    while (v > seen && !peak->compare_exchange_weak(seen, v)) {
    }
  }
  DB* db_;
  std::atomic<bool> stop_{false};
  std::atomic<uint64_t> peak_bytes_{0};
  std::atomic<uint64_t> peak_depth_{0};
  std::atomic<uint64_t> peak_estimate_{0};
  std::atomic<uint64_t> delayed_{0};
  std::atomic<uint64_t> stopped_{0};
  std::thread thread_;
};

// Each level's bytes, in MiB, comma-separated.
std::string LevelsMiB(DB* db) {
  std::string levels;
  ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(&meta);
  for (const LevelMetaData& level : meta.levels) {
    levels += (levels.empty() ? "" : ", ") + std::to_string(level.size >> 20);
  }
  return levels;
}

// The key numbers of one key order (see the header), in [0, key_space).
class KeyOrder {
 public:
  static constexpr uint64_t kStreams = 8;
  // uniform draws from `shared` (the generator the values' bytes come from
  // too), as the tool did before the other orders, so that its runs repeat
  // the committed ones; the others from their own generator, seeded `seed`.
  KeyOrder(const std::string& name, uint64_t key_space, uint64_t seed,
           std::mt19937_64* shared)
      : name_(name), key_space_(key_space), rng_(seed), shared_(shared) {
    if (name == "zipfian") {
      chooser_ = std::make_unique<ycsb::ScrambledZipfianChooser>(key_space);
    } else if (name == "hotset") {
      chooser_ = std::make_unique<ycsb::HotspotChooser>(0, key_space, 0.2, 0.8);
    }
  }
  uint64_t Next() {
    if (chooser_ != nullptr) {
      return chooser_->Next(&rng_);
    }
    if (name_ == "uniform") {
      return (*shared_)() % key_space_;
    }
    if (name_ == "streams") {
      const uint64_t stream = written_ % kStreams;
      const uint64_t k =
          stream * (key_space_ / kStreams) + written_ / kStreams;
      ++written_;
      return k;
    }
    return written_++;  // sequential
  }

 private:
  std::string name_;
  uint64_t key_space_;
  ycsb::Random64 rng_;
  std::mt19937_64* shared_;
  std::unique_ptr<ycsb::KeyChooser> chooser_;
  uint64_t written_ = 0;
};

int Fail(const std::string& what) {
  std::fprintf(stderr, "vlsm_calibrate: %s\n", what.c_str());
  return 2;
}


int Main(int argc, char** argv) {
  std::string db_path, options_string, vlsm_spec, keys = "uniform";
  uint64_t phases = 5, phase_keys = 2000000, value_bytes = 200, seed = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string key = arg.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    bool ok = true;
    if (key == "--db") db_path = value;
    else if (key == "--options") options_string = value;
    else if (key == "--vlsm") vlsm_spec = value;
    else if (key == "--keys") keys = value;
    else if (key == "--phases") phases = VlsmToolSize(value, &ok);
    else if (key == "--phase_keys") phase_keys = VlsmToolSize(value, &ok);
    else if (key == "--value_bytes") value_bytes = VlsmToolSize(value, &ok);
    else if (key == "--seed") seed = VlsmToolSize(value, &ok);
    else return Fail("unknown argument " + arg + " (see the header of "
                     "tools/vlsm_calibrate.cc)");
    if (!ok) return Fail("not a count: " + arg);
  }
  if (db_path.empty()) return Fail("--db=DIR is required");
  if (keys != "uniform" && keys != "sequential" && keys != "zipfian" &&
      keys != "hotset" && keys != "streams") {
    return Fail("--keys must be uniform, sequential, zipfian, hotset or "
                "streams, not " + keys);
  }
  if (phases == 0 || phase_keys == 0) return Fail("--phases and --phase_keys must be >= 1");

  Options options;
  const std::string bad = VlsmToolOptions(vlsm_spec, options_string, &options);
  if (!bad.empty()) return Fail(bad);
  options.create_if_missing = true;
  auto meter = std::make_shared<CompactionInputMeter>();
  options.listeners.push_back(meter);
  Status s = DestroyDB(db_path, options);
  if (!s.ok()) return Fail("DestroyDB " + db_path + ": " + s.ToString());
  DB* raw = nullptr;
  s = DB::Open(options, db_path, &raw);
  if (!s.ok()) return Fail("DB::Open " + db_path + ": " + s.ToString());
  std::unique_ptr<DB> db(raw);

  std::mt19937_64 rng(seed);
  const uint64_t key_space = phases * phase_keys;
  std::string value(value_bytes, 'v');
  for (char& c : value) c = static_cast<char>('a' + rng() % 26);
  WriteOptions wo;
  wo.disableWAL = true;
  KeyOrder order(keys, key_space, seed, &rng);
  std::vector<double> ratios;
  int64_t worst_shortfall = INT64_MIN;
  uint64_t peak_bytes = 0, peak_depth = 0, settled_max = 0;
  uint64_t estimate_peak = 0;
  double write_seconds = 0, delayed_seconds = 0, stopped_seconds = 0;
  PhaseSampler sampler(db.get());
  for (uint64_t phase = 1; phase <= phases; ++phase) {
    const auto t0 = std::chrono::steady_clock::now();
    for (uint64_t n = 0; n < phase_keys; ++n) {
      const uint64_t k = order.Next();
      char buf[32];
      std::snprintf(buf, sizeof(buf), "user%016" PRIx64, k);
      // A value that differs per write, so nothing compresses away.
      value[n % value.size()] = static_cast<char>('a' + rng() % 26);
      s = db->Put(wo, buf, value);
      if (!s.ok()) return Fail("Put: " + s.ToString());
    }
    s = db->SetOptions({{VlsmDrainOptions::kEnabled, "false"}});
    if (!s.ok()) return Fail("holding the drain at rest off: " + s.ToString());
    FlushOptions fo;
    fo.allow_write_stall = true;  // the flush only: no waiting for compactions
    s = db->Flush(fo);
    if (!s.ok()) return Fail("Flush: " + s.ToString());
    uint64_t e = 0;
    db->GetIntProperty(DB::Properties::kEstimatePendingCompactionBytes, &e);
    const uint64_t read_before = meter->bytes();
    // The tree E was read on, level by level (MiB), to tell its terms apart.
    const std::string levels = LevelsMiB(db.get());
    const auto t1 = std::chrono::steady_clock::now();
    // The writes' figures, before the settle's.
    const PhaseSampler::Figures writing = sampler.Take();
    s = db->WaitForCompact(WaitForCompactOptions());
    if (!s.ok()) return Fail("WaitForCompact: " + s.ToString());
    const uint64_t r = meter->bytes() - read_before;
    const uint64_t before_drain = meter->bytes() + meter->drain_bytes();
    s = db->SetOptions({{VlsmDrainOptions::kEnabled, "true"}});
    if (!s.ok()) return Fail("letting the drain at rest run: " + s.ToString());
    s = db->WaitForCompact(WaitForCompactOptions());
    if (!s.ok()) return Fail("WaitForCompact (the drain): " + s.ToString());
    // Every step of this wait: the drain's and those its output made due.
    const uint64_t drained = meter->bytes() + meter->drain_bytes() - before_drain;
    const std::string levels_settled = LevelsMiB(db.get());
    uint64_t settled = 0;
    db->GetIntProperty(VlsmProperties::kL0Bytes, &settled);
    const PhaseSampler::Figures settling = sampler.Take();
    peak_bytes = std::max({peak_bytes, writing.l0_peak_bytes,
                           settling.l0_peak_bytes});
    const uint64_t phase_peak_bytes =
        std::max(writing.l0_peak_bytes, settling.l0_peak_bytes);
    const uint64_t phase_peak_depth =
        std::max(writing.l0_peak_depth, settling.l0_peak_depth);
    peak_depth = std::max(peak_depth, phase_peak_depth);
    estimate_peak = std::max(estimate_peak, writing.estimate_peak_bytes);
    write_seconds += std::chrono::duration<double>(t1 - t0).count();
    delayed_seconds += writing.delayed_seconds;
    stopped_seconds += writing.stopped_seconds;
    settled_max = std::max(settled_max, settled);
    worst_shortfall = std::max(worst_shortfall, static_cast<int64_t>(r) -
                                                    static_cast<int64_t>(e));
    if (r >= (32ull << 20)) ratios.push_back(static_cast<double>(e) / r);
    const auto t2 = std::chrono::steady_clock::now();
    std::printf(
        "{\"phase\": %" PRIu64 ", \"estimate_bytes\": %" PRIu64
        ", \"settle_read_bytes\": %" PRIu64
        ", \"settle_drain_read_bytes\": %" PRIu64 ", \"l0_peak_bytes\": %" PRIu64
        ", \"l0_peak_depth\": %" PRIu64 ", \"l0_settled_bytes\": %" PRIu64
        ", \"levels_mib_at_estimate\": [%s], \"levels_mib_settled\": [%s]"
        ", \"estimate_peak_bytes\": %" PRIu64
        ", \"write_delayed_seconds\": %.2f, \"write_stopped_seconds\": %.2f"
        ", \"write_seconds\": %.1f, \"settle_seconds\": %.1f}\n",
        phase, e, r, drained, phase_peak_bytes, phase_peak_depth, settled,
        levels.c_str(),
        levels_settled.c_str(), writing.estimate_peak_bytes,
        writing.delayed_seconds, writing.stopped_seconds,
        std::chrono::duration<double>(t1 - t0).count(),
        std::chrono::duration<double>(t2 - t1).count());
    std::fflush(stdout);
  }
  std::sort(ratios.begin(), ratios.end());
  std::printf(
      "{\"summary\": true, \"keys\": \"%s\", \"pairs\": %" PRIu64
      ", \"pairs_r_at_least_32mib\": %zu, \"median_e_over_r\": %s"
      ", \"worst_r_minus_e\": %" PRId64 ", \"l0_peak_bytes\": %" PRIu64
      ", \"l0_peak_depth\": %" PRIu64 ", \"l0_settled_bytes_max\": %" PRIu64
      ", \"estimate_peak_bytes\": %" PRIu64 ", \"write_seconds\": %.1f"
      ", \"write_delayed_seconds\": %.2f, \"write_stopped_seconds\": %.2f"
      "}\n",
      keys.c_str(), phases, ratios.size(),
      ratios.empty()
          ? "null"
          : std::to_string((ratios[(ratios.size() - 1) / 2] +
                            ratios[ratios.size() / 2]) / 2).c_str(),
      worst_shortfall, peak_bytes, peak_depth, settled_max, estimate_peak,
      write_seconds, delayed_seconds, stopped_seconds);
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Main(argc, argv); }
