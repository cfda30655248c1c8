#!/usr/bin/env bash
# The steps after a restart, at the evaluation's scale (issue 57, item 4):
# a load left as a real client leaves it, then a reopen under writes, and
# the widest compaction step the reopened DB makes.
#
# For each repeat and system, two ways a load ends:
#   close: a closed-loop load of RECORDS that closes without Flush() (as
#          YCSB-cpp and most applications do): the memtables' contents are
#          only in the WAL, and DB::Open writes them as recovery flushes;
#   kill:  the same load killed with SIGKILL after KILL_SECONDS (a crash).
# Each is followed by a reopen of the same DB that goes on loading new keys
# open loop at REOPEN_RATE for REOPEN_SECONDS: its report's lsm_metrics
# hold every step the reopened DB made, the first after the recovery
# flushes included. Before patch 0022 the ranged layout's first due L0
# step after such a reopen took all of L0 and all of L1 (503-562 MiB in
# 5 of 5 reopens) where every other step stayed under 32 MiB.
#
# usage: reopen_steps.sh SETTINGS.env [KEY=VALUE...]
#   e.g. reopen_steps.sh scripts/bench/eval/settings/reopen-1region-12M.env \
#          SYSTEMS=vlsm-ranged-rs32-deep OUT=DIR
# Settings: the shared ones (SYSTEMS, RECORDS, REGIONS, ...), and
#   REPEATS=2 KILL_SECONDS=60 REOPEN_RATE=50000 REOPEN_SECONDS=60
# Output: <OUT>/config.txt, fill-{close,kill}<r>-<system>.*,
#         reopen-{close,kill}<r>-<system>.{json,machine.json,csv,out,err};
# python3 scripts/bench/eval/step_widths.py OUT tabulates the steps.
set -euo pipefail
VLSM_ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
# shellcheck source=../settings.sh
source "$VLSM_ROOT/scripts/bench/settings.sh"
# shellcheck source=ycsb_run.sh
source "$VLSM_ROOT/scripts/bench/eval/ycsb_run.sh"
[ $# -gt 0 ] || { echo "usage: $0 SETTINGS.env [KEY=VALUE...]" >&2; exit 2; }
declare -A S
eval_shared_defaults
S[REPEATS]=2 S[KILL_SECONDS]=60 S[REOPEN_RATE]=50000 S[REOPEN_SECONDS]=60
settings_read "$@"
eval_check_settings
for k in REPEATS KILL_SECONDS REOPEN_RATE REOPEN_SECONDS; do require_positive_int "$k" "${S[$k]}"; done
vlsm_binary ycsb ycsb_vlsm
out=${S[OUT]:-$VLSM_ROOT/build/eval/reopen-$(date +%Y%m%d-%H%M%S)}
db=${S[DB]}
records=${S[RECORDS]}
mkdir -p "$out"
eval_config_paragraph reopen_steps.sh >> "$out/config.txt"

# kill_load NAME SYSTEM: the load eval_ycsb would run (the same properties
# and LIBRARY), killed with SIGKILL after KILL_SECONDS (no report: the
# process dies before writing one). A load that ends by itself first is an
# error, with its stderr's last lines.
loader=
trap '[ -z "$loader" ] || kill -KILL "$loader" 2>/dev/null || true' EXIT
kill_load() {
  local name=$1 system=$2 text status=0
  local -a sys common with_library=()
  text=$(eval_system_props "$system") || return 2
  mapfile -t sys <<< "$text"
  mapfile -t common < <(eval_common_props)
  [ -z "${S[LIBRARY]}" ] || with_library=(env "LD_LIBRARY_PATH=${S[LIBRARY]}")
  "${with_library[@]}" "$ycsb" load "${common[@]}" "${sys[@]}" -p rocksdb.dir="$db" \
    -p recordcount="$records" > "$out/$name.out" 2> "$out/$name.err" &
  loader=$!
  sleep "${S[KILL_SECONDS]}"
  if kill -KILL "$loader" 2>/dev/null; then
    wait "$loader" 2>/dev/null || true
    loader=
    echo "   $name: killed after ${S[KILL_SECONDS]} s"
    return 0
  fi
  wait "$loader" || status=$?
  loader=
  echo "error: $name ended (status $status) before KILL_SECONDS=${S[KILL_SECONDS]}; last lines of $out/$name.err:" >&2
  tail -3 "$out/$name.err" >&2
  return 1
}

echo "== reopen steps: $records records, ${S[REGIONS]} region(s), systems ${S[SYSTEMS]}; output $out"
for r in $(seq 1 "${S[REPEATS]}"); do
  for s in ${S[SYSTEMS]}; do
    for how in close kill; do
      rm -rf "$db"
      if [ "$how" = close ]; then
        # Closed loop, no settle: Close() without Flush().
        eval_ycsb load "fill-$how$r-$s" "$s" "$db" -p recordcount="$records" \
          -p rocksdb.wait_for_compaction=false
      else
        kill_load "fill-$how$r-$s" "$s"
      fi
      # The load goes on after the reopen with keys it has not written
      # (Run A's reads would measure the read path, not the steps).
      eval_ycsb load "reopen-$how$r-$s" "$s" "$db" -p recordcount=$((2 * records)) \
        -p insertstart="$records" -p insertcount="$records" -p target="${S[REOPEN_RATE]}" \
        -p maxexecutiontime="${S[REOPEN_SECONDS]}" -p rocksdb.wait_for_compaction=false
    done
  done
done
rm -rf "$db"
echo "== done: python3 scripts/bench/eval/step_widths.py $out"
