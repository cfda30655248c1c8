// ReadOrderChecker: the read-order invariant of an LSM tree, checked after
// every flush and compaction installs (issue 19, point 3).
//
// Reads search L0 newest file first (highest epoch), then L1, L2, ...; they
// stop at the first version of a key they find. So for every user key, each
// version in a file searched earlier must be newer (a higher sequence
// number) than every version of that key in a file searched later. A
// worked example of what it catches:
//
//   L0  #12 (epoch 7)  c00000@210 = NEW     <- searched first
//   L0  #11 (epoch 6)  c00000@150 = OLD
//   L1  ...
//   A compaction that moves #12 alone into L1 leaves
//   L0  #11 (epoch 6)  c00000@150 = OLD     <- now searched first: stale
//   L1  #15            c00000@210 = NEW
//   and the checker reports: key c00000, L0 #11 seq 150 before L1 #15 seq 210.
//
// It is checked per key, not per file: file sequence ranges interleave
// across levels legitimately when the keys they share differ. Sequence
// number 0 (zeroed at the bottom level) sorts as oldest, which is right, and
// is why the check runs at every install, before zeroing can hide a
// violation. Range tombstones count as versions of every key they cover.
// CompactFiles() notifies no listener: a test that calls it calls Check()
// after it. It scans every live file, which suits these tests' tiny DBs only.
#pragma once

#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "db/dbformat.h"
#include "db/range_tombstone_fragmenter.h"
#include "file/random_access_file_reader.h"
#include "options/cf_options.h"
#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "rocksdb/sst_file_reader.h"
#include "table/sst_file_writer_collectors.h"
#include "table/table_builder.h"
#include "table/table_reader.h"

namespace ROCKSDB_NAMESPACE {

class ReadOrderChecker : public EventListener {
 public:
  // on_violation, if given, is called with each violation as it is found
  // (a gtest binary passes ADD_FAILURE, so that every test using the
  // options fails without asserting it itself).
  explicit ReadOrderChecker(
      std::function<void(const std::string&)> on_violation = nullptr)
      : on_violation_(std::move(on_violation)) {}

  void OnFlushCompleted(DB* db, const FlushJobInfo& info) override {
    Check(db, info.cf_name);
  }
  void OnCompactionCompleted(DB* db, const CompactionJobInfo& info) override {
    Check(db, info.cf_name);
  }

  // Scans the live files of column family cf_name once.
  void Check(DB* db, const std::string& cf_name) {
    // Files of the version read below must not be deleted while it reads them.
    if (!db->DisableFileDeletions().ok()) {
      return;  // the DB is closing
    }
    std::vector<LiveFileMetaData> live;
    db->GetLiveFilesMetaData(&live);
    std::string violation = CheckFiles(cf_name, live);
    db->EnableFileDeletions().PermitUncheckedError();
    checks_++;
    if (!violation.empty()) {
      std::lock_guard<std::mutex> lock(mu_);
      violations_.push_back(violation);
      if (on_violation_) {
        on_violation_(violation);
      }
    }
  }

  int checks() const { return checks_.load(); }
  std::vector<std::string> violations() const {
    std::lock_guard<std::mutex> lock(mu_);
    return violations_;
  }

 private:
  // One file's versions of one key: the newest and oldest sequence number.
  struct Span {
    SequenceNumber newest;
    SequenceNumber oldest;
    void Add(SequenceNumber seq) {
      newest = std::max(newest, seq);
      oldest = std::min(oldest, seq);
    }
  };
  // user key -> (index of the file in read order -> its versions there)
  using Versions = std::map<std::string, std::map<size_t, Span>>;

  struct RangeTombstone {
    std::string start;
    std::string end;  // exclusive
    SequenceNumber seq;
  };


 public:
  // The check itself, on the given files of column family cf_name: "" or
  // the first violation found. (Public for read_order_checker_test.)
  static std::string CheckFiles(const std::string& cf_name,
                                std::vector<LiveFileMetaData> live) {
    live.erase(std::remove_if(live.begin(), live.end(),
                              [&](const LiveFileMetaData& m) {
                                return m.column_family_name != cf_name;
                              }),
               live.end());
    // Read order: L0 newest epoch first, then level by level. Within a
    // level, by key: one user key's versions may span two adjacent files
    // (newest in the first), so a tie on the smallest key goes to the file
    // with the newer versions. (Bytewise keys, as in these tests.)
    std::sort(live.begin(), live.end(),
              [](const LiveFileMetaData& a, const LiveFileMetaData& b) {
                if (a.level != b.level) {
                  return a.level < b.level;
                }
                if (a.level == 0) {
                  return a.epoch_number > b.epoch_number;
                }
                if (a.smallestkey != b.smallestkey) {
                  return a.smallestkey < b.smallestkey;
                }
                return a.largest_seqno > b.largest_seqno;
              });
    Versions versions;
    std::vector<std::vector<RangeTombstone>> tombstones(live.size());
    for (size_t i = 0; i < live.size(); ++i) {
      const std::string path =
          live[i].directory + "/" + live[i].relative_filename;
      SstFileReader reader(Options{});
      if (!reader.Open(path).ok()) {
        return "cannot open " + live[i].relative_filename;
      }
      // An ingested file's keys are written with sequence number 0; the
      // sequence number the DB gave them at ingestion is in the MANIFEST
      // (the file's smallest = largest seqno), not in the file.
      const bool ingested =
          reader.GetTableProperties()->user_collected_properties.count(
              ExternalSstFilePropertyNames::kVersion) > 0;
      auto effective = [&](SequenceNumber seq) {
        return ingested && seq == 0 ? live[i].largest_seqno : seq;
      };
      std::unique_ptr<Iterator> it = reader.NewTableIterator();
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        ParsedInternalKey parsed;
        if (!ParseInternalKey(it->key(), &parsed, false).ok()) {
          return "unparsable key in " + live[i].relative_filename;
        }
        const SequenceNumber seq = effective(parsed.sequence);
        auto [span, fresh] = versions[parsed.user_key.ToString()].emplace(
            i, Span{seq, seq});
        if (!fresh) {
          span->second.Add(seq);
        }
      }
      if (!ReadRangeTombstones(path, &tombstones[i]).ok()) {
        return "cannot read the range tombstones of " +
               live[i].relative_filename;
      }
      for (RangeTombstone& t : tombstones[i]) {
        t.seq = effective(t.seq);
      }
    }
    // A range tombstone is a version of every key it covers. Only keys
    // strictly inside the file's range count: at its boundaries RocksDB
    // truncates tombstones by internal key, which a user-key check cannot
    // follow. Keys that only tombstones hold cannot be read stale.
    for (size_t i = 0; i < live.size(); ++i) {
      for (const RangeTombstone& t : tombstones[i]) {
        const std::string& lo = std::max(t.start, live[i].smallestkey);
        for (auto k = versions.lower_bound(lo); k != versions.end(); ++k) {
          if (k->first >= t.end || k->first >= live[i].largestkey) {
            break;
          }
          if (k->first == live[i].smallestkey) {
            continue;
          }
          auto [span, fresh] = k->second.emplace(i, Span{t.seq, t.seq});
          if (!fresh) {
            span->second.Add(t.seq);
          }
        }
      }
    }
    for (const auto& [key, spans] : versions) {
      const Span* earlier = nullptr;
      size_t earlier_file = 0;
      for (const auto& [file, span] : spans) {
        if (earlier != nullptr && earlier->oldest <= span.newest) {
          return "key " + key + ": " + Describe(live[earlier_file]) + " seq " +
                 std::to_string(earlier->oldest) + " is read before " +
                 Describe(live[file]) + " seq " + std::to_string(span.newest);
        }
        earlier = &span;
        earlier_file = file;
      }
    }
    return "";
  }

 private:
  // The range tombstones stored in one table file (untruncated, as written),
  // through RocksDB's table reader: SstFileReader shows point entries only.
  static Status ReadRangeTombstones(const std::string& path,
                                    std::vector<RangeTombstone>* out) {
    const Options options;
    const ImmutableOptions ioptions(options);
    const MutableCFOptions moptions(options);
    const EnvOptions env_options(options);
    const FileOptions file_options(env_options);
    const std::shared_ptr<FileSystem>& fs = options.env->GetFileSystem();
    uint64_t size = 0;
    std::unique_ptr<FSRandomAccessFile> file;
    Status s = fs->GetFileSize(path, file_options.io_options, &size, nullptr);
    if (s.ok()) {
      s = fs->NewRandomAccessFile(path, file_options, &file, nullptr);
    }
    std::unique_ptr<TableReader> table;
    if (s.ok()) {
      TableReaderOptions table_options(
          ioptions, moptions.prefix_extractor, env_options,
          ioptions.internal_comparator, moptions.block_protection_bytes_per_key);
      table_options.largest_seqno = kMaxSequenceNumber;  // global seqno files
      s = options.table_factory->NewTableReader(
          table_options,
          std::make_unique<RandomAccessFileReader>(std::move(file), path), size,
          &table);
    }
    if (!s.ok()) {
      return s;
    }
    std::unique_ptr<FragmentedRangeTombstoneIterator> it(
        table->NewRangeTombstoneIterator(ReadOptions()));
    if (it != nullptr) {
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        out->push_back({it->start_key().ToString(), it->end_key().ToString(),
                        it->seq()});
      }
    }
    return Status::OK();
  }

  static std::string Describe(const LiveFileMetaData& m) {
    return "L" + std::to_string(m.level) + " " + m.relative_filename +
           (m.level == 0 ? " (epoch " + std::to_string(m.epoch_number) + ")"
                         : "");
  }

  const std::function<void(const std::string&)> on_violation_;
  std::atomic<int> checks_{0};
  mutable std::mutex mu_;
  std::vector<std::string> violations_;
};

}  // namespace ROCKSDB_NAMESPACE
