#include "core_workload.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ycsb {

const char* OpName(OpType op) {
  switch (op) {
    case OpType::kRead: return "read";
    case OpType::kUpdate: return "update";
    case OpType::kInsert: return "insert";
    case OpType::kScan: return "scan";
    case OpType::kReadModifyWrite: return "read-modify-write";
  }
  return "?";
}

WorkloadSpec WorkloadSpec::FromProperties(const Properties& p) {
  WorkloadSpec s;
  s.record_count = p.GetCount("recordcount", 1000);
  s.operation_count = p.GetCount("operationcount", 1000);
  s.insert_start = p.GetCount("insertstart", 0);
  const char* names[kOpTypes] = {"readproportion", "updateproportion",
                                 "insertproportion", "scanproportion",
                                 "readmodifywriteproportion"};
  double sum = 0;
  for (int i = 0; i < kOpTypes; i++) {
    s.proportion[i] = p.GetDouble(names[i], s.proportion[i]);
    if (s.proportion[i] < 0 || s.proportion[i] > 1) {
      throw PropertyError(std::string("property ") + names[i] +
                          " must be in [0, 1]");
    }
    sum += s.proportion[i];
  }
  if (std::fabs(sum - 1.0) > 1e-6) {
    char buf[64];
    snprintf(buf, sizeof(buf), "%g", sum);
    throw PropertyError(
        std::string("operation proportions (read, update, insert, scan, "
                    "readmodifywrite) must sum to 1, they sum to ") + buf);
  }
  s.request_distribution = p.GetString("requestdistribution", "uniform");
  const std::string& d = s.request_distribution;
  if (d != "uniform" && d != "zipfian" && d != "latest" && d != "hotspot") {
    throw PropertyError("unknown requestdistribution '" + d +
                        "' (uniform, zipfian, latest or hotspot)");
  }
  s.field_count = p.GetCount("fieldcount", 10);
  s.field_length = p.GetCount("fieldlength", 100);
  std::string fld = p.GetString("fieldlengthdistribution", "constant");
  if (fld != "constant") {
    throw PropertyError("fieldlengthdistribution '" + fld +
                        "' is not supported (only constant)");
  }
  s.max_scan_length = std::max<uint64_t>(1, p.GetCount("maxscanlength", 1000));
  s.scan_length_distribution = p.GetString("scanlengthdistribution", "uniform");
  if (s.scan_length_distribution != "uniform" &&
      s.scan_length_distribution != "zipfian") {
    throw PropertyError("unknown scanlengthdistribution '" +
                        s.scan_length_distribution + "' (uniform or zipfian)");
  }
  std::string order = p.GetString("insertorder", "hashed");
  if (order != "hashed" && order != "ordered") {
    throw PropertyError("unknown insertorder '" + order +
                        "' (hashed or ordered)");
  }
  s.ordered_inserts = order == "ordered";
  s.hotspot_data_fraction = p.GetDouble("hotspotdatafraction", 0.2);
  s.hotspot_opn_fraction = p.GetDouble("hotspotopnfraction", 0.8);
  if (s.hotspot_data_fraction < 0 || s.hotspot_data_fraction > 1 ||
      s.hotspot_opn_fraction < 0 || s.hotspot_opn_fraction > 1) {
    throw PropertyError("hotspotdatafraction and hotspotopnfraction must be "
                        "in [0, 1]");
  }
  s.zipfian_constant = p.GetDouble("zipfianconstant", 0.99);
  if (!(s.zipfian_constant > 0 && s.zipfian_constant < 1)) {
    throw PropertyError("zipfianconstant must be in (0, 1)");
  }
  s.zero_padding = p.GetCount("zeropadding", 1);
  s.key_prefix = p.GetString("keyprefix", "user");
  return s;
}

CoreWorkload::CoreWorkload(const WorkloadSpec& spec, uint64_t seed)
    : spec_(spec),
      rng_(seed),
      next_insert_(spec.insert_start + spec.record_count),
      acknowledged_(spec.insert_start + spec.record_count) {
  double c = 0;
  for (int i = 0; i < kOpTypes; i++) {
    c += spec_.proportion[i];
    cumulative_[i] = c;
  }
  uint64_t lo = spec_.insert_start, n = std::max<uint64_t>(spec_.record_count, 1);
  const std::string& d = spec_.request_distribution;
  if (d == "uniform") {
    chooser_.reset(new UniformChooser(lo, n));
  } else if (d == "zipfian") {
    scrambled_ = new ScrambledZipfianChooser(n, spec_.zipfian_constant);
    chooser_.reset(scrambled_);
  } else if (d == "latest") {
    chooser_.reset(new LatestChooser(&acknowledged_, spec_.zipfian_constant));
  } else {
    chooser_.reset(new HotspotChooser(lo, n, spec_.hotspot_data_fraction,
                                      spec_.hotspot_opn_fraction));
  }
  if (spec_.scan_length_distribution == "zipfian") {
    scan_zipf_.reset(new ZipfianChooser(spec_.max_scan_length));
  }
}

Request CoreWorkload::NextLoad() {
  Request r;
  r.intended_ns = 0;
  r.key_number = next_insert_ - spec_.record_count;  // from insert_start
  next_insert_++;
  r.scan_length = 0;
  r.op = OpType::kInsert;
  return r;
}

uint64_t CoreWorkload::NextExistingKey() {
  uint64_t k = chooser_->Next(&rng_);
  if (scrambled_) {
    // Zipfian over everything inserted so far (YCSB does the same: the
    // scrambled space grows with the inserts).
    uint64_t known = acknowledged_.load(std::memory_order_relaxed);
    uint64_t count = known > spec_.insert_start ? known - spec_.insert_start : 1;
    scrambled_->SetItemCount(count);
    k += spec_.insert_start;
  }
  return k;
}

Request CoreWorkload::NextRun() {
  Request r;
  r.intended_ns = 0;
  r.scan_length = 0;
  double u = rng_.NextDouble();
  int op = 0;
  while (op < kOpTypes - 1 && u >= cumulative_[op]) op++;
  r.op = static_cast<OpType>(op);
  if (r.op == OpType::kInsert) {
    r.key_number = next_insert_++;
  } else {
    r.key_number = NextExistingKey();
  }
  if (r.op == OpType::kScan) {
    r.scan_length = static_cast<uint32_t>(
        scan_zipf_ ? scan_zipf_->Next(&rng_) + 1
                   : 1 + rng_.Uniform(spec_.max_scan_length));
  }
  return r;
}

std::string CoreWorkload::KeyOf(uint64_t key_number) const {
  uint64_t v = spec_.ordered_inserts ? key_number : FnvHash64(key_number);
  char digits[24];
  int n = snprintf(digits, sizeof(digits), "%llu",
                   static_cast<unsigned long long>(v));
  std::string key = spec_.key_prefix;
  if (static_cast<uint64_t>(n) < spec_.zero_padding) {
    key.append(spec_.zero_padding - n, '0');
  }
  key.append(digits, n);
  return key;
}

void CoreWorkload::AcknowledgeInsert(uint64_t key_number) {
  uint64_t want = key_number + 1;
  uint64_t cur = acknowledged_.load(std::memory_order_relaxed);
  while (cur < want && !acknowledged_.compare_exchange_weak(
                           cur, want, std::memory_order_relaxed)) {
  }
}

}  // namespace ycsb
