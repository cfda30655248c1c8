// A compaction's readahead, bounded by the end of the file it reads.
//
// A compaction reads each input file front to back through a prefetch
// buffer that asks for compaction_readahead_size (2 MiB by default) at a
// time (FilePrefetchBuffer::Prefetch, for_compaction). With direct I/O
// (use_direct_reads) RandomAccessFileReader charges a rate limiter for the
// whole aligned request before the read returns short at the file's end,
// so every file's last readahead was charged in full although no device
// reads past a file's end.
//
// Worked example, 2 MiB readahead, 4 KiB pages:
//
//     file            first block   asked for              charged   read
//     1.3 MiB piece   [0, 4 KiB)    [0, 2 MiB + 4 KiB)     2.0 MiB   1.3 MiB
//     8 MiB vSST      last reads    [7.2 MiB, 9.2 MiB)     2.0 MiB   0.8 MiB
//     bounded         the same      [.., 1.3 / 8 MiB)      what is read
//
// Over a device-limited load (four regions, one 100 MiB/s kAllIo limiter)
// the ranged layout, whose inputs are flush pieces of a few MiB and 8 MiB
// vSSTs, was charged 3.1 GB more than its compactions read and wrote
// (12.7 GB charged at IO_LOW): a quarter of "the device" went to bytes past
// files' ends, against about 1% for RocksDB's 64 MiB files. Bounding the
// readahead charges what is read; the reads themselves are the same.
#pragma once

#include <cstdint>
#include <functional>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

// A FilePrefetchBuffer readahead callback (readaheadsize_cb) for a
// compaction's reads of one file of `file_size` bytes: it lowers the end of
// each prefetch that starts before the file's end to that end (a block of
// the file always starts before it); one that does not start before it is
// left as asked. Patch 0024 hands
// it to the buffer BlockPrefetcher makes for a compaction's reads.
std::function<void(bool, uint64_t&, uint64_t&)> CompactionReadaheadBoundedBy(
    uint64_t file_size);

}  // namespace ROCKSDB_NAMESPACE
