# vlsm_link_jemalloc(<executable>): the process allocator for the fork's
# benchmark executables. The library itself carries none (CMakeLists.txt,
# WITH_JEMALLOC): an executable that links jemalloc replaces malloc, free,
# new and delete together for the whole process, which is safe; a shared
# library that does so is not. --no-as-needed keeps the dependency although
# the executable names no jemalloc symbol: interposition is the point.
if(VLSM_TOOLS_JEMALLOC)
  find_library(VLSM_JEMALLOC_LIBRARY NAMES jemalloc)
  if(NOT VLSM_JEMALLOC_LIBRARY)
    message(FATAL_ERROR "VLSM_TOOLS_JEMALLOC=ON but no libjemalloc: install libjemalloc-dev "
                        "or configure with -DVLSM_TOOLS_JEMALLOC=OFF.")
  endif()
endif()

function(vlsm_link_jemalloc target)
  if(VLSM_TOOLS_JEMALLOC)
    target_link_libraries(${target} "-Wl,--push-state,--no-as-needed" ${VLSM_JEMALLOC_LIBRARY}
                          "-Wl,--pop-state")
  endif()
endfunction()
