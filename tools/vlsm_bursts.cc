// vlsm_bursts: the drain at rest's price. Writes in bursts with idle pauses
// between (write / pause / write), so that the drain runs in the pauses
// when it is on, and reports per burst the write latency (open loop: from
// each write's scheduled time, so waiting behind a slow write counts) and
// per pause what the drain did; then the whole run's bytes moved per byte
// written. Run it twice, --drain_at_rest=1 and =0, and compare; with
// --pause_read_rate=R the pauses also read (R Gets a second of keys already
// written, one thread), so the drain's read-paid steps (db/compaction/
// vlsm_read_paid_l0.h) can buy L0 files in them, and the run says what that
// costs: the drain's bytes and the next burst's write tail.
//
//   vlsm_bursts --db=DIR --options="a=b;c=d" [--vlsm=S_M,f,Phi[,ranged]]
//               [--drain_at_rest=1] [--preload_keys=4000000]
//               [--bursts=4] [--burst_seconds=20] [--pause_seconds=45]
//               [--rate=50000] [--value_bytes=200] [--key_space=12000000]
//               [--seed=1] [--pause_read_rate=0]
//
// --vlsm applies ConfigureVlsm first, then --options on top (as
// vlsm_calibrate; scripts/bench/bursts.py renders both from
// scripts/bench/systems.py). The preload writes --preload_keys as fast as
// it can and waits for compactions with the drain off, so every run starts
// from a settled tree of that size; the drain option then takes effect. A
// burst writes uniform random keys at --rate for --burst_seconds (one
// thread, WAL on, no sync); a pause is --pause_seconds idle, or reading at
// --pause_read_rate (uniform over the keys written so far, paced from each
// read's scheduled time; the drain's rest counts flushes, not reads, so
// reads do not delay it). Prints one JSON object per burst (the pause before
// it: drain steps and bytes, the reads done and their P99, L0's depth when
// the burst starts) and one summary.
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
#include "rocksdb/options.h"
#include "rocksdb/statistics.h"
#include "rocksdb/vlsm.h"
#include "tools/vlsm_tool_options.h"

namespace {

using namespace ROCKSDB_NAMESPACE;
using Clock = std::chrono::steady_clock;

// Compaction bytes, the drain's apart.
class CompactionMeter : public EventListener {
 public:
  void OnCompactionCompleted(DB*, const CompactionJobInfo& ci) override {
    if (!ci.status.ok()) {
      return;
    }
    const uint64_t moved =
        ci.stats.total_input_bytes + ci.stats.total_output_bytes;
    if (ci.compaction_reason == CompactionReason::kVlsmDrainAtRest) {
      ++drain_steps_;
      drain_bytes_ += moved;
    }
  }
  uint64_t drain_steps() const { return drain_steps_.load(); }
  uint64_t drain_bytes() const { return drain_bytes_.load(); }

 private:
  std::atomic<uint64_t> drain_steps_{0};
  std::atomic<uint64_t> drain_bytes_{0};
};

int Fail(const std::string& what) {
  std::fprintf(stderr, "vlsm_bursts: %s\n", what.c_str());
  return 2;
}

bool ParseCount(const std::string& s, uint64_t* v) {
  char* end = nullptr;
  *v = std::strtoull(s.c_str(), &end, 10);
  return !s.empty() && s[0] != '-' && end != s.c_str() && *end == '\0';
}

uint64_t Percentile(std::vector<uint64_t>* v, double p) {
  if (v->empty()) return 0;
  const size_t k = std::min(v->size() - 1, static_cast<size_t>(p * v->size()));
  std::nth_element(v->begin(), v->begin() + k, v->end());
  return (*v)[k];
}

uint64_t IntProperty(DB* db, const std::string& name) {
  uint64_t v = 0;
  db->GetIntProperty(name, &v);
  return v;
}

// Runs op() `count` times at `rate` a second from now, open loop: each op's
// latency (us, into *lat) counts from when it was due, so waiting behind a
// slow op counts. Stops early at `deadline` (a pause ends on time even when
// its reads fell behind) or at the first op that fails, returning its status.
template <typename Op>
Status Paced(uint64_t rate, uint64_t count, Clock::time_point deadline,
             std::vector<uint64_t>* lat, Op op) {
  const auto start = Clock::now();
  const auto gap = std::chrono::nanoseconds(1000000000ull / rate);
  for (uint64_t i = 0; i < count; ++i) {
    const auto due = start + gap * i;
    if (due >= deadline || Clock::now() >= deadline) break;
    std::this_thread::sleep_until(due);
    const Status s = op();
    if (!s.ok()) return s;
    lat->push_back(std::chrono::duration_cast<std::chrono::microseconds>(
                       Clock::now() - due)
                       .count());
  }
  return Status::OK();
}

int Main(int argc, char** argv) {
  std::string db_path, options_string, vlsm_spec;
  uint64_t drain = 1, preload = 4000000, bursts = 4, burst_s = 20, pause_s = 45,
           rate = 50000, value_bytes = 200, key_space = 12000000, seed = 1,
           read_rate = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string key = arg.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    bool ok = true;
    if (key == "--db")
      db_path = value;
    else if (key == "--options")
      options_string = value;
    else if (key == "--vlsm")
      vlsm_spec = value;
    else if (key == "--drain_at_rest")
      ok = ParseCount(value, &drain) && drain <= 1;
    else if (key == "--preload_keys")
      ok = ParseCount(value, &preload);
    else if (key == "--bursts")
      ok = ParseCount(value, &bursts) && bursts > 0;
    else if (key == "--burst_seconds")
      ok = ParseCount(value, &burst_s) && burst_s > 0;
    else if (key == "--pause_seconds")
      ok = ParseCount(value, &pause_s);
    else if (key == "--rate")
      ok = ParseCount(value, &rate) && rate > 0;
    else if (key == "--value_bytes")
      ok = ParseCount(value, &value_bytes) && value_bytes > 0;
    else if (key == "--key_space")
      ok = ParseCount(value, &key_space) && key_space > 0;
    else if (key == "--seed")
      ok = ParseCount(value, &seed);
    else if (key == "--pause_read_rate")
      ok = ParseCount(value, &read_rate);
    else
      return Fail("unknown argument " + arg + " (see tools/vlsm_bursts.cc)");
    if (!ok) return Fail("bad value: " + arg);
  }
  if (db_path.empty()) return Fail("--db=DIR is required");

  Options options;
  const std::string bad = VlsmToolOptions(vlsm_spec, options_string, &options);
  if (!bad.empty()) return Fail(bad);
  options.create_if_missing = true;
  options.statistics = CreateDBStatistics();
  auto meter = std::make_shared<CompactionMeter>();
  options.listeners.push_back(meter);
  Status s = DestroyDB(db_path, options);
  if (!s.ok()) return Fail("DestroyDB: " + s.ToString());
  DB* raw = nullptr;
  s = DB::Open(options, db_path, &raw);
  if (!s.ok()) return Fail("DB::Open: " + s.ToString());
  std::unique_ptr<DB> db(raw);

  std::mt19937_64 rng(seed);
  std::mt19937_64 read_rng(seed + 1);
  std::string value(value_bytes, 'v');
  // The key ids written, for the pauses' reads (kept only when they read).
  std::vector<uint64_t> written;
  auto key_of = [](uint64_t id, char (*key)[32]) {
    std::snprintf(*key, sizeof(*key), "user%016" PRIx64, id);
  };
  auto put = [&]() {
    char key[32];
    const uint64_t id = rng() % key_space;
    key_of(id, &key);
    if (read_rate > 0) written.push_back(id);
    value[rng() % value.size()] = static_cast<char>('a' + rng() % 26);
    return db->Put(WriteOptions(), key, value);
  };
  // A pause: idle, or reading at read_rate until it ends. Returns false with
  // *s set if a read failed (a key written and not found is a lost write).
  uint64_t pause_reads = 0, pause_read_p99 = 0;
  auto pause = [&](Status* st) {
    pause_reads = pause_read_p99 = 0;
    const auto start = Clock::now();
    const auto end = start + std::chrono::seconds(pause_s);
    if (read_rate == 0 || written.empty()) {
      std::this_thread::sleep_until(end);
      return true;
    }
    std::vector<uint64_t> lat;
    std::string got;
    *st = Paced(read_rate, pause_s * read_rate, end, &lat, [&] {
      char key[32];
      key_of(written[read_rng() % written.size()], &key);
      return db->Get(ReadOptions(), key, &got);
    });
    if (!st->ok()) return false;
    std::this_thread::sleep_until(end);
    pause_reads = lat.size();
    pause_read_p99 = Percentile(&lat, 0.99);
    return true;
  };
  s = db->SetOptions({{VlsmDrainOptions::kEnabled, "false"}});
  if (!s.ok()) return Fail("drain off for the preload: " + s.ToString());
  for (uint64_t i = 0; i < preload; ++i) {
    s = put();
    if (!s.ok()) return Fail("Put: " + s.ToString());
  }
  s = db->WaitForCompact(WaitForCompactOptions());
  if (!s.ok()) return Fail("WaitForCompact: " + s.ToString());
  s = db->SetOptions({{VlsmDrainOptions::kEnabled, drain ? "true" : "false"}});
  if (!s.ok()) return Fail("--drain_at_rest: " + s.ToString());
  Statistics* stats = options.statistics.get();
  const uint64_t user0 = stats->getTickerCount(BYTES_WRITTEN);
  const uint64_t flush0 = stats->getTickerCount(FLUSH_WRITE_BYTES);
  const uint64_t read0 = stats->getTickerCount(COMPACT_READ_BYTES);
  const uint64_t write0 = stats->getTickerCount(COMPACT_WRITE_BYTES);
  const uint64_t drain_bytes0 = meter->drain_bytes();
  const uint64_t drain_steps0 = meter->drain_steps();

  std::vector<uint64_t> all_latencies;
  for (uint64_t b = 0; b < bursts; ++b) {
    const uint64_t steps_before = meter->drain_steps();
    const uint64_t bytes_before = meter->drain_bytes();
    if (!pause(&s)) return Fail("Get in a pause: " + s.ToString());
    const uint64_t depth = IntProperty(db.get(), VlsmProperties::kL0Depth);
    const uint64_t sublevels =
        IntProperty(db.get(), VlsmProperties::kL0Sublevels);
    const uint64_t pause_steps = meter->drain_steps() - steps_before;
    const uint64_t pause_bytes = meter->drain_bytes() - bytes_before;
    const uint64_t n = burst_s * rate;
    std::vector<uint64_t> lat;
    lat.reserve(n);
    const auto start = Clock::now();
    s = Paced(rate, n, Clock::time_point::max(), &lat, put);
    if (!s.ok()) return Fail("Put: " + s.ToString());
    const double seconds =
        std::chrono::duration<double>(Clock::now() - start).count();
    all_latencies.insert(all_latencies.end(), lat.begin(), lat.end());
    std::printf(
        "{\"burst\": %" PRIu64 ", \"pause_drain_steps\": %" PRIu64
        ", \"pause_drain_bytes\": %" PRIu64 ", \"pause_reads\": %" PRIu64
        ", \"pause_read_p99_us\": %" PRIu64 ", \"l0_depth_at_start\": %" PRIu64
        ", \"l0_sublevels_at_start\": %" PRIu64 ", \"writes\": %" PRIu64
        ", \"seconds\": %.2f, \"p50_us\": %" PRIu64 ", \"p99_us\": %" PRIu64
        ", \"p999_us\": %" PRIu64 ", \"max_us\": %" PRIu64 "}\n",
        b + 1, pause_steps, pause_bytes, pause_reads, pause_read_p99, depth,
        sublevels, n, seconds,
        Percentile(&lat, 0.5), Percentile(&lat, 0.99), Percentile(&lat, 0.999),
        *std::max_element(lat.begin(), lat.end()));
    std::fflush(stdout);
  }
  // Settle as a load's cost is counted: with its debt paid (the drain, when
  // on, runs here too).
  s = db->WaitForCompact(WaitForCompactOptions());
  if (!s.ok()) return Fail("WaitForCompact: " + s.ToString());
  const uint64_t user = stats->getTickerCount(BYTES_WRITTEN) - user0;
  const uint64_t moved = stats->getTickerCount(FLUSH_WRITE_BYTES) - flush0 +
                         stats->getTickerCount(COMPACT_READ_BYTES) - read0 +
                         stats->getTickerCount(COMPACT_WRITE_BYTES) - write0;
  std::printf(
      "{\"summary\": true, \"drain_at_rest\": %d, \"pause_read_rate\": %" PRIu64
      ", \"user_bytes\": %" PRIu64
      ", \"moved_bytes\": %" PRIu64
      ", \"moved_per_user_byte\": %.3f"
      ", \"drain_steps\": %" PRIu64 ", \"drain_bytes\": %" PRIu64
      ", \"p99_us\": %" PRIu64 ", \"p999_us\": %" PRIu64 "}\n",
      static_cast<int>(drain), read_rate, user, moved,
      user ? static_cast<double>(moved) / static_cast<double>(user) : 0.0,
      meter->drain_steps() - drain_steps0, meter->drain_bytes() - drain_bytes0,
      Percentile(&all_latencies, 0.99), Percentile(&all_latencies, 0.999));
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return Main(argc, argv); }
