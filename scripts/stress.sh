#!/usr/bin/env bash
# Long stress runs of vLSM mode with upstream's own tools (the short version
# runs in ctest as vlsm.db_stress):
#   1. db_stress, vLSM mode, tiny S_M, for VLSM_STRESS_OPS operations per thread;
#   2. upstream's crash test driver (tools/db_crashtest.py), blackbox (kills
#      db_stress at random moments and verifies on reopen) and whitebox (kill
#      points inside RocksDB, which need the Debug build), each for
#      VLSM_CRASH_SECONDS, with compaction_pri=5 forced on every run.
# Builds build/debug (Debug, for kill points and fault injection) if needed.
# Environment: VLSM_STRESS_OPS (default 2000000), VLSM_CRASH_SECONDS (default
# 900), VLSM_STRESS_DIR (default build/stress).
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$VLSM_ROOT"
. scripts/lib/deps.sh
ops=${VLSM_STRESS_OPS:-2000000}
secs=${VLSM_CRASH_SECONDS:-900}
work=${VLSM_STRESS_DIR:-$VLSM_ROOT/build/stress}

vlsm_install_packages "${VLSM_BUILD_PACKAGES[@]}" python3
echo "== building build/debug (db_stress with kill points)"
cmake -S . -B build/debug -G Ninja -DCMAKE_BUILD_TYPE=Debug -DVLSM_BUILD_TESTS=OFF >/dev/null
cmake --build build/debug -j "${VLSM_JOBS:-2}" --target db_stress | tail -1
stress=build/debug/db_stress

# vLSM with S_M = 64 KiB, f = 8 (L1 512 KiB); db_stress has no flag for
# max_bytes_for_level_multiplier_additional, so Phi = f here.
vlsm_flags=(--compaction_style=0 --compaction_pri=5 --level_compaction_dynamic_level_bytes=0
            --num_levels=5 --write_buffer_size=65536 --target_file_size_base=65536
            --max_bytes_for_level_base=524288 --max_bytes_for_level_multiplier=8
            --level0_file_num_compaction_trigger=1)

mkdir -p "$work"
echo "== 1. db_stress, vLSM, $ops ops per thread"
bash tests/vlsm/run_db_stress.sh "$work/db_stress" "$stress" "${vlsm_flags[@]}" \
  --max_key=1000000 --threads=8 --ops_per_thread="$ops" --reopen=20 --clear_column_family_one_in=0

for mode in blackbox whitebox; do
  echo "== 2. db_crashtest.py $mode, $secs s"
  rm -rf "$work/crash_$mode"; mkdir -p "$work/crash_$mode"
  TEST_TMPDIR="$work/crash_$mode" python3 build/debug/_upstream/src/tools/db_crashtest.py \
    --stress_cmd="$stress" "$mode" --duration="$secs" \
    "${vlsm_flags[@]}" 2>&1 | tee "$work/crash_$mode.log" | grep -E 'Running|KILLED|exit|Exit|error|Error|PASS|FAIL' | tail -40
done
echo "== stress runs passed; logs in $work"
