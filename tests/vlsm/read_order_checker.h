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
// violation. CompactFiles() notifies no listener: a test that calls it calls
// Check() after it. Limits: point entries only (range tombstones are not
// read), and it scans every live file, which suits these tests' tiny DBs only.
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
#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "rocksdb/sst_file_reader.h"
#include "table/sst_file_writer_collectors.h"

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
  struct Version {
    size_t file;  // index into the files in read order
    SequenceNumber newest;
    SequenceNumber oldest;
  };

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
    std::map<std::string, std::vector<Version>> versions;
    for (size_t i = 0; i < live.size(); ++i) {
      SstFileReader reader(Options{});
      if (!reader.Open(live[i].directory + "/" + live[i].relative_filename)
               .ok()) {
        return "cannot open " + live[i].relative_filename;
      }
      // An ingested file's keys are written with sequence number 0; the
      // sequence number the DB gave them at ingestion is in the MANIFEST
      // (the file's smallest = largest seqno), not in the file.
      const bool ingested =
          reader.GetTableProperties()->user_collected_properties.count(
              ExternalSstFilePropertyNames::kVersion) > 0;
      std::unique_ptr<Iterator> it = reader.NewTableIterator();
      for (it->SeekToFirst(); it->Valid(); it->Next()) {
        ParsedInternalKey parsed;
        if (!ParseInternalKey(it->key(), &parsed, false).ok()) {
          return "unparsable key in " + live[i].relative_filename;
        }
        const SequenceNumber seq =
            ingested && parsed.sequence == 0 ? live[i].largest_seqno
                                             : parsed.sequence;
        std::vector<Version>& v = versions[parsed.user_key.ToString()];
        if (v.empty() || v.back().file != i) {
          v.push_back({i, seq, seq});
        } else {
          v.back().newest = std::max(v.back().newest, seq);
          v.back().oldest = std::min(v.back().oldest, seq);
        }
      }
    }
    for (const auto& [key, v] : versions) {
      for (size_t j = 1; j < v.size(); ++j) {
        const Version& earlier = v[j - 1];
        const Version& later = v[j];
        if (earlier.oldest <= later.newest) {
          return "key " + key + ": " + Describe(live[earlier.file]) + " seq " +
                 std::to_string(earlier.oldest) + " is read before " +
                 Describe(live[later.file]) + " seq " +
                 std::to_string(later.newest);
        }
      }
    }
    return "";
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
