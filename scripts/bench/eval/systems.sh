# Sourced by scripts/bench/eval/*.sh: the systems of the evaluation
# (docs/results.md) as ycsb_vlsm properties, and the settings every system
# shares. Change a shared setting here and it changes for all systems.
#
#   rocksdb     ycsb_vlsm's stock sizing, the paper's scaled to this machine:
#               64 MiB SSTs and memtables (2), L1 256 MiB, f 8, 5 levels,
#               dynamic level bytes off, kMinOverlappingRatio, upstream's
#               pending-compaction limits (64 GiB soft, 256 GiB hard: at
#               this scale, never reached, so levels may overflow).
#   rocksdb-io  rocksdb with no compaction debt: writes slow down once the
#               estimated pending compaction bytes pass 1 GiB and stop at
#               2 GiB. At the L0 trigger (4 x 64 MiB), L0->L1 alone owes
#               those 256 MiB plus the 256 MiB L1 it rewrites, about
#               512 MiB; 1 GiB is two such compactions' worth of debt
#               (docs/results.md).
#   vlsm        ConfigureVlsm(S_M 8 MiB, f 8, Phi 32) with 16 memtables of
#               8 MiB: the same 128 MiB of memtable as rocksdb.
#   vlsm-sst4, vlsm-sst16   S_M 4 / 16 MiB (32 / 8 memtables: 128 MiB)
#   vlsm-phi16, vlsm-phi64  Phi 16 / 64
# Shared: 200-byte values (one field), 4 client threads, direct I/O, no
# compression, jemalloc (linked in), a 64 MiB block cache per region,
# VLSM_EVAL_REGIONS regions (default 4, as the paper), and knobs
# applied to every system alike: VLSM_EVAL_BG_JOBS (background jobs
# per region, default 2), VLSM_EVAL_LOWER_CPU=1 (compaction threads at
# lower CPU priority), VLSM_EVAL_BLOOM_BITS (Bloom filter bits per key
# in every system's SSTs; default 0, no filter, as the paper's RocksDB
# configuration does not mention one) and VLSM_EVAL_SUBCOMPACTIONS
# (max_subcompactions, default 1 as upstream: how many threads one L0->L1
# compaction may split into), VLSM_EVAL_RATE_LIMIT (bytes per second, with
# a k/m/g suffix, of one RocksDB RateLimiter in kAllIo mode shared by all
# regions: the device-bound regime, where compaction waits on the "device"
# and the CPU has headroom; default 0, no limiter) and
# VLSM_EVAL_FLOOR_SECONDS (seconds of the same schedule against the null
# store before each open-loop run, the harness's floor; default 10).
#
# Why VLSM_EVAL_BG_JOBS=1 and 2 are the same configuration: RocksDB gives
# a quarter of max_background_jobs, at least 1, to flushes and the rest, at
# least 1, to compactions, so both mean 1 flush + 1 compaction per DB.
# Only 3 or more jobs allow a second compaction (and only while RocksDB
# asks for faster compaction: L0 past its speed-up threshold, or pending
# bytes high), and only free compaction slots let an L0->L1 compaction
# split into subcompactions (docs/results.md).

eval_systems_all="rocksdb rocksdb-io vlsm vlsm-sst4 vlsm-sst16 vlsm-phi16 vlsm-phi64"

eval_check_settings() {  # needs scripts/lib/checks.sh
  require_positive_int VLSM_EVAL_REGIONS "${VLSM_EVAL_REGIONS:-4}"
  require_positive_int VLSM_EVAL_BG_JOBS "${VLSM_EVAL_BG_JOBS:-2}"
  require_flag VLSM_EVAL_LOWER_CPU "${VLSM_EVAL_LOWER_CPU:-0}"
  [ "${VLSM_EVAL_BLOOM_BITS:-0}" = 0 ] ||
    require_positive_int VLSM_EVAL_BLOOM_BITS "${VLSM_EVAL_BLOOM_BITS}"
  require_positive_int VLSM_EVAL_SUBCOMPACTIONS "${VLSM_EVAL_SUBCOMPACTIONS:-1}"
  [[ "${VLSM_EVAL_RATE_LIMIT:-0}" =~ ^[0-9]+[kKmMgG]?$ ]] || {
    echo "error: VLSM_EVAL_RATE_LIMIT must be bytes per second, e.g. 200m or 0 (got '$VLSM_EVAL_RATE_LIMIT')" >&2; exit 2; }
  [ "${VLSM_EVAL_FLOOR_SECONDS:-10}" = 0 ] ||
    require_positive_int VLSM_EVAL_FLOOR_SECONDS "${VLSM_EVAL_FLOOR_SECONDS:-10}"
}

eval_common_props() {  # the properties every system shares, one per line
  local lower=false
  [ "${VLSM_EVAL_LOWER_CPU:-0}" = 1 ] && lower=true
  printf '%s\n' -P "$VLSM_ROOT/ycsb/workloads/workloada" -p fieldcount=1 \
    -p fieldlength=200 -p threads=4 -p direct_io=true -p compression=none \
    -p block_cache_bytes=64M -p regions="${VLSM_EVAL_REGIONS:-4}" \
    -p max_background_jobs="${VLSM_EVAL_BG_JOBS:-2}" -p lower_cpu_priority=$lower \
    -p rocksdb.bloom_bits="${VLSM_EVAL_BLOOM_BITS:-0}" \
    -p rocksdb.rate_limit="${VLSM_EVAL_RATE_LIMIT:-0}" \
    -p floor.seconds="${VLSM_EVAL_FLOOR_SECONDS:-10}"
}

eval_system_props() {  # SYSTEM -> its own properties, one per line
  # own: the system's RocksDB options; the shared ones are appended, so
  # one rocksdb.options property carries both.
  local own
  case "$1" in
    rocksdb) own= ;;
    rocksdb-io) own="soft_pending_compaction_bytes_limit=1G;hard_pending_compaction_bytes_limit=2G" ;;
    vlsm) printf '%s\n' -p vlsm=true; own=max_write_buffer_number=16 ;;
    vlsm-sst4) printf '%s\n' -p vlsm=true -p vlsm.sst_size=4M; own=max_write_buffer_number=32 ;;
    vlsm-sst16) printf '%s\n' -p vlsm=true -p vlsm.sst_size=16M; own=max_write_buffer_number=8 ;;
    vlsm-phi16) printf '%s\n' -p vlsm=true -p vlsm.phi=16; own=max_write_buffer_number=16 ;;
    vlsm-phi64) printf '%s\n' -p vlsm=true -p vlsm.phi=64; own=max_write_buffer_number=16 ;;
    *) echo "error: unknown system '$1' (one of: $eval_systems_all)" >&2; return 2 ;;
  esac
  printf '%s\n' -p "rocksdb.options=${own:+$own;}max_subcompactions=${VLSM_EVAL_SUBCOMPACTIONS:-1}"
}
