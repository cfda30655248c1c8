#!/usr/bin/env bash
# run_crashtest.sh WORK DB_STRESS DB_CRASHTEST_PY MODE SECONDS INTERVAL [FLAGS...]
# Upstream's crash test (tools/db_crashtest.py MODE) on DB_STRESS in vLSM
# mode for SECONDS; blackbox SIGKILLs db_stress every INTERVAL seconds and
# verifies the DB against db_stress's expected state on each reopen and in a
# final verification run. Fails if the driver fails, reports a verification
# error, or killed nothing. Prints the number of kills.
set -euo pipefail
work=$1 stress=$2 crashtest=$3 mode=$4 secs=$5 interval=$6; shift 6
rm -rf "$work"; mkdir -p "$work"
log="$work/$mode.log"
set +e
TEST_TMPDIR="$work" python3 "$crashtest" --stress_cmd="$stress" "$mode" \
  --duration="$secs" --interval="$interval" "$@" > "$log" 2>&1
rc=$?
set -e
kills=$(grep -cE '^KILLED [0-9]+' "$log" || true)
# Whitebox: a kill point prints "Crashing at FILE:LINE" and SIGTERMs db_stress.
self_kills=$(grep -cE '^Crashing at ' "$log" || true)
grep -E 'KILLED|Crashing at|Verification successful|check_mode|TEST FAILED|Exit Before|Verification failed' "$log" | cut -c1-160 | tail -20
echo "== $mode: exit $rc, $kills SIGKILLs by the driver, $self_kills kill-point exits; log $log"
if [ $rc -ne 0 ] || grep -v '^Running' "$log" | grep -qiE 'verification failed|corruption:|inconsistent'; then
  echo "FAIL: db_crashtest.py $mode" >&2; exit 1
fi
if [ $((kills + self_kills)) -eq 0 ]; then
  echo "FAIL: the $mode run killed nothing" >&2; exit 1
fi
echo "PASS: db_crashtest.py $mode"
