// HdrHistogram log output: the encoding's pieces against values worked out
// by hand from the format, then a round trip through an independent decoder
// (tests/hdr_log_decode.py, standard-library Python written from the
// format), compared with LatencyHistogram's own figures.
#include "hdr_log.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace ycsb {
namespace {

std::string Hex(const std::string& s) {
  std::string out;
  char buf[4];
  for (unsigned char c : s) {
    snprintf(buf, sizeof(buf), "%02x", c);
    out += buf;
  }
  return out;
}

std::string Varint(int64_t v) {
  std::string s;
  hdr::PutZigZagVarint(v, &s);
  return Hex(s);
}

TEST(HdrLog, ZigZagVarintsOfKnownValues) {
  // zigzag: 0->0, -1->1, 1->2, ...; then 7 bits a byte, low group first.
  EXPECT_EQ("00", Varint(0));
  EXPECT_EQ("02", Varint(1));
  EXPECT_EQ("01", Varint(-1));
  EXPECT_EQ("7e", Varint(63));    // 126: the largest one-byte value
  EXPECT_EQ("8001", Varint(64));  // 128
  EXPECT_EQ("8101", Varint(-65));  // 129
  EXPECT_EQ("8080808010", Varint(int64_t{1} << 31));  // 2^32: group 4 = 16
  // zigzag 2^56 - 2 still fits 8 groups of 7 bits; 2^56 needs the 9th
  // byte, which carries 8 bits and no continuation bit.
  EXPECT_EQ("feffffffffffff7f", Varint((int64_t{1} << 55) - 1));
  EXPECT_EQ("808080808080808001", Varint(int64_t{1} << 55));
  EXPECT_EQ("feffffffffffffffff", Varint(INT64_MAX));
  EXPECT_EQ("ffffffffffffffffff", Varint(INT64_MIN));
}

TEST(HdrLog, ZeroRunsAreOneNegativeNumber) {
  // 3 zeros -> -3 (05), 5 (0a), a lone zero as the count 0 (00, as the
  // Java writer does), 7 (0e), 2 zeros -> -2 (03).
  EXPECT_EQ("050a000e03", Hex(hdr::EncodeCountsPayload({0, 0, 0, 5, 0, 7, 0, 0})));
  EXPECT_EQ("00", Hex(hdr::EncodeCountsPayload({0})));
  EXPECT_EQ("c801", Hex(hdr::EncodeCountsPayload({100})));
}

TEST(HdrLog, CountsIndexIsHdrHistogramsFor3Digits) {
  // subBucketCount 2048: 0..2047 one value per slot; then each power of two
  // adds 1024 slots of width 2, 4, ...
  EXPECT_EQ(0u, hdr::CountsIndex(0));
  EXPECT_EQ(2047u, hdr::CountsIndex(2047));
  EXPECT_EQ(2048u, hdr::CountsIndex(2048));
  EXPECT_EQ(2048u, hdr::CountsIndex(2049));
  EXPECT_EQ(2049u, hdr::CountsIndex(2050));
  EXPECT_EQ(3071u, hdr::CountsIndex(4095));
  EXPECT_EQ(3072u, hdr::CountsIndex(4096));
  EXPECT_EQ(4096u, hdr::ValueFromIndex(3072));
  EXPECT_EQ(1000u, hdr::HighestEquivalent(1000));
  EXPECT_EQ(2049u, hdr::HighestEquivalent(2048));
  EXPECT_EQ(5003u, hdr::HighestEquivalent(5000));
  for (uint64_t v = 1; v < (uint64_t{1} << 40); v = v * 17 / 16 + 1) {
    size_t i = hdr::CountsIndex(v);
    ASSERT_LE(hdr::ValueFromIndex(i), v);
    ASSERT_GE(hdr::HighestEquivalent(v), v);
    // 3 significant digits: a slot is at most 1/1024 of its values wide.
    ASSERT_LE(hdr::HighestEquivalent(v) - hdr::ValueFromIndex(i),
              std::max<uint64_t>(v / 1024, 1) - 1);
    ASSERT_EQ(i + 1, hdr::CountsIndex(hdr::HighestEquivalent(v) + 1));
  }
}

TEST(HdrLog, HeaderBytes) {
  std::string v2 = hdr::EncodeV2({0});
  ASSERT_EQ(41u, v2.size());
  EXPECT_EQ("1c849313"                // V2 encoding cookie | 0x10
            "00000001"                // payload length
            "00000000"                // normalizingIndexOffset
            "00000003"                // significant digits
            "0000000000000001"        // lowestDiscernibleValue
            "00000004189374bc"        // highestTrackableValue 17592186044
            "3ff0000000000000"        // conversion ratio 1.0
            "00",                     // payload: the empty histogram's 0
            Hex(v2));
  std::string c = hdr::Compress(v2);
  ASSERT_GT(c.size(), 10u);
  EXPECT_EQ("1c849314", Hex(c.substr(0, 4)));
  uint32_t len = (uint32_t(uint8_t(c[4])) << 24) | (uint32_t(uint8_t(c[5])) << 16) |
                 (uint32_t(uint8_t(c[6])) << 8) | uint8_t(c[7]);
  EXPECT_EQ(c.size() - 8, len);
  std::string back(64, '\0');
  uLongf back_len = back.size();
  ASSERT_EQ(Z_OK, uncompress(reinterpret_cast<Bytef*>(&back[0]), &back_len,
                             reinterpret_cast<const Bytef*>(c.data() + 8), len));
  EXPECT_EQ(v2, back.substr(0, back_len));
  EXPECT_EQ("TWFu", hdr::Base64("Man"));
  EXPECT_EQ("TWE=", hdr::Base64("Ma"));
  EXPECT_EQ("TQ==", hdr::Base64("M"));
}

TEST(HdrLog, MicrosConversion) {
  uint64_t max_us;
  EXPECT_EQ(std::vector<uint64_t>{0}, hdr::ToMicrosCounts(LatencyHistogram(), &max_us));
  EXPECT_EQ(0u, max_us);
  LatencyHistogram h;
  h.Record(999);        // sub-us: 0 us, as YCSB's integer division makes it
  h.Record(1000);       // 1 us
  h.Record(3'000'000);  // 3000 us, the max: kept exactly
  std::vector<uint64_t> c = hdr::ToMicrosCounts(h, &max_us);
  EXPECT_EQ(3000u, max_us);
  ASSERT_EQ(hdr::CountsIndex(3000) + 1, c.size());  // no trailing zeros
  EXPECT_EQ(1u, c[0]);
  EXPECT_EQ(1u, c[1]);
  EXPECT_EQ(1u, c.back());
}

// A minimal JSON reader for the decoder's output.
struct Json {
  double num = 0;
  std::string str;
  std::vector<Json> arr;
  std::map<std::string, Json> obj;
  const Json& operator[](const std::string& k) const {
    static const Json kNull;
    auto it = obj.find(k);
    return it == obj.end() ? kNull : it->second;
  }
};

bool ParseJson(const char*& p, Json* out) {
  while (isspace(static_cast<unsigned char>(*p))) p++;
  if (*p == '{' || *p == '[') {
    bool is_obj = *p++ == '{';
    while (true) {
      while (isspace(static_cast<unsigned char>(*p))) p++;
      if (*p == '}' || *p == ']') return ++p, true;
      if (*p == ',') {
        p++;
        continue;
      }
      Json key, value;
      if (is_obj && (!ParseJson(p, &key) || (p = strchr(p, ':')) == nullptr)) return false;
      if (is_obj) p++;
      if (!ParseJson(p, &value)) return false;
      if (is_obj) {
        out->obj[key.str] = value;
      } else {
        out->arr.push_back(value);
      }
    }
  }
  if (*p == '"') {
    for (p++; *p && *p != '"'; p++) {
      if (*p == '\\') p++;  // escapes: our strings have none that matter
      out->str.push_back(*p);
    }
    return *p++ == '"';
  }
  if (strncmp(p, "null", 4) == 0 || strncmp(p, "true", 4) == 0) return p += 4, true;
  if (strncmp(p, "false", 5) == 0) return p += 5, true;
  char* end;
  out->num = strtod(p, &end);
  if (end == p) return false;
  p = end;
  return true;
}

// Runs the independent decoder on `log`.
Json Decode(const std::string& log) {
  const char* py = getenv("YCSB_PYTHON3");
  std::string cmd = std::string(py && *py ? py : "python3") + " '" + HDR_LOG_DECODE_PY +
                    "' '" + log + "' 50 90 99 99.9 100";
  FILE* f = popen(cmd.c_str(), "r");
  EXPECT_NE(nullptr, f) << cmd;
  Json j;
  if (f == nullptr) return j;
  std::string text;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0) text.append(buf, n);
  EXPECT_EQ(0, pclose(f)) << cmd;
  const char* p = text.c_str();
  EXPECT_TRUE(ParseJson(p, &j)) << text;
  return j;
}

std::string TmpDir() {
  const char* t = getenv("TEST_TMPDIR");
  return t ? t : "/tmp";
}

const double kPercentiles[] = {50, 90, 99, 99.9, 100};
const char* const kPercentileKeys[] = {"50.0", "90.0", "99.0", "99.9", "100.0"};

// Both ranks agree, so both pick the same sample: LatencyHistogram's
// ceil(p% * n) and HdrHistogram's, which takes 1 ulp off p first. (They can
// differ by one where p% * n is an integer in exact arithmetic but not in
// floating point; the counts below avoid that.)
void ExpectSameRank(double p, uint64_t n) {
  uint64_t ours = static_cast<uint64_t>(std::ceil(p / 100.0 * n));
  uint64_t hdrs = static_cast<uint64_t>(
      std::ceil(std::nextafter(p, -INFINITY) * n / 100.0));
  ASSERT_EQ(std::max<uint64_t>(ours, 1), std::max<uint64_t>(hdrs, 1)) << p << " " << n;
}

// A value we report as ours_ns, decoded from the log: it went to the us
// value floor(ours_ns / 1000) (YCSB's truncation, so > ours_us - 1 and <=
// ours_us), which HdrHistogram reports as the top of its 3-digit slot: up to
// max(1, u / 1024) - 1 more. Nothing else may differ.
void ExpectConverted(double decoded_us, uint64_t ours_ns, const std::string& what) {
  double ours_us = ours_ns / 1e3;
  EXPECT_GT(decoded_us, ours_us - 1) << what;
  EXPECT_LE(decoded_us, ours_us + ours_us / 1024) << what;
}

TEST(HdrLog, RoundTripThroughAnIndependentDecoder) {
  // Latencies from 0 ns to seconds: log-uniform plus edge values.
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> exp10(2, 9.7);  // 100 ns .. 5 s
  const uint64_t kCounts[] = {1237, 0, 2001, 777};  // one empty interval
  std::vector<LatencyHistogram> intervals(4);
  LatencyHistogram total;
  for (int i = 0; i < 4; i++) {
    for (uint64_t k = 0; k < kCounts[i]; k++) {
      uint64_t v = static_cast<uint64_t>(std::pow(10, exp10(rng)));
      if (k < 6) v = std::vector<uint64_t>{0, 500, 999, 1000, 1'000'000'000, 3'700'000'123}[k];
      intervals[i].Record(v);
    }
    total.Merge(intervals[i]);
  }
  const double kStart = 1700000000.123;
  std::string path = TmpDir() + "/hdr_log_test_roundtrip.hdr";
  std::string error;
  auto w = HdrLogWriter::Open(path, kStart, &error);
  ASSERT_NE(nullptr, w) << error;
  for (int i = 0; i < 4; i++) ASSERT_TRUE(w->WriteInterval(10.0 * i, 10.0, intervals[i]));
  ASSERT_TRUE(w->Close());

  // The header, as HistogramLogWriter writes it.
  std::ifstream in(path);
  std::string l1, l2, l3;
  std::getline(in, l1);
  std::getline(in, l2);
  std::getline(in, l3);
  EXPECT_EQ("#[Histogram log format version 1.3]", l1);
  EXPECT_EQ(0u, l2.find("#[StartTime: 1700000000.123 (seconds since epoch), ")) << l2;
  EXPECT_EQ("\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
            "\"Interval_Compressed_Histogram\"",
            l3);

  Json j = Decode(path);
  EXPECT_DOUBLE_EQ(kStart, j["start_time"].num);
  ASSERT_EQ(4u, j["intervals"].arr.size());
  for (int i = 0; i < 4; i++) {
    const Json& d = j["intervals"].arr[i];
    const LatencyHistogram& h = intervals[i];
    std::string what = "interval " + std::to_string(i);
    EXPECT_DOUBLE_EQ(10.0 * i, d["start"].num) << what;
    EXPECT_DOUBLE_EQ(10.0, d["length"].num) << what;
    EXPECT_EQ(double(h.Count()), d["count"].num) << what;
    EXPECT_EQ(3, d["header"]["significant_digits"].num) << what;
    if (h.Count() == 0) {
      EXPECT_EQ(0, d["max"].num) << what;
      EXPECT_EQ(0, d["max_field"].num) << what;
      continue;
    }
    ExpectConverted(d["max"].num, h.Max(), what + " max");
    // Interval_Max: the decoded max in the writer's unit ratio 1e6, %.3f.
    EXPECT_NEAR(d["max"].num / 1e6, d["max_field"].num, 0.0005 + 1e-12) << what;
    for (int k = 0; k < 5; k++) {
      ExpectSameRank(kPercentiles[k], h.Count());
      ExpectConverted(d["percentiles"][kPercentileKeys[k]].num, h.Percentile(kPercentiles[k]),
                      what + " p" + kPercentileKeys[k]);
    }
  }
  // The sum of the intervals. Its samples of one ns bucket were placed per
  // interval (clamped to each interval's max), so a total's percentile is
  // only known to lie in the us range of our bucket for it.
  const Json& t = j["total"];
  EXPECT_EQ(double(total.Count()), t["count"].num);
  ExpectConverted(t["max"].num, total.Max(), "total max");
  for (int k = 0; k < 4; k++) {
    ExpectSameRank(kPercentiles[k], total.Count());
    size_t b = LatencyHistogram::BucketOf(total.Percentile(kPercentiles[k]));
    uint64_t lo_us = LatencyHistogram::BucketLow(b) / 1000;
    uint64_t hi_us = (LatencyHistogram::BucketLow(b) + LatencyHistogram::BucketWidth(b) - 1) / 1000;
    double got = t["percentiles"][kPercentileKeys[k]].num;
    EXPECT_GE(got, lo_us) << kPercentileKeys[k];
    EXPECT_LE(got, hi_us + hi_us / 1024.0) << kPercentileKeys[k];
  }
}

TEST(HdrLog, EmptyHistogramDecodes) {
  std::string path = TmpDir() + "/hdr_log_test_empty.hdr";
  std::string error;
  auto w = HdrLogWriter::Open(path, 1700000000.0, &error);
  ASSERT_NE(nullptr, w) << error;
  ASSERT_TRUE(w->WriteInterval(0, 1, LatencyHistogram()));
  ASSERT_TRUE(w->Close());
  Json j = Decode(path);
  ASSERT_EQ(1u, j["intervals"].arr.size());
  EXPECT_EQ(0, j["intervals"].arr[0]["count"].num);
  EXPECT_EQ(0, j["intervals"].arr[0]["max"].num);
  EXPECT_EQ(0, j["intervals"].arr[0]["percentiles"]["99.0"].num);
}

std::vector<std::string> Lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  return lines;
}

TEST(HdrLog, PerOperationFilesAreNamedAsYcsbNamesThem) {
  std::string prefix = TmpDir() + "/hdr_log_test_ops_";
  for (const char* name : {"READ", "Intended-READ", "READ-MODIFY-WRITE",
                           "Intended-READ-MODIFY-WRITE", "INSERT", "Intended-INSERT"}) {
    remove((prefix + name + ".hdr").c_str());
  }
  HdrOutput out(prefix, 1700000000.0);
  LatencyHistogram intended[kOpTypes], service[kOpTypes];
  std::string error;
  // Interval 0: reads only. Interval 1: reads and read-modify-writes.
  // Interval 2: nothing. Inserts never.
  intended[int(OpType::kRead)].Record(2'000'000);
  service[int(OpType::kRead)].Record(1'000'000);
  ASSERT_TRUE(out.AddInterval(0, 1, intended, service, &error)) << error;
  intended[int(OpType::kReadModifyWrite)].Record(5'000'000);
  service[int(OpType::kReadModifyWrite)].Record(4'000'000);
  ASSERT_TRUE(out.AddInterval(1, 1, intended, service, &error)) << error;
  for (int op = 0; op < kOpTypes; op++) {
    intended[op].Clear();
    service[op].Clear();
  }
  ASSERT_TRUE(out.AddInterval(2, 1, intended, service, &error)) << error;
  ASSERT_TRUE(out.Close(&error)) << error;

  std::vector<std::string> paths = out.paths();
  std::sort(paths.begin(), paths.end());
  std::vector<std::string> want = {prefix + "Intended-READ-MODIFY-WRITE.hdr",
                                   prefix + "Intended-READ.hdr",
                                   prefix + "READ-MODIFY-WRITE.hdr", prefix + "READ.hdr"};
  EXPECT_EQ(want, paths);
  EXPECT_EQ(nullptr, fopen((prefix + "INSERT.hdr").c_str(), "r"));

  std::vector<std::string> lines = Lines(prefix + "Intended-READ.hdr");
  ASSERT_GE(lines.size(), 1u);
  EXPECT_EQ("#[Logging for: Intended-READ]", lines[0]);  // YCSB's first line
  Json r = Decode(prefix + "Intended-READ.hdr");
  ASSERT_EQ(3u, r["intervals"].arr.size());  // every interval once opened
  EXPECT_EQ(1, r["intervals"].arr[0]["count"].num);
  EXPECT_EQ(2000, r["intervals"].arr[0]["max"].num);  // 2000 us, 3 digits
  EXPECT_EQ(0, r["intervals"].arr[2]["count"].num);
  Json rmw = Decode(prefix + "READ-MODIFY-WRITE.hdr");
  ASSERT_EQ(2u, rmw["intervals"].arr.size());  // opened at interval 1
  EXPECT_DOUBLE_EQ(1.0, rmw["intervals"].arr[0]["start"].num);
  EXPECT_EQ(4001, rmw["intervals"].arr[0]["max"].num);  // 4000's slot top
}

TEST(HdrLog, OpenFailsWithAnError) {
  std::string error;
  EXPECT_EQ(nullptr, HdrLogWriter::Open("/nonexistent-dir/x.hdr", 0, &error));
  EXPECT_NE(std::string::npos, error.find("/nonexistent-dir/x.hdr")) << error;
}

}  // namespace
}  // namespace ycsb
