#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang, ASan + UBSan) into build-fuzz/ and runs each for
# SECONDS, two at a time, from seed corpora of assets/ (scenes, the Panda URDF, teleop replays)
# and fuzz/seeds/ (a tet mesh; a cube in each mesh format, small so that assimp runs fast).
# Prints per target: executions, coverage (cov: edges, ft: features), crashes and timeouts;
# the inputs are kept in build-fuzz/artifacts/TARGET/. For mesh_file, each crash is replayed
# and reported as inside assimp (contained by the product's bounded child, io/bounded_child.h)
# or not.
# Usage: scripts/fuzz.sh SECONDS [TARGET...]   (default: all five)
# Exit code: 1 if any target found a crash or a timeout (mesh_file: a crash outside assimp).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:?usage: scripts/fuzz.sh SECONDS}
shift
targets=("$@")
if ((${#targets[@]} == 0)); then targets=(scene_yaml urdf replay_csv vtk mesh_file); fi
scripts/install_deps.sh clang
cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ -DCONTACTLAB_FUZZ=ON -DCONTACTLAB_BUILD_GUI=OFF \
  -DCONTACTLAB_BUILD_TESTS=OFF -DCONTACTLAB_BUILD_BENCH=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc)" --target "${targets[@]/#/fuzz_}" >/dev/null

seed() {  # seed TARGET DIR: the corpus's starting files
  local dir=$2
  mkdir -p "$dir"
  case $1 in
    scene_yaml) cp assets/scenes/*.yaml "$dir"/ ;;
    urdf) cp assets/robots/panda.urdf "$dir"/ ;;
    replay_csv) cp assets/teleop/*.csv "$dir"/ ;;
    vtk) cp fuzz/seeds/*.vtk "$dir"/ ;;
    mesh_file)  # the first byte picks the format, as fuzz_mesh_file.cc reads it
      local i=0
      for ext in obj stl ply dae gltf; do
        { printf "\\x0$i"; cat fuzz/seeds/cube.$ext; } >"$dir/cube.$ext"
        i=$((i + 1))
      done ;;
  esac
}

# Leaks inside Debian's libraries on their own error paths are not findings (scripts/lsan.supp).
export LSAN_OPTIONS=suppressions=$PWD/scripts/lsan.supp:print_suppressions=0

run() {  # run TARGET: fuzz for $seconds, the log in build-fuzz/logs/TARGET.log
  local t=$1 corpus=build-fuzz/corpus/$1 artifacts=build-fuzz/artifacts/$1/
  rm -rf "$artifacts"
  seed "$t" "$corpus"
  mkdir -p "$artifacts" build-fuzz/logs
  # A scene may legally ask for a compliant mesh near the tet budget (kMaxHydroelasticTets):
  # 0.75 s in Release, 30 s and more under ASan + coverage (a 5 m cylinder at 1 cm, found by a
  # 10 s timeout). A hang still ends the run.
  local timeout=10
  if [ "$t" = scene_yaml ]; then timeout=120; fi
  local options=(-max_len=65536 -timeout="$timeout")
  # assimp: its time grows with the file; its own aborts and runaways (contained by the
  # product's bounded child) are recorded in fork mode without ending the run. A 4 KB file that
  # takes assimp more than 2 s is a runaway: a longer timeout only costs executions.
  if [ "$t" = mesh_file ]; then
    options=(-max_len=4096 -timeout=2 -fork=1 -ignore_crashes=1 -ignore_timeouts=1
      -ignore_ooms=1)
  fi
  local scratch=build-fuzz/tmp/$t  # the targets' temporary files (fuzz_mesh_file's TMPDIR)
  mkdir -p "$scratch"
  TMPDIR=$PWD/$scratch build-fuzz/fuzz/fuzz_"$t" "$corpus" -max_total_time="$seconds" \
    -rss_limit_mb=2048 "${options[@]}" -print_final_stats=1 -artifact_prefix="$artifacts" \
    >build-fuzz/logs/"$t".log 2>&1 || true
  rm -rf "$scratch"
}

for ((i = 0; i < ${#targets[@]}; i += 2)); do
  run "${targets[i]}" &
  if ((i + 1 < ${#targets[@]})); then run "${targets[i + 1]}" & fi
  wait
done

# inside_assimp ARTIFACT: whether replaying a mesh_file finding stops in assimp's own code (the
# first stack frame that is not libFuzzer's, the sanitizer's, the allocator's or libc's abort
# path). The report is read whole first: under pipefail, a reader that stops early (head, grep -q)
# would make the pipeline fail even when it matched.
inside_assimp() {
  local report
  report=$(timeout 60 build-fuzz/fuzz/fuzz_mesh_file -rss_limit_mb=2048 "$1" 2>&1 || true)
  grep -E '^ +#[0-9]+ 0x' <<<"$report" |
    grep -vE 'sanitizer|fuzzer::|__asan|operator new|malloc|libc\.so|nptl|raise|abort' |
    sed -n 1p | grep -q libassimp
}

status=0
printf '%-11s %12s %8s %8s %8s %9s\n' target executions cov ft crashes timeouts
for t in "${targets[@]}"; do
  log=build-fuzz/logs/$t.log
  execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || echo 0)  # the last status line
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
  crashes=$(find build-fuzz/artifacts/"$t" -type f ! -name 'timeout-*' | wc -l)
  timeouts=$(find build-fuzz/artifacts/"$t" -type f -name 'timeout-*' | wc -l)
  printf '%-11s %12s %8s %8s %8s %9s\n' "$t" "$execs" "$cov" "$ft" "$crashes" "$timeouts"
  if [ "$t" != mesh_file ]; then
    if [ $((crashes + timeouts)) -gt 0 ]; then status=1; fi
    continue
  fi
  # assimp's aborts, crashes and runaways are contained by LoadMeshFile's bounded child
  # (tests/io/bounded_child_test.cc); a crash anywhere else is ours.
  for a in build-fuzz/artifacts/mesh_file/crash-* build-fuzz/artifacts/mesh_file/oom-*; do
    [ -e "$a" ] || continue
    if inside_assimp "$a"; then
      echo "  $a: inside assimp (contained by the bounded child)"
    else
      echo "  $a: NOT inside assimp"
      status=1
    fi
  done
done
exit $status
