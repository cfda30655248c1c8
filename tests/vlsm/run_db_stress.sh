#!/usr/bin/env bash
# run_db_stress.sh WORK_DIR DB_STRESS [FLAGS...]: one fresh db_stress run in
# WORK_DIR (DB and expected-state directory), failing if db_stress fails or
# reports a verification error.
set -euo pipefail
work=$1 bin=$2; shift 2
rm -rf "$work"; mkdir -p "$work/expected"
"$bin" --db="$work/db" --expected_values_dir="$work/expected" \
  --destroy_db_initially=1 "$@" 2>&1 | tee "$work/db_stress.log" | tail -25
rc=${PIPESTATUS[0]}
if grep -qiE 'verification failed|corruption|inconsistent' "$work/db_stress.log"; then
  echo "db_stress reported an error (see $work/db_stress.log)" >&2
  exit 1
fi
exit "$rc"
