// Crash-consistency writer and verifier for vLSM mode (driven by
// crash_driver.py, which SIGKILLs the writer and runs the verifier).
//
//   crash_writer write  DB ACK_LOG sync|nosync SEED [KIND:DELAY_US]
//   crash_writer verify DB ACK_LOG
//
// write: opens DB in vLSM mode with S_M = 64 KiB (L1 512 KiB, L2 16 MiB), so
// flushes, L0->L1 and L1->L2 compactions run all the time, and writes atomic
// batches of 1-8 Puts/Deletes on distinct keys forever. Each batch is logged
// to ACK_LOG before DB::Write ("B id n" + one line per op) and acknowledged
// after DB::Write returns OK ("A id"). Each log record is one write(2): once
// write(2) returns, the bytes are in the kernel's page cache, which a SIGKILL
// of this process does not touch, so the log needs no fsync for a process
// crash (an OS crash is not what this test simulates).
// It prints "ready", "begin <job> L0->L1|L1->L2|other" and "end <job>" on
// stdout (also with write(2), so the driver sees them before the kill).
// With KIND:DELAY_US (KIND = L0->L1 or L1->L2) the writer SIGKILLs itself
// DELAY_US after the first compaction of that kind begins: with 64 KiB files
// a compaction lasts milliseconds, shorter than the driver's own reaction
// time, so a kill timed from outside would mostly land between compactions.
//
// What RocksDB promises, and what verify checks, per mode:
//   sync:   WriteOptions::sync = true: Write returns after the WAL is fsynced,
//           so an acknowledged write survives a process crash and an OS crash.
//   nosync: WAL on, sync = false: Write returns once the WAL record has been
//           handed to the OS (write(2), manual_wal_flush = false); it survives
//           a process crash (the page cache holds it) but not necessarily an
//           OS crash or power loss. SIGKILL tests the process-crash promise,
//           which both modes make.
//
// verify: replays ACK_LOG into a model (key -> last acknowledged value or
// deletion), opens DB, and checks: every key equals the model (so nothing
// acknowledged is lost and no older value or deleted key is resurrected);
// the batch in flight at the kill (logged, not acknowledged) is applied
// entirely or not at all; a full scan holds exactly the model's keys;
// VerifyChecksum() passes; compaction_pri is still kVlsm. It then resolves
// the in-flight batch in ACK_LOG ("A id" if applied, "X id" if not), so the
// next round's model is exact. Exit 0 = consistent, 1 = violation.
#include <fcntl.h>
#include <unistd.h>

#include <signal.h>

#include <atomic>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "rocksdb/options.h"
#include "rocksdb/vlsm.h"
#include "rocksdb/write_batch.h"
#include "tests/vlsm/read_order_checker.h"

namespace {

using ROCKSDB_NAMESPACE::DB;
using ROCKSDB_NAMESPACE::Status;

constexpr int kKeys = 4000;

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "crash_writer: %s\n", what.c_str());
  std::exit(1);
}

void WriteAll(int fd, const std::string& s) {
  // One write(2) per record; a short write is only possible if the process is
  // killed during the call, which verify handles (incomplete tail).
  if (::write(fd, s.data(), s.size()) != static_cast<ssize_t>(s.size())) {
    Die("write to fd " + std::to_string(fd) + " failed");
  }
}

std::string Key(int k) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "k%06d", k);
  return buf;
}

// The value of (key, seq) is a function of both, so verify knows exactly
// which write a stored value came from and detects a corrupted one.
std::string Value(int k, uint64_t seq) {
  std::string v = std::to_string(seq) + "|" + Key(k) + "|";
  const size_t len = 100 + (seq * 2654435761u + k) % 500;
  v.append(len, static_cast<char>('a' + seq % 26));
  return v;
}

ROCKSDB_NAMESPACE::Options VlsmOptions() {
  ROCKSDB_NAMESPACE::Options o;
  o.create_if_missing = true;
  o.max_background_jobs = 2;
  o.compression = ROCKSDB_NAMESPACE::kNoCompression;
  const Status s = ROCKSDB_NAMESPACE::ConfigureVlsm(&o, {64 << 10, 8, 32});
  if (!s.ok()) Die("ConfigureVlsm: " + s.ToString());
  return o;
}

// Tells the driver when compactions begin and end; optionally kills this
// process DELAY_US into the first compaction of one kind.
class CompactionAnnouncer : public ROCKSDB_NAMESPACE::EventListener {
 public:
  CompactionAnnouncer(std::string kill_kind, int kill_delay_us)
      : kill_kind_(std::move(kill_kind)), kill_delay_us_(kill_delay_us) {}

  void OnCompactionBegin(DB*,
                         const ROCKSDB_NAMESPACE::CompactionJobInfo& ci) override {
    const std::string kind = ci.base_input_level == 0 && ci.output_level == 1 ? "L0->L1"
                             : ci.base_input_level == 1 && ci.output_level == 2
                                 ? "L1->L2"
                                 : "other";
    WriteAll(1, "begin " + std::to_string(ci.job_id) + " " + kind + "\n");
    if (kind == kill_kind_ && !kill_armed_.exchange(true)) {
      // Not from this thread: the compaction must go on until the signal.
      std::thread([delay = kill_delay_us_] {
        std::this_thread::sleep_for(std::chrono::microseconds(delay));
        ::kill(::getpid(), SIGKILL);
      }).detach();
    }
  }
  void OnCompactionCompleted(
      DB*, const ROCKSDB_NAMESPACE::CompactionJobInfo& ci) override {
    WriteAll(1, "end " + std::to_string(ci.job_id) + "\n");
  }

 private:
  const std::string kill_kind_;
  const int kill_delay_us_;
  std::atomic<bool> kill_armed_{false};
};

struct Op {
  bool put;
  int key;
  uint64_t seq;
};

struct Batch {
  uint64_t id;
  std::vector<Op> ops;
};

// The ack log, parsed: the acknowledged state per key and the one batch that
// may be in flight (logged but neither acknowledged nor resolved).
struct AckLog {
  std::map<int, std::optional<uint64_t>> model;  // key -> seq, nullopt = deleted
  std::optional<Batch> in_flight;
  uint64_t max_seq = 0;
  uint64_t acknowledged = 0;  // batches
  uint64_t complete_bytes = 0;  // the log up to its last complete record
};

void Apply(const Batch& b, AckLog* log) {
  for (const Op& op : b.ops) {
    log->model[op.key] = op.put ? std::optional<uint64_t>(op.seq) : std::nullopt;
  }
}

AckLog ReadAckLog(const std::string& path) {
  AckLog log;
  std::ifstream in(path, std::ios::binary);
  std::string all((std::istreambuf_iterator<char>(in)),
                  std::istreambuf_iterator<char>());
  size_t pos = 0;
  auto next_line = [&](std::string* line) {
    const size_t nl = all.find('\n', pos);
    if (nl == std::string::npos) return false;  // incomplete tail: ignored
    *line = all.substr(pos, nl - pos);
    pos = nl + 1;
    return true;
  };
  std::string line;
  while (true) {
    const size_t record_start = pos;
    if (!next_line(&line)) break;
    std::istringstream ls(line);
    char tag = 0;
    uint64_t id = 0;
    ls >> tag >> id;
    if (tag == 'B') {
      size_t n = 0;
      ls >> n;
      Batch b{id, {}};
      bool complete = true;
      for (size_t i = 0; i < n && complete; ++i) {
        if (!next_line(&line)) {
          complete = false;
          break;
        }
        std::istringstream os(line);
        char t = 0;
        Op op{};
        os >> t >> op.key >> op.seq;
        if ((t != 'P' && t != 'D') || op.key < 0 || op.key >= kKeys) {
          Die("ack log: bad op line '" + line + "'");
        }
        op.put = t == 'P';
        log.max_seq = std::max(log.max_seq, op.seq);
        b.ops.push_back(op);
      }
      if (!complete) {
        // Killed while logging: DB::Write was never called for this batch.
        pos = record_start;
        break;
      }
      if (log.in_flight) Die("ack log: batch " + std::to_string(log.in_flight->id) +
                             " was never resolved before batch " + std::to_string(id));
      log.in_flight = b;
    } else if (tag == 'A' || tag == 'X') {
      if (!log.in_flight || log.in_flight->id != id) {
        Die("ack log: '" + line + "' resolves no open batch");
      }
      if (tag == 'A') {
        Apply(*log.in_flight, &log);
        ++log.acknowledged;
      }
      log.in_flight.reset();
    } else {
      Die("ack log: bad line '" + line + "'");
    }
    log.complete_bytes = pos;
  }
  return log;
}

int Write(const std::string& path, const std::string& log_path, bool sync,
          uint64_t seed, const std::string& kill_spec) {
  std::string kill_kind;
  int kill_delay_us = 0;
  if (!kill_spec.empty()) {
    const size_t colon = kill_spec.rfind(':');
    kill_kind = kill_spec.substr(0, colon);
    kill_delay_us = std::atoi(kill_spec.c_str() + colon + 1);
    if (colon == std::string::npos || (kill_kind != "L0->L1" && kill_kind != "L1->L2")) {
      Die("bad kill spec '" + kill_spec + "': want L0->L1:US or L1->L2:US");
    }
  }
  const AckLog log = ReadAckLog(log_path);
  if (log.in_flight) Die("ack log has an unresolved batch: run verify first");
  ROCKSDB_NAMESPACE::Options options = VlsmOptions();
  options.listeners.push_back(
      std::make_shared<CompactionAnnouncer>(kill_kind, kill_delay_us));
  DB* raw = nullptr;
  Status s = DB::Open(options, path, &raw);
  if (!s.ok()) Die("open: " + s.ToString());
  std::unique_ptr<DB> db(raw);
  const int fd = ::open(log_path.c_str(), O_WRONLY | O_APPEND | O_CREAT, 0644);
  if (fd < 0) Die("cannot open " + log_path);
  WriteAll(1, "ready\n");

  std::mt19937_64 rng(seed);
  ROCKSDB_NAMESPACE::WriteOptions wo;
  wo.sync = sync;
  uint64_t seq = log.max_seq;
  while (true) {
    const int n = 1 + static_cast<int>(rng() % 8);
    std::set<int> keys;
    while (static_cast<int>(keys.size()) < n) keys.insert(rng() % kKeys);
    ROCKSDB_NAMESPACE::WriteBatch batch;
    const uint64_t id = seq + 1;
    std::string record = "B " + std::to_string(id) + " " + std::to_string(n) + "\n";
    for (int k : keys) {
      ++seq;
      const bool put = rng() % 10 != 0;  // 10 % deletes
      if (put) {
        batch.Put(Key(k), Value(k, seq));
      } else {
        batch.Delete(Key(k));
      }
      record += (put ? "P " : "D ") + std::to_string(k) + " " + std::to_string(seq) + "\n";
    }
    WriteAll(fd, record);
    s = db->Write(wo, &batch);
    if (!s.ok()) Die("write: " + s.ToString());
    WriteAll(fd, "A " + std::to_string(id) + "\n");
  }
}

// What DB holds for key k: nullopt if absent, else the seq of its value.
std::optional<uint64_t> Stored(DB* db, int k, std::vector<std::string>* errors) {
  std::string v;
  const Status s = db->Get(ROCKSDB_NAMESPACE::ReadOptions(), Key(k), &v);
  if (s.IsNotFound()) return std::nullopt;
  if (!s.ok()) {
    errors->push_back(Key(k) + ": Get failed: " + s.ToString());
    return std::nullopt;
  }
  const uint64_t seq = std::strtoull(v.c_str(), nullptr, 10);
  if (v != Value(k, seq)) errors->push_back(Key(k) + ": corrupted value");
  return seq;
}

std::string Describe(const std::optional<uint64_t>& v) {
  return v ? "seq " + std::to_string(*v) : std::string("absent");
}

int Verify(const std::string& path, const std::string& log_path) {
  AckLog log = ReadAckLog(log_path);
  // Drop an incomplete tail, so that the resolution appended below starts a
  // line of its own.
  if (::truncate(log_path.c_str(), static_cast<off_t>(log.complete_bytes)) != 0) {
    Die("cannot truncate " + log_path);
  }
  ROCKSDB_NAMESPACE::Options options = VlsmOptions();
  DB* raw = nullptr;
  Status s = DB::Open(options, path, &raw);
  if (!s.ok()) Die("reopen after kill: " + s.ToString());
  std::unique_ptr<DB> db(raw);
  std::vector<std::string> errors;

  // The in-flight batch: all of it applied, or none of it.
  std::string in_flight = "none";
  if (log.in_flight) {
    int applied = 0, not_applied = 0;
    for (const Op& op : log.in_flight->ops) {
      const std::optional<uint64_t> before = log.model.count(op.key) ? log.model[op.key]
                                                                     : std::nullopt;
      const std::optional<uint64_t> after =
          op.put ? std::optional<uint64_t>(op.seq) : std::nullopt;
      const std::optional<uint64_t> got = Stored(db.get(), op.key, &errors);
      if (before == after) continue;  // e.g. deleting an absent key
      if (got == after) {
        ++applied;
      } else if (got == before) {
        ++not_applied;
      } else {
        errors.push_back(Key(op.key) + ": in-flight batch: stored " + Describe(got) +
                         ", expected " + Describe(before) + " or " + Describe(after));
      }
    }
    if (applied > 0 && not_applied > 0) {
      errors.push_back("in-flight batch " + std::to_string(log.in_flight->id) +
                       " is partly applied: " + std::to_string(applied) + " of " +
                       std::to_string(applied + not_applied) + " ops");
    }
    const bool adopt = applied > 0;
    in_flight = adopt ? "applied" : "not applied";
    if (adopt) Apply(*log.in_flight, &log);
    const int fd = ::open(log_path.c_str(), O_WRONLY | O_APPEND);
    if (fd < 0) Die("cannot open " + log_path);
    WriteAll(fd, std::string(adopt ? "A " : "X ") + std::to_string(log.in_flight->id) + "\n");
    ::close(fd);
  }

  // Every key: exactly the model (last acknowledged value, or absent).
  uint64_t live = 0;
  for (int k = 0; k < kKeys; ++k) {
    const std::optional<uint64_t> want = log.model.count(k) ? log.model[k] : std::nullopt;
    const std::optional<uint64_t> got = Stored(db.get(), k, &errors);
    live += want.has_value();
    if (got != want) {
      errors.push_back(Key(k) + ": stored " + Describe(got) + ", acknowledged " +
                       Describe(want) +
                       (got && want && *got < *want ? " (older value resurrected)"
                        : got && !want              ? " (deleted key resurrected)"
                        : !got                      ? " (acknowledged write lost)"
                                                    : ""));
    }
  }
  // A full scan sees the same keys, and nothing else.
  uint64_t scanned = 0;
  std::unique_ptr<ROCKSDB_NAMESPACE::Iterator> it(
      db->NewIterator(ROCKSDB_NAMESPACE::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) ++scanned;
  if (!it->status().ok()) errors.push_back("scan: " + it->status().ToString());
  if (scanned != live) {
    errors.push_back("scan found " + std::to_string(scanned) + " keys, model has " +
                     std::to_string(live));
  }
  s = db->VerifyChecksum();
  if (!s.ok()) errors.push_back("VerifyChecksum: " + s.ToString());
  // The recovered tree keeps the read order (tests/vlsm/read_order_checker.h).
  ROCKSDB_NAMESPACE::ReadOrderChecker read_order;
  read_order.Check(db.get(), ROCKSDB_NAMESPACE::kDefaultColumnFamilyName);
  for (const std::string& v : read_order.violations()) errors.push_back("read order: " + v);
  if (read_order.checks() != 1) errors.push_back("read order: not checked");
  if (db->GetOptions().compaction_pri != ROCKSDB_NAMESPACE::kVlsm) {
    errors.push_back("compaction_pri is no longer kVlsm after reopen");
  }

  for (const std::string& e : errors) std::fprintf(stderr, "VIOLATION: %s\n", e.c_str());
  std::printf("verified: %" PRIu64 " acknowledged batches, %" PRIu64
              " live keys, in-flight batch %s, %zu violations\n",
              log.acknowledged, live, in_flight.c_str(), errors.size());
  return errors.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "write" && (argc == 6 || argc == 7)) {
    const std::string sync = argv[4];
    if (sync != "sync" && sync != "nosync") Die("mode must be sync or nosync");
    return Write(argv[2], argv[3], sync == "sync", std::strtoull(argv[5], nullptr, 10),
                 argc == 7 ? argv[6] : "");
  }
  if (mode == "verify" && argc == 4) return Verify(argv[2], argv[3]);
  std::fprintf(stderr,
               "usage: %s write DB ACK_LOG sync|nosync SEED [L0->L1|L1->L2:DELAY_US]\n"
               "       %s verify DB ACK_LOG\n",
               argv[0], argv[0]);
  return 2;
}
