// vlsm_way_back: a ranged-layout DB for stock RocksDB 9.10 to read, made
// as docs/vlsm.md's "way back to stock RocksDB" says, or left as it is.
//
//   vlsm_way_back --db=DIR --keys=N [--way_back=1]
//
// Writes keys key00000000 .. key<N-1> in a shuffled order under
// VlsmOptions::Ranged() at small sizes (1 MiB memtables and files, so
// that L0 at rest holds split flushes), waits for compactions, and then,
// with --way_back=1 (the default), takes the way back: switch the live
// column family to kMinOverlappingRatio, CompactRange, close. With
// --way_back=0 it only closes, leaving an OPTIONS file that names
// kVlsmRanged. Each key's value is "value-" followed by its key, so a
// reader can check any key it gets. Prints one JSON object: the keys, L0's
// files before the way back and after, and the newest OPTIONS file's name.
//
// scripts/stock_reads_way_back.sh runs it twice and reads both DBs with
// the ldb of a pristine 9.10 build: the ranged DB must be refused naming
// the priority, the DB after the way back read key for key.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/utilities/options_util.h"
#include "rocksdb/vlsm.h"
#include "tools/vlsm_tool_options.h"

namespace {

using namespace ROCKSDB_NAMESPACE;

// 2: bad input; 1: the DB refused something (the caller's script tells
// them apart).
int Fail(const std::string& what, int code = 1) {
  std::fprintf(stderr, "vlsm_way_back: %s\n", what.c_str());
  return code;
}

std::string KeyOf(uint64_t i) {
  char key[32];
  std::snprintf(key, sizeof(key), "key%08" PRIu64, i);
  return key;
}

int L0Files(DB* db) {
  ColumnFamilyMetaData meta;
  db->GetColumnFamilyMetaData(&meta);
  return static_cast<int>(meta.levels[0].files.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  uint64_t keys = 0;
  uint64_t way_back = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    const std::string value = eq == std::string::npos ? "" : arg.substr(eq + 1);
    bool ok = false;
    if (name == "--db") {
      path = value;
      ok = !path.empty();
    } else if (name == "--keys") {
      keys = VlsmToolSize(value, &ok);
      ok = ok && keys > 0 && keys < 100000000;
    } else if (name == "--way_back") {
      way_back = VlsmToolSize(value, &ok);
      ok = ok && way_back <= 1;
    }
    if (!ok) {
      return Fail("bad argument '" + arg +
                      "' (usage: --db=DIR --keys=N (1..99999999) "
                      "[--way_back=0|1])",
                  2);
    }
  }
  if (path.empty() || keys == 0) {
    return Fail("--db and --keys are required", 2);
  }

  Options options;
  options.create_if_missing = true;
  options.error_if_exists = true;
  VlsmOptions ranged = VlsmOptions::Ranged();
  ranged.sst_size = 1 << 20;
  ranged.memtable_size = 1 << 20;
  ranged.l1_size = 8 << 20;
  Status s = ConfigureVlsm(&options, ranged);
  if (!s.ok()) {
    return Fail("ConfigureVlsm: " + s.ToString());
  }
  DB* raw = nullptr;
  s = DB::Open(options, path, &raw);
  if (!s.ok()) {
    return Fail("open: " + s.ToString());
  }
  std::unique_ptr<DB> db(raw);

  std::vector<uint64_t> order(keys);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937_64 rng(52);
  std::shuffle(order.begin(), order.end(), rng);
  for (uint64_t i : order) {
    const std::string key = KeyOf(i);
    s = db->Put(WriteOptions(), key, "value-" + key);
    if (!s.ok()) {
      return Fail("put: " + s.ToString());
    }
  }
  s = db->Flush(FlushOptions());
  if (s.ok()) {
    s = db->WaitForCompact(WaitForCompactOptions());
  }
  if (!s.ok()) {
    return Fail("flush and wait: " + s.ToString());
  }
  const int l0_before = L0Files(db.get());

  if (way_back == 1) {
    // 1. switch live; 2. compact L0 away; 3. close (below).
    s = db->SetOptions({{"compaction_pri", "kMinOverlappingRatio"}});
    if (s.ok()) {
      s = db->CompactRange(CompactRangeOptions(), nullptr, nullptr);
    }
    if (!s.ok()) {
      return Fail("the way back: " + s.ToString());
    }
  }
  const int l0_after = L0Files(db.get());
  s = db->Close();
  if (!s.ok()) {
    return Fail("close: " + s.ToString());
  }
  db.reset();
  std::string options_file;
  s = GetLatestOptionsFileName(path, Env::Default(), &options_file);
  if (!s.ok()) {
    return Fail("the OPTIONS file: " + s.ToString());
  }
  std::printf("{\"keys\": %" PRIu64
              ", \"way_back\": %s, \"l0_files_at_rest\": %d, "
              "\"l0_files_at_close\": %d, \"options_file\": \"%s\"}\n",
              keys, way_back == 1 ? "true" : "false", l0_before, l0_after,
              options_file.c_str());
  return 0;
}
