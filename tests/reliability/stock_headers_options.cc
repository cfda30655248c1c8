// Built against the pristine upstream 9.10.0 headers (which have no kVlsm)
// and run on the fork's librocksdb.so.9 (run_stock_headers_options.sh): an
// application that has never heard of vLSM meets a vLSM DB's OPTIONS file.
// The library parses and writes compaction_pri=kVlsm by name; to this program
// the value is the CompactionPri number 5, which it carries through
// LoadLatestOptions and DB::Open unchanged. Exits non-zero naming the step.
//
// usage: stock_headers_options DB_DIR
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "rocksdb/convenience.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/options_util.h"

namespace {

void Check(const rocksdb::Status& s, const char* step) {
  if (!s.ok()) {
    std::fprintf(stderr, "FAIL: %s: %s\n", step, s.ToString().c_str());
    std::exit(1);
  }
}

void Expect(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "FAIL: %s\n", what.c_str());
    std::exit(1);
  }
}

std::string Key(int i) { return "key" + std::to_string(100000 + i); }

const int kVlsmNumber = 5;  // CompactionPri::kVlsm in the fork's headers

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DB_DIR\n", argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  rocksdb::ConfigOptions config;

  // 1. vLSM from an options string: the only way a stock program can name it.
  rocksdb::Options options;
  Check(rocksdb::GetOptionsFromString(
            config, rocksdb::Options(),
            "create_if_missing=true;compaction_pri=kVlsm;"
            "level_compaction_dynamic_level_bytes=false;write_buffer_size=65536;"
            "target_file_size_base=65536;max_bytes_for_level_base=524288;"
            "max_bytes_for_level_multiplier=8;level0_file_num_compaction_trigger=1",
            &options),
        "GetOptionsFromString(compaction_pri=kVlsm)");
  Expect(static_cast<int>(options.compaction_pri) == kVlsmNumber,
         "compaction_pri=kVlsm parsed to " + std::to_string(options.compaction_pri));
  std::printf("options string compaction_pri=kVlsm -> CompactionPri %d (no enumerator in "
              "these headers)\n",
              static_cast<int>(options.compaction_pri));
  Check(rocksdb::DestroyDB(path, options), "DestroyDB");
  rocksdb::DB* db = nullptr;
  Check(rocksdb::DB::Open(options, path, &db), "DB::Open (vLSM)");
  for (int i = 0; i < 20000; ++i) {
    Check(db->Put(rocksdb::WriteOptions(), Key(i), std::string(100, 'v')), "Put");
  }
  Check(db->Flush(rocksdb::FlushOptions()), "Flush");
  Check(db->WaitForCompact(rocksdb::WaitForCompactOptions()), "WaitForCompact");
  delete db;

  // 2. The OPTIONS file the library wrote, loaded and used to reopen.
  rocksdb::DBOptions db_options;
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  Check(rocksdb::LoadLatestOptions(config, path, &db_options, &cfs), "LoadLatestOptions");
  Expect(cfs.size() == 1, "one column family in OPTIONS");
  Expect(static_cast<int>(cfs[0].options.compaction_pri) == kVlsmNumber,
         "OPTIONS loaded compaction_pri " + std::to_string(cfs[0].options.compaction_pri));
  std::string serialized;
  Check(rocksdb::GetStringFromColumnFamilyOptions(config, cfs[0].options, &serialized),
        "GetStringFromColumnFamilyOptions");
  Expect(serialized.find("compaction_pri=kVlsm") != std::string::npos,
         "the library writes CompactionPri 5 back as kVlsm");
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  Check(rocksdb::DB::Open(db_options, path, cfs, &handles, &db), "DB::Open (loaded OPTIONS)");
  Expect(static_cast<int>(db->GetOptions().compaction_pri) == kVlsmNumber,
         "the reopened DB runs CompactionPri 5");
  for (int i = 0; i < 20000; i += 997) {
    std::string v;
    Check(db->Get(rocksdb::ReadOptions(), Key(i), &v), "Get after reopen");
  }
  for (auto* h : handles) Check(db->DestroyColumnFamilyHandle(h), "DestroyColumnFamilyHandle");
  delete db;
  std::printf("LoadLatestOptions + DB::Open: OK, compaction_pri %d, data intact\n", kVlsmNumber);

  // 3. A stock program that gets the vLSM rules wrong is told which option.
  cfs[0].options.level_compaction_dynamic_level_bytes = true;
  handles.clear();
  db = nullptr;
  const rocksdb::Status bad = rocksdb::DB::Open(db_options, path, cfs, &handles, &db);
  Expect(bad.IsInvalidArgument() &&
             bad.ToString().find("level_compaction_dynamic_level_bytes") != std::string::npos,
         "dynamic level bytes with kVlsm: " + bad.ToString());
  Expect(db == nullptr, "no DB on InvalidArgument");
  std::printf("kVlsm + dynamic level bytes: %s\n", bad.ToString().c_str());

  // 4. The number itself, set without a name, means vLSM too.
  options.compaction_pri = static_cast<rocksdb::CompactionPri>(kVlsmNumber);
  options.create_if_missing = false;
  Check(rocksdb::DB::Open(options, path, &db), "DB::Open (CompactionPri 5 set numerically)");
  delete db;
  std::printf("PASS\n");
  return 0;
}
