#!/usr/bin/env bash
# The sanitizer part of the test command (scripts/test.sh; docs/architecture.md §9):
# - build-asan/: the engine, io, app and input tests (and the headless contactlab binary that
#   the app tests run) under AddressSanitizer + UndefinedBehaviorSanitizer;
# - build/ (the release build, whose engine and io it shares): the threaded runtime tests (sim
#   runtime, ghost, timeline, recording and replay, the input devices' threads) under
#   ThreadSanitizer, target runtime_tsan_test; and the solver's threads (islands shared among
#   them), target solver_tsan_test.
# ASan at -O1 with assertions, without the GUI and the benchmarks, only the test binaries that
# matter, so that they add minutes, not tens of minutes, to CI. Any report fails its test.
# GCC, not clang: clang 14 compiles the heaviest test file 8 % faster under ASan + UBSan
# (convex_solver_test.cc 50 s vs 55 s) but the engine's files 10 % slower (world.cc 11.1 s vs
# 10.1 s), and would need clang and libomp on CI; ccache (scripts/ccache_env.sh) is what saves
# the compile time on a machine that has built before.
# Usage: scripts/sanitizer_tests.sh   Exit code: 0 when every test passes without a report.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
source scripts/ccache_env.sh
# No Python module: python3 would import an instrumented one only with ASan's runtime preloaded.
common=(-DCMAKE_BUILD_TYPE=Debug "-DCMAKE_CXX_FLAGS_DEBUG=-O1 -g1" -DCONTACTLAB_BUILD_GUI=OFF
  -DCONTACTLAB_BUILD_BENCH=OFF -DCONTACTLAB_BUILD_PYTHON=OFF "${CCACHE_CMAKE_ARGS[@]}")

# Leaks inside Debian's libraries on their own error paths are not ours (scripts/lsan.supp).
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="detect_leaks=1:strict_string_checks=1:check_initialization_order=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1"

# run_all DIR FILTER TEST...: runs the gtest binaries (nproc at a time) on FILTER, each with
# its output in DIR/sanitizer-logs/; prints the failing ones' tails. Returns 1 if any failed.
run_all() {
  local dir=$1 filter=$2
  shift 2
  mkdir -p "$dir/sanitizer-logs"
  local pids=() names=() status=0
  for t in "$@"; do
    "$dir/tests/$t" --gtest_brief=1 --gtest_filter="$filter" >"$dir/sanitizer-logs/$t.log" 2>&1 &
    pids+=($!)
    names+=("$t")
    if ((${#pids[@]} == jobs)); then
      wait_all || status=1
    fi
  done
  wait_all || status=1
  return $status
}
wait_all() {
  local status=0
  for i in "${!pids[@]}"; do
    if wait "${pids[i]}"; then
      echo "  ${names[i]}: $(grep -E '^\[  PASSED  \]' "$dir/sanitizer-logs/${names[i]}.log")"
    else
      echo "  ${names[i]}: FAILED (log: $dir/sanitizer-logs/${names[i]}.log)"
      tail -n 40 "$dir/sanitizer-logs/${names[i]}.log"
      status=1
    fi
  done
  pids=()
  names=()
  return $status
}

asan_tests=(app_test engine_world_test engine_solver_test engine_hydroelastic_test
  engine_multibody_test engine_geometry_test engine_control_test input_test io_test)
# Under ASan at -O1 with assertions the engine runs 50-100× slower than in Release. Left out:
# the long physics runs (a minute or more each here; their code paths run in the shorter tests
# of the same suites, in engine_hydroelastic_test and in the fuzzers) and a timing test.
asan_skip=HydroelasticWorld.CompliantCompliantSwapIsSymmetric
asan_skip+=:HydroelasticWorld.MixedHydroelasticAndPointPairs
asan_skip+=:HydroelasticWorld.RigidSideOrderDoesNotMatter:HydroelasticWorld.ContactSurfaceTiming*
asan_skip+=:HydroelasticContinuity.*:All/HydroelasticModels.*
asan_skip+=:CompliantSphereOnHalfSpace.DiskAreaAndForceConverge
asan_skip+=:CommandLine.ARecordedRunReplaysToTheSameInsertion
asan_skip+=:CommandLine.ScriptedPegInsertionSucceedsHeadless
asan_skip+=:CalibrateCommand.FitsThePadsModulusAndFrictionToARecordedInsertion
# build DIR TARGET...: quiet unless it fails (sanitizer builds warn in the standard library).
build() {
  local dir=$1
  shift
  if ! cmake --build "$dir" -j "$jobs" --target "$@" >"$dir/sanitizer-build.log" 2>&1; then
    tail -n 60 "$dir/sanitizer-build.log"
    return 1
  fi
}

start=$SECONDS
cmake -S . -B build-asan "${common[@]}" -DCONTACTLAB_SANITIZE=ON >/dev/null
build build-asan "${asan_tests[@]}"
echo "ASan + UBSan build: $((SECONDS - start)) s"
start=$SECONDS
status=0
run_all build-asan "*-$asan_skip" "${asan_tests[@]}" || status=1
echo "ASan + UBSan tests: $((SECONDS - start)) s"

# TSan: the release build's engine with app and input compiled again (tests/CMakeLists.txt).
start=$SECONDS
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${CCACHE_CMAKE_ARGS[@]}" >/dev/null
build build runtime_tsan_test solver_tsan_test
echo "TSan build: $((SECONDS - start)) s"
start=$SECONDS
run_all build "*" runtime_tsan_test solver_tsan_test || status=1
echo "TSan tests: $((SECONDS - start)) s"
exit $status
