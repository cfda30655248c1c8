/* A C user of the fork (issue 23): compiled as C and linked with the C
   compiler, or loading librocksdb.so.9 with dlopen (-DVLSM_DLOPEN), with no
   allocator preloaded. Turns vLSM on through rocksdb/vlsm_c.h and through an
   options string, writes, reads back, and checks that a conflicting option
   is refused with a message that names it. Exits non-zero naming the step.

   usage: c_consumer WORK_DIR [LIBRARY_PATH (with -DVLSM_DLOPEN)] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef VLSM_DLOPEN
#include <dlfcn.h>
#endif

#include "rocksdb/c.h"
#include "rocksdb/vlsm_c.h"

/* Every C API call the program makes, resolved at link time or by dlsym. */
#define C_API(X)                                                    \
  X(rocksdb_options_create) X(rocksdb_options_destroy)              \
  X(rocksdb_options_set_create_if_missing)                          \
  X(rocksdb_options_set_level_compaction_dynamic_level_bytes)       \
  X(rocksdb_options_get_compaction_pri)                             \
  X(rocksdb_options_get_target_file_size_base)                      \
  X(rocksdb_get_options_from_string) X(rocksdb_options_configure_vlsm) \
  X(rocksdb_options_check_vlsm) X(rocksdb_open) X(rocksdb_close)    \
  X(rocksdb_writeoptions_create) X(rocksdb_writeoptions_destroy)    \
  X(rocksdb_readoptions_create) X(rocksdb_readoptions_destroy)      \
  X(rocksdb_flushoptions_create) X(rocksdb_flushoptions_destroy)    \
  X(rocksdb_put) X(rocksdb_get) X(rocksdb_flush) X(rocksdb_free)      \
  X(rocksdb_options_get_write_buffer_size)                          \
  X(rocksdb_options_get_max_bytes_for_level_base)                   \
  X(rocksdb_options_get_max_bytes_for_level_multiplier)             \
  X(rocksdb_options_get_level0_file_num_compaction_trigger)         \
  X(rocksdb_options_get_max_compaction_bytes)                       \
  X(rocksdb_options_get_level_compaction_dynamic_level_bytes)       \
  X(rocksdb_options_get_target_file_size_multiplier)                \
  X(rocksdb_options_get_max_write_buffer_number)                    \
  X(rocksdb_options_get_compaction_style)                           \
  X(rocksdb_options_configure_vlsm_ranged)                          \
  X(rocksdb_options_set_num_levels)                                 \
  X(rocksdb_options_get_level0_slowdown_writes_trigger)             \
  X(rocksdb_options_get_level0_stop_writes_trigger)                 \
  X(rocksdb_options_get_soft_pending_compaction_bytes_limit)        \
  X(rocksdb_options_get_hard_pending_compaction_bytes_limit)

#define DECLARE(f) static __typeof__(&f) p_##f;
C_API(DECLARE)

static void fail(const char* step, const char* detail) {
  fprintf(stderr, "c_consumer: %s: %s\n", step, detail ? detail : "");
  exit(1);
}

static void check(char* err, const char* step) {
  if (err != NULL) {
    fail(step, err);
  }
}

static void load_api(const char* library) {
#ifdef VLSM_DLOPEN
  void* lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  if (lib == NULL) {
    fail("dlopen", dlerror());
  }
#define LOAD(f)                                   \
  p_##f = (__typeof__(&f))dlsym(lib, #f);         \
  if (p_##f == NULL) fail("dlsym " #f, dlerror());
#else
  (void)library;
#define LOAD(f) p_##f = &f;
#endif
  C_API(LOAD)
}

/* Opens dir with opt, writes n keys, flushes, reads them back, closes. */
static void write_and_read(rocksdb_options_t* opt, const char* dir, int n) {
  char* err = NULL;
  p_rocksdb_options_set_create_if_missing(opt, 1);
  rocksdb_t* db = p_rocksdb_open(opt, dir, &err);
  check(err, "rocksdb_open");
  rocksdb_writeoptions_t* wo = p_rocksdb_writeoptions_create();
  rocksdb_readoptions_t* ro = p_rocksdb_readoptions_create();
  char key[32], value[64];
  for (int i = 0; i < n; i++) {
    snprintf(key, sizeof key, "key%08d", i);
    snprintf(value, sizeof value, "value-%d-%0*d", i, 40, i);
    p_rocksdb_put(db, wo, key, strlen(key), value, strlen(value), &err);
    check(err, "rocksdb_put");
  }
  rocksdb_flushoptions_t* fo = p_rocksdb_flushoptions_create();
  p_rocksdb_flush(db, fo, &err);
  check(err, "rocksdb_flush");
  for (int i = 0; i < n; i += 97) {
    snprintf(key, sizeof key, "key%08d", i);
    snprintf(value, sizeof value, "value-%d-%0*d", i, 40, i);
    size_t len = 0;
    char* got = p_rocksdb_get(db, ro, key, strlen(key), &len, &err);
    check(err, "rocksdb_get");
    if (got == NULL || len != strlen(value) || memcmp(got, value, len) != 0) {
      fail("rocksdb_get", key);
    }
    p_rocksdb_free(got);
  }
  p_rocksdb_flushoptions_destroy(fo);
  p_rocksdb_readoptions_destroy(ro);
  p_rocksdb_writeoptions_destroy(wo);
  p_rocksdb_close(db);
}

static void expect_error_naming(char* err, const char* step, const char* name) {
  if (err == NULL) {
    fail(step, "accepted a conflicting option set");
  }
  if (strstr(err, name) == NULL) {
    fail(step, err);
  }
  printf("  %s refused it: %s\n", step, err);
  p_rocksdb_free(err);
}

/* Fails at step unless a and b agree on every option vLSM's one calls set. */
static void expect_same_vlsm_options(rocksdb_options_t* a, rocksdb_options_t* b,
                                     const char* step) {
#define SAME(getter)                                   \
  if (p_##getter(a) != p_##getter(b)) {                \
    fail(step, #getter " differs from the one call");  \
  }
  SAME(rocksdb_options_get_compaction_pri)
  SAME(rocksdb_options_get_compaction_style)
  SAME(rocksdb_options_get_target_file_size_base)
  SAME(rocksdb_options_get_target_file_size_multiplier)
  SAME(rocksdb_options_get_write_buffer_size)
  SAME(rocksdb_options_get_max_write_buffer_number)
  SAME(rocksdb_options_get_max_bytes_for_level_base)
  SAME(rocksdb_options_get_max_bytes_for_level_multiplier)
  SAME(rocksdb_options_get_level0_file_num_compaction_trigger)
  SAME(rocksdb_options_get_level0_slowdown_writes_trigger)
  SAME(rocksdb_options_get_level0_stop_writes_trigger)
  SAME(rocksdb_options_get_soft_pending_compaction_bytes_limit)
  SAME(rocksdb_options_get_hard_pending_compaction_bytes_limit)
  SAME(rocksdb_options_get_max_compaction_bytes)
  SAME(rocksdb_options_get_level_compaction_dynamic_level_bytes)
#undef SAME
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fail("usage", "c_consumer WORK_DIR [LIBRARY_PATH]");
  }
  load_api(argc > 2 ? argv[2] : NULL);
  char dir[4096];
  char* err = NULL;

  /* 1. The one call, with small files so that the test compacts. */
  rocksdb_options_t* opt = p_rocksdb_options_create();
  p_rocksdb_options_configure_vlsm(opt, 64 << 10, rocksdb_vlsm_default_growth,
                                   rocksdb_vlsm_default_l1_l2_growth, &err);
  check(err, "rocksdb_options_configure_vlsm");
  if (p_rocksdb_options_get_compaction_pri(opt) != rocksdb_k_vlsm_compaction_pri ||
      p_rocksdb_options_get_target_file_size_base(opt) != (64 << 10)) {
    fail("rocksdb_options_configure_vlsm", "did not set compaction_pri and S_M");
  }
  p_rocksdb_options_check_vlsm(opt, &err);
  check(err, "rocksdb_options_check_vlsm");
  snprintf(dir, sizeof dir, "%s/configured", argv[1]);
  write_and_read(opt, dir, 20000);
  printf("  rocksdb_options_configure_vlsm: open, 20000 puts, gets: ok\n");

  /* Bad input is refused and leaves the options as they were. */
  p_rocksdb_options_configure_vlsm(opt, 64 << 10, 8, 12, &err);
  expect_error_naming(err, "rocksdb_options_configure_vlsm(Phi=12)", "Phi");
  err = NULL;
  if (p_rocksdb_options_get_target_file_size_base(opt) != (64 << 10)) {
    fail("rocksdb_options_configure_vlsm(Phi=12)", "changed the options");
  }

  /* The recommended layout in one call: the ranged L0 as it was measured
     (ConfigureVlsm(VlsmOptions::Ranged()) in rocksdb/vlsm.h). */
  rocksdb_options_t* ranged = p_rocksdb_options_create();
  p_rocksdb_options_configure_vlsm_ranged(ranged, &err);
  check(err, "rocksdb_options_configure_vlsm_ranged");
  if (p_rocksdb_options_get_compaction_pri(ranged) !=
          rocksdb_k_vlsm_ranged_compaction_pri ||
      p_rocksdb_options_get_target_file_size_base(ranged) != (8 << 20) ||
      p_rocksdb_options_get_write_buffer_size(ranged) != (32 << 20) ||
      p_rocksdb_options_get_max_write_buffer_number(ranged) != 4 ||
      p_rocksdb_options_get_max_bytes_for_level_base(ranged) != (256 << 20) ||
      p_rocksdb_options_get_level0_file_num_compaction_trigger(ranged) != 8 ||
      p_rocksdb_options_get_level0_slowdown_writes_trigger(ranged) != 40 ||
      p_rocksdb_options_get_level0_stop_writes_trigger(ranged) != 72 ||
      p_rocksdb_options_get_soft_pending_compaction_bytes_limit(ranged) !=
          ((size_t)64 << 30) ||
      p_rocksdb_options_get_hard_pending_compaction_bytes_limit(ranged) !=
          ((size_t)256 << 30)) {
    fail("rocksdb_options_configure_vlsm_ranged",
         "did not set the measured configuration");
  }
  p_rocksdb_options_check_vlsm(ranged, &err);
  check(err, "rocksdb_options_check_vlsm(ranged)");
  snprintf(dir, sizeof dir, "%s/ranged", argv[1]);
  write_and_read(ranged, dir, 20000);
  p_rocksdb_options_destroy(ranged);
  printf("  rocksdb_options_configure_vlsm_ranged: open, 20000 puts, gets: ok\n");

  /* Too few levels: refused, naming them, and the options left alone. */
  rocksdb_options_t* two = p_rocksdb_options_create();
  p_rocksdb_options_set_num_levels(two, 2);
  const int pri_before = p_rocksdb_options_get_compaction_pri(two);
  p_rocksdb_options_configure_vlsm_ranged(two, &err);
  expect_error_naming(err, "rocksdb_options_configure_vlsm_ranged(2 levels)",
                      "num_levels");
  err = NULL;
  if (p_rocksdb_options_get_compaction_pri(two) != pri_before) {
    fail("rocksdb_options_configure_vlsm_ranged(2 levels)",
         "changed the options");
  }
  p_rocksdb_options_destroy(two);

  /* 2. A conflicting option: the check and rocksdb_open both name it. */
  p_rocksdb_options_set_level_compaction_dynamic_level_bytes(opt, 1);
  p_rocksdb_options_check_vlsm(opt, &err);
  expect_error_naming(err, "rocksdb_options_check_vlsm",
                      "level_compaction_dynamic_level_bytes");
  err = NULL;
  snprintf(dir, sizeof dir, "%s/conflict", argv[1]);
  p_rocksdb_options_set_create_if_missing(opt, 1);
  rocksdb_t* db = p_rocksdb_open(opt, dir, &err);
  if (db != NULL) {
    p_rocksdb_close(db);
  }
  expect_error_naming(err, "rocksdb_open", "level_compaction_dynamic_level_bytes");
  err = NULL;
  p_rocksdb_options_destroy(opt);

  /* 3. The options-string form, for bindings that only pass strings (the
     README gives it with the default sizes). */
  const char* vlsm_string =
      "compaction_style=kCompactionStyleLevel;compaction_pri=kVlsm;"
      "level_compaction_dynamic_level_bytes=false;"
      "write_buffer_size=65536;target_file_size_base=65536;"
      "target_file_size_multiplier=1;max_write_buffer_number=2;"
      "max_bytes_for_level_base=524288;max_bytes_for_level_multiplier=8;"
      "max_bytes_for_level_multiplier_additional=1:4:1:1:1:1:1;"
      "level0_file_num_compaction_trigger=1;max_compaction_bytes=655360";
  rocksdb_options_t* base = p_rocksdb_options_create();
  rocksdb_options_t* from_string = p_rocksdb_options_create();
  p_rocksdb_get_options_from_string(base, vlsm_string, from_string, &err);
  check(err, "rocksdb_get_options_from_string");
  if (p_rocksdb_options_get_compaction_pri(from_string) != rocksdb_k_vlsm_compaction_pri) {
    fail("rocksdb_get_options_from_string", "compaction_pri is not vLSM");
  }
  p_rocksdb_options_check_vlsm(from_string, &err);
  check(err, "rocksdb_options_check_vlsm(options string)");
  snprintf(dir, sizeof dir, "%s/from_string", argv[1]);
  write_and_read(from_string, dir, 20000);
  printf("  options string: open, 20000 puts, gets: ok\n");
  p_rocksdb_options_destroy(from_string);

  /* The README's options string for bindings sets what the one call sets
     with its defaults (VLSM_README_OPTIONS: the string, from the README). */
  const char* readme = getenv("VLSM_README_OPTIONS");
  if (readme != NULL) {
    rocksdb_options_t* a = p_rocksdb_options_create();
    rocksdb_options_t* b = p_rocksdb_options_create();
    p_rocksdb_get_options_from_string(base, readme, a, &err);
    check(err, "rocksdb_get_options_from_string(README)");
    p_rocksdb_options_configure_vlsm(b, rocksdb_vlsm_default_sst_size,
                                     rocksdb_vlsm_default_growth,
                                     rocksdb_vlsm_default_l1_l2_growth, &err);
    check(err, "rocksdb_options_configure_vlsm(defaults)");
    expect_same_vlsm_options(a, b, "README options string");
    p_rocksdb_options_check_vlsm(a, &err);
    check(err, "rocksdb_options_check_vlsm(README)");
    p_rocksdb_options_destroy(a);
    p_rocksdb_options_destroy(b);
    printf("  README options string: same options as the one call\n");
  }
  /* Its ranged twin (VLSM_README_RANGED_OPTIONS) sets what
     rocksdb_options_configure_vlsm_ranged sets. */
  const char* readme_ranged = getenv("VLSM_README_RANGED_OPTIONS");
  if (readme_ranged != NULL) {
    rocksdb_options_t* a = p_rocksdb_options_create();
    rocksdb_options_t* b = p_rocksdb_options_create();
    p_rocksdb_get_options_from_string(base, readme_ranged, a, &err);
    check(err, "rocksdb_get_options_from_string(README, ranged)");
    p_rocksdb_options_configure_vlsm_ranged(b, &err);
    check(err, "rocksdb_options_configure_vlsm_ranged");
    expect_same_vlsm_options(a, b, "README ranged options string");
    p_rocksdb_options_check_vlsm(a, &err);
    check(err, "rocksdb_options_check_vlsm(README, ranged)");
    p_rocksdb_options_destroy(a);
    p_rocksdb_options_destroy(b);
    printf("  README ranged options string: same options as the one call\n");
  }

  /* A bare compaction_pri=kVlsm keeps RocksDB 9's dynamic level bytes. */
  rocksdb_options_t* bare = p_rocksdb_options_create();
  p_rocksdb_get_options_from_string(base, "compaction_pri=kVlsm", bare, &err);
  check(err, "rocksdb_get_options_from_string(bare)");
  p_rocksdb_options_check_vlsm(bare, &err);
  expect_error_naming(err, "rocksdb_options_check_vlsm(bare kVlsm)",
                      "level_compaction_dynamic_level_bytes");
  p_rocksdb_options_destroy(bare);
  p_rocksdb_options_destroy(base);
  printf("c_consumer: all checks passed\n");
  return 0;
}
