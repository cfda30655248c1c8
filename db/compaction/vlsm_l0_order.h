// The L0 order rule of the vLSM layouts, checked on every compaction that
// starts (CompactionPicker::RegisterCompaction, patch 0008) and on the
// inputs a user gives CompactFiles. Reads search L0 newest first: a
// compaction that moves a newer L0 file's keys below while an older
// overlapping L0 file stays would let the older versions shadow the newer.
// Spec: docs/vlsm.md.
#pragma once

#include <vector>

#include "options/vlsm_layout.h"
#include "rocksdb/status.h"

namespace ROCKSDB_NAMESPACE {

class Comparator;
class Compaction;
class Logger;
struct CompactionInputFiles;
struct FileMetaData;

// The L0 order rule of the vLSM layouts for a compaction about to start.
// Reads search L0 newest file first, then L1, L2, ...; a compaction that
// moves an L0 file's keys to L1 while an older L0 file that overlaps it stays
// behind makes the older versions shadow the newer (issue 19: a lost update).
// So, under kVlsm and kVlsmRanged:
//  - L0 never compacts into L0;
//  - under kVlsm, an automatic compaction takes exactly the oldest L0 file;
//  - any compaction that takes an L0 file takes every older L0 file whose key
//    range overlaps it (CompactRange does; CompactFiles adds every older L0
//    file, as upstream does for every compaction_pri).
// And under every compaction_pri (a column family may switch away from
// kVlsmRanged with split flushes in L0): a compaction into L0 takes all the
// L0 files of an epoch it takes one of. The pieces of one split flush share
// its epoch, and L0 -> L0 output takes its inputs' smallest epoch: with some
// of a flush's pieces left behind it would overlap them at the same epoch,
// which VersionBuilder rejects as corruption.
// `layout` is the column family's (MutableCFOptions::vlsm_layout); messages
// name the compaction_pri that selects it. l0_newest_first is the version's
// L0, as a VersionStorageInfo keeps it. InvalidArgument naming the files when
// a rule is broken; OK for compactions without L0 inputs.
Status VlsmCheckL0Order(VlsmLayout layout,
                        const std::vector<CompactionInputFiles>& inputs,
                        int output_level,
                        const std::vector<FileMetaData*>& l0_newest_first,
                        bool automatic, const Comparator* ucmp);

// The same for a built compaction, as CompactionPicker::RegisterCompaction
// checks every compaction that starts (ingestion's placeholder compactions
// have no real inputs and pass).
Status VlsmCheckL0Order(const Compaction& c);

// CompactionPicker::RegisterCompaction's admission of c (patch 0008): true if
// c keeps the L0 order rule (VlsmCheckL0Order). The vLSM layouts' automatic
// picks keep it by construction and CompactFiles checks it first, so under
// them a refusal is a bug: an assertion in debug builds. Stock intra-L0 picks
// may break the epoch rule after a switch away from kVlsmRanged: refused, they
// wait until L0 -> L1 has taken the flush's pieces. Every refusal is logged
// to `logger`, c's files are released, and false tells the caller to drop c.
bool VlsmAdmitCompaction(Compaction* c, Logger* logger);

}  // namespace ROCKSDB_NAMESPACE
