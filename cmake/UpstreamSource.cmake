# Prepares the upstream RocksDB tree the fork builds from:
#   1. fetch and verify the pinned tarball (scripts/fetch-upstream.sh);
#   2. extract it under the build directory;
#   3. apply patches/*.patch in order; a patch that does not apply stops the
#      configure step and names the patch.
# Sets ROCKSDB_UPSTREAM_DIR (the patched tree) and
# ROCKSDB_PRISTINE_INCLUDE_DIR (the tarball's untouched public headers, for
# the binary drop-in tests).
#
# Re-running is incremental: when the patch series changes, the files touched
# by the old or the new series are re-patched from the tarball in a staging
# directory and only those whose content changed are copied into the tree, so
# everything else keeps its timestamp and is not recompiled.

set(ROCKSDB_UPSTREAM_TARBALL "$ENV{ROCKSDB_TARBALL}" CACHE FILEPATH
    "Local rocksdb_9.10.0.orig.tar.gz to build from instead of downloading it")

set(_work "${CMAKE_BINARY_DIR}/_upstream")
set(ROCKSDB_UPSTREAM_DIR "${_work}/src")
set(ROCKSDB_PRISTINE_INCLUDE_DIR "${_work}/pristine/include")
set(_stamp "${_work}/patched.stamp")

# 1. Fetch.
set(ENV{ROCKSDB_TARBALL} "${ROCKSDB_UPSTREAM_TARBALL}")
execute_process(
  COMMAND "${PROJECT_SOURCE_DIR}/scripts/fetch-upstream.sh" "${_work}/download"
  OUTPUT_VARIABLE _tarball OUTPUT_STRIP_TRAILING_WHITESPACE
  ERROR_VARIABLE _fetch_log
  RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "Could not obtain the upstream RocksDB source:\n${_fetch_log}")
endif()

# The series and what it touches ("+++ b/path" lines of each patch).
file(GLOB _patches LIST_DIRECTORIES false "${PROJECT_SOURCE_DIR}/patches/*.patch")
list(SORT _patches)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             "${PROJECT_SOURCE_DIR}/patches" ${_patches})
set(_identity "tarball=${_tarball}")
set(_touched "")
foreach(_p IN LISTS _patches)
  file(SHA256 "${_p}" _h)
  string(APPEND _identity "\n${_p}=${_h}")
  file(STRINGS "${_p}" _lines REGEX "^\\+\\+\\+ b/")
  foreach(_l IN LISTS _lines)
    string(REGEX REPLACE "^\\+\\+\\+ b/([^\t ]+).*" "\\1" _f "${_l}")
    list(APPEND _touched "${_f}")
  endforeach()
endforeach()
list(REMOVE_DUPLICATES _touched)

set(_old_identity "")
set(_old_tarball "")
set(_old_touched "")
if(EXISTS "${_stamp}" AND EXISTS "${ROCKSDB_UPSTREAM_DIR}/CMakeLists.txt")
  include("${_stamp}")  # sets _old_identity, _old_tarball and _old_touched
endif()

if(NOT _old_identity STREQUAL _identity)
  find_program(PATCH_EXECUTABLE patch)
  if(NOT PATCH_EXECUTABLE)
    message(FATAL_ERROR "The 'patch' program is required: apt-get install patch")
  endif()

  # 2. Extract the whole tree the first time (or for another tarball).
  set(_tmp "${_work}/extract")
  file(REMOVE_RECURSE "${_tmp}")
  if(NOT _old_tarball STREQUAL _tarball)
    message(STATUS "Extracting ${_tarball}")
    file(REMOVE_RECURSE "${ROCKSDB_UPSTREAM_DIR}" "${_work}/pristine")
    # TOUCH: objects built from an earlier tree must never look newer.
    file(ARCHIVE_EXTRACT INPUT "${_tarball}" DESTINATION "${_tmp}" TOUCH)
    file(RENAME "${_tmp}/rocksdb-9.10.0" "${ROCKSDB_UPSTREAM_DIR}")
    file(ARCHIVE_EXTRACT INPUT "${_tarball}" DESTINATION "${_tmp}"
         PATTERNS "rocksdb-9.10.0/include")
    file(MAKE_DIRECTORY "${_work}/pristine")
    file(RENAME "${_tmp}/rocksdb-9.10.0/include" "${ROCKSDB_PRISTINE_INCLUDE_DIR}")
    file(REMOVE_RECURSE "${_tmp}")
    set(_old_touched "")
  endif()

  # 3. Patch, in order, a staging copy of just the files any series touches;
  # then copy into the tree only the files whose content changed, so that an
  # edit to one patch recompiles only what it changes.
  set(_restore ${_old_touched} ${_touched})
  list(REMOVE_DUPLICATES _restore)
  set(_stage "${_work}/stage")
  file(REMOVE_RECURSE "${_stage}" "${_tmp}")
  file(MAKE_DIRECTORY "${_stage}")
  list(TRANSFORM _restore PREPEND "rocksdb-9.10.0/" OUTPUT_VARIABLE _members)
  if(_members)
    file(ARCHIVE_EXTRACT INPUT "${_tarball}" DESTINATION "${_tmp}" PATTERNS ${_members})
  endif()
  if(EXISTS "${_tmp}/rocksdb-9.10.0")
    file(REMOVE_RECURSE "${_stage}")
    file(RENAME "${_tmp}/rocksdb-9.10.0" "${_stage}")
  endif()
  file(REMOVE_RECURSE "${_tmp}")
  foreach(_p IN LISTS _patches)
    get_filename_component(_name "${_p}" NAME)
    execute_process(
      COMMAND "${PATCH_EXECUTABLE}" -p1 --batch --forward --no-backup-if-mismatch
              --reject-file=- -i "${_p}"
      WORKING_DIRECTORY "${_stage}"
      OUTPUT_VARIABLE _out ERROR_VARIABLE _out RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "Patch ${_name} does not apply to RocksDB 9.10.0:\n${_out}\n"
                          "Fix or regenerate patches/${_name}.")
    endif()
    message(STATUS "Applied ${_name}")
  endforeach()
  foreach(_f IN LISTS _restore)
    if(EXISTS "${_stage}/${_f}")
      execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different
                              "${_stage}/${_f}" "${ROCKSDB_UPSTREAM_DIR}/${_f}")
    else()  # a file only a former patch created
      file(REMOVE "${ROCKSDB_UPSTREAM_DIR}/${_f}")
    endif()
  endforeach()
  file(REMOVE_RECURSE "${_stage}")
  file(WRITE "${_stamp}"
       "set(_old_identity [==[${_identity}]==])\nset(_old_tarball [==[${_tarball}]==])\n"
       "set(_old_touched [==[${_touched}]==])\n")
endif()
