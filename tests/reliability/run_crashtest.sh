#!/usr/bin/env bash
# run_crashtest.sh WORK DB_STRESS DB_CRASHTEST_PY MODE SECONDS INTERVAL [FLAGS...]
# Upstream's crash test (tools/db_crashtest.py MODE) on DB_STRESS in vLSM
# mode for SECONDS; blackbox SIGKILLs db_stress every INTERVAL seconds and
# verifies the DB against db_stress's expected state on each reopen and in a
# final verification run. Fails if the driver fails, reports a verification
# error, or killed nothing. Prints the number of kills.
#
# CRASHTEST_SEED=N draws upstream's random options from seed N
# (seeded_crashtest.py), so a run in upstream's own option space repeats.
# There a draw the vLSM layouts cannot take (whitebox's universal and FIFO
# phases, for one) is refused at open with a message naming the option and
# ConfigureVlsm(): the run then ends there, and this script prints
# "REFUSED:" with the message and passes if the crash phases before it
# killed and verified; a refusal is reported, never skipped in silence.
set -euo pipefail
work=$1 stress=$2 crashtest=$3 mode=$4 secs=$5 interval=$6; shift 6
rm -rf "$work"; mkdir -p "$work"
log="$work/$mode.log"
driver=("$crashtest")
if [ -n "${CRASHTEST_SEED:-}" ]; then
  driver=("$(dirname "$0")/seeded_crashtest.py" "$CRASHTEST_SEED" "$crashtest")
fi
set +e
TEST_TMPDIR="$work" python3 "${driver[@]}" --stress_cmd="$stress" "$mode" \
  --duration="$secs" --interval="$interval" "$@" > "$log" 2>&1
rc=$?
set -e
# The vLSM option check's refusal (CheckVlsmOptions: every message ends
# with this hint).
refusal=$(grep -m1 -F 'ConfigureVlsm() in rocksdb/vlsm.h' "$log" || true)
kills=$(grep -cE '^KILLED [0-9]+' "$log" || true)
# Whitebox: a kill point prints "Crashing at FILE:LINE" and SIGTERMs db_stress.
self_kills=$(grep -cE '^Crashing at ' "$log" || true)
grep -E 'KILLED|Crashing at|Verification successful|check_mode|TEST FAILED|Exit Before|Verification failed' "$log" | cut -c1-160 | tail -20
echo "== $mode: exit $rc, $kills SIGKILLs by the driver, $self_kills kill-point exits; log $log"
if grep -v '^Running' "$log" | grep -qiE 'verification failed|corruption:|inconsistent'; then
  echo "FAIL: db_crashtest.py $mode" >&2; exit 1
fi
if [ $rc -ne 0 ] && [ -n "$refusal" ]; then
  echo "REFUSED: ${refusal:0:400}"
  # Where: whitebox's phase (check_mode 1 is universal compaction, 2 FIFO),
  # printed before the refused db_stress's output; or which db_stress run.
  phase=$(awk '/^check_mode=/ { m = $1; sub(/,$/, "", m) } /^Running db_stress/ { n++ }
               /ConfigureVlsm\(\) in rocksdb\/vlsm.h/ {
                 print (m != "" ? m " " : "") "db_stress run " n; exit }' "$log")
  echo "== $mode: the run ended at a refused draw (${phase})"
elif [ $rc -ne 0 ]; then
  echo "FAIL: db_crashtest.py $mode" >&2; exit 1
fi
if [ $((kills + self_kills)) -eq 0 ]; then
  echo "FAIL: the $mode run killed nothing" >&2; exit 1
fi
echo "PASS: db_crashtest.py $mode"
