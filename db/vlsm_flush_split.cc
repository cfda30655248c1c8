#include "db/vlsm_flush_split.h"

#include <algorithm>
#include <utility>

#include "db/column_family.h"
#include "db/compaction/clipping_iterator.h"
#include "db/compaction/vlsm_flush_split_keys.h"
#include "db/dbformat.h"
#include "db/memtable.h"
#include "db/range_tombstone_fragmenter.h"
#include "db/table_cache.h"
#include "db/version_set.h"
#include "file/filename.h"
#include "file/sst_file_manager_impl.h"
#include "options/cf_options.h"
#include "rocksdb/file_system.h"
#include "rocksdb/listener.h"
#include "test_util/sync_point.h"
#include "util/vector_iterator.h"

namespace ROCKSDB_NAMESPACE {

std::vector<std::string> VlsmFlushSplitKeysFor(
    const MutableCFOptions& moptions, const ImmutableCFOptions& ioptions,
    bool atomic_flush, size_t timestamp_size, const VersionStorageInfo& base,
    const autovector<ReadOnlyMemTable*>& mems) {
  // The flushes that stay whole under every layout: see the header.
  if (moptions.enable_blob_files || timestamp_size > 0 || atomic_flush) {
    return {};
  }
  uint64_t flush_bytes = 0;
  for (const ReadOnlyMemTable* m : mems) {
    flush_bytes += m->GetDataSize();
  }
  return VlsmFlushCutsOf(moptions, ioptions, base, flush_bytes);
}

namespace {

// One fragment of a memtable range deletion: [start, end) at seq.
struct Fragment {
  std::string start;
  std::string end;
  SequenceNumber seq;
};

// What BuildTable counts as its input tombstones: their number and payload.
struct TombstoneInput {
  uint64_t count = 0;
  uint64_t payload_bytes = 0;
};

// The fragments of one piece, [lower, upper) (a null bound is open), as the
// iterator BuildTable takes; null when none falls in the piece. Adds to
// `*fed` what BuildTable will count of them as input.
std::unique_ptr<FragmentedRangeTombstoneIterator> ClippedTombstones(
    const std::vector<Fragment>& fragments, const std::string* lower,
    const std::string* upper, const InternalKeyComparator& icmp,
    TombstoneInput* fed) {
  const Comparator* ucmp = icmp.user_comparator();
  std::vector<std::string> keys;
  std::vector<std::string> values;
  for (const Fragment& f : fragments) {
    Slice start = f.start;
    Slice end = f.end;
    if (lower != nullptr && ucmp->Compare(start, *lower) < 0) {
      start = *lower;
    }
    if (upper != nullptr && ucmp->Compare(*upper, end) < 0) {
      end = *upper;
    }
    if (ucmp->Compare(start, end) < 0) {
      keys.push_back(
          InternalKey(start, f.seq, kTypeRangeDeletion).Encode().ToString());
      values.push_back(end.ToString());
    }
  }
  if (keys.empty()) {
    return nullptr;
  }
  auto list = std::make_shared<FragmentedRangeTombstoneList>(
      std::make_unique<VectorIterator>(std::move(keys), std::move(values),
                                       &icmp),
      icmp);
  fed->count += list->num_unfragmented_tombstones();
  fed->payload_bytes += list->total_tombstone_payload_bytes();
  return std::make_unique<FragmentedRangeTombstoneIterator>(list, icmp,
                                                            kMaxSequenceNumber);
}

}  // namespace

VlsmSplitFlushWriter::VlsmSplitFlushWriter(
    ColumnFamilyData* cfd, VersionSet* versions,
    const ImmutableDBOptions& db_options)
    : icmp_(cfd->internal_comparator()),
      versions_(versions),
      fs_(db_options.fs.get()),
      cf_paths_(cfd->ioptions()->cf_paths),
      table_cache_(cfd->table_cache()),
      sst_file_manager_(db_options.sst_file_manager.get()) {}

void VlsmSplitFlushWriter::DeletePieces(
    const std::vector<FileMetaData>& pieces) const {
  for (const FileMetaData& piece : pieces) {
    const std::string name = TableFileName(cf_paths_, piece.fd.GetNumber(),
                                           piece.fd.GetPathId());
    fs_->DeleteFile(name, IOOptions(), nullptr).PermitUncheckedError();
    // BuildTable's verification read opened it through the table cache.
    TableCache::ReleaseObsolete(table_cache_->get_cache().get(),
                                piece.fd.GetNumber(), /*handle=*/nullptr,
                                /*uncache_aggressiveness=*/0);
  }
}

Status VlsmSplitFlushWriter::Write(
    const std::vector<std::string>& split_keys, InternalIterator* memtables,
    std::vector<std::unique_ptr<FragmentedRangeTombstoneIterator>> range_dels,
    const VlsmBuildFlushPiece& build_piece, FileMetaData* meta) {
  more_pieces_.clear();
  props_ = TableProperties();
  input_entries_ = 0;
  payload_bytes_ = 0;
  garbage_bytes_ = 0;

  // Every piece gets the memtables' range deletions clipped to its bounds;
  // the flush's input count holds each memtable tombstone once.
  std::vector<Fragment> fragments;
  TombstoneInput memtable_tombstones;
  for (auto& it : range_dels) {
    memtable_tombstones.count += it->num_unfragmented_tombstones();
    memtable_tombstones.payload_bytes += it->total_tombstone_payload_bytes();
    for (it->SeekToFirst(); it->Valid(); it->Next()) {
      fragments.push_back(
          {it->start_key().ToString(), it->end_key().ToString(), it->seq()});
    }
  }
  range_dels.clear();

  const FileMetaData blank = *meta;  // epoch, times, temperature; no keys yet
  std::vector<FileMetaData> written;
  TableProperties sum;
  TombstoneInput tombstones_given;
  Status s;
  for (size_t i = 0; i <= split_keys.size() && s.ok(); ++i) {
    const std::string* lower = i == 0 ? nullptr : &split_keys[i - 1];
    const std::string* upper =
        i == split_keys.size() ? nullptr : &split_keys[i];
    // User-key bounds as internal keys: key@kMaxSeq sorts before every
    // version of key, so all versions of a key land in the same piece.
    auto seek_key = [](const std::string* user_key) {
      return user_key == nullptr
                 ? std::string()
                 : InternalKey(*user_key, kMaxSequenceNumber, kValueTypeForSeek)
                       .Encode()
                       .ToString();
    };
    const std::string lower_ikey = seek_key(lower);
    const std::string upper_ikey = seek_key(upper);
    const Slice lower_slice = lower_ikey;
    const Slice upper_slice = upper_ikey;
    ClippingIterator piece_iter(memtables, lower ? &lower_slice : nullptr,
                                upper ? &upper_slice : nullptr, &icmp_);
    std::vector<std::unique_ptr<FragmentedRangeTombstoneIterator>> piece_dels;
    TombstoneInput given;
    if (auto dels =
            ClippedTombstones(fragments, lower, upper, icmp_, &given)) {
      piece_dels.push_back(std::move(dels));
    }
    piece_iter.SeekToFirst();
    if (!piece_iter.status().ok()) {
      s = piece_iter.status();
      break;
    }
    if (!piece_iter.Valid() && piece_dels.empty()) {
      continue;  // nothing in this range: no file, no file number
    }
    FileMetaData piece = blank;  // the first piece has the flush's number
    if (i > 0) {
      piece.fd = FileDescriptor(versions_->NewFileNumber(),
                                blank.fd.GetPathId(), 0);
    }
    TableProperties piece_props;
    uint64_t entries = 0;
    uint64_t payload = 0;
    uint64_t garbage = 0;
    s = build_piece(&piece_iter, std::move(piece_dels), &piece, &piece_props,
                    &entries, &payload, &garbage);
    if (!s.ok()) {
      break;  // BuildTable removed this piece's file itself
    }
    tombstones_given.count += given.count;
    tombstones_given.payload_bytes += given.payload_bytes;
    input_entries_ += entries;
    payload_bytes_ += payload;
    garbage_bytes_ += garbage;
    if (piece.fd.GetFileSize() > 0) {
      if (written.empty()) {
        sum = piece_props;
      } else {
        sum.Add(piece_props);
      }
      written.push_back(std::move(piece));
      TEST_SYNC_POINT_CALLBACK("VlsmSplitFlushWriter:PieceWritten",
                               &written.back());
    }
  }
  if (!s.ok()) {
    // A flush installs all its pieces or none: remove those already written.
    // Their numbers are still in the flush's pending outputs, so nothing
    // else can be using them.
    DeletePieces(written);
    meta->fd.file_size = 0;
    return s;
  }
  // BuildTable counted the clipped tombstones it was given; the flush's
  // input is the memtables' own tombstones, once each. (Garbage is payload
  // less what was written, so it moves with the payload.)
  input_entries_ =
      input_entries_ - tombstones_given.count + memtable_tombstones.count;
  if (payload_bytes_ >= tombstones_given.payload_bytes &&
      garbage_bytes_ >= tombstones_given.payload_bytes) {
    payload_bytes_ +=
        memtable_tombstones.payload_bytes - tombstones_given.payload_bytes;
    garbage_bytes_ +=
        memtable_tombstones.payload_bytes - tombstones_given.payload_bytes;
  }

  if (written.empty()) {
    meta->fd.file_size = 0;
    return s;
  }
  *meta = std::move(written.front());
  more_pieces_.assign(std::make_move_iterator(written.begin() + 1),
                      std::make_move_iterator(written.end()));
  props_ = sum;
  if (sst_file_manager_ != nullptr) {
    auto* sfm = static_cast<SstFileManagerImpl*>(sst_file_manager_);
    for (const FileMetaData& piece : more_pieces_) {
      const std::string name = TableFileName(cf_paths_, piece.fd.GetNumber(),
                                             piece.fd.GetPathId());
      sfm->OnAddFile(name).PermitUncheckedError();
    }
  }
  return s;
}

void VlsmSplitFlushWriter::AddMorePieces(VersionEdit* edit) const {
  for (const FileMetaData& m : more_pieces_) {
    edit->AddFile(0, m.fd.GetNumber(), m.fd.GetPathId(), m.fd.GetFileSize(),
                  m.smallest, m.largest, m.fd.smallest_seqno,
                  m.fd.largest_seqno, m.marked_for_compaction, m.temperature,
                  m.oldest_blob_file_number, m.oldest_ancester_time,
                  m.file_creation_time, m.epoch_number, m.file_checksum,
                  m.file_checksum_func_name, m.unique_id,
                  m.compensated_range_deletion_size, m.tail_size,
                  m.user_defined_timestamps_persisted);
  }
}

void VlsmSplitFlushWriter::WidenFlushJobInfo(FlushJobInfo* info) const {
  for (const FileMetaData& m : more_pieces_) {
    info->smallest_seqno = std::min(info->smallest_seqno, m.fd.smallest_seqno);
    info->largest_seqno = std::max(info->largest_seqno, m.fd.largest_seqno);
  }
}

uint64_t VlsmSplitFlushWriter::MorePiecesBytes() const {
  uint64_t bytes = 0;
  for (const FileMetaData& m : more_pieces_) {
    bytes += m.fd.GetFileSize();
  }
  return bytes;
}

}  // namespace ROCKSDB_NAMESPACE
