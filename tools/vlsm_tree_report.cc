// vlsm_tree_report DB_DIR: the shape of a closed DB as JSON on stdout, with
// the classification of its L1 files as good or poor vSSTs. Opens the DB read
// only and reads S_M and f from the DB's own OPTIONS file, so it works on
// stock and vLSM DBs alike (for stock DBs, "good" uses the same definition:
// L2 overlap, by user key, <= f * target_file_size_base with f a whole
// number: VsstOverlapBoundOf, the bound of the cut rule and the census).
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "db/compaction/vsst_cut_policy.h"
#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/lsm_metrics.h"
#include "rocksdb/metadata.h"
#include "rocksdb/utilities/options_util.h"

using ROCKSDB_NAMESPACE::ColumnFamilyDescriptor;
using ROCKSDB_NAMESPACE::ColumnFamilyMetaData;
using ROCKSDB_NAMESPACE::ConfigOptions;
using ROCKSDB_NAMESPACE::DB;
using ROCKSDB_NAMESPACE::DBOptions;
using ROCKSDB_NAMESPACE::Options;
using ROCKSDB_NAMESPACE::SstFileMetaData;
using ROCKSDB_NAMESPACE::Status;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DB_DIR\n", argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  ConfigOptions config;
  config.ignore_unknown_options = true;
  config.ignore_unsupported_options = true;
  DBOptions db_options;
  std::vector<ColumnFamilyDescriptor> cfs;
  Status s = LoadLatestOptions(config, path, &db_options, &cfs);
  if (!s.ok() || cfs.empty()) {
    std::fprintf(stderr, "vlsm_tree_report: cannot read the OPTIONS of %s: %s\n",
                 path.c_str(), s.ToString().c_str());
    return 1;
  }
  Options options(db_options, cfs[0].options);
  options.merge_operator.reset();  // not needed to read metadata
  DB* raw = nullptr;
  s = DB::OpenForReadOnly(options, path, &raw);
  if (!s.ok()) {
    std::fprintf(stderr, "vlsm_tree_report: cannot open %s: %s\n", path.c_str(),
                 s.ToString().c_str());
    return 1;
  }
  std::unique_ptr<DB> db(raw);
  ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(&meta);

  const uint64_t sst_size = options.target_file_size_base;
  const double growth = options.max_bytes_for_level_multiplier;
  const uint64_t bound =
      ROCKSDB_NAMESPACE::VsstOverlapBoundOf(sst_size, growth);

  std::printf("{\n  \"compaction_pri\": %d,\n  \"sst_size\": %" PRIu64
              ",\n  \"growth\": %g,\n  \"overlap_bound\": %" PRIu64 ",\n  \"levels\": [",
              static_cast<int>(options.compaction_pri), sst_size, growth, bound);
  // "entries" (every file's num_entries) lets a caller check a tree's record
  // count without reading it: in a settled tree of distinct inserted keys
  // every record is one entry (scripts/bench/eval/grown.sh's tree check).
  for (size_t l = 0; l < meta.levels.size(); ++l) {
    uint64_t entries = 0;
    for (const SstFileMetaData& f : meta.levels[l].files) {
      entries += f.num_entries;
    }
    std::printf("%s\n    {\"level\": %zu, \"files\": %zu, \"bytes\": %" PRIu64
                ", \"entries\": %" PRIu64 "}",
                l ? "," : "", l, meta.levels[l].files.size(),
                meta.levels[l].size, entries);
  }
  std::printf("\n  ],\n");
  // The compaction debt the tree would owe on opening: 0 in a settled tree.
  uint64_t pending = 0;
  if (!db->GetIntProperty(ROCKSDB_NAMESPACE::DB::Properties::kEstimatePendingCompactionBytes,
                          &pending)) {
    std::fprintf(stderr, "vlsm_tree_report: %s has no pending-compaction estimate\n",
                 path.c_str());
    return 1;
  }
  std::printf("  \"pending_compaction_bytes\": %" PRIu64 ",\n", pending);

  const ROCKSDB_NAMESPACE::L1VsstCensus census =
      ROCKSDB_NAMESPACE::CensusL1Vssts(meta, options.comparator, bound);
  std::printf("  \"l1_good_vssts\": %" PRIu64 ",\n  \"l1_poor_vssts\": %" PRIu64
              ",\n  \"l1_good_bytes\": %" PRIu64 ",\n  \"l1_poor_bytes\": %" PRIu64
              ",\n  \"l1_file_sizes\": [",
              census.good, census.poor, census.good_bytes, census.poor_bytes);
  if (meta.levels.size() > 1) {
    const auto& l1 = meta.levels[1].files;
    for (size_t i = 0; i < l1.size(); ++i) {
      std::printf("%s%" PRIu64, i ? ", " : "", l1[i].size);
    }
  }
  std::printf("]\n}\n");
  return 0;
}
