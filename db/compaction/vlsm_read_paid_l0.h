// Read-paid L0 steps (compaction_pri = kVlsmRanged): at rest, the drain also
// moves into L1 the L0 files that reads have already paid to move.
//
// Why. The drain at rest (vlsm_drain_at_rest.h) stops at one sorted run of
// L0 over any key: going to zero would rewrite all of L1 under it after
// every write burst, I/O a write-only user never gets back. But a tree that
// is read at rest pays for that run on every read: one more filter probe
// per Get and one more child per scan. On the drained 12 M-record tree
// (docs/results/rest-reads-file-size-1region-12M) L0's last run cost 3% of
// Get's rate and 6% of the scans'. Whether moving a file pays depends on
// how often it is read, which only the reads can tell.
//
// The rule (LevelDB's allowed_seeks and Pebble's read-triggered compactions
// have the same shape): a file is worth a step once the reads that met it
// cost as much as the largest step could: the rent-or-buy rule, which never
// spends more than twice what the best choice in hindsight would have.
//   - Reads are upstream's sampled count, FileMetaData::stats
//     .num_reads_sampled: one read in kFileReadSampleRate (1024) adds 1024
//     to every file a Get probes (its filter included), and to every L0 file
//     when an iterator is made. So a scan counts all of L0 though it pays for
//     the files over its keys only: scans trigger early by up to the number
//     of L0 files, Gets by their sampling noise.
//   - A step's cost is its input bytes, bounded by max_compaction_bytes
//     ((f + 2) * S_M); the rule charges the bound, so a file waits for the
//     reads of the widest step it could make.
//   - kVlsmL0ReadBytes converts: one L0 file met by a read costs what
//     compacting that many input bytes costs in CPU. Measured on this
//     project's reference machine, on the drained 12 M-record tree: a Get
//     took 8.01 us with its one L0 run and 7.78 us with L0 compacted into L1
//     (0.23 us per L0 file met); the drain's compactions took 1.15 CPU
//     seconds for 147 MiB of input (7.5 ns per byte). 0.23 us / 7.5 ns = 31
//     bytes; scans save more per file met (about 1.1 us), so 32 errs, if
//     anything, towards compacting late for Gets and early for scans.
//
// Worked example, the reference tree's settings: S_M 8 MiB, f 8, so
// max_compaction_bytes is 80 MiB and a file is read-paid after
// 80 MiB / 32 = 2.6 M reads met it. One thread of Gets at 125 K/s over the
// drained run's 10 files meets each file 12.5 K times a second: its steps
// start after about 210 s of reading, and then the reads saved pay for them
// within the next 210 s. A write-only burst's files are never read-paid,
// and a tree read a little pays nothing.
//
// Where it runs: VlsmArmDrain and VlsmPickDrainStep ask ReadPaidSeedsOf
// beside the drain's depth seeds, so the same rest, the same bounded steps,
// the same stop at a flush and the same tag (kVlsmDrainAtRest) hold. A file
// whose step does not fit max_compaction_bytes is declined until the next
// flush (VlsmRestClock remembers it), so the drain is not re-armed for it
// every second. Not built: read-paid steps while writes run (L0 deep, under
// its triggers), where the due rule owns L0.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_set>
#include <vector>

#include "rocksdb/rocksdb_namespace.h"

namespace ROCKSDB_NAMESPACE {

class VersionStorageInfo;

// The compaction input bytes that cost as much as one L0 file met by a read
// (see the header).
constexpr uint64_t kVlsmL0ReadBytes = 32;

// How many reads must meet an L0 file before it is worth a step of at most
// max_compaction_bytes; at least 1, so a file nobody read never is.
uint64_t VlsmReadsThatPayAStep(uint64_t max_compaction_bytes);

// The read-paid seeds of vstorage's L0 (each one file, as an index into L0
// newest first, the form DueL0Seeds gives): the files not being compacted,
// not in `declined` (file numbers), whose sampled reads reach
// VlsmReadsThatPayAStep; most read first.
std::vector<std::vector<size_t>> ReadPaidSeedsOf(
    const VersionStorageInfo& vstorage, uint64_t max_compaction_bytes,
    const std::unordered_set<uint64_t>& declined);

}  // namespace ROCKSDB_NAMESPACE
