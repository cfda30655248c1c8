#include "workload_properties.h"

#include <cerrno>
#include <cstdlib>
#include <fstream>
#include <set>

#include "util/vlsm_byte_size.h"

namespace ycsb {
namespace {

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// Every property the harness reads, plus the YCSB names that its core
// workload files carry but which mean nothing here (accepted, ignored).
const std::set<std::string>& KnownNames() {
  static const std::set<std::string> names = {
      // YCSB core workload
      "workload", "recordcount", "operationcount", "readproportion",
      "updateproportion", "insertproportion", "scanproportion",
      "readmodifywriteproportion", "requestdistribution", "fieldcount",
      "fieldlength", "fieldlengthdistribution", "readallfields",
      "writeallfields", "maxscanlength", "scanlengthdistribution",
      "insertorder", "insertstart", "insertcount", "hotspotdatafraction",
      "hotspotopnfraction", "zipfianconstant", "zeropadding",
      "keyprefix", "dataintegrity", "measurementtype", "fieldnameprefix",
      // client
      "threads", "target", "arrival", "maxexecutiontime", "db", "seed",
      "report", "mode", "status.interval", "generator.wake_us",
      "generator.batch",  // removed; named so that the error says so
      "floor.seconds",
      // HdrHistogram interval logs, with YCSB's names
      "hdrhistogram.fileoutput", "hdrhistogram.output.path",
      // find-sustainable
      "sustainable.start", "sustainable.factor", "sustainable.step_seconds",
      "sustainable.bisect_steps", "sustainable.max_rate",
      "sustainable.max_backlog_seconds", "sustainable.max_debt_growth",
      "sustainable.debt_tolerance", "sustainable.cycle_bytes",
      "sustainable.cycles_per_step", "sustainable.max_step_seconds",
      // null binding
      "null.busy_ns",
      // RocksDB binding
      "rocksdb.dir", "regions", "vlsm", "vlsm.sst_size", "vlsm.growth",
      "vlsm.phi", "vlsm.l0", "vlsm.ranged_l0_depth", "vlsm.preset", "rocksdb.sst_size", "rocksdb.l1_size", "rocksdb.growth",
      "rocksdb.num_levels", "rocksdb.wal", "rocksdb.sync",
      "rocksdb.destroy", "rocksdb.drain_at_rest", "rocksdb.wait_for_compaction", "direct_io", "compression", "block_cache_bytes",
      "rocksdb.bloom_bits", "rocksdb.rate_limit",
      "max_background_jobs", "lower_cpu_priority", "lsm_metrics",
      "rocksdb.write_breakdown", "rocksdb.write_breakdown.every",
      "rocksdb.options"};
  return names;
}

}  // namespace

void Properties::LoadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw PropertyError("cannot read workload file '" + path + "'");
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    number++;
    std::string t = Trim(line);
    if (t.empty() || t[0] == '#' || t[0] == '!') continue;
    size_t eq = t.find_first_of("=:");
    if (eq == std::string::npos) {
      throw PropertyError(path + ":" + std::to_string(number) +
                          ": expected name=value, got '" + t + "'");
    }
    Set(Trim(t.substr(0, eq)), Trim(t.substr(eq + 1)));
  }
}

void Properties::SetFromArgument(const std::string& assignment) {
  size_t eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw PropertyError("-p expects name=value, got '" + assignment + "'");
  }
  Set(Trim(assignment.substr(0, eq)), Trim(assignment.substr(eq + 1)));
}

void Properties::Set(const std::string& name, const std::string& value) {
  values_[name] = value;
}

bool Properties::Has(const std::string& name) const {
  return values_.count(name) > 0;
}

std::string Properties::GetString(const std::string& name,
                                  const std::string& default_value) const {
  auto it = values_.find(name);
  return it == values_.end() ? default_value : it->second;
}

uint64_t Properties::GetCount(const std::string& name,
                              uint64_t default_value) const {
  auto it = values_.find(name);
  if (it == values_.end()) return default_value;
  const std::string& v = it->second;
  // Accept "1e6" and "1000000.0" as well as plain digits: rates and counts
  // are often written in scientific notation.
  errno = 0;
  char* end = nullptr;
  double d = std::strtod(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size() || errno != 0 || d < 0 ||
      d != d || d > 1.8e19 || static_cast<double>(static_cast<uint64_t>(d)) != d) {
    throw PropertyError("property " + name +
                        " must be a non-negative whole number, got '" + v +
                        "'");
  }
  return static_cast<uint64_t>(d);
}

double Properties::GetDouble(const std::string& name,
                             double default_value) const {
  auto it = values_.find(name);
  if (it == values_.end()) return default_value;
  const std::string& v = it->second;
  errno = 0;
  char* end = nullptr;
  double d = std::strtod(v.c_str(), &end);
  if (v.empty() || end != v.c_str() + v.size() || errno != 0 || d != d) {
    throw PropertyError("property " + name + " must be a number, got '" + v +
                        "'");
  }
  return d;
}

bool Properties::GetBool(const std::string& name, bool default_value) const {
  auto it = values_.find(name);
  if (it == values_.end()) return default_value;
  const std::string& v = it->second;
  if (v == "true" || v == "1" || v == "yes") return true;
  if (v == "false" || v == "0" || v == "no") return false;
  throw PropertyError("property " + name + " must be true or false, got '" +
                      v + "'");
}

void Properties::CheckAllKnown() const {
  for (const auto& kv : values_) {
    if (!KnownNames().count(kv.first)) {
      throw PropertyError("unknown property '" + kv.first +
                          "' (see ycsb/README.md for the list)");
    }
  }
}

uint64_t ParseByteSize(const std::string& name, const std::string& text) {
  uint64_t bytes = 0;
  if (!rocksdb::VlsmParseByteSize(Trim(text), &bytes)) {
    throw PropertyError("property " + name +
                        " must be a byte count (digits, optional K/M/G), "
                        "got '" + text + "'");
  }
  return bytes;
}

}  // namespace ycsb
