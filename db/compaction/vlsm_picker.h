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
//   Priority   VlsmPutL0Last: every level from L1 down that is over its
//              target compacts before L0 -> L1.
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

// Adjusts the compaction scores of one version (indexed by level, before
// upstream sorts them) so that every level from L1 down whose score is >= 1
// (over its target) ranks above L0, keeping upstream's order among those
// levels. Why: with level0_file_num_compaction_trigger = 1, L0's score is its
// file count and outranks every size-based score, so with few compaction
// threads L1 and L2 never get a turn. A ballooning L1 makes each L0 -> L1
// step (which rewrites the L1 range it covers, usually all of L1) wider and
// slower; a ballooning L2 makes L1 files overlap more of it, so vSSTs turn
// poor and L1 -> L2 steps grow. Draining the levels first keeps every step
// narrow; L0 is the queue that absorbs writes meanwhile, and its slowdown and
// stop triggers keep their meaning.
void VlsmPutL0Last(int max_input_level, std::vector<double>* scores_by_level);

}  // namespace ROCKSDB_NAMESPACE
