// The C API of include/rocksdb/vlsm_c.h: thin wrappers over rocksdb/vlsm.h.
#include "rocksdb/vlsm_c.h"

#include <cstdlib>
#include <cstring>

#include "rocksdb/options.h"
#include "rocksdb/vlsm.h"

namespace ROCKSDB_NAMESPACE {
// db/c.cc (patch 0009): the Options inside a rocksdb_options_t.
Options* VlsmOptionsOfC(rocksdb_options_t* opt);
}  // namespace ROCKSDB_NAMESPACE

using ROCKSDB_NAMESPACE::Options;
using ROCKSDB_NAMESPACE::Status;
using ROCKSDB_NAMESPACE::VlsmOptions;
using ROCKSDB_NAMESPACE::VlsmOptionsOfC;

namespace {

// As upstream's C API reports errors: a malloc'ed message in *errptr,
// replacing an earlier one; nothing on success.
void SaveVlsmError(char** errptr, const Status& s) {
  if (s.ok() || errptr == nullptr) {
    return;
  }
  std::free(*errptr);
  *errptr = strdup(s.ToString().c_str());
}

}  // namespace

extern "C" {

void rocksdb_options_configure_vlsm(rocksdb_options_t* opt, uint64_t sst_size,
                                    int growth, int l1_l2_growth,
                                    char** errptr) {
  if (opt == nullptr) {
    SaveVlsmError(errptr, Status::InvalidArgument(
                              "rocksdb_options_configure_vlsm: opt is NULL"));
    return;
  }
  VlsmOptions vlsm;
  vlsm.sst_size = sst_size;
  vlsm.growth = growth;
  vlsm.l1_l2_growth = l1_l2_growth;
  SaveVlsmError(errptr,
                ROCKSDB_NAMESPACE::ConfigureVlsm(VlsmOptionsOfC(opt), vlsm));
}

void rocksdb_options_configure_vlsm_ranged(rocksdb_options_t* opt,
                                           char** errptr) {
  if (opt == nullptr) {
    SaveVlsmError(errptr,
                  Status::InvalidArgument(
                      "rocksdb_options_configure_vlsm_ranged: opt is NULL"));
    return;
  }
  SaveVlsmError(errptr, ROCKSDB_NAMESPACE::ConfigureVlsm(
                            VlsmOptionsOfC(opt), VlsmOptions::Ranged()));
}

void rocksdb_options_check_vlsm(rocksdb_options_t* opt, char** errptr) {
  if (opt == nullptr) {
    SaveVlsmError(errptr, Status::InvalidArgument(
                              "rocksdb_options_check_vlsm: opt is NULL"));
    return;
  }
  SaveVlsmError(errptr,
                ROCKSDB_NAMESPACE::CheckVlsmOptions(*VlsmOptionsOfC(opt)));
}

}  // extern "C"
