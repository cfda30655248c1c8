// Prints the size of every public options struct a program passes to the
// library. Built once against the pristine upstream headers and once against
// ours; the two outputs must be equal, and so must the member layouts that
// gdb prints from this program's debug information (run_dropin_test.sh).
#include <cstdio>

#include "rocksdb/options.h"
#include "rocksdb/table.h"

// Definitions, so the debug information describes every member.
rocksdb::Options probe_options;
rocksdb::DBOptions probe_db_options;
rocksdb::ColumnFamilyOptions probe_cf_options;
rocksdb::ReadOptions probe_read_options;
rocksdb::WriteOptions probe_write_options;
rocksdb::BlockBasedTableOptions probe_table_options;

#define PRINT_SIZE(T) std::printf("sizeof(%s) = %zu\n", #T, sizeof(T))
#define PRINT_OFFSET(T, m) \
  std::printf("offsetof(%s, %s) = %zu\n", #T, #m, offsetof(T, m))

int main() {
  PRINT_SIZE(rocksdb::Options);
  PRINT_SIZE(rocksdb::DBOptions);
  PRINT_SIZE(rocksdb::ColumnFamilyOptions);
  PRINT_SIZE(rocksdb::AdvancedColumnFamilyOptions);
  PRINT_SIZE(rocksdb::ReadOptions);
  PRINT_SIZE(rocksdb::WriteOptions);
  PRINT_SIZE(rocksdb::BlockBasedTableOptions);
  // The members vLSM configures; gdb checks all the others.
  PRINT_OFFSET(rocksdb::ColumnFamilyOptions, write_buffer_size);
  PRINT_OFFSET(rocksdb::ColumnFamilyOptions, compaction_pri);
  PRINT_OFFSET(rocksdb::ColumnFamilyOptions, target_file_size_base);
  PRINT_OFFSET(rocksdb::ColumnFamilyOptions, max_bytes_for_level_base);
  PRINT_OFFSET(rocksdb::ColumnFamilyOptions,
               max_bytes_for_level_multiplier_additional);
  PRINT_OFFSET(rocksdb::ColumnFamilyOptions,
               level_compaction_dynamic_level_bytes);
  PRINT_OFFSET(rocksdb::DBOptions, listeners);
  return 0;
}
