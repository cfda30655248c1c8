// Read-paid L0 steps (compaction_pri = kVlsmRanged): at rest, the drain also
// moves into L1 the L0 files whose reads have already paid for the move.
//
// Why. The drain at rest (vlsm_drain_at_rest.h) stops at one sorted run of
// L0 over any key: going to zero would rewrite the L1 files under L0 after
// every write burst, I/O a write-only user never gets back. But a tree read
// at rest pays for that run on every read that meets it: one more filter
// probe for a Get over one of its files, one more child for every scan.
// Whether moving a file pays depends on how often reads meet it, which only
// the reads can tell. (On the drained 12 M-record tree, whose run is 10
// narrow files, moving the files reads met did not make reads faster: the
// gap to RocksDB there is below L0. The page:
// docs/results/rest-reads-read-paid-1region-12M.)
//
// The rule, rent or buy (LevelDB's allowed_seeks and Pebble's read-triggered
// compactions have the same shape): a file's reads so far buy a budget of
// compaction bytes; once the budget covers the file's step (the file, the
// older L0 files over it, the L1 files under it, as the drain's picker takes
// them), the step is taken. Rent or buy never spends more than twice what
// the better choice in hindsight would have.
//   - Reads are upstream's sampled count, FileMetaData::stats
//     .num_reads_sampled: one read in kFileReadSampleRate (1024) adds 1024
//     to every file a Get or MultiGet probes (its filter included), and, on
//     the sublevel read path, to every L0 file a sampled iterator opens (a
//     seek opens the file at or after its key: a narrow file is charged for
//     the scans that start in the gap before it). What the count misses is
//     what an L0 sublevel costs a scan by being a child of the merge at all,
//     which no one file's move removes.
//   - kVlsmL0ReadBytes prices one read that met an L0 file in bytes of
//     compaction input, by CPU time. Measured on this project's reference
//     machine on the drained 12 M-record tree: a Get took 8.01 us with the
//     one L0 run and 7.78 us on a copy with L0 compacted into L1 (0.23 us,
//     at most: that copy's L1 was rewritten too); the
//     drain's compactions used 1.15 CPU seconds for 147 MiB of input (7.5 ns
//     per byte): 0.23 us / 7.5 ns = 31 bytes.
//   - The picker decides: a read-paid seed's step is bounded by its budget
//     (and by max_compaction_bytes), so a file whose step costs more than
//     its reads have paid is not taken. It is declined, with what its step
//     cost, until its budget covers that or the next flush (VlsmRestClock
//     remembers), so the drain is not re-armed for it every second.
//
// Worked example, the reference tree: the drain left 10 L0 files, three of
// 0.5-1 MB and seven of 1.5-1.7 KB. A 1.5 KB file under one 2.7 MB L1 file
// has a step of 2.7 MB: bought after 2.7 MB / 32 = 85 K reads met it. A
// file over no L1 file moves for free (a trivial move) once its reads pay
// for its own bytes. Three minutes of one thread of scans, Gets and
// MultiGets (docs/results/rest-reads-read-paid-1region-12M) bought 8 or 9
// of the 10; the rest, met by few reads, stayed. A write-only burst's
// files are never read, and never bought.
//
// Where it runs: VlsmDrainHasWork (vlsm_drain_at_rest.h) arms the drain
// for a file whose budget covers at least its own bytes, and VlsmPickDrainStep
// tries its step within its budget, after the depth seeds: the same rest,
// bounded steps, stop at a flush and tag (kVlsmDrainAtRest). Not built:
// read-paid steps while writes run (L0 deep, under its triggers), where the
// due rule owns L0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

struct FileMetaData;
class VersionStorageInfo;

// Bytes of compaction input that cost as much as one read meeting an L0
// file (see the header).
constexpr uint64_t kVlsmL0ReadBytes = 32;

// The compaction bytes a file's sampled reads have paid for: reads x
// kVlsmL0ReadBytes, saturating.
uint64_t VlsmReadPaidBytes(const FileMetaData& file);

// File number -> the input bytes of the step it was declined for.
using VlsmDeclinedReadSteps = std::unordered_map<uint64_t, uint64_t>;

// A read-paid seed: an index into L0 (newest first, the form DueL0Seeds
// gives) and the bytes its step may take.
struct VlsmReadPaidSeed {
  size_t index = 0;
  uint64_t budget = 0;
};

// The read-paid seeds of vstorage's L0, most paid first: the files not
// being compacted whose budget covers at least their own bytes and, if
// declined, the step they were declined for.
std::vector<VlsmReadPaidSeed> ReadPaidSeedsOf(
    const VersionStorageInfo& vstorage, const VlsmDeclinedReadSteps& declined);

}  // namespace ROCKSDB_NAMESPACE
