// What the real-DB vLSM tests share: tiny sizes (S_M = 32 KiB, so hundreds
// of compactions run in seconds), the options every such test opens with
// (the read-order checker of issue 19 included), a random workload applied
// to the DB and an in-memory model alike, and the model check.
#pragma once

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "rocksdb/merge_operator.h"
#include "rocksdb/table.h"
#include "rocksdb/vlsm.h"
#include "tests/vlsm/read_order_checker.h"

namespace ROCKSDB_NAMESPACE {
namespace vlsm_test {

constexpr uint64_t kSstSize = 32 << 10;  // S_M: L1 256 KiB, L2 8 MiB
constexpr int kGrowth = 8;               // f
constexpr uint64_t kBlockSize = 1024;

// Appends with ',' (a test-local merge operator, public API only).
class AppendOperator : public AssociativeMergeOperator {
 public:
  bool Merge(const Slice&, const Slice* existing, const Slice& value,
             std::string* new_value, Logger*) const override {
    *new_value = existing ? existing->ToString() + "," : std::string();
    new_value->append(value.data(), value.size());
    return true;
  }
  const char* Name() const override { return "VlsmTestAppend"; }
};

inline Options VlsmTestOptions(std::shared_ptr<EventListener> listener) {
  Options o;
  o.create_if_missing = true;
  o.num_levels = 5;
  VlsmOptions v;
  v.sst_size = kSstSize;
  v.growth = kGrowth;
  v.l1_l2_growth = 32;
  EXPECT_TRUE(ConfigureVlsm(&o, v).ok());
  o.max_background_compactions = 1;  // see VlsmRuleChecker
  o.max_background_flushes = 1;
  o.merge_operator = std::make_shared<AppendOperator>();
  BlockBasedTableOptions t;
  t.block_size = kBlockSize;  // fine-grained size estimates for tiny files
  o.table_factory.reset(NewBlockBasedTableFactory(t));
  if (listener) {
    o.listeners.push_back(listener);
  }
  // Every test on these options fails on a read-order violation (issue 19).
  o.listeners.push_back(std::make_shared<ReadOrderChecker>(
      [](const std::string& violation) { ADD_FAILURE() << "read order: " << violation; }));
  return o;
}

// An empty DB at `path`, opened with `options`; nullptr (and a test
// failure naming the step) if it cannot be made.
inline std::unique_ptr<DB> OpenFreshDb(const Options& options, const std::string& path) {
  Status s = DestroyDB(path, options);
  EXPECT_TRUE(s.ok()) << "DestroyDB " << path << ": " << s.ToString();
  DB* raw = nullptr;
  s = DB::Open(options, path, &raw);
  EXPECT_TRUE(s.ok()) << "DB::Open " << path << ": " << s.ToString();
  return std::unique_ptr<DB>(s.ok() ? raw : nullptr);
}

using Model = std::map<std::string, std::string>;

// Random puts, overwrites, deletes, single deletes, range deletes and merges,
// applied to the DB and the model alike.
class Workload {
 public:
  explicit Workload(uint32_t seed) : rng_(seed) {}

  void Run(DB* db, Model* model, int ops) {
    std::uniform_int_distribution<int> op(0, 99);
    for (int i = 0; i < ops; ++i) {
      const int o = op(rng_);
      if (o < 55) {
        Put(db, model, Key(rng_() % kKeys));
      } else if (o < 70) {
        std::string k = Key(rng_() % kKeys);
        ASSERT_TRUE(db->Delete(WriteOptions(), k).ok());
        model->erase(k);
      } else if (o < 85) {
        std::string k = Key(rng_() % kKeys);
        std::string v = "m" + std::to_string(rng_() % 1000);
        ASSERT_TRUE(db->Merge(WriteOptions(), k, v).ok());
        auto it = model->find(k);
        (*model)[k] = it == model->end() ? v : it->second + "," + v;
      } else if (o < 95) {
        // Single delete: only for keys written exactly once, in their own
        // key space ("s..."), as SingleDelete requires.
        std::string k = "s" + std::to_string(single_next_++);
        ASSERT_TRUE(db->Put(WriteOptions(), k, Value()).ok());
        (*model)[k] = last_value_;
        if (rng_() % 2) {
          ASSERT_TRUE(db->SingleDelete(WriteOptions(), k).ok());
          model->erase(k);
        }
      } else {
        uint64_t a = rng_() % kKeys;
        std::string lo = Key(a), hi = Key(std::min<uint64_t>(a + 1 + rng_() % 20, kKeys));
        ASSERT_TRUE(db->DeleteRange(WriteOptions(), db->DefaultColumnFamily(), lo, hi).ok());
        model->erase(model->lower_bound(lo), model->lower_bound(hi));
      }
    }
  }

 private:
  static constexpr uint64_t kKeys = 200000;
  static std::string Key(uint64_t i) {
    char buf[24];
    std::snprintf(buf, sizeof(buf), "k%010llu", static_cast<unsigned long long>(i));
    return buf;
  }
  const std::string& Value() {
    last_value_ = std::to_string(rng_()) + std::string(60 + rng_() % 120, 'v');
    return last_value_;
  }
  void Put(DB* db, Model* model, const std::string& k) {
    ASSERT_TRUE(db->Put(WriteOptions(), k, Value()).ok());
    (*model)[k] = last_value_;
  }

  std::mt19937_64 rng_;
  uint64_t single_next_ = 0;
  std::string last_value_;
};

inline void ExpectEqualsModel(DB* db, const Model& model, const Snapshot* snap,
                       const std::string& when) {
  ReadOptions ro;
  ro.snapshot = snap;
  std::unique_ptr<Iterator> it(db->NewIterator(ro));
  auto m = model.begin();
  size_t n = 0;
  for (it->SeekToFirst(); it->Valid(); it->Next(), ++m, ++n) {
    ASSERT_NE(m, model.end()) << when << ": extra key " << it->key().ToString();
    ASSERT_EQ(it->key().ToString(), m->first) << when;
    ASSERT_EQ(it->value().ToString(), m->second) << when << " key " << m->first;
  }
  ASSERT_TRUE(it->status().ok()) << when << ": " << it->status().ToString();
  ASSERT_EQ(m, model.end()) << when << ": missing key " << m->first;
  // Point reads agree too (a sample: every 97th key).
  size_t i = 0;
  for (const auto& kv : model) {
    if (i++ % 97 == 0) {
      std::string v;
      ASSERT_TRUE(db->Get(ro, kv.first, &v).ok()) << when << " Get " << kv.first;
      ASSERT_EQ(v, kv.second) << when;
    }
  }
}

// Uniform random overwrites of keys "key00000000" .. below key_space, with
// 100-byte values, in the DB and the model (the way-in and way-back tests).
inline void WriteRandomKeys(DB* db, Model* model, std::mt19937* rng, int n,
                            uint64_t key_space) {
  for (int i = 0; i < n; ++i) {
    char key[32];
    std::snprintf(key, sizeof(key), "key%08llu",
                  static_cast<unsigned long long>((*rng)() % key_space));
    const std::string v = std::to_string((*rng)()) + std::string(100, 'v');
    ASSERT_TRUE(db->Put(WriteOptions(), key, v).ok());
    (*model)[key] = v;
  }
}

// How many times writes stopped so far on what compaction must pay: L0's
// count and the pending compaction bytes (the column family's write stall
// stats). Stops on the memtable limit, which test-sized memtables under a
// flat-out writer take whatever the layout, are left out.
inline uint64_t StopsOnCompactionDebt(DB* db) {
  std::map<std::string, std::string> stats;
  EXPECT_TRUE(db->GetMapProperty("rocksdb.cf-write-stall-stats", &stats));
  uint64_t stops = 0;
  for (const auto& [name, value] : stats) {
    if (name.find("l0-file-count-limit-stops") != std::string::npos ||
        name.find("pending-compaction-bytes-stops") != std::string::npos) {
      stops += std::stoull(value);
    }
  }
  return stops;
}

// L0's files as GetLiveFilesMetaData lists them.
inline std::vector<LiveFileMetaData> L0Files(DB* db) {
  std::vector<LiveFileMetaData> live;
  db->GetLiveFilesMetaData(&live);
  std::vector<LiveFileMetaData> l0;
  for (const LiveFileMetaData& f : live) {
    if (f.level == 0) {
      l0.push_back(f);
    }
  }
  return l0;
}

inline std::vector<int> FilesPerLevel(DB* db) {
  ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(&meta);
  std::vector<int> n;
  for (const auto& l : meta.levels) n.push_back(static_cast<int>(l.files.size()));
  return n;
}

// Records how many L0 files each L0->L1 compaction took, in order, and
// counts compactions into L0.
class L0InputCounter : public EventListener {
 public:
  void OnCompactionCompleted(DB*, const CompactionJobInfo& ci) override {
    if (!ci.status.ok() || ci.base_input_level != 0) {
      return;
    }
    size_t l0 = 0;
    for (const CompactionFileInfo& f : ci.input_file_infos) {
      l0 += f.level == 0;
    }
    std::lock_guard<std::mutex> lock(mu_);
    l0_inputs_.push_back(l0);
    into_l0_ += ci.output_level == 0;
  }
  int into_l0() {
    std::lock_guard<std::mutex> lock(mu_);
    return into_l0_;
  }
  // The L0 input counts of the compactions completed since the last call.
  std::vector<size_t> TakeL0Inputs() {
    std::lock_guard<std::mutex> lock(mu_);
    return std::exchange(l0_inputs_, {});
  }

 private:
  std::mutex mu_;
  std::vector<size_t> l0_inputs_;
  int into_l0_ = 0;
};

}  // namespace vlsm_test
}  // namespace ROCKSDB_NAMESPACE
