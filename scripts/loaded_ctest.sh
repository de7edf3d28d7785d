#!/usr/bin/env bash
# The suite on a busy machine: runs ctest -j2 (under a virtual X server) RUNS times in a row on an
# existing build while two busy loops take both cores' worth of CPU beside it, as CI machines
# under load do. Prints each run's pass count and wall time; the logs go to BUILD_DIR/loaded-N.log.
# Usage: scripts/loaded_ctest.sh [RUNS=10] [BUILD_DIR=build]   Exit code: 1 if any run failed.
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
build_dir=${2:-build}
busy=()
for _ in 1 2; do
  (while :; do :; done) &
  busy+=($!)
done
trap 'kill "${busy[@]}" 2>/dev/null' EXIT
status=0
for ((i = 1; i <= runs; i++)); do
  start=$SECONDS
  log="$(cd "$build_dir" && pwd)/loaded-$i.log"
  (cd "$build_dir" && xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" \
    ctest -j 2 --timeout 900 >"$log" 2>&1) || status=1
  echo "run $i: $(grep -E 'tests passed' "$log") ($((SECONDS - start)) s)"
  grep -E '\(Failed\)|\(Timeout\)|\*\*\*' "$log" || true
done
exit $status
