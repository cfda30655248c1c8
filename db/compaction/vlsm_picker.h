// vLSM compaction (compaction_pri = kVlsm): the decisions that differ from
// stock leveled compaction, each reached from upstream code by one small hook
// (patches/0003-*). Spec: docs/vlsm.md.
//
//   L0 -> L1   PickOldestL0File: L0 is a FIFO queue; exactly the oldest L0
//              file is compacted, with the L1 files it overlaps. Never more
//              L0 files, never L0 -> L0.
//   L1 outputs VsstCutPolicyFor: overlap-aware vSSTs (vsst_cut_policy.h).
//   L1 -> L2   OrderL1FilesGoodFirst: good vSSTs by ascending overlap ratio,
//              then the rest by ratio, so a free file is always found.
//              VlsmL1CompactionScore: while L1 is over its target, L1 -> L2
//              goes before L0 -> L1.
//   L2+        stock leveled behaviour (kMinOverlappingRatio order).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "db/compaction/vsst_cut_policy.h"
#include "rocksdb/advanced_options.h"
#include "rocksdb/options.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

class Compaction;
class CompactionPicker;
class InternalKeyComparator;
class VersionStorageInfo;
struct CompactionInputFiles;
struct FileMetaData;
struct MutableCFOptions;

// The level vSSTs live in: the level L0 compacts into. vLSM requires
// level_compaction_dynamic_level_bytes=false, so it is always L1.
constexpr int kVlsmVsstLevel = 1;

// InvalidArgument naming the option to change when compaction_pri = kVlsm is
// combined with something it cannot work with; OK otherwise (and for every
// other compaction_pri).
Status ValidateVlsmOptions(const ColumnFamilyOptions& cf_options);

// The cut rule's parameters from the live options: S_M =
// target_file_size_base, f = max_bytes_for_level_multiplier.
VsstCutPolicy VsstCutPolicyFor(const MutableCFOptions& mutable_cf_options);

// The cut policy for the outputs of compaction c if they are vSSTs (vLSM
// mode, output level L1, not a penultimate-level output); nullopt otherwise,
// and then the stock cut rules apply.
std::optional<VsstCutPolicy> VsstCutPolicyForOutputsOf(
    const Compaction& c, bool is_penultimate_level);

// Fills start_level_inputs with exactly the oldest L0 file and returns true
// when that compaction may start now: no other L0 compaction runs, and
// neither the file nor the L1 files it overlaps take part in a running
// compaction. Otherwise returns false with start_level_inputs cleared: the
// queue waits for its head, it never skips it.
bool PickOldestL0File(const std::string& cf_name, VersionStorageInfo* vstorage,
                      CompactionPicker* picker, int output_level,
                      int penultimate_level,
                      CompactionInputFiles* start_level_inputs);

// The order in which L1 -> L2 considers L1 files (indexes into l1_files):
// good vSSTs (L2 overlap <= f * S_M) by ascending overlap ratio
// (overlapping L2 bytes / file size), then the poor ones by ascending ratio.
// Ties go to the smaller key. l1_files and l2_files are sorted by key, as in
// a VersionStorageInfo; one merge-like walk, O(|L1| + |L2|) plus the sort.
std::vector<size_t> OrderL1FilesGoodFirst(
    const InternalKeyComparator& icmp,
    const std::vector<FileMetaData*>& l1_files,
    const std::vector<FileMetaData*>& l2_files, const VsstCutPolicy& policy);

// L1's compaction score in vLSM mode. While L1 holds more than its target
// (counting files not already being compacted), L1 -> L2 must go before
// L0 -> L1: it makes the room the next L0 file needs, and every L0 -> L1
// compaction rewrites the L1 range it covers (usually all of L1), so a
// ballooning L1 makes each L0 -> L1 step wider and slower, which lets L0 grow,
// which upstream's scoring answers by favouring L0 even more. Returns a
// score above l0_score (and >= 1) in that case, stock_l1_score otherwise.
double VlsmL1CompactionScore(double l0_score, double stock_l1_score,
                             const std::vector<FileMetaData*>& l1_files,
                             uint64_t l1_target_bytes);

}  // namespace ROCKSDB_NAMESPACE
