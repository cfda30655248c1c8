#!/usr/bin/env python3
"""Decode an HdrHistogram interval log (HistogramLogWriter's format) and print
JSON, independently of our C++ encoder: written from the format as HdrHistogram
defines it, with only the standard library.

  hdr_log_decode.py LOG [PERCENTILE ...]   (default 50 90 99 99.9 100)

Output: {"start_time", "base_time", "intervals": [...], "total": {...}}; each
interval has start, length, max_field (the line's Interval_Max), and the
decoded histogram's count, max and percentiles (computed as HdrHistogram's
getValueAtPercentile does); "total" is the sum of all intervals. Exits non-zero
with a message on anything that does not follow the format.
"""
import base64
import json
import math
import struct
import sys
import zlib

V2_ENCODING_COOKIE_BASE = 0x1C849303
V2_COMPRESSED_COOKIE_BASE = 0x1C849304


def fail(msg):
    sys.stderr.write("hdr_log_decode: %s\n" % msg)
    sys.exit(1)


class Layout(object):
    """HdrHistogram's bucket layout for (lowestDiscernibleValue, digits)."""

    def __init__(self, lowest, highest, digits):
        if lowest < 1 or digits < 0 or digits > 5 or highest < 2 * lowest:
            fail("bad histogram parameters %d %d %d" % (lowest, highest, digits))
        largest_single_unit = 2 * 10 ** digits
        self.unit_magnitude = int(math.floor(math.log2(lowest)))
        sub_bucket_count_magnitude = int(math.ceil(math.log2(largest_single_unit)))
        self.half_magnitude = sub_bucket_count_magnitude - 1
        self.sub_bucket_count = 1 << sub_bucket_count_magnitude
        self.half_count = self.sub_bucket_count // 2
        # The counts array a reader allocates for `highest`: buckets needed to
        # cover it, each adding half_count slots (bucket 0 has two halves).
        smallest_untrackable = self.sub_bucket_count << self.unit_magnitude
        buckets = 1
        while smallest_untrackable <= highest:
            if smallest_untrackable > (2 ** 63 - 1) // 2:
                buckets += 1
                break
            smallest_untrackable <<= 1
            buckets += 1
        self.counts_len = (buckets + 1) * self.half_count

    def bucket_of_index(self, index):
        return max(0, (index >> self.half_magnitude) - 1)

    def value_from_index(self, index):
        bucket = (index >> self.half_magnitude) - 1
        sub = (index & (self.half_count - 1)) + self.half_count
        if bucket < 0:
            sub -= self.half_count
            bucket = 0
        return sub << (bucket + self.unit_magnitude)

    def highest_equivalent_of_index(self, index):
        width = 1 << (self.bucket_of_index(index) + self.unit_magnitude)
        return self.value_from_index(index) + width - 1


def read_zigzag_varint(data, pos):
    """LEB128-64b9B + ZigZag: 8 groups of 7 bits, then a 9th byte of 8 bits."""
    value = 0
    shift = 0
    for i in range(9):
        if pos >= len(data):
            fail("varint runs past the payload")
        b = data[pos]
        pos += 1
        if i == 8:
            value |= b << 56
            break
        value |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            break
    return (value >> 1) ^ -(value & 1), pos


def decode_histogram(b64):
    raw = base64.b64decode(b64, validate=True)
    if len(raw) < 8:
        fail("compressed histogram shorter than its header")
    cookie, zlen = struct.unpack(">ii", raw[:8])
    if cookie & ~0xF0 != V2_COMPRESSED_COOKIE_BASE:
        fail("compressed cookie %#x is not V2" % cookie)
    if zlen != len(raw) - 8:
        fail("compressed length %d, but %d bytes follow" % (zlen, len(raw) - 8))
    v2 = zlib.decompress(raw[8:])
    if len(v2) < 40:
        fail("encoding shorter than its 40-byte header")
    (cookie, payload_len, norm_offset, digits, lowest, highest,
     ratio) = struct.unpack(">iiiiqqd", v2[:40])
    if cookie & ~0xF0 != V2_ENCODING_COOKIE_BASE:
        fail("encoding cookie %#x is not V2" % cookie)
    if payload_len != len(v2) - 40:
        fail("payload length %d, but %d bytes follow" % (payload_len, len(v2) - 40))
    if norm_offset != 0:
        fail("normalizingIndexOffset %d not supported" % norm_offset)
    layout = Layout(lowest, highest, digits)
    counts = []
    pos = 40
    while pos < len(v2):
        v, pos = read_zigzag_varint(v2, pos)
        if v < 0:
            counts.extend([0] * -v)
        else:
            counts.append(v)
        if len(counts) > layout.counts_len:
            fail("%d counts, more than highestTrackableValue %d allows (%d)" %
                 (len(counts), highest, layout.counts_len))
    header = {"cookie": cookie, "significant_digits": digits, "lowest": lowest,
              "highest": highest, "ratio": ratio}
    return layout, counts, header


def value_at_percentile(layout, counts, p):
    """AbstractHistogram.getValueAtPercentile: rank ceil(p% of n) after taking
    1 ulp off p, at least 1; the highest value equivalent to that entry's."""
    total = sum(counts)
    if total == 0:
        return 0
    requested = min(max(math.nextafter(p, -math.inf), 0.0), 100.0)
    rank = max(int(math.ceil(requested * total / 100.0)), 1)
    seen = 0
    for i, c in enumerate(counts):
        seen += c
        if seen >= rank:
            if p == 0.0:
                return layout.value_from_index(i)
            return layout.highest_equivalent_of_index(i)
    return 0


def summarize(layout, counts, percentiles):
    nonzero = [i for i, c in enumerate(counts) if c]
    # getMaxValue(): highestEquivalentValue of the top entry, 0 when empty.
    mx = layout.highest_equivalent_of_index(nonzero[-1]) if nonzero else 0
    return {"count": sum(counts), "max": mx,
            "percentiles": {repr(p): value_at_percentile(layout, counts, p)
                            for p in percentiles}}


def main():
    if len(sys.argv) < 2:
        fail("usage: hdr_log_decode.py LOG [PERCENTILE ...]")
    percentiles = [float(a) for a in sys.argv[2:]] or [50.0, 90.0, 99.0, 99.9, 100.0]
    out = {"start_time": None, "base_time": None, "comments": [], "intervals": []}
    total_counts = []
    total_layout = None
    legend_seen = False
    with open(sys.argv[1]) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#[StartTime: "):
                out["start_time"] = float(line[len("#[StartTime: "):].split(" ")[0])
            elif line.startswith("#[BaseTime: "):
                out["base_time"] = float(line[len("#[BaseTime: "):].split(" ")[0])
            elif line.startswith("#"):
                out["comments"].append(line)
            elif line.startswith('"StartTimestamp"'):
                legend_seen = True
            elif line:
                fields = line.split(",")
                if fields[0].startswith("Tag="):
                    fields = fields[1:]
                if len(fields) != 4:
                    fail("interval line without 4 fields: %r" % line)
                layout, counts, header = decode_histogram(fields[3])
                interval = {"start": float(fields[0]), "length": float(fields[1]),
                            "max_field": float(fields[2]), "header": header}
                interval.update(summarize(layout, counts, percentiles))
                out["intervals"].append(interval)
                if total_layout is None:
                    total_layout = layout
                if len(total_counts) < len(counts):
                    total_counts.extend([0] * (len(counts) - len(total_counts)))
                for i, c in enumerate(counts):
                    total_counts[i] += c
    if not legend_seen:
        fail("no legend line")
    out["total"] = (summarize(total_layout, total_counts, percentiles)
                    if total_layout else {"count": 0, "max": 0, "percentiles": {}})
    json.dump(out, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
