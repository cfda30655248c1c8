/* vLSM compaction from C (and from bindings built on the C API: Rust, Go,
   Python ctypes). The C counterpart of rocksdb/vlsm.h; upstream's
   rocksdb/c.h is unchanged.

     rocksdb_options_t* opt = rocksdb_options_create();
     char* err = NULL;
     rocksdb_options_configure_vlsm_ranged(opt, &err);

   turns on the recommended layout as it was measured; the paper's, from
   S_M, f and Phi, is

     rocksdb_options_configure_vlsm(opt, rocksdb_vlsm_default_sst_size,
                                    rocksdb_vlsm_default_growth,
                                    rocksdb_vlsm_default_l1_l2_growth, &err);
     if (err != NULL) { fprintf(stderr, "%s\n", err); rocksdb_free(err); }

   Errors are reported as in the rest of the C API: *errptr is set to a
   malloc'ed message (free it with rocksdb_free) and left alone on success. */
#pragma once

#include <stdint.h>

#include "rocksdb/c.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  /* compaction_pri of vLSM, for rocksdb_options_set_compaction_pri, beside
     upstream's rocksdb_k_*_compaction_pri values. Setting it alone is not
     enough (RocksDB 9 turns level_compaction_dynamic_level_bytes on by
     default, which vLSM cannot use): call rocksdb_options_configure_vlsm. */
  rocksdb_k_vlsm_compaction_pri = 5,
  /* compaction_pri of vLSM's ranged L0 layout (kVlsmRanged); the same holds:
     call rocksdb_options_configure_vlsm_ranged. */
  rocksdb_k_vlsm_ranged_compaction_pri = 6,
  /* The paper's parameters: S_M = 8 MiB, f = 8, Phi = 32. */
  rocksdb_vlsm_default_sst_size = 8 << 20,
  rocksdb_vlsm_default_growth = 8,
  rocksdb_vlsm_default_l1_l2_growth = 32
};

/* Turns vLSM on for the column family these options describe and sets every
   option it depends on, as ConfigureVlsm() in rocksdb/vlsm.h does (its
   comment lists them): sst_size is S_M in bytes, growth is f (>= 2) and
   l1_l2_growth is Phi (a multiple of f). On bad input sets *errptr to a
   message naming the rule broken and leaves opt unchanged. */
extern ROCKSDB_LIBRARY_API void rocksdb_options_configure_vlsm(
    rocksdb_options_t* opt, uint64_t sst_size, int growth, int l1_l2_growth,
    char** errptr);

/* Turns vLSM on with the ranged L0 layout, the recommended one, in the
   configuration it was measured with: ConfigureVlsm(VlsmOptions::Ranged())
   of rocksdb/vlsm.h, whose comments give each value and why (S_M 8 MiB,
   4 x 32 MiB memtables, L1 256 MiB, f = Phi = 8, L0 depth 8, stall triggers
   17 / 21 memtables' worth, pending-compaction limits 1 / 2 GiB). On failure
   (num_levels < 3) sets *errptr to a message naming the rule broken and
   leaves opt unchanged. */
extern ROCKSDB_LIBRARY_API void rocksdb_options_configure_vlsm_ranged(
    rocksdb_options_t* opt, char** errptr);

/* The check rocksdb_open applies, without opening anything: sets *errptr to
   a message naming the option to change when opt sets compaction_pri to vLSM
   together with an option vLSM cannot work with (for example
   level_compaction_dynamic_level_bytes=true); leaves *errptr alone when opt
   is fine, or does not use vLSM. */
extern ROCKSDB_LIBRARY_API void rocksdb_options_check_vlsm(
    rocksdb_options_t* opt, char** errptr);

#ifdef __cplusplus
} /* end extern "C" */
#endif
