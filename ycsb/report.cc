#include "report.h"

#include <cmath>
#include <cstdio>

#include "rocksdb/fork_version.h"

namespace ycsb {

namespace {

void LatencyObject(JsonWriter* j, const char* key, const LatencyHistogram& h,
                   bool with_buckets = false) {
  LatencySummary s = Summarize(h);
  j->BeginObject(key)
      .Field("count", s.count)
      .Field("mean", s.mean_us)
      .Field("p50", s.p50_us)
      .Field("p90", s.p90_us)
      .Field("p99", s.p99_us)
      .Field("p99.9", s.p999_us)
      .Field("p99.99", s.p9999_us)
      .Field("max", s.max_us);
  if (with_buckets) {
    // Non-empty buckets as [value_us, count]: enough for a CDF plot.
    j->BeginArray("histogram");
    const auto& b = h.buckets();
    for (size_t i = 0; i < b.size(); i++) {
      if (!b[i]) continue;
      j->BeginArray()
          .Value(LatencyHistogram::BucketValue(i) / 1e3)
          .Value(b[i])
          .EndArray();
    }
    j->EndArray();
  }
  j->EndObject();
}

// The harness's own figures at this rate and threads, beside the store's:
// how late the generator handed requests over (every run), its CPU time,
// and the null store's latency if a floor run was taken.
void FloorObject(JsonWriter* j, const RunReport& r) {
  const DriverResult& d = *r.result;
  j->BeginObject("harness_floor");
  if (d.generator_lag.Count()) LatencyObject(j, "generator_lag_us", d.generator_lag);
  if (!d.closed_loop) j->Field("generator_cpu_s", d.generator_cpu_s);
  if (r.floor) {
    j->Field("null_store_seconds", r.floor_s)
        .Field("null_store_achieved_ops_per_s", r.floor->achieved_ops_per_s);
    LatencyObject(j, "null_store_latency_us", r.floor->all);
  }
  j->EndObject();
}

double Ratio(uint64_t a, uint64_t b) { return b ? double(a) / double(b) : 0; }

// Disk space at the end and at its peak, against the logical data.
void SpaceObject(JsonWriter* j, const RunReport& r) {
  const DriverResult& d = *r.result;
  j->BeginObject("space")
      .Field("disk_bytes_end", d.disk_bytes_end)
      .Field("disk_bytes_peak", d.disk_bytes_peak)
      .Field("logical_bytes", r.logical_bytes)
      .Field("space_amp_end", Ratio(d.disk_bytes_end, r.logical_bytes))
      .Field("space_amp_peak", Ratio(d.disk_bytes_peak, r.logical_bytes))
      .Field("peak_rss_bytes", r.peak_rss_bytes)
      .EndObject();
}

// One region's (or every region's) write breakdown: counts, and each time
// in microseconds, summed over the span's writes.
void WriteBreakdownObject(JsonWriter* j, const WriteBreakdown& b) {
  j->BeginObject();
  j->Field("writes", b.writes).Field("total_us", b.total_ns / 1000);
  for (int p = 0; p < kWriteParts; p++) {
    j->Field(std::string(WritePartName(p)) + "_us", b.part_ns[p] / 1000);
  }
  j->Field("memtables_sealed", b.memtables_sealed)
      .Field("tables_created", b.tables_created)
      .Field("table_bytes", b.table_bytes);
  j->EndObject();
}

WriteBreakdown AllRegions(const std::vector<WriteBreakdown>& regions) {
  WriteBreakdown all;
  for (const auto& r : regions) all.Add(r);
  return all;
}

std::string CsvPathFor(const std::string& report_path) {
  std::string base = report_path;
  const std::string ext = ".json";
  if (base.size() > ext.size() &&
      base.compare(base.size() - ext.size(), ext.size(), ext) == 0) {
    base.resize(base.size() - ext.size());
  }
  return base + ".csv";
}

}  // namespace

std::string WritesCsvPathFor(const std::string& report_path) {
  std::string csv = CsvPathFor(report_path);
  return csv.substr(0, csv.size() - 4) + ".writes.csv";
}

std::string ReportJson(const RunReport& r, const std::string& csv_path,
                       const std::string& writes_csv_path) {
  const DriverResult& d = *r.result;
  JsonWriter j;
  j.BeginObject();
  j.Field("tool", "ycsb_vlsm")
      .Field("library", ROCKSDB_NAMESPACE::GetVlsmForkVersionAsString(true))
      .Field("command", r.command)
      .Field("phase", r.phase)
      .Field("mode", r.mode)
      .Field("interrupted", r.interrupted);
  if (!r.arrival.empty()) j.Field("arrival", r.arrival);
  j.Field("db", r.db).Field("threads", r.threads);
  if (r.target_ops_per_s > 0) j.Field("target_ops_per_s", r.target_ops_per_s);
  j.Field("operations", d.completed)
      .Field("generated", d.generated)
      .Field("not_found", d.not_found)
      .Field("errors", d.errors)
      .Field("discarded", d.discarded)
      .Field("elapsed_s", d.elapsed_s)
      .Field("peak_rss_bytes", r.peak_rss_bytes)
      .Field("generation_s", d.generation_s)
      .Field("offered_ops_per_s", d.offered_ops_per_s)
      .Field("achieved_ops_per_s", d.achieved_ops_per_s)
      .Field("achieved_during_generation_ops_per_s",
             d.achieved_during_generation_ops_per_s)
      .Field("backlog_growth_per_s", d.backlog_growth_per_s)
      .Field("max_queue_depth", d.max_queue_depth)
      .Field("generator_max_lag_us", d.generator_max_lag_us);
  if (!d.closed_loop) j.Field("generator_priority_raised", d.generator_priority_raised);
  if (d.generator_lag.Count()) LatencyObject(&j, "generator_lag_us", d.generator_lag);
  FloorObject(&j, r);
  // A search's report holds its best step, not the tree the whole search
  // built: its space figures would divide one by the other.
  if (r.mode != "find-sustainable") SpaceObject(&j, r);
  j.Field("backlog_at_generation_end", d.backlog_at_generation_end)
      .Field("compaction_debt_growth_bytes_per_s", d.compaction_debt_growth_per_s)
      .Field("compaction_debt_bytes_end", d.compaction_debt_bytes_end)
      .Field("compaction_debt_rise_bytes_per_s", d.compaction_debt_rise_per_s);
  uint64_t stalled_seconds = 0;
  for (const auto& s : d.intervals) stalled_seconds += s.write_stalled;
  j.Field("stalled_intervals", stalled_seconds);
  j.BeginObject("latency_us");
  for (int t = 0; t < kOpTypes; t++) {
    if (d.per_op[t].Count()) {
      LatencyObject(&j, OpName(static_cast<OpType>(t)), d.per_op[t], true);
    }
  }
  LatencyObject(&j, "all", d.all, true);
  j.EndObject();
  // Service time: from the moment a worker started the request (what a
  // closed-loop client would report; the gap to latency_us is queueing).
  j.BeginObject("service_us");
  for (int t = 0; t < kOpTypes; t++) {
    if (d.service_per_op[t].Count()) {
      LatencyObject(&j, OpName(static_cast<OpType>(t)), d.service_per_op[t]);
    }
  }
  LatencyObject(&j, "all", d.service_all);
  j.EndObject();
  if (!csv_path.empty()) j.Field("intervals_csv", csv_path);
  if (!d.write_breakdown.empty()) {
    // What the writes spent their time on (ycsb/write_breakdown.h); per
    // interval and region in writes_csv.
    j.BeginObject("write_breakdown");
    if (!writes_csv_path.empty()) j.Field("writes_csv", writes_csv_path);
    j.Key("all");
    WriteBreakdownObject(&j, AllRegions(d.write_breakdown));
    j.BeginArray("regions");
    for (const auto& b : d.write_breakdown) WriteBreakdownObject(&j, b);
    j.EndArray();
    j.EndObject();
  }
  if (!r.sustainable_json.empty()) j.Raw("sustainable", r.sustainable_json);
  if (r.properties) {
    j.BeginObject("properties");
    for (const auto& kv : r.properties->all()) j.Field(kv.first, kv.second);
    j.EndObject();
  }
  j.Raw("lsm_metrics", r.metrics_json.empty() ? "[]" : r.metrics_json);
  if (!r.settle_json.empty()) j.Raw("settle", r.settle_json);
  if (!r.rate_limiter_json.empty()) j.Raw("rate_limiter", r.rate_limiter_json);
  j.EndObject();
  return j.str() + "\n";
}

void WriteIntervalsCsv(FILE* f, const std::vector<IntervalStats>& intervals) {
  fprintf(f,
          "time_s,completed,achieved_ops_per_s,offered_ops_per_s,"
          "queue_depth,outstanding,read_p99_us,update_p99_us,insert_p99_us,"
          "scan_p99_us,read_modify_write_p99_us,all_p99_us,write_stalled,"
          "disk_bytes,compaction_debt_bytes\n");
  for (const auto& s : intervals) {
    fprintf(f, "%.3f,%llu,%.1f,%.1f,%llu,%llu,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%d,"
            "%llu,%llu\n",
            s.time_s, static_cast<unsigned long long>(s.completed),
            s.achieved_ops_per_s, s.offered_ops_per_s,
            static_cast<unsigned long long>(s.queue_depth),
            static_cast<unsigned long long>(s.outstanding), s.p99_us[0],
            s.p99_us[1], s.p99_us[2], s.p99_us[3], s.p99_us[4], s.p99_all_us,
            s.write_stalled ? 1 : 0,
            static_cast<unsigned long long>(s.disk_bytes),
            static_cast<unsigned long long>(s.compaction_debt_bytes));
  }
}

bool WriteReportFiles(const std::string& report_path, const RunReport& r) {
  std::string csv = CsvPathFor(report_path);
  // PATH.json -> PATH.csv; a PATH without the suffix gets both.
  std::string json_path = csv.substr(0, csv.size() - 4) + ".json";
  FILE* cf = fopen(csv.c_str(), "w");
  if (!cf) {
    fprintf(stderr, "ycsb_vlsm: cannot write %s\n", csv.c_str());
    return false;
  }
  WriteIntervalsCsv(cf, r.result->intervals);
  fclose(cf);
  std::string writes_csv;
  if (!r.result->write_breakdown.empty()) {
    writes_csv = WritesCsvPathFor(report_path);
    FILE* wf = fopen(writes_csv.c_str(), "w");
    if (!wf) {
      fprintf(stderr, "ycsb_vlsm: cannot write %s\n", writes_csv.c_str());
      return false;
    }
    WriteBreakdownCsvHeader(wf);
    for (const auto& s : r.result->intervals) {
      WriteBreakdownCsvRows(wf, s.time_s, s.write_breakdown);
    }
    fclose(wf);
  }
  FILE* jf = fopen(json_path.c_str(), "w");
  if (!jf) {
    fprintf(stderr, "ycsb_vlsm: cannot write %s\n", json_path.c_str());
    return false;
  }
  std::string json = ReportJson(r, csv, writes_csv);
  fwrite(json.data(), 1, json.size(), jf);
  fclose(jf);
  fprintf(stderr, "[ycsb] report: %s and %s\n", json_path.c_str(), csv.c_str());
  return true;
}

void PrintSummary(FILE* f, const RunReport& r) {
  const DriverResult& d = *r.result;
  fprintf(f, "[%s] %s, %s, db=%s, threads=%d", r.phase.c_str(), r.mode.c_str(),
          r.arrival.empty() ? "-" : r.arrival.c_str(), r.db.c_str(), r.threads);
  if (r.target_ops_per_s > 0) fprintf(f, ", target %.0f ops/s", r.target_ops_per_s);
  fprintf(f, "\n[%s] operations %llu in %.2f s: achieved %.0f ops/s, offered "
          "%.0f ops/s; not found %llu, errors %llu; max queue %llu\n",
          r.phase.c_str(), static_cast<unsigned long long>(d.completed),
          d.elapsed_s, d.achieved_ops_per_s, d.offered_ops_per_s,
          static_cast<unsigned long long>(d.not_found),
          static_cast<unsigned long long>(d.errors),
          static_cast<unsigned long long>(d.max_queue_depth));
  if (r.peak_rss_bytes > 0) {
    fprintf(f, "[%s] peak RSS %.1f MiB\n", r.phase.c_str(),
            r.peak_rss_bytes / 1048576.0);
  }
  if (d.disk_bytes_peak > 0 && r.mode != "find-sustainable") {
    fprintf(f, "[%s] disk %.1f MiB at the end, %.1f MiB at peak; logical "
            "data %.1f MiB: space amplification %.2f (peak %.2f)\n",
            r.phase.c_str(), d.disk_bytes_end / 1048576.0,
            d.disk_bytes_peak / 1048576.0, r.logical_bytes / 1048576.0,
            Ratio(d.disk_bytes_end, r.logical_bytes),
            Ratio(d.disk_bytes_peak, r.logical_bytes));
  }
  fprintf(f, "[%s] %-18s %10s %10s %10s %10s %10s %10s %10s %10s  (us)\n",
          r.phase.c_str(), "op", "count", "mean", "p50", "p90", "p99", "p99.9",
          "p99.99", "max");
  for (int t = 0; t <= kOpTypes; t++) {
    const LatencyHistogram& h = t < kOpTypes ? d.per_op[t] : d.all;
    if (h.Count() == 0) continue;
    LatencySummary s = Summarize(h);
    fprintf(f, "[%s] %-18s %10llu %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f\n",
            r.phase.c_str(),
            t < kOpTypes ? OpName(static_cast<OpType>(t)) : "all",
            static_cast<unsigned long long>(s.count), s.mean_us, s.p50_us,
            s.p90_us, s.p99_us, s.p999_us, s.p9999_us, s.max_us);
  }
  // The harness's share of those figures, in the same columns.
  auto floor_row = [&](const char* what, const LatencyHistogram& h) {
    LatencySummary s = Summarize(h);
    fprintf(f, "[%s] %-18s %10llu %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f %10.1f\n",
            r.phase.c_str(), what, static_cast<unsigned long long>(s.count),
            s.mean_us, s.p50_us, s.p90_us, s.p99_us, s.p999_us, s.p9999_us,
            s.max_us);
  };
  if (d.generator_lag.Count()) floor_row("floor:gen-lag", d.generator_lag);
  if (r.floor) floor_row("floor:null-store", r.floor->all);
  const WriteBreakdown w = AllRegions(d.write_breakdown);
  if (w.writes > 0) {
    // The mean write's time, as RocksDB's timers split it (nested parts
    // in brackets; write_breakdown.h).
    auto per_write = [&](int p) { return w.part_ns[p] / 1e3 / w.writes; };
    fprintf(f, "[%s] writes: %.1f us each: wal %.1f (fsync %.1f), memtable "
            "%.1f, delay %.1f, scheduling %.1f, pre_post %.1f "
            "(write-thread wait %.1f); DB mutex %.1f + %.1f; %llu memtables "
            "sealed, %llu tables\n",
            r.phase.c_str(), w.total_ns / 1e3 / w.writes,
            per_write(kWritePartWal), per_write(kWritePartWalFsync),
            per_write(kWritePartMemtable), per_write(kWritePartDelay),
            per_write(kWritePartScheduling),
            per_write(kWritePartPrePost), per_write(kWritePartWriteThreadWait),
            per_write(kWritePartMutexLock), per_write(kWritePartConditionWait),
            static_cast<unsigned long long>(w.memtables_sealed),
            static_cast<unsigned long long>(w.tables_created));
  }
  if (!d.closed_loop) {
    fprintf(f, "[%s] generator CPU %.2f s over %.1f s\n", r.phase.c_str(),
            d.generator_cpu_s, d.generation_s);
  }
}

}  // namespace ycsb
