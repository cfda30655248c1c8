// db_bench_vlsm: upstream db_bench, every benchmark and flag unchanged, plus
//   --vlsm [--vlsm_sst_size=S_M --vlsm_growth=f --vlsm_phi=Phi
//           --vlsm_l0=single|ranged --vlsm_ranged_l0_depth=D
//           | --vlsm_preset=ranged|paper]
//       vLSM on, through ConfigureVlsm() (include/rocksdb/vlsm.h);
//   --vlsm_report=PATH
//       the LsmMetricsCollector report as JSON (the readable block is printed
//       at the end of every run, vLSM or not, so stock runs compare).
// It runs db_bench_tool() with three hooks (tools/db_bench_hooks.h): adjust
// the options before open, attach the collector after, detach before close.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

#include "options/compaction_pri_name.h"
#include "rocksdb/db.h"
#include "rocksdb/db_bench_tool.h"
#include "rocksdb/fork_version.h"
#include "rocksdb/lsm_metrics.h"
#include "rocksdb/statistics.h"
#include "rocksdb/vlsm.h"
#include "tools/db_bench_hooks.h"
#include "tools/db_bench_vlsm_options.h"
#include "util/gflags_compat.h"
#include "utilities/lsm_metrics/json_writer.h"

DEFINE_bool(vlsm, false,
            "vLSM compaction (compaction_pri=kVlsm and its sizes, from "
            "--vlsm_sst_size, --vlsm_growth and --vlsm_phi)");
DEFINE_uint64(vlsm_sst_size, ROCKSDB_NAMESPACE::VlsmOptions().sst_size,
              "vLSM S_M: SST and memtable size in bytes");
DEFINE_int32(vlsm_growth, ROCKSDB_NAMESPACE::VlsmOptions().growth,
             "vLSM f: growth factor between levels other than L1->L2");
DEFINE_int32(vlsm_phi, ROCKSDB_NAMESPACE::VlsmOptions().l1_l2_growth,
             "vLSM Phi: growth factor L1->L2, a multiple of f");
DEFINE_string(vlsm_l0, "single",
              "vLSM's L0 layout: single (the paper's: one L0 file per step, "
              "compaction_pri=kVlsm) or ranged (experimental: L0 compacted "
              "one key range at a time, compaction_pri=kVlsmRanged)");
DEFINE_int32(vlsm_ranged_l0_depth,
             ROCKSDB_NAMESPACE::VlsmOptions().ranged_l0_depth,
             "with --vlsm_l0=ranged: the L0 depth (flushes over one key) at "
             "which a range is compacted");
DEFINE_string(vlsm_preset, "",
              "with --vlsm: a preset in place of the --vlsm_* sizes and "
              "layout: ranged (VlsmOptions::Ranged(), the configuration "
              "users are told to take) or paper (VlsmOptions())");
DEFINE_bool(vlsm_drain_at_rest, true,
            "under the ranged layout, compact L0 down to one sorted run once "
            "writes stop (docs/design/ranged-layout.md, the drain at "
            "rest); false turns it off (DB::SetOptions "
            "vlsm_drain_at_rest=false after open)");
DEFINE_string(vlsm_report, "",
              "write the LSM metrics report (JSON) to this path");

// db_bench's own flags (tools/db_bench_tool.cc), for the report's config.
DECLARE_string(benchmarks);
DECLARE_int64(num);
DECLARE_int32(value_size);
DECLARE_int32(key_size);
DECLARE_int32(num_levels);
DECLARE_int32(num_multi_db);

namespace ROCKSDB_NAMESPACE {
namespace {

struct Run {
  std::shared_ptr<LsmMetricsCollector> collector =
      std::make_shared<LsmMetricsCollector>();
  VlsmOptions vlsm;
  std::set<std::string> explicit_bench_flags;
  std::string config_json;  // the options of the last open
  std::set<std::string> notes_shown;
};

Run& TheRun() {
  static Run run;
  return run;
}

bool IsExplicit(const std::string& flag) {
  GFLAGS_NAMESPACE::CommandLineFlagInfo info;
  return GFLAGS_NAMESPACE::GetCommandLineFlagInfo(flag.c_str(), &info) &&
         !info.is_default;
}

std::string ConfigJson(const Options& o) {
  lsm_metrics::JsonWriter w;
  const bool vlsm = IsVlsmCompactionPri(o.compaction_pri);
  const int phi_multiplier =
      o.max_bytes_for_level_multiplier_additional.size() > 1
          ? o.max_bytes_for_level_multiplier_additional[1]
          : 1;
  w.BeginObject();
  w.Field("vlsm", vlsm);
  // For stock runs: the same three numbers as the tree has them.
  w.Field("sst_size", o.target_file_size_base);
  w.Field("growth", o.max_bytes_for_level_multiplier);
  w.Field("phi", o.max_bytes_for_level_multiplier * phi_multiplier);
  w.Field("benchmarks", FLAGS_benchmarks);
  w.Field("num", static_cast<int64_t>(FLAGS_num));
  w.Field("value_size", FLAGS_value_size).Field("key_size", FLAGS_key_size);
  w.Field("write_buffer_size", static_cast<uint64_t>(o.write_buffer_size));
  w.Field("max_write_buffer_number", o.max_write_buffer_number);
  w.Field("target_file_size_base", o.target_file_size_base);
  w.Field("max_bytes_for_level_base", o.max_bytes_for_level_base);
  w.Field("max_bytes_for_level_multiplier", o.max_bytes_for_level_multiplier);
  w.Array("max_bytes_for_level_multiplier_additional",
          o.max_bytes_for_level_multiplier_additional);
  w.Field("num_levels", o.num_levels);
  w.Field("level0_file_num_compaction_trigger",
          o.level0_file_num_compaction_trigger);
  w.Field("level0_slowdown_writes_trigger", o.level0_slowdown_writes_trigger);
  w.Field("level0_stop_writes_trigger", o.level0_stop_writes_trigger);
  w.Field("level_compaction_dynamic_level_bytes",
          o.level_compaction_dynamic_level_bytes);
  w.Field("max_compaction_bytes", o.max_compaction_bytes);
  w.Field("compaction_pri", CompactionPriName(o.compaction_pri));
  w.Field("max_background_jobs", o.max_background_jobs);
  w.Field("use_direct_io_for_flush_and_compaction",
          o.use_direct_io_for_flush_and_compaction);
  w.EndObject();
  return w.str();
}

void ConfigureOptions(Options* options) {
  Run& run = TheRun();
  if (FLAGS_vlsm) {
    std::vector<std::string> notes;
    Status s = ApplyVlsmToBenchOptions(run.vlsm, run.explicit_bench_flags,
                                       options, &notes);
    if (!s.ok()) {
      std::fprintf(stderr, "db_bench_vlsm: %s\n", s.getState());
      std::exit(2);
    }
    for (const std::string& note : notes) {
      if (run.notes_shown.insert(note).second) {
        std::fprintf(stdout, "db_bench_vlsm: note: %s\n", note.c_str());
      }
    }
  }
  // db_bench reuses one Options for every (re)open of the DB, so the
  // collector may already be listed; twice would count every event twice.
  auto& listeners = options->listeners;
  if (std::find(listeners.begin(), listeners.end(), run.collector) ==
      listeners.end()) {
    listeners.push_back(run.collector);
  }
  run.config_json = ConfigJson(*options);
}

void DbOpened(DB* db) {
  if (!FLAGS_vlsm_drain_at_rest) {
    // Set on the open DB before any rest, by SetOptions (which persists it,
    // as an options string's VlsmDrainAtRest object would carry it). A
    // secondary DB refuses SetOptions and compacts nothing.
    const Status off = db->SetOptions({{VlsmDrainOptions::kEnabled, "false"}});
    if (!off.ok() && !off.IsNotSupported()) {
      std::fprintf(stderr, "db_bench_vlsm: --vlsm_drain_at_rest=false: %s\n",
                   off.ToString().c_str());
      std::exit(2);
    }
  }
  Status s = TheRun().collector->Attach(db);
  if (!s.ok()) {
    std::fprintf(stderr, "db_bench_vlsm: no metrics for this open: %s\n",
                 s.ToString().c_str());
  }
}

// With --statistics, CPU is divided by every key operation; without, by
// the keys written (what RocksDB counts anyway).
void DbClosing(DB* db) {
  const auto stats = db->GetOptions().statistics;
  if (stats != nullptr) {
    TheRun().collector->SetOperationCount(
        stats->getTickerCount(NUMBER_KEYS_WRITTEN) +
        stats->getTickerCount(NUMBER_KEYS_READ) +
        stats->getTickerCount(NUMBER_DB_SEEK) +
        stats->getTickerCount(NUMBER_MULTIGET_KEYS_READ));
  }
  TheRun().collector->Detach();
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "db_bench_vlsm: %s\n", message.c_str());
  return 2;
}

}  // namespace
}  // namespace ROCKSDB_NAMESPACE

int main(int argc, char** argv) {
  using namespace ROCKSDB_NAMESPACE;
  // Read the flags once to validate ours before anything runs; db_bench
  // parses them again (and reports unknown ones) in db_bench_tool().
  GFLAGS_NAMESPACE::ParseCommandLineFlags(&argc, &argv, /*remove_flags=*/false);
  Run& run = TheRun();
  VlsmFlagValues flags;
  flags.vlsm = FLAGS_vlsm;
  flags.sst_size = FLAGS_vlsm_sst_size;
  flags.growth = FLAGS_vlsm_growth;
  flags.phi = FLAGS_vlsm_phi;
  flags.l0 = FLAGS_vlsm_l0;
  flags.ranged_l0_depth = FLAGS_vlsm_ranged_l0_depth;
  flags.preset = FLAGS_vlsm_preset;
  flags.num_levels = FLAGS_num_levels;
  for (const char* name : {"vlsm_sst_size", "vlsm_growth", "vlsm_phi",
                           "vlsm_l0", "vlsm_ranged_l0_depth", "vlsm_preset"}) {
    if (IsExplicit(name)) {
      flags.explicit_flags.insert(name);
    }
  }
  Status s = VlsmOptionsFromFlags(flags, &run.vlsm);
  if (!s.ok()) {
    return Fail(s.getState());
  }
  for (const std::string& name : VlsmOwnedBenchFlags()) {
    if (IsExplicit(name)) {
      run.explicit_bench_flags.insert(name);
    }
  }
  // Fail now, not after an hour of benchmark, if the report can't be written.
  FILE* report = nullptr;
  if (!FLAGS_vlsm_report.empty()) {
    report = std::fopen(FLAGS_vlsm_report.c_str(), "w");
    if (report == nullptr) {
      return Fail("--vlsm_report=" + FLAGS_vlsm_report +
                  ": cannot open for writing");
    }
  }
  if (FLAGS_num_multi_db > 1) {
    std::fprintf(stderr,
                 "db_bench_vlsm: with --num_multi_db > 1 the metrics cover no "
                 "DB (one DB per collector)\n");
  }
  if (FLAGS_vlsm) {
    const std::string l0 =
        run.vlsm.l0_layout == VlsmL0Layout::kRanged
            ? "ranged, depth " + std::to_string(run.vlsm.ranged_l0_depth)
            : "single file";
    std::fprintf(stdout,
                 "db_bench_vlsm %s: vLSM on (S_M %llu bytes, f %d, Phi %d, "
                 "L0 %s)\n",
                 GetVlsmForkVersionAsString().c_str(),
                 static_cast<unsigned long long>(run.vlsm.sst_size),
                 run.vlsm.growth, run.vlsm.l1_l2_growth, l0.c_str());
  } else {
    std::fprintf(stdout, "db_bench_vlsm %s: vLSM off (stock compaction)\n",
                 GetVlsmForkVersionAsString().c_str());
  }

  DbBenchHooks& hooks = GetDbBenchHooks();
  hooks.configure_options = ConfigureOptions;
  hooks.db_opened = DbOpened;
  hooks.db_closing = DbClosing;
  const int rc = db_bench_tool(argc, argv);

  const LsmMetricsReport metrics = run.collector->Report();
  std::fprintf(stdout, "\n%s", LsmMetricsToText(metrics).c_str());
  if (report != nullptr) {
    lsm_metrics::JsonWriter w;
    w.BeginObject();
    w.Field("tool", "db_bench_vlsm");
    w.Field("fork_version", GetVlsmForkVersionAsString());
    w.Key("config").Raw(run.config_json.empty() ? "{}" : run.config_json);
    w.Key("metrics").Raw(LsmMetricsToJson(metrics));
    w.EndObject();
    const std::string json = w.str() + "\n";
    const bool written =
        std::fwrite(json.data(), 1, json.size(), report) == json.size();
    if (std::fclose(report) != 0 || !written) {
      return Fail("--vlsm_report=" + FLAGS_vlsm_report + ": write failed");
    }
    std::fprintf(stdout, "db_bench_vlsm: report written to %s\n",
                 FLAGS_vlsm_report.c_str());
  }
  return rc;
}
