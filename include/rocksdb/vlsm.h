// vLSM compaction: one call to turn it on.
//
// vLSM (Xanthakis et al., "vLSM: Low tail latency and I/O amplification in
// LSM-based KV stores") shortens the compaction chains behind write stalls:
// L0 is compacted one file at a time, oldest first; SSTs are small (S_M);
// L1 is built of overlap-aware variable-size SSTs so that L1 -> L2 steps stay
// narrow although L2 is Phi times L1 (Phi > f). It is selected per column
// family with compaction_pri = kVlsm; ConfigureVlsm() sets that and every
// option it depends on. docs/vlsm.md explains each choice.
//
// No public struct changes layout: a program built against stock RocksDB
// 9.10 headers runs on this library unchanged.
#pragma once

#include <cstdint>

#include "rocksdb/options.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

struct VlsmOptions {
  // S_M: the maximum SST size, and the memtable size. L1 vSSTs are between
  // S_M / f and S_M.
  uint64_t sst_size = 8 << 20;
  // f: the growth factor between every pair of levels except L1 -> L2.
  int growth = 8;
  // Phi: the growth factor L1 -> L2; a multiple of f (RocksDB's per-level
  // multipliers are integers).
  int l1_l2_growth = 32;
};

// Sets, from (S_M, f, Phi):
//   compaction_style = kCompactionStyleLevel, compaction_pri = kVlsm,
//   target_file_size_base = write_buffer_size = S_M,
//   target_file_size_multiplier = 1, max_write_buffer_number = 2,
//   max_bytes_for_level_base = f * S_M (L1),
//   max_bytes_for_level_multiplier = f,
//   max_bytes_for_level_multiplier_additional = {1, Phi / f, 1, ...}
//     (so L2 = Phi * L1 and every later level is f times the one above),
//   level_compaction_dynamic_level_bytes = false,
//   level0_file_num_compaction_trigger = 1,
//   max_compaction_bytes = (f + 2) * S_M (one file and the f + 1 files it
//     can overlap in the level below).
// num_levels is kept; it must be >= 3. On bad input returns InvalidArgument
// naming the rule broken, and leaves *cf_options unchanged.
Status ConfigureVlsm(ColumnFamilyOptions* cf_options,
                     const VlsmOptions& vlsm = VlsmOptions());

// OK, or InvalidArgument naming the option to change, for a column family
// that uses (or not) compaction_pri = kVlsm. DB::Open, CreateColumnFamily and
// SetOptions run this same function.
Status CheckVlsmOptions(const ColumnFamilyOptions& cf_options);

}  // namespace ROCKSDB_NAMESPACE
