// A small RocksDB user: compiled against the installed fork (find_package,
// pkg-config) or against the pristine upstream 9.10.0 headers, it must build
// unchanged and behave. Exits non-zero, naming the step, on any failure.
//
// usage: consumer DB_DIR
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "rocksdb/db.h"
#include "rocksdb/listener.h"
#include "rocksdb/options.h"
#include "rocksdb/version.h"
#if __has_include("rocksdb/fork_version.h")
#include "rocksdb/fork_version.h"
#endif

namespace {

void Check(const rocksdb::Status& s, const char* step) {
  if (!s.ok()) {
    std::fprintf(stderr, "consumer: %s failed: %s\n", step,
                 s.ToString().c_str());
    std::exit(1);
  }
}

void Expect(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "consumer: expectation failed: %s\n", what);
    std::exit(1);
  }
}

// Subclassing a RocksDB type needs the library's typeinfo (RTTI on).
class FlushCounter : public rocksdb::EventListener {
 public:
  void OnFlushCompleted(rocksdb::DB*, const rocksdb::FlushJobInfo&) override {
    ++flushes;
  }
  int flushes = 0;
};

std::string Key(int i) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "key%08d", i);
  return buf;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DB_DIR\n", argv[0]);
    return 2;
  }
  const std::string path = argv[1];
  const int kKeys = 20000;

  rocksdb::Options options;
  options.create_if_missing = true;
  options.write_buffer_size = 256 << 10;  // several flushes and compactions
  options.target_file_size_base = 256 << 10;
  auto listener = std::make_shared<FlushCounter>();
  options.listeners.push_back(listener);
  Check(rocksdb::DestroyDB(path, options), "DestroyDB");

  rocksdb::DB* db = nullptr;
  Check(rocksdb::DB::Open(options, path, &db), "Open");
  for (int i = 0; i < kKeys; ++i) {
    Check(db->Put(rocksdb::WriteOptions(), Key(i),
                  std::string(100, static_cast<char>('a' + i % 26))),
          "Put");
  }
  Check(db->Delete(rocksdb::WriteOptions(), Key(7)), "Delete");
  Check(db->Flush(rocksdb::FlushOptions()), "Flush");
  Check(db->CompactRange(rocksdb::CompactRangeOptions(), nullptr, nullptr),
        "CompactRange");
  Expect(listener->flushes > 0, "the event listener saw a flush");
  delete db;

  options.create_if_missing = false;
  Check(rocksdb::DB::Open(options, path, &db), "reopen");
  std::string value;
  Check(db->Get(rocksdb::ReadOptions(), Key(12345), &value), "Get");
  Expect(value == std::string(100, static_cast<char>('a' + 12345 % 26)),
         "Get returns the value written");
  Expect(db->Get(rocksdb::ReadOptions(), Key(7), &value).IsNotFound(),
         "a deleted key stays deleted");
  int count = 0;
  std::unique_ptr<rocksdb::Iterator> it(db->NewIterator(rocksdb::ReadOptions()));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    ++count;
  }
  Check(it->status(), "iteration");
  Expect(count == kKeys - 1, "iteration sees every live key once");
  it.reset();
  delete db;

  std::printf("consumer ok: RocksDB %d.%d.%d", ROCKSDB_MAJOR, ROCKSDB_MINOR,
              ROCKSDB_PATCH);
#ifdef ROCKSDB_VLSM_FORK
  const std::string header_version =
      std::to_string(ROCKSDB_VLSM_FORK_MAJOR) + "." +
      std::to_string(ROCKSDB_VLSM_FORK_MINOR) + "." +
      std::to_string(ROCKSDB_VLSM_FORK_PATCH);
  Expect(rocksdb::GetVlsmForkVersionAsString() == header_version,
         "the loaded library's fork version matches the headers");
  std::printf(", %s", rocksdb::GetVlsmForkVersionAsString(true).c_str());
#endif
  std::printf(", %d keys\n", count);
  return 0;
}
