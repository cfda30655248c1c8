// The metrics report as JSON (for scripts) and as a readable block (for the
// end of a benchmark's output). Field names follow include/rocksdb/lsm_metrics.h.
#include <cinttypes>
#include <cstdio>
#include <string>

#include "rocksdb/lsm_metrics.h"
#include "utilities/lsm_metrics/json_writer.h"

namespace ROCKSDB_NAMESPACE {

namespace {

double PerUserByte(uint64_t bytes, uint64_t user_bytes) {
  return user_bytes == 0 ? 0.0
                         : static_cast<double>(bytes) /
                               static_cast<double>(user_bytes);
}

uint64_t LevelIoBytes(const LevelIo& io) {
  return io.read_from_upper_bytes + io.read_from_level_bytes + io.written_bytes;
}

void WriteDistribution(lsm_metrics::JsonWriter& w, const std::string& key,
                       const ByteDistribution& d) {
  w.Key(key).BeginObject();
  w.Field("count", d.count).Field("max", d.max).Field("mean", d.mean);
  w.Field("p99", d.p99).Field("total", d.total);
  w.EndObject();
}

std::string Bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  char buf[32];
  std::snprintf(buf, sizeof(buf), unit == 0 ? "%.0f %s" : "%.1f %s", bytes,
                units[unit]);
  return buf;
}

}  // namespace

std::string LsmMetricsToJson(const LsmMetricsReport& r) {
  lsm_metrics::JsonWriter w;
  w.BeginObject();
  w.Field("elapsed_s", r.elapsed_s);
  w.Field("user_bytes", r.user_bytes).Field("user_keys", r.user_keys);
  w.Field("flush_bytes", r.flush_bytes);
  w.Field("compaction_read_bytes", r.compaction_read_bytes);
  w.Field("compaction_write_bytes", r.compaction_write_bytes);
  w.Field("drain_compactions", r.drain_compactions);
  w.Field("drain_read_bytes", r.drain_read_bytes);
  w.Field("drain_write_bytes", r.drain_write_bytes);
  w.Field("io_amplification", r.io_amplification);

  w.Key("levels").BeginArray();
  for (const LevelIo& io : r.levels) {
    w.BeginObject();
    w.Field("level", io.level).Field("compactions", io.compactions);
    w.Field("trivial_moves", io.trivial_moves);
    w.Field("trivial_move_bytes", io.trivial_move_bytes);
    w.Field("read_from_upper_bytes", io.read_from_upper_bytes);
    w.Field("read_from_level_bytes", io.read_from_level_bytes);
    w.Field("written_bytes", io.written_bytes);
    w.Field("io_amplification", PerUserByte(LevelIoBytes(io), r.user_bytes));
    WriteDistribution(w, "input_bytes_per_compaction",
                      io.input_bytes_per_compaction);
    w.EndObject();
  }
  w.EndArray();

  w.Key("steps").BeginObject();
  WriteDistribution(w, "input_bytes_per_step", r.input_bytes_per_step);
  w.Field("width_bound", r.step_width_bound);
  w.Field("over_bound", r.steps_over_bound);
  w.Key("wide_compactions").BeginArray();
  for (const WideStep& s : r.wide_compactions) {
    w.BeginObject();
    w.Field("time_s", s.time_s).Field("output_level", s.output_level);
    w.Field("input_bytes", s.input_bytes);
    w.Field("upper_files", s.upper_files).Field("upper_bytes", s.upper_bytes);
    w.Field("level_files", s.level_files).Field("level_bytes", s.level_bytes);
    w.Field("reason", s.reason);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();

  w.Key("stalls").BeginObject();
  w.Field("count", r.stall_count).Field("stop_count", r.stop_count);
  w.Field("total_s", r.stall_total_s).Field("longest_s", r.stall_longest_s);
  w.Field("writer_stall_s", r.writer_stall_s);
  w.Key("episodes").BeginArray();
  for (const StallEpisode& e : r.stall_episodes) {
    w.BeginObject();
    w.Field("start_s", e.start_s).Field("duration_s", e.duration_s);
    w.Field("stopped", e.stopped).Field("compactions", e.compactions);
    w.Field("compacted_bytes", e.compacted_bytes);
    w.Array("output_levels", e.output_levels);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();

  w.Key("samples").BeginArray();
  for (const LsmSample& s : r.samples) {
    w.BeginObject();
    w.Field("time_s", s.time_s).Field("stalled", s.stalled);
    w.Field("stalled_fraction", s.stalled_fraction);
    w.Field("l0_files", s.l0_files);
    w.Field("l0_depth", s.l0_depth).Field("l0_sublevels", s.l0_sublevels);
    w.Field("l0_bytes", s.l0_bytes);
    w.Field("pending_compaction_bytes", s.pending_compaction_bytes);
    w.Field("user_bytes", s.user_bytes);
    w.Field("running_compactions", s.running_compactions);
    w.EndObject();
  }
  w.EndArray();

  const uint64_t l1_files = r.l1.good + r.l1.poor;
  w.Key("l1_vssts").BeginObject();
  w.Field("overlap_bound", r.l1.overlap_bound);
  w.Field("good", r.l1.good).Field("poor", r.l1.poor);
  w.Field("good_bytes", r.l1.good_bytes).Field("poor_bytes", r.l1.poor_bytes);
  w.Field("good_share", l1_files == 0 ? 0.0
                                      : static_cast<double>(r.l1.good) /
                                            static_cast<double>(l1_files));
  w.Array("size_log2_histogram", r.l1.size_log2_histogram);
  w.Array("overlap_tenths_histogram", r.l1.overlap_tenths_histogram);
  w.EndObject();

  w.Key("tree").BeginObject();
  w.Array("level_bytes", r.level_bytes).Array("level_files", r.level_files);
  w.EndObject();

  w.Key("cpu").BeginObject();
  w.Field("cpu_s", r.cpu_s).Field("operations", r.operations);
  w.Field("cpu_us_per_op", r.cpu_us_per_op);
  w.EndObject();
  w.EndObject();
  return w.str();
}

std::string LsmMetricsToText(const LsmMetricsReport& r) {
  std::string out;
  char line[512];
  auto add = [&](const char* label, const std::string& text) {
    std::snprintf(line, sizeof(line), "  %-22s %s\n", label, text.c_str());
    out += line;
  };
  std::snprintf(line, sizeof(line), "LSM metrics over %.1f s\n", r.elapsed_s);
  out += line;

  std::snprintf(line, sizeof(line), "%s in %" PRIu64 " keys",
                Bytes(static_cast<double>(r.user_bytes)).c_str(), r.user_keys);
  add("user data written", line);

  std::string amp;
  std::snprintf(line, sizeof(line), "%.2f (flush %.2f", r.io_amplification,
                PerUserByte(r.flush_bytes, r.user_bytes));
  amp = line;
  for (const LevelIo& io : r.levels) {
    if (io.level == 0 || LevelIoBytes(io) == 0) {
      continue;
    }
    std::snprintf(line, sizeof(line), ", ->L%d %.2f", io.level,
                  PerUserByte(LevelIoBytes(io), r.user_bytes));
    amp += line;
  }
  add("I/O amplification", amp + ")");

  std::snprintf(line, sizeof(line),
                "%" PRIu64 " episodes (%" PRIu64
                " stopped), total %.1f s, longest %.1f s; writers waited %.1f s",
                r.stall_count, r.stop_count, r.stall_total_s,
                r.stall_longest_s, r.writer_stall_s);
  add("write stalls", line);

  for (const LevelIo& io : r.levels) {
    const ByteDistribution& d = io.input_bytes_per_compaction;
    if (io.level == 0 || d.count == 0) {
      continue;
    }
    std::snprintf(line, sizeof(line),
                  "->L%d: %" PRIu64 " compactions, max %s, mean %s, P99 %s; "
                  "%" PRIu64 " trivial moves",
                  io.level, d.count, Bytes(static_cast<double>(d.max)).c_str(),
                  Bytes(d.mean).c_str(),
                  Bytes(static_cast<double>(d.p99)).c_str(), io.trivial_moves);
    add("compaction width", line);
  }

  {
    const ByteDistribution& d = r.input_bytes_per_step;
    const WideStep* widest = nullptr;
    for (const WideStep& s : r.wide_compactions) {
      if (widest == nullptr || s.input_bytes > widest->input_bytes) {
        widest = &s;
      }
    }
    std::snprintf(line, sizeof(line),
                  "%" PRIu64 " steps (flushes included), P99 %s, max %s; "
                  "%" PRIu64 " over %s",
                  d.count, Bytes(static_cast<double>(d.p99)).c_str(),
                  Bytes(static_cast<double>(d.max)).c_str(),
                  r.steps_over_bound,
                  Bytes(static_cast<double>(r.step_width_bound)).c_str());
    add("step width", line);
    if (widest != nullptr) {
      std::snprintf(line, sizeof(line),
                    "->L%d at %.0f s: %" PRIu64 " files, %s from above + "
                    "%" PRIu64 " files, %s below (%s)",
                    widest->output_level, widest->time_s, widest->upper_files,
                    Bytes(static_cast<double>(widest->upper_bytes)).c_str(),
                    widest->level_files,
                    Bytes(static_cast<double>(widest->level_bytes)).c_str(),
                    widest->reason.c_str());
      add("widest compaction", line);
    }
  }

  const StallEpisode* longest = nullptr;
  for (const StallEpisode& e : r.stall_episodes) {
    if (longest == nullptr || e.duration_s > longest->duration_s) {
      longest = &e;
    }
  }
  if (longest != nullptr) {
    std::string levels;
    for (int level : longest->output_levels) {
      levels += (levels.empty() ? "L" : ",L") + std::to_string(level);
    }
    std::snprintf(line, sizeof(line),
                  "longest stall: %" PRIu64 " compactions into %s, %s",
                  longest->compactions, levels.empty() ? "-" : levels.c_str(),
                  Bytes(static_cast<double>(longest->compacted_bytes)).c_str());
    add("compaction chain", line);
  }

  const uint64_t l1_files = r.l1.good + r.l1.poor;
  std::snprintf(line, sizeof(line),
                "%.0f%% good (%" PRIu64 " good, %" PRIu64
                " poor; bound %s of L2 overlap)",
                l1_files == 0 ? 0.0 : 100.0 * r.l1.good / l1_files, r.l1.good,
                r.l1.poor,
                Bytes(static_cast<double>(r.l1.overlap_bound)).c_str());
  add("L1 vSSTs", line);

  std::string shape;
  for (size_t l = 0; l < r.level_bytes.size(); ++l) {
    if (r.level_files[l] == 0) {
      continue;
    }
    std::snprintf(line, sizeof(line), "%sL%zu %s/%" PRIu64 " files",
                  shape.empty() ? "" : ", ", l,
                  Bytes(static_cast<double>(r.level_bytes[l])).c_str(),
                  r.level_files[l]);
    shape += line;
  }
  add("tree", shape.empty() ? "empty" : shape);

  std::snprintf(line, sizeof(line),
                "%.2f us/op (%.1f s CPU over %" PRIu64 " operations)",
                r.cpu_us_per_op, r.cpu_s, r.operations);
  add("CPU", line);
  return out;
}

}  // namespace ROCKSDB_NAMESPACE
