#!/usr/bin/env bash
# Upstream's crash test in its own random option space, for hours: every
# option drawn by tools/db_crashtest.py (fault injection, blob files, SST
# partitioners, subcompactions, caches, ...), only compaction_pri forced (6,
# kVlsmRanged, and 5, kVlsm, in turn) and dynamic level sizing off (the
# vLSM layouts need static sizes; docs/vlsm.md, "Upgrading from stock
# RocksDB"). Blackbox and whitebox alternate, each run from a fresh seed
# (tests/reliability/seeded_crashtest.py), so any run can be drawn again.
#
# usage: scripts/crashtest_option_space.sh [KEY=VALUE...]
#   MINUTES=120    total time; runs start until it has passed
#   RUN_SECONDS=600  one run's length (db_crashtest.py --duration)
#   INTERVAL=60    blackbox: seconds between kills
#   OUT=build/crashtest-option-space   logs, one per run, and summary.json
#   DB_STRESS=build/check/db_stress    (the Check tree: sync points, kill
#                                       points and fault injection)
#   WORK=/dev/shm/crashtest-option-space  the DBs (tmpfs by default)
# Each run is PASS (it killed and verified), REFUSED (a draw the layouts
# cannot take was refused at open with a message naming the option, after
# the crash phases before it passed; the message is in the summary) or FAIL
# (its log is kept). Exits 1 if any run failed.
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$VLSM_ROOT"
minutes=120 run_seconds=600 interval=60 out=build/crashtest-option-space
stress=build/check/db_stress work=/dev/shm/crashtest-option-space
for arg in "$@"; do
  case "$arg" in
    MINUTES=*) minutes=${arg#*=} ;;
    RUN_SECONDS=*) run_seconds=${arg#*=} ;;
    INTERVAL=*) interval=${arg#*=} ;;
    OUT=*) out=${arg#*=} ;;
    DB_STRESS=*) stress=${arg#*=} ;;
    WORK=*) work=${arg#*=} ;;
    *) echo "error: unknown setting '$arg' (see the usage at the top)" >&2; exit 2 ;;
  esac
done
for n in "$minutes" "$run_seconds" "$interval"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "error: '$n' is not a positive number" >&2; exit 2; }
done
[ -x "$stress" ] || { echo "error: no db_stress at $stress (scripts/test.sh builds build/check)" >&2; exit 2; }
crashtest=$(dirname "$stress")/_upstream/src/tools/db_crashtest.py
[ -f "$crashtest" ] || { echo "error: no $crashtest beside $stress" >&2; exit 2; }

mkdir -p "$out"
summary="$out/summary.jsonl"
: > "$summary"
end=$(( $(date +%s) + minutes * 60 ))
run=0 failed=0
while [ "$(date +%s)" -lt "$end" ]; do
  run=$((run + 1))
  mode=$([ $((run % 2)) -eq 1 ] && echo blackbox || echo whitebox)
  pri=$([ $(( (run + 1) / 2 % 2 )) -eq 1 ] && echo 6 || echo 5)
  seed=$(( $(date +%s%N) % 1000000007 ))
  log="$out/run$run-$mode-pri$pri-seed$seed.txt"
  echo "== run $run: $mode, compaction_pri=$pri, seed $seed ($(date -u +%H:%M:%S))"
  set +e
  CRASHTEST_SEED=$seed bash tests/reliability/run_crashtest.sh "$work/run" "$stress" \
    "$crashtest" "$mode" "$run_seconds" "$interval" \
    --compaction_pri="$pri" --level_compaction_dynamic_level_bytes=0 > "$log" 2>&1
  rc=$?
  set -e
  result=PASS
  if [ $rc -ne 0 ]; then
    result=FAIL failed=$((failed + 1))
    cp "$work/run/$mode.log" "$out/run$run-driver.log" 2>/dev/null || true
  elif grep -q '^REFUSED:' "$log"; then
    result=REFUSED
  fi
  kills=$(grep -oE '[0-9]+ SIGKILLs by the driver, [0-9]+ kill-point exits' "$log" | tail -1)
  refusal=$(grep -m1 '^REFUSED:' "$log" | cut -c10- || true)
  python3 - "$summary" "$run" "$mode" "$pri" "$seed" "$result" "$kills" "$refusal" <<'PY'
import json, sys
path, run, mode, pri, seed, result, kills, refusal = sys.argv[1:]
with open(path, "a") as f:
    f.write(json.dumps({"run": int(run), "mode": mode, "compaction_pri": int(pri),
                        "seed": int(seed), "result": result, "kills": kills,
                        "refusal": refusal or None}) + "\n")
PY
  echo "   $result ${kills:-}${refusal:+; refused: ${refusal:0:160}}"
done
python3 - "$summary" <<'PY'
import collections, json, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
by = collections.Counter((r["mode"], r["compaction_pri"], r["result"]) for r in runs)
for (mode, pri, result), n in sorted(by.items()):
    print(f"{mode:9} compaction_pri={pri} {result:8} {n}")
PY
echo "== $run runs, $failed failed; $summary"
[ "$failed" -eq 0 ]
