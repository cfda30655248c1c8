// The end-of-run report: one JSON document (PATH.json) and the per-interval
// time series as CSV beside it (PATH.csv); plus a readable summary on
// stdout. Field meanings are listed in ycsb/README.md.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "open_loop_driver.h"
#include "utilities/lsm_metrics/json_writer.h"
#include "workload_properties.h"

namespace ycsb {

// The report's JSON is written with the metrics collector's writer, so the
// two halves of a report escape and format alike.
using JsonWriter = ROCKSDB_NAMESPACE::lsm_metrics::JsonWriter;

// Everything that goes into one report.
struct RunReport {
  std::string command;   // the command line, for reproducing the run
  std::string phase;     // "load" or "run"
  std::string mode;      // "open-loop", "closed-loop", "find-sustainable"
  std::string arrival;   // "constant" or "poisson"; "" for closed loop
  std::string db;        // binding name
  int threads = 0;
  double target_ops_per_s = 0;
  const Properties* properties = nullptr;
  const DriverResult* result = nullptr;
  std::string metrics_json;     // binding's array, may be ""
  std::string settle_json;      // binding's settle object, may be ""
  std::string rate_limiter_json;  // binding's limiter object, may be ""
  std::string sustainable_json; // find-sustainable's object, may be ""
  uint64_t peak_rss_bytes = 0;  // the process's maximum resident set
  // The harness's floor: a null-store run at the same rate and threads
  // (floor.seconds), or nullptr if none was taken.
  const DriverResult* floor = nullptr;
  double floor_s = 0;
  // Live records x (key + record bytes) at the end: what disk space is
  // divided by.
  uint64_t logical_bytes = 0;
  // Stopped by SIGINT or SIGTERM before the run was done: the report is
  // written, but it is not the run that was asked for.
  bool interrupted = false;
};

// Writes PATH.json and PATH.csv (PATH is report minus a ".json" suffix),
// and PATH.writes.csv when the store measured its writes. Returns false and
// prints why on failure.
bool WriteReportFiles(const std::string& report_path, const RunReport& r);
std::string ReportJson(const RunReport& r, const std::string& csv_path,
                       const std::string& writes_csv_path = "");
void WriteIntervalsCsv(FILE* f, const std::vector<IntervalStats>& intervals);
void PrintSummary(FILE* f, const RunReport& r);

}  // namespace ycsb
