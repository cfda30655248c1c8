// ycsb_vlsm: an open-loop YCSB client for RocksDB (and vLSM). See
// ycsb/README.md.
//
//   ycsb_vlsm load|run [-P workloadfile]... [-p name=value]...
//             [-db null|rocksdb] [-threads N] [-target OPS] [-s]
//
// Exit status: 0 done, 1 the store failed, 2 bad arguments or properties
// (reported in one line before any DB is opened).
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core_workload.h"
#include "hdr_log.h"
#include "null_binding.h"
#include "open_loop_driver.h"
#include "report.h"
#include "rocksdb_binding.h"
#include "sustainable_rate_search.h"
#include "utilities/lsm_metrics/json_writer.h"
#include "workload_properties.h"

namespace ycsb {
namespace {

// Ctrl-C / SIGTERM: stop offering load, let issued requests finish, and
// still write the report. A second signal kills as usual.
std::atomic<bool> g_stop{false};
void OnStopSignal(int sig) {
  g_stop.store(true);
  signal(sig, SIG_DFL);
}

void Usage(FILE* f) {
  fprintf(f,
          "usage: ycsb_vlsm load|run|verify [-P workloadfile]... [-p name=value]...\n"
          "                 [-db null|rocksdb] [-threads N] [-target OPS] [-s]\n"
          "  -P reads a property file (later files win); -p, -db, -threads\n"
          "  and -target override every file\n"
          "  target unset = closed loop; mode=find-sustainable searches for\n"
          "  the highest sustained rate; mode=describe prints what the search\n"
          "  would derive (debt cycle, bytes per op) as JSON and opens no DB.\n"
          "  verify reads every loaded record\n"
          "  (key numbers [insertstart, insertstart + recordcount)) and\n"
          "  exits 1 if one is missing. Properties: ycsb/README.md\n");
}

// Everything decided from the command line, checked before any DB opens.
struct Invocation {
  Phase phase = Phase::kRun;
  bool verify = false;  // the verify phase: read every loaded record
  Properties props;
  WorkloadSpec spec;
  DriverConfig driver;
  std::string mode;  // "normal" or "find-sustainable"
  std::string db;
  std::string report_path;
  RocksDbConfig rocksdb;
  uint64_t null_busy_ns = 0;
  SustainableSearchConfig search;
  // Seconds of the same schedule against the null store before the run:
  // the harness's own latency floor, reported beside the store's.
  double floor_s = 0;
  bool hdr_output = false;
  std::string hdr_prefix;  // YCSB's hdrhistogram.output.path
};

// Mean bytes the workload writes per operation (key and record, for the
// write shares of the mix): the scale find-sustainable judges compaction
// debt against.
// Key and record bytes of one record (the keys of a run share a length).
uint64_t RecordBytes(const Invocation& inv, const CoreWorkload& w) {
  return w.KeyOf(inv.spec.insert_start).size() + inv.spec.value_size();
}

double WriteBytesPerOp(const Invocation& inv, const CoreWorkload& w) {
  const double record = double(RecordBytes(inv, w));
  if (inv.phase == Phase::kLoad) return record;
  double writes = 0;
  for (int t = 0; t < kOpTypes; t++) {
    if (IsWrite(static_cast<OpType>(t))) writes += inv.spec.proportion[t];
  }
  return writes * record;
}

Invocation Parse(int argc, char** argv) {
  Invocation inv;
  if (argc < 2) throw PropertyError("missing phase: load, run or verify");
  std::string phase = argv[1];
  if (phase == "load") {
    inv.phase = Phase::kLoad;
  } else if (phase == "run" || phase == "t") {
    inv.phase = Phase::kRun;
  } else if (phase == "verify") {
    inv.verify = true;
  } else {
    throw PropertyError("unknown phase '" + phase + "' (load, run or verify)");
  }
  Properties& p = inv.props;
  // As in YCSB, -p wins over every -P file, whatever the order.
  std::vector<std::string> overrides;
  for (int i = 2; i < argc; i++) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw PropertyError(a + " needs a value");
      return argv[++i];
    };
    if (a == "-P") {
      p.LoadFile(value());
    } else if (a == "-p") {
      overrides.push_back(value());
    } else if (a == "-db") {
      overrides.push_back("db=" + value());
    } else if (a == "-threads") {
      overrides.push_back("threads=" + value());
    } else if (a == "-target") {
      overrides.push_back("target=" + value());
    } else if (a == "-s") {
      // YCSB's status flag: progress lines are always on here.
    } else {
      throw PropertyError("unknown argument '" + a + "'");
    }
  }
  for (const std::string& o : overrides) p.SetFromArgument(o);
  p.CheckAllKnown();
  inv.spec = WorkloadSpec::FromProperties(p);

  DriverConfig& d = inv.driver;
  d.phase = inv.phase;
  d.threads = static_cast<int>(p.GetCount("threads", 1));
  if (d.threads < 1 || d.threads > 4096) {
    throw PropertyError("property threads must be in [1, 4096]");
  }
  d.target_ops_per_s = p.GetDouble("target", 0);
  if (d.target_ops_per_s < 0) throw PropertyError("property target must be >= 0");
  std::string arrival = p.GetString("arrival", "constant");
  if (arrival != "constant" && arrival != "poisson") {
    throw PropertyError("unknown arrival '" + arrival + "' (constant or poisson)");
  }
  d.poisson = arrival == "poisson";
  d.max_execution_s = p.GetDouble("maxexecutiontime", 0);
  if (d.max_execution_s < 0) {
    throw PropertyError("property maxexecutiontime must be >= 0");
  }
  d.status_interval_s = p.GetDouble("status.interval", 1.0);
  if (d.status_interval_s < 0.05) {
    throw PropertyError("property status.interval must be >= 0.05 s");
  }
  d.wake_us = p.GetCount("generator.wake_us", 100);
  if (p.Has("generator.batch")) {
    throw PropertyError("property generator.batch was removed: workers take "
                        "one request at a time (ycsb/README.md)");
  }
  inv.floor_s = p.GetDouble("floor.seconds", 0);
  if (inv.floor_s < 0) throw PropertyError("property floor.seconds must be >= 0");
  inv.hdr_output = p.GetBool("hdrhistogram.fileoutput", false);
  inv.hdr_prefix = p.GetString("hdrhistogram.output.path", "");
  d.seed = p.GetCount("seed", 1);
  if (inv.phase == Phase::kLoad) {
    d.operation_count = p.Has("insertcount") ? p.GetCount("insertcount", 0)
                                             : inv.spec.record_count;
  } else {
    d.operation_count = inv.spec.operation_count;
  }
  inv.mode = p.GetString("mode", "normal");
  if (inv.mode != "normal" && inv.mode != "find-sustainable" &&
      inv.mode != "describe") {
    throw PropertyError("unknown mode '" + inv.mode +
                        "' (normal, find-sustainable or describe)");
  }
  // YCSB: operationcount 0 means "until maxexecutiontime". The search
  // sizes its own steps.
  if (d.operation_count == 0 && d.max_execution_s == 0 &&
      inv.mode == "normal") {
    throw PropertyError("operationcount is 0 and maxexecutiontime is unset");
  }
  if (d.operation_count == 0) d.operation_count = UINT64_MAX;
  inv.search.start_ops_per_s = p.GetDouble("sustainable.start", 10000);
  inv.search.factor = p.GetDouble("sustainable.factor", 1.25);
  inv.search.step_s = p.GetDouble("sustainable.step_seconds", inv.search.step_s);
  inv.search.bisect_steps = static_cast<int>(p.GetCount("sustainable.bisect_steps", 4));
  inv.search.max_ops_per_s = p.GetDouble("sustainable.max_rate", 1e8);
  inv.search.max_backlog_s = p.GetDouble("sustainable.max_backlog_seconds",
                                         inv.search.max_backlog_s);
  inv.search.max_debt_growth = p.GetDouble("sustainable.max_debt_growth",
                                           inv.search.max_debt_growth);
  if (p.Has("sustainable.debt_tolerance")) {
    inv.search.debt_tolerance_bytes = static_cast<double>(ParseByteSize(
        "sustainable.debt_tolerance", p.GetString("sustainable.debt_tolerance", "")));
  }
  inv.search.cycles_per_step = p.GetDouble("sustainable.cycles_per_step",
                                           inv.search.cycles_per_step);
  inv.search.max_step_s = p.GetDouble("sustainable.max_step_seconds",
                                      inv.search.max_step_s);
  if (inv.search.cycles_per_step < 0 || inv.search.max_step_s <= 0) {
    throw PropertyError("sustainable.cycles_per_step must be >= 0 and "
                        ".max_step_seconds > 0");
  }
  if (inv.search.start_ops_per_s <= 0 || inv.search.factor <= 1 ||
      inv.search.step_s <= 0 || inv.search.max_backlog_s <= 0 ||
      inv.search.max_debt_growth < 0) {
    throw PropertyError("sustainable.start, .step_seconds and "
                        ".max_backlog_seconds must be > 0, .factor > 1 and "
                        ".max_debt_growth >= 0");
  }

  inv.db = p.GetString("db", "rocksdb");
  if (inv.db == "rocksdb") {
    inv.rocksdb = RocksDbConfig::FromProperties(p);
    inv.search.cycle_bytes = static_cast<double>(inv.rocksdb.DebtCycleBytes());
  } else if (inv.db == "null") {
    inv.null_busy_ns = p.GetCount("null.busy_ns", 0);
  } else {
    throw PropertyError("unknown db '" + inv.db + "' (rocksdb or null)");
  }
  // Given, it wins over the store's own: a comparison of several stores
  // passes the largest of their cycles to every search (load_a.sh).
  if (p.Has("sustainable.cycle_bytes")) {
    inv.search.cycle_bytes = static_cast<double>(ParseByteSize(
        "sustainable.cycle_bytes", p.GetString("sustainable.cycle_bytes", "")));
  }
  inv.report_path = p.GetString("report", "");
  return inv;
}

uint64_t PeakRssBytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;  // Linux: KiB
}

// The verify phase: every record a load inserted is still there. Reads
// the key numbers a load of the same properties inserts, in order, on one
// thread; prints a progress line every 10% and a summary.
int VerifyLoadedRecords(const CoreWorkload& workload, const WorkloadSpec& spec,
                        DbBinding* db) {
  uint64_t missing = 0, errors = 0;
  const uint64_t first = spec.insert_start;
  const uint64_t count = spec.record_count;
  const uint64_t step = std::max<uint64_t>(count / 10, 1);
  for (uint64_t i = 0; i < count && !g_stop; ++i) {
    const OpResult r = db->Read(workload.KeyOf(first + i));
    if (r == OpResult::kNotFound) {
      if (missing++ < 10) {
        fprintf(stderr, "[verify] missing: %s\n",
                workload.KeyOf(first + i).c_str());
      }
    } else if (r == OpResult::kError) {
      ++errors;
    }
    if ((i + 1) % step == 0) {
      fprintf(stderr, "[verify] %llu/%llu read\n",
              static_cast<unsigned long long>(i + 1),
              static_cast<unsigned long long>(count));
    }
  }
  db->Close();
  printf("[verify] %llu records from %llu: %llu missing, %llu errors; "
         "peak RSS %.1f MiB\n",
         static_cast<unsigned long long>(count),
         static_cast<unsigned long long>(first),
         static_cast<unsigned long long>(missing),
         static_cast<unsigned long long>(errors), PeakRssBytes() / 1048576.0);
  return missing == 0 && errors == 0 && !g_stop ? 0 : 1;
}

// The same schedule (rate, arrivals, threads, operation mix) against the
// null store for floor.seconds: what the generator, the hand-off and the
// recording cost by themselves.
DriverResult RunNullStoreFloor(const Invocation& inv) {
  fprintf(stderr, "[ycsb] floor: %.0f s against the null store\n", inv.floor_s);
  NullBinding null_store;
  CoreWorkload workload(inv.spec, inv.driver.seed);
  DriverConfig c = inv.driver;
  c.max_execution_s = inv.floor_s;
  c.progress = false;
  c.stop = &g_stop;
  return OpenLoopDriver(c, &workload, &null_store).Run();
}

// The logical data the store holds at the end, for space amplification:
// the live records (load: the ones this load inserted; run: the loaded
// records plus this run's inserts) x (key + record bytes).
uint64_t LogicalBytes(const Invocation& inv, const CoreWorkload& w,
                      const DriverResult& r) {
  const int insert = static_cast<int>(OpType::kInsert);
  uint64_t inserted = r.per_op[insert].Count();
  uint64_t live = inv.phase == Phase::kLoad ? inserted
                                            : inv.spec.record_count + inserted;
  return live * RecordBytes(inv, w);
}

// hdrhistogram.fileoutput: the run's interval histograms as HdrHistogram
// logs, opened at the first interval (the driver knows the start time).
class HdrSink {
 public:
  explicit HdrSink(const Invocation& inv) : prefix_(inv.hdr_prefix) {}
  void Add(const IntervalHistograms& h) {
    if (!error_.empty()) return;
    if (!out_) out_.reset(new HdrOutput(prefix_, h.run_start_epoch_s));
    if (!out_->AddInterval(h.start_s, h.length_s, h.intended, h.service,
                           &error_)) {
      fprintf(stderr, "ycsb_vlsm: hdrhistogram: %s\n", error_.c_str());
    }
  }
  // False when a log could not be written.
  bool Close() {
    if (out_ && error_.empty() && !out_->Close(&error_)) {
      fprintf(stderr, "ycsb_vlsm: hdrhistogram: %s\n", error_.c_str());
    }
    if (out_ && error_.empty()) {
      for (const auto& path : out_->paths()) {
        fprintf(stderr, "[ycsb] hdrhistogram log: %s\n", path.c_str());
      }
    }
    return error_.empty();
  }

 private:
  std::string prefix_;
  std::unique_ptr<HdrOutput> out_;
  std::string error_;
};

int Main(int argc, char** argv) {
  if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
    Usage(stdout);
    return 0;
  }
  Invocation inv;
  try {
    inv = Parse(argc, argv);
  } catch (const PropertyError& e) {
    fprintf(stderr, "ycsb_vlsm: %s\n", e.what());
    return 2;
  }

  if (inv.mode == "describe") {
    // What a search of this store would use, for a script that compares
    // stores (the largest cycle) before running any of them; and the
    // column-family options it would open with.
    CoreWorkload workload(inv.spec, inv.driver.seed);
    rocksdb::lsm_metrics::JsonWriter j;
    j.BeginObject()
        .Field("debt_cycle_bytes",
               static_cast<uint64_t>(inv.search.cycle_bytes))
        .Field("write_bytes_per_op", WriteBytesPerOp(inv, workload));
    if (inv.db == "rocksdb") {
      try {
        j.Field("cf_options", inv.rocksdb.ColumnFamilyOptionsString());
      } catch (const PropertyError& e) {
        fprintf(stderr, "ycsb_vlsm: %s\n", e.what());
        return 2;
      }
    }
    j.EndObject();
    printf("%s\n", j.str().c_str());
    return 0;
  }

  // The floor first, on an idle machine: what the harness alone costs at
  // this rate and thread count.
  DriverResult floor;
  const bool take_floor = inv.floor_s > 0 && !inv.verify &&
                          inv.driver.target_ops_per_s > 0 &&
                          inv.mode == "normal";
  // From here on a stop signal ends the run with a report marked
  // interrupted (the floor included: it watches g_stop too).
  signal(SIGINT, OnStopSignal);
  signal(SIGTERM, OnStopSignal);
  if (take_floor) floor = RunNullStoreFloor(inv);
  if (g_stop) {
    // Stopped during the floor: no store opened, no report written
    // (ycsb_run.sh removes a run's old report before it starts, so a
    // resumed experiment finds none and runs it again).
    fprintf(stderr, "ycsb_vlsm: stopped by a signal before the run began\n");
    return 1;
  }

  std::unique_ptr<DbBinding> db;
  if (inv.db == "rocksdb") {
    std::string error;
    inv.rocksdb.stop = &g_stop;
    db = RocksDbBinding::Open(inv.rocksdb, &error);
    if (!db) {
      fprintf(stderr, "ycsb_vlsm: %s\n", error.c_str());
      return 1;
    }
  } else {
    db.reset(new NullBinding(inv.null_busy_ns));
  }

  if (inv.verify) {
    return VerifyLoadedRecords(CoreWorkload(inv.spec, inv.driver.seed),
                               inv.spec, db.get());
  }
  inv.driver.stop = &g_stop;
  CoreWorkload workload(inv.spec, inv.driver.seed);
  RunReport report;
  for (int i = 0; i < argc; i++) {
    if (i) report.command += ' ';
    report.command += argv[i];
  }
  report.phase = inv.phase == Phase::kLoad ? "load" : "run";
  report.db = inv.db;
  report.threads = inv.driver.threads;
  report.properties = &inv.props;
  DriverResult result;
  SustainableResult sustainable;
  HdrSink hdr(inv);
  if (inv.hdr_output && inv.mode == "normal") {
    inv.driver.on_interval_histograms = [&hdr](const IntervalHistograms& h) {
      hdr.Add(h);
    };
  }
  if (inv.mode == "find-sustainable") {
    inv.search.write_bytes_per_op = WriteBytesPerOp(inv, workload);
    sustainable = FindSustainableRate(inv.search, inv.driver, &workload, db.get());
    result = std::move(sustainable.best);
    report.mode = "find-sustainable";
    report.arrival = inv.driver.poisson ? "poisson" : "constant";
    report.target_ops_per_s = sustainable.sustainable_ops_per_s;
    report.sustainable_json = SustainableJson(sustainable, inv.search);
    printf("[%s] sustainable rate: %.0f ops/s%s\n", report.phase.c_str(),
           sustainable.sustainable_ops_per_s,
           sustainable.generator_limited ? " (the generator limited a step)" : "");
  } else {
    OpenLoopDriver driver(inv.driver, &workload, db.get());
    result = driver.Run();
    bool closed = inv.driver.target_ops_per_s <= 0;
    report.mode = closed ? "closed-loop" : "open-loop";
    if (!closed) report.arrival = inv.driver.poisson ? "poisson" : "constant";
    report.target_ops_per_s = inv.driver.target_ops_per_s;
  }
  const uint64_t total_ops = inv.mode == "find-sustainable"
                                 ? sustainable.operations
                                 : result.completed;
  db->SetOperationCount(total_ops);
  db->Close();
  report.peak_rss_bytes = PeakRssBytes();
  report.metrics_json = db->MetricsJson();
  report.settle_json = db->SettleJson();
  report.rate_limiter_json = db->RateLimiterJson();
  report.result = &result;
  if (take_floor) {
    report.floor = &floor;
    report.floor_s = inv.floor_s;
  }
  report.logical_bytes = LogicalBytes(inv, workload, result);
  report.interrupted = g_stop.load();
  PrintSummary(stdout, report);
  // A stopped run still reports what it did, but fails: a script that
  // resumes an experiment must not take it for the run it asked for.
  int rc = result.errors > 0 || report.interrupted ? 1 : 0;
  if (report.interrupted) {
    fprintf(stderr, "ycsb_vlsm: stopped by a signal before the run was done\n");
  }
  if (!hdr.Close()) rc = 1;
  if (!inv.report_path.empty() && !WriteReportFiles(inv.report_path, report)) {
    rc = 1;
  }
  db.reset();
  return rc;
}

}  // namespace
}  // namespace ycsb

int main(int argc, char** argv) { return ycsb::Main(argc, argv); }
