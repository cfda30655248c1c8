// Split flushes for the ranged L0 layout (issue 20, item 1): a flush under
// compaction_pri = kVlsmRanged writes its memtables as several L0 files cut
// at guard keys, so that a later L0 -> L1 step can take one key range of L0
// (every flush's piece of it) instead of all of it.
//
// Patch 0011 hooks FlushJob::WriteLevel0Table (patch 0022 the same way WAL
// recovery's WriteLevel0TableForRecovery): it asks VlsmFlushSplitKeysFor
// where to cut; with no cut it calls BuildTable as stock does, otherwise a
// VlsmSplitFlushWriter, which calls the same BuildTable once per piece. Where
// to cut is decided in db/compaction/vlsm_flush_split_keys.h (FlushSplitKeys,
// where the reasons are); this file writes the pieces.
//
// Worked example. Guards "g" and "p"; the memtable holds a..z and a range
// deletion [e, r):
//
//     piece 0  keys < g        point keys a..f, tombstone [e, g)
//     piece 1  g <= keys < p   point keys g..o, tombstone [g, p)
//     piece 2  keys >= p       point keys p..z, tombstone [p, r)
//
// Every version of a user key falls in one piece (bounds are user keys), so
// merge operands, single deletes and snapshots are decided as in one file.
// Tombstones are clipped at the guards: a piece cut inside a tombstone ends at
// the guard's sentinel (g@kMaxSeq), which sorts before every key of g, so the
// pieces do not overlap as internal keys and may share the flush's epoch
// (VersionBuilder refuses same-epoch L0 files only when they overlap).
//
// Guards come from L1's file boundaries (or, while L1 is empty, from the
// first level below it that has files) and from the pieces L0 already holds.
//
// What stays as stock, and why:
//  - one piece when every level below L0 is empty, when the keys all fall in
//    one range, or the flush is too small to cut into pieces of at least
//    S_M / 8;
//  - whole flushes with blob files on (BuildTable makes a blob file per
//    call: pieces would fragment blobs), with user-defined timestamps (guards
//    are plain user keys), with atomic_flush (one more install path to prove,
//    for no user yet), and for MemPurge and repair (other paths, not
//    hooked). A whole L0 file is always legal: the ranged pick's closure
//    takes whatever it overlaps, but it makes that step wide: WAL recovery
//    (DBImpl::WriteLevel0TableForRecovery, patch 0022) is cut as a flush is,
//    since every reopen after an unflushed close or a crash goes through it.
//  - FlushJobInfo (OnFlushCompleted) names the first piece, with table
//    properties summed and sequence numbers widened over the pieces;
//    OnTableFileCreated fires per piece, with the flush's job id.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "db/version_edit.h"
#include "rocksdb/options.h"
#include "rocksdb/status.h"
#include "rocksdb/table_properties.h"
#include "table/internal_iterator.h"
#include "util/autovector.h"

namespace ROCKSDB_NAMESPACE {

class ColumnFamilyData;
class VersionSet;
struct ImmutableDBOptions;

class FileSystem;
struct FlushJobInfo;
class FragmentedRangeTombstoneIterator;
class ReadOnlyMemTable;
class InternalKeyComparator;
class SstFileManager;
class TableCache;
class VersionEdit;
class VersionStorageInfo;
struct MutableCFOptions;

// Where this flush of `mems` is cut (ascending user keys; empty: one file),
// from the version the flush started on: whole under the cases above, else
// where VlsmFlushCutsOf (db/compaction/vlsm_flush_split_keys.h) says. Call it
// with the DB mutex held: it reads which L0 files are being compacted.
std::vector<std::string> VlsmFlushSplitKeysFor(
    const MutableCFOptions& moptions, const ImmutableCFOptions& ioptions,
    bool atomic_flush, size_t timestamp_size, const VersionStorageInfo& base,
    const autovector<ReadOnlyMemTable*>& mems);

// Builds one L0 file from `iter` and `range_dels` into `meta` (whose file
// number it uses): FlushJob's BuildTable call, with its table properties,
// input entry count and memtable payload and garbage bytes.
using VlsmBuildFlushPiece = std::function<Status(
    InternalIterator* iter,
    std::vector<std::unique_ptr<FragmentedRangeTombstoneIterator>> range_dels,
    FileMetaData* meta, TableProperties* props, uint64_t* num_input_entries,
    uint64_t* memtable_payload_bytes, uint64_t* memtable_garbage_bytes)>;

// Writes one flush as L0 files cut at split keys, and keeps what the flush
// then reports: the pieces after the first (for its version edit, its stats
// and its listeners) and the flush's figures (table properties summed over
// the pieces, input entries, memtable payload and garbage bytes). A flush
// that is not cut never calls Write: the writer then holds no pieces, and
// the calls below add nothing.
class VlsmSplitFlushWriter {
 public:
  // For a flush in column family `cfd` of the DB whose versions and options
  // these are: file numbers for the pieces, and where to delete them from
  // if the flush fails.
  VlsmSplitFlushWriter(ColumnFamilyData* cfd, VersionSet* versions,
                       const ImmutableDBOptions& db_options);

  // Writes the flush as one L0 file per piece between `split_keys` (at
  // least one), each built by `build_piece` with `*meta`'s epoch, times and
  // temperature and, but for the first, a file number of its own. On
  // success `*meta` is the first non-empty piece (file size 0 if every piece
  // came out empty) and the writer holds the rest, in key order. The
  // figures are the flush's: input entries and the payload and garbage
  // bytes count each memtable range tombstone once, however many pieces it
  // was clipped into. The extra pieces are reported to the SstFileManager
  // here, when written (the flush's caller reports `*meta` once installed;
  // if the flush then fails, the obsolete-file purge deletes the pieces and
  // untracks them). If Write fails it leaves no piece on disk and `*meta`
  // has file size 0; a failure later in the flush leaves the pieces to that
  // purge, as stock leaves its one file. Each piece is reported to the sync
  // point "VlsmSplitFlushWriter:PieceWritten" (its FileMetaData) once
  // written, for tests that crash a flush between its pieces.
  Status Write(
      const std::vector<std::string>& split_keys, InternalIterator* memtables,
      std::vector<std::unique_ptr<FragmentedRangeTombstoneIterator>>
          range_dels,
      const VlsmBuildFlushPiece& build_piece, FileMetaData* meta);

  // The flush's figures after a successful Write.
  const TableProperties& props() const { return props_; }
  uint64_t input_entries() const { return input_entries_; }
  uint64_t payload_bytes() const { return payload_bytes_; }
  uint64_t garbage_bytes() const { return garbage_bytes_; }

  // Adds the pieces after the first to the flush's version edit, as the
  // flush adds the first.
  void AddMorePieces(VersionEdit* edit) const;
  // How many pieces follow the first, and the bytes they hold.
  int more_piece_count() const {
    return static_cast<int>(more_pieces_.size());
  }
  uint64_t MorePiecesBytes() const;
  // Widens the flush's sequence numbers in `info` (made from the first
  // piece) to cover the pieces after it, so that OnFlushCompleted reports
  // the flush.
  void WidenFlushJobInfo(FlushJobInfo* info) const;

 private:
  void DeletePieces(const std::vector<FileMetaData>& pieces) const;

  const InternalKeyComparator& icmp_;
  VersionSet* versions_;  // new file numbers
  FileSystem* fs_;
  const std::vector<DbPath>& cf_paths_;
  TableCache* table_cache_;
  SstFileManager* sst_file_manager_;  // may be null
  std::vector<FileMetaData> more_pieces_;
  TableProperties props_;
  uint64_t input_entries_ = 0;
  uint64_t payload_bytes_ = 0;
  uint64_t garbage_bytes_ = 0;
};

}  // namespace ROCKSDB_NAMESPACE
