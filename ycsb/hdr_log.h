// HdrHistogram interval logs, so HdrHistogram's tools (HistogramLogReader in
// Java/C/Python/JS, HistogramLogAnalyzer, hdr-plot) can read our latencies.
//
// We write what YCSB writes with -p hdrhistogram.fileoutput=true: one
// HistogramLogWriter log per measurement, values in microseconds, intervals
// as V2 compressed histograms (3 significant digits, like YCSB's
// `new Recorder(3)`), the interval max in the writer's default unit ratio
// (value / 1e6). Our LatencyHistogram buckets (ns, 2 significant digits)
// are converted bucket by bucket; see ToMicrosCounts().
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "core_workload.h"
#include "latency_histogram.h"

namespace ycsb {

// One HdrHistogram interval log (HistogramLogWriter's format, V2 compressed).
class HdrLogWriter {
 public:
  // Creates/truncates `path` and writes the header; start_epoch_s is the
  // wall-clock time (seconds since the Unix epoch) that interval start times
  // are relative to. nullptr and *error set on failure.
  static std::unique_ptr<HdrLogWriter> Open(const std::string& path,
                                            double start_epoch_s,
                                            std::string* error);
  ~HdrLogWriter();
  // Appends one interval [start_s, start_s + length_s) (seconds since
  // start_epoch_s) holding the values of h (ns; written in us). False on a
  // write error.
  bool WriteInterval(double start_s, double length_s,
                     const LatencyHistogram& h_ns);
  bool Close();  // flush; false on error (also called by the destructor)

 private:
  friend class HdrOutput;
  // `comment`, if not empty, becomes a first "#comment" line (YCSB writes
  // "[Logging for: NAME]").
  static std::unique_ptr<HdrLogWriter> OpenWithComment(
      const std::string& path, double start_epoch_s, const std::string& comment,
      std::string* error);
  explicit HdrLogWriter(FILE* f) : f_(f) {}
  FILE* f_;
  bool ok_ = true;  // no write failed so far
};

// The compressed V2 encoding of h (ns, encoded in us), base64: one log
// line's last field.
std::string EncodeHdrHistogramBase64(const LatencyHistogram& h_ns);

// Per-operation logs named as YCSB names them: PREFIX + "Intended-" + OP +
// ".hdr" (intended-start latency) and PREFIX + OP + ".hdr" (service time),
// OP upper case (READ, UPDATE, INSERT, SCAN, READ-MODIFY-WRITE). A file is
// opened when its operation first has a non-empty interval; from then on
// every interval is written, empty or not, as YCSB's status thread does.
class HdrOutput {
 public:
  HdrOutput(std::string prefix, double start_epoch_s);
  ~HdrOutput();
  // One status interval's per-operation histograms (arrays of kOpTypes,
  // indexed by static_cast<int>(OpType)); either may be nullptr to write no
  // logs of that kind. False + *error if a file cannot be written (the
  // other files are still written).
  bool AddInterval(double start_s, double length_s,
                   const LatencyHistogram* intended_per_op,
                   const LatencyHistogram* service_per_op, std::string* error);
  bool Close(std::string* error);
  std::vector<std::string> paths() const;  // files written so far

 private:
  bool Add(int slot, const std::string& name, double start_s, double length_s,
           const LatencyHistogram& h, std::string* error);
  std::string prefix_;
  double start_epoch_s_;
  // [0, kOpTypes): intended; [kOpTypes, 2 * kOpTypes): service time.
  std::unique_ptr<HdrLogWriter> writers_[2 * kOpTypes];
  std::string slot_paths_[2 * kOpTypes];
  std::vector<std::string> paths_;
};

// The pieces, exposed for the unit tests.
namespace hdr {
// The histogram we encode: lowestDiscernibleValue 1 (us), 3 significant
// digits (YCSB's Recorder(3)), so subBucketCount = 2048 (the power of two
// >= 2 * 10^3), subBucketHalfCountMagnitude 10, unitMagnitude 0.
constexpr int kSignificantDigits = 3;
constexpr int64_t kLowestDiscernible = 1;
constexpr int kUnitMagnitude = 0;
constexpr int kSubBucketHalfCountMagnitude = 10;
constexpr int64_t kSubBucketCount = int64_t{1} << (kSubBucketHalfCountMagnitude + 1);
// As far as LatencyHistogram tracks (it clamps above kMaxTrackable ns).
constexpr int64_t kHighestTrackable =
    static_cast<int64_t>(LatencyHistogram::kMaxTrackable / 1000);
constexpr uint32_t kV2EncodingCookie = 0x1c849303 | 0x10;
constexpr uint32_t kV2CompressedEncodingCookie = 0x1c849304 | 0x10;
constexpr size_t kHeaderSize = 40;

// HdrHistogram's countsArrayIndex(value) and its inverse (the lowest value
// of the index's range), and highestEquivalentValue(value).
size_t CountsIndex(uint64_t value);
uint64_t ValueFromIndex(size_t index);
uint64_t HighestEquivalent(uint64_t value);

// h's counts at HdrHistogram's indexes for us values, up to the index of the
// max (HdrHistogram encodes no trailing zeros past it); {0} when empty.
// *max_us: the largest us value recorded.
std::vector<uint64_t> ToMicrosCounts(const LatencyHistogram& h_ns,
                                     uint64_t* max_us);
// ZigZag then LEB128 (at most 9 bytes: the 9th carries 8 bits).
void PutZigZagVarint(int64_t v, std::string* out);
// The V2 counts payload: counts as varints, a run of n >= 2 zeros as -n.
std::string EncodeCountsPayload(const std::vector<uint64_t>& counts);
// The uncompressed V2 encoding: 40-byte big-endian header + payload.
std::string EncodeV2(const std::vector<uint64_t>& counts);
// The compressed wrapper: cookie, int32 length, zlib stream of `v2`.
std::string Compress(const std::string& v2);
std::string Base64(const std::string& bytes);
}  // namespace hdr

}  // namespace ycsb
