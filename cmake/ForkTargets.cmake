# The fork's own targets. Included from the end of upstream's CMakeLists.txt
# (patch 0001), so everything here compiles with upstream's flags, compile
# definitions and include paths, and links ${ROCKSDB_LIB} like upstream tools.
# VLSM_FORK_DIR is our source root.

include(${VLSM_FORK_DIR}/cmake/ToolAllocator.cmake)
# Upstream's db_bench too (defined in this directory), so that comparisons
# with db_bench_vlsm (scripts/bench/collector_overhead.sh) run on the same
# allocator.
if(TARGET db_bench)
  vlsm_link_jemalloc(db_bench)
endif()

add_subdirectory(${VLSM_FORK_DIR}/tools ${CMAKE_BINARY_DIR}/tools)

# The open-loop YCSB harness (ycsb_vlsm) and its own tests.
add_subdirectory(${VLSM_FORK_DIR}/ycsb ${CMAKE_BINARY_DIR}/ycsb)

if(VLSM_BUILD_TESTS)
  add_subdirectory(${VLSM_FORK_DIR}/tests ${CMAKE_BINARY_DIR}/tests)
endif()

if(VLSM_UPSTREAM_TESTS)
  add_subdirectory(${VLSM_FORK_DIR}/tests/upstream ${CMAKE_BINARY_DIR}/tests-upstream)
endif()
