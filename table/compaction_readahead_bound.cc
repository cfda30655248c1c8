#include "table/compaction_readahead_bound.h"

#include <algorithm>

namespace ROCKSDB_NAMESPACE {

std::function<void(bool, uint64_t&, uint64_t&)> CompactionReadaheadBoundedBy(
    uint64_t file_size) {
  return [file_size](bool /*read_curr_block*/, uint64_t& start, uint64_t& end) {
    // A block that starts at or past the end (metadata that disagrees with
    // the file) is read as upstream reads it, so the read reports the
    // error: an empty prefetch would leave the caller an unfilled buffer.
    if (start < file_size) {
      // The buffer rounds the end up to a whole page again, as direct I/O
      // reads: at most one page past the file's end is charged.
      end = std::min(end, file_size);
    }
  };
}

}  // namespace ROCKSDB_NAMESPACE
