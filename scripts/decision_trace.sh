#!/usr/bin/env bash
# The decision trace of every layout against the one committed in
# tests/vlsm/decision_trace/ (tools/vlsm_decision_trace.cc says what it
# records and why it is deterministic). Prints the first differing line of
# each layout and exits 1 if any differs.
#
#   scripts/decision_trace.sh [--update] [BUILD_DIR]
#
# BUILD_DIR: the tree whose vlsm_decision_trace runs; by default build/check
# (the test tree, scripts/test.sh) if it has the tool, else build/ (Release),
# where the tool is built if missing.
# --update rewrites the committed traces: for a change meant to change
# decisions, whose `git diff tests/vlsm/decision_trace` then shows which.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
update=0
if [ "${1:-}" = --update ]; then update=1; shift; fi
if [ $# -gt 0 ]; then
  build=$1
elif [ -x "$root/build/check/vlsm_decision_trace" ]; then
  build=$root/build/check
else
  # shellcheck disable=SC2034  # deps.sh reads it
  VLSM_ROOT=$root
  # shellcheck source=lib/deps.sh
  . "$root/scripts/lib/deps.sh"
  vlsm_release_tree vlsm_decision_trace
  build=$VLSM_RELEASE_DIR
fi
tool=$build/vlsm_decision_trace
[ -x "$tool" ] || { echo "no $tool: build the target vlsm_decision_trace" >&2; exit 2; }
status=0
for layout in ranged single stock; do
  golden=$root/tests/vlsm/decision_trace/$layout.trace
  db=$(mktemp -d)/db
  if [ "$update" = 1 ]; then
    "$tool" --layout=$layout --db="$db" --out="$golden"
    echo "decision trace $layout: rewrote $golden"
  else
    "$tool" --layout=$layout --db="$db" --expect="$golden" || status=1
  fi
  rm -rf "$(dirname "$db")"
done
exit $status
