#include "write_breakdown.h"

namespace ycsb {

const char* WritePartName(int part) {
  static const char* const kNames[kWriteParts] = {
      "wal",         "wal_file_write", "wal_prepare_write", "wal_range_sync",
      "wal_fsync",   "memtable",       "delay",             "pre_post",
      "scheduling",  "mutex_lock",     "condition_wait",
      "write_thread_wait"};
  return part >= 0 && part < kWriteParts ? kNames[part] : "?";
}

void WriteBreakdown::Add(const WriteBreakdown& o) {
  writes += o.writes;
  total_ns += o.total_ns;
  for (int p = 0; p < kWriteParts; p++) part_ns[p] += o.part_ns[p];
  memtables_sealed += o.memtables_sealed;
  tables_created += o.tables_created;
  table_bytes += o.table_bytes;
}

namespace {
uint64_t Less(uint64_t now, uint64_t earlier) {
  return now > earlier ? now - earlier : 0;
}
}  // namespace

WriteBreakdown WriteBreakdown::Minus(const WriteBreakdown& e) const {
  WriteBreakdown d;
  d.writes = Less(writes, e.writes);
  d.total_ns = Less(total_ns, e.total_ns);
  for (int p = 0; p < kWriteParts; p++) d.part_ns[p] = Less(part_ns[p], e.part_ns[p]);
  d.memtables_sealed = Less(memtables_sealed, e.memtables_sealed);
  d.tables_created = Less(tables_created, e.tables_created);
  d.table_bytes = Less(table_bytes, e.table_bytes);
  return d;
}

void WriteBreakdownCsvHeader(FILE* f) {
  fprintf(f, "time_s,region,writes,total_us");
  for (int p = 0; p < kWriteParts; p++) fprintf(f, ",%s_us", WritePartName(p));
  fprintf(f, ",memtables_sealed,tables_created,table_bytes\n");
}

void WriteBreakdownCsvRows(FILE* f, double time_s,
                           const std::vector<WriteBreakdown>& regions) {
  for (size_t r = 0; r < regions.size(); r++) {
    const WriteBreakdown& b = regions[r];
    fprintf(f, "%.3f,%zu,%llu,%llu", time_s, r,
            static_cast<unsigned long long>(b.writes),
            static_cast<unsigned long long>(b.total_ns / 1000));
    for (int p = 0; p < kWriteParts; p++) {
      fprintf(f, ",%llu", static_cast<unsigned long long>(b.part_ns[p] / 1000));
    }
    fprintf(f, ",%llu,%llu,%llu\n",
            static_cast<unsigned long long>(b.memtables_sealed),
            static_cast<unsigned long long>(b.tables_created),
            static_cast<unsigned long long>(b.table_bytes));
  }
}

}  // namespace ycsb
