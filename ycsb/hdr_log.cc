// Written from HdrHistogram's format as its Java reference implementation
// defines it (AbstractHistogram.encodeIntoByteBuffer /
// encodeIntoCompressedByteBuffer, ZigZagEncoding, HistogramLogWriter).
#include "hdr_log.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <ctime>
#include <utility>

namespace ycsb {
namespace hdr {

size_t CountsIndex(uint64_t value) {
  // bucket: how many powers of two value is above the last value of bucket
  // 0 (which holds 0 .. subBucketCount - 1 at unit resolution).
  const uint64_t sub_bucket_mask = uint64_t(kSubBucketCount - 1) << kUnitMagnitude;
  const int leading_zero_count_base =
      64 - kUnitMagnitude - (kSubBucketHalfCountMagnitude + 1);
  int bucket = leading_zero_count_base - __builtin_clzll(value | sub_bucket_mask);
  // Buckets > 0 only use their top half of sub-buckets (the bottom half is
  // covered by the previous bucket), so each adds subBucketHalfCount slots.
  uint64_t sub_bucket = value >> (bucket + kUnitMagnitude);
  return (size_t(bucket + 1) << kSubBucketHalfCountMagnitude) + sub_bucket -
         (size_t{1} << kSubBucketHalfCountMagnitude);
}

uint64_t ValueFromIndex(size_t index) {
  const size_t half = size_t{1} << kSubBucketHalfCountMagnitude;
  int bucket = int(index >> kSubBucketHalfCountMagnitude) - 1;
  uint64_t sub_bucket = (index & (half - 1)) + half;
  if (bucket < 0) {  // bucket 0's bottom half
    sub_bucket -= half;
    bucket = 0;
  }
  return sub_bucket << (bucket + kUnitMagnitude);
}

uint64_t HighestEquivalent(uint64_t value) {
  size_t index = CountsIndex(value);
  int bucket = std::max(0, int(index >> kSubBucketHalfCountMagnitude) - 1);
  return ValueFromIndex(index) + (uint64_t{1} << (bucket + kUnitMagnitude)) - 1;
}

std::vector<uint64_t> ToMicrosCounts(const LatencyHistogram& h_ns,
                                     uint64_t* max_us) {
  const std::vector<uint64_t>& b = h_ns.buckets();
  size_t top = b.size();
  for (size_t i = b.size(); i-- > 0;) {
    if (b[i]) {
      top = i;
      break;
    }
  }
  *max_us = 0;
  if (top == b.size()) return {0};  // empty: HdrHistogram encodes one 0
  // YCSB records (end - start) / 1000 in integer arithmetic: floor, so a
  // sub-us latency is 0 us. Each bucket's samples go to its midpoint's us
  // value (clamped to the exact max, as LatencyHistogram::Percentile does);
  // one sample of the top bucket goes to the exact max, so the decoded max
  // is ours, not the top bucket's midpoint.
  auto to_us = [](uint64_t ns) {
    return std::min<uint64_t>(ns / 1000, uint64_t(kHighestTrackable));
  };
  *max_us = to_us(h_ns.Max());
  std::vector<uint64_t> counts(CountsIndex(*max_us) + 1, 0);
  for (size_t i = 0; i <= top; i++) {
    uint64_t c = b[i];
    if (c == 0) continue;
    if (i == top) {
      counts.back()++;
      c--;
    }
    uint64_t v = std::min(LatencyHistogram::BucketValue(i), h_ns.Max());
    counts[CountsIndex(to_us(v))] += c;
  }
  return counts;
}

void PutZigZagVarint(int64_t v, std::string* out) {
  uint64_t u = (uint64_t(v) << 1) ^ uint64_t(v >> 63);
  // LEB128-64b9B: 8 bytes of 7 bits with a continuation bit, then (only if
  // needed) a 9th byte holding the remaining 8 bits whole.
  for (int i = 0; i < 8; i++) {
    if ((u >> 7) == 0) {
      out->push_back(char(u));
      return;
    }
    out->push_back(char((u & 0x7f) | 0x80));
    u >>= 7;
  }
  out->push_back(char(u));
}

std::string EncodeCountsPayload(const std::vector<uint64_t>& counts) {
  std::string out;
  for (size_t i = 0; i < counts.size();) {
    uint64_t c = counts[i++];
    if (c != 0) {
      PutZigZagVarint(int64_t(c), &out);
      continue;
    }
    int64_t zeros = 1;
    while (i < counts.size() && counts[i] == 0) {
      zeros++;
      i++;
    }
    // Like the Java writer: a lone zero is written as the count 0.
    PutZigZagVarint(zeros > 1 ? -zeros : 0, &out);
  }
  return out;
}

namespace {
void PutBE(uint64_t v, int bytes, std::string* out) {
  for (int i = bytes - 1; i >= 0; i--) out->push_back(char((v >> (8 * i)) & 0xff));
}
}  // namespace

std::string EncodeV2(const std::vector<uint64_t>& counts) {
  std::string payload = EncodeCountsPayload(counts);
  std::string out;
  PutBE(kV2EncodingCookie, 4, &out);
  PutBE(payload.size(), 4, &out);
  PutBE(0, 4, &out);  // normalizingIndexOffset: never shifted
  PutBE(kSignificantDigits, 4, &out);
  PutBE(kLowestDiscernible, 8, &out);
  PutBE(kHighestTrackable, 8, &out);
  double ratio = 1.0;  // integerToDoubleValueConversionRatio
  uint64_t bits;
  memcpy(&bits, &ratio, sizeof(bits));
  PutBE(bits, 8, &out);
  return out + payload;
}

std::string Compress(const std::string& v2) {
  // compress2 writes a zlib stream (header + deflate + adler32), which is
  // what java.util.zip.Deflater produces; the Java writer uses level 9.
  uLongf len = compressBound(v2.size());
  std::string z(len, '\0');
  int rc = compress2(reinterpret_cast<Bytef*>(&z[0]), &len,
                     reinterpret_cast<const Bytef*>(v2.data()), v2.size(),
                     Z_BEST_COMPRESSION);
  if (rc != Z_OK) return std::string();  // only on out of memory
  std::string out;
  PutBE(kV2CompressedEncodingCookie, 4, &out);
  PutBE(len, 4, &out);
  return out + z.substr(0, len);
}

std::string Base64(const std::string& bytes) {
  static const char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (size_t i = 0; i < bytes.size(); i += 3) {
    uint32_t n = uint32_t(uint8_t(bytes[i])) << 16;
    if (i + 1 < bytes.size()) n |= uint32_t(uint8_t(bytes[i + 1])) << 8;
    if (i + 2 < bytes.size()) n |= uint8_t(bytes[i + 2]);
    out.push_back(kAlphabet[(n >> 18) & 63]);
    out.push_back(kAlphabet[(n >> 12) & 63]);
    out.push_back(i + 1 < bytes.size() ? kAlphabet[(n >> 6) & 63] : '=');
    out.push_back(i + 2 < bytes.size() ? kAlphabet[n & 63] : '=');
  }
  return out;
}

}  // namespace hdr

std::string EncodeHdrHistogramBase64(const LatencyHistogram& h_ns) {
  uint64_t max_us;
  return hdr::Base64(hdr::Compress(hdr::EncodeV2(hdr::ToMicrosCounts(h_ns, &max_us))));
}

namespace {
// Java's "%.3f" with Locale.US, without depending on the C locale.
std::string Fixed3(double x) {
  long long m = std::llround(x * 1000.0);
  unsigned long long a = m < 0 ? 0ULL - (unsigned long long)m : (unsigned long long)m;
  char buf[48];
  snprintf(buf, sizeof(buf), "%s%llu.%03llu", m < 0 ? "-" : "", a / 1000, a % 1000);
  return buf;
}
}  // namespace

std::unique_ptr<HdrLogWriter> HdrLogWriter::Open(const std::string& path,
                                                 double start_epoch_s,
                                                 std::string* error) {
  return OpenWithComment(path, start_epoch_s, "", error);
}

std::unique_ptr<HdrLogWriter> HdrLogWriter::OpenWithComment(
    const std::string& path, double start_epoch_s, const std::string& comment,
    std::string* error) {
  FILE* f = fopen(path.c_str(), "w");
  if (f == nullptr) {
    *error = "cannot create " + path + ": " + strerror(errno);
    return nullptr;
  }
  std::unique_ptr<HdrLogWriter> w(new HdrLogWriter(f));
  // The header YCSB writes (HistogramLogWriter's outputComment,
  // outputLogFormatVersion, outputStartTime, outputLegend). No BaseTime
  // line, as in YCSB: readers take timestamps more than a year before
  // StartTime as relative to it, and HdrHistogram_py's reader mishandles
  // an explicit BaseTime.
  std::string header;
  if (!comment.empty()) header += "#" + comment + "\n";
  header += "#[Histogram log format version 1.3]\n";
  // Java's Date.toString(): local time, "EEE MMM dd HH:mm:ss zzz yyyy".
  time_t t = time_t(std::floor(start_epoch_s));
  struct tm tm_local;
  char date[64] = "";
  if (localtime_r(&t, &tm_local) != nullptr) {
    strftime(date, sizeof(date), "%a %b %d %H:%M:%S %Z %Y", &tm_local);
  }
  header += "#[StartTime: " + Fixed3(start_epoch_s) + " (seconds since epoch), " +
            date + "]\n";
  header += "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
            "\"Interval_Compressed_Histogram\"\n";
  if (fputs(header.c_str(), f) == EOF) {
    *error = "cannot write " + path + ": " + strerror(errno);
    return nullptr;  // the destructor closes f
  }
  return w;
}

HdrLogWriter::~HdrLogWriter() { Close(); }

bool HdrLogWriter::WriteInterval(double start_s, double length_s,
                                 const LatencyHistogram& h_ns) {
  if (f_ == nullptr) return false;
  uint64_t max_us;
  std::string compressed =
      hdr::Compress(hdr::EncodeV2(hdr::ToMicrosCounts(h_ns, &max_us)));
  if (compressed.empty()) return false;  // zlib out of memory
  std::string encoded = hdr::Base64(compressed);
  // Interval_Max: the decoded histogram's getMaxValue() (the top of the max's
  // 3-digit range) over HistogramLogWriter's default maxValueUnitRatio 1e6,
  // which YCSB does not change.
  double max_field = double(hdr::HighestEquivalent(max_us)) / 1e6;
  std::string line = Fixed3(start_s) + "," + Fixed3(length_s) + "," +
                     Fixed3(max_field) + "," + encoded + "\n";
  if (fputs(line.c_str(), f_) == EOF) ok_ = false;
  return ok_;
}

bool HdrLogWriter::Close() {
  if (f_ == nullptr) return ok_;
  if (fflush(f_) != 0 || ferror(f_)) ok_ = false;
  if (fclose(f_) != 0) ok_ = false;
  f_ = nullptr;
  return ok_;
}

HdrOutput::HdrOutput(std::string prefix, double start_epoch_s)
    : prefix_(std::move(prefix)), start_epoch_s_(start_epoch_s) {}

HdrOutput::~HdrOutput() {
  std::string ignored;
  Close(&ignored);
}

bool HdrOutput::AddInterval(double start_s, double length_s,
                            const LatencyHistogram* intended_per_op,
                            const LatencyHistogram* service_per_op,
                            std::string* error) {
  bool ok = true;
  for (int op = 0; op < kOpTypes; op++) {
    // YCSB's measurement names are upper case: READ, READ-MODIFY-WRITE, ...
    std::string name = OpName(static_cast<OpType>(op));
    for (char& c : name) c = char(toupper(static_cast<unsigned char>(c)));
    std::string e;
    if (intended_per_op != nullptr &&
        !Add(op, "Intended-" + name, start_s, length_s, intended_per_op[op], &e) && ok) {
      ok = false;
      *error = e;
    }
    if (service_per_op != nullptr &&
        !Add(kOpTypes + op, name, start_s, length_s, service_per_op[op], &e) && ok) {
      ok = false;
      *error = e;
    }
  }
  return ok;
}

bool HdrOutput::Add(int slot, const std::string& name, double start_s,
                    double length_s, const LatencyHistogram& h,
                    std::string* error) {
  std::string path = prefix_ + name + ".hdr";
  if (!writers_[slot]) {
    if (h.Count() == 0) return true;  // YCSB creates a log on first use
    writers_[slot] = HdrLogWriter::OpenWithComment(
        path, start_epoch_s_, "[Logging for: " + name + "]", error);
    if (!writers_[slot]) return false;
    slot_paths_[slot] = path;
    paths_.push_back(path);
  }
  if (!writers_[slot]->WriteInterval(start_s, length_s, h)) {
    *error = "cannot write " + path;
    return false;
  }
  return true;
}

bool HdrOutput::Close(std::string* error) {
  bool ok = true;
  for (int slot = 0; slot < 2 * kOpTypes; slot++) {
    if (writers_[slot] && !writers_[slot]->Close() && ok) {
      ok = false;
      *error = "cannot write " + slot_paths_[slot];
    }
  }
  return ok;
}

std::vector<std::string> HdrOutput::paths() const { return paths_; }

}  // namespace ycsb
