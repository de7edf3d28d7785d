#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang, ASan + UBSan) into build-fuzz/ and runs each for
# SECONDS, two at a time, from seed corpora of assets/ (scenes, the Panda URDF, teleop replays)
# and fuzz/seeds/ (a tet mesh; a cube in each mesh format, small so that assimp runs fast). Prints per target: executions, coverage (cov: edges, ft:
# features) and crashes; crashing inputs are kept in build-fuzz/artifacts/TARGET/.
# Usage: scripts/fuzz.sh SECONDS [TARGET...]   (default: all five)
# Exit code: 1 if any target found a crash.
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
  local options=(-max_len=65536)
  # assimp: its time grows with the file; its own aborts and runaways (contained by the
  # product's bounded child) are recorded in fork mode without ending the run.
  if [ "$t" = mesh_file ]; then
    options=(-max_len=4096 -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
  fi
  build-fuzz/fuzz/fuzz_"$t" "$corpus" -max_total_time="$seconds" -rss_limit_mb=2048 \
    -timeout=10 "${options[@]}" -print_final_stats=1 -artifact_prefix="$artifacts" \
    >build-fuzz/logs/"$t".log 2>&1 || true
}

for ((i = 0; i < ${#targets[@]}; i += 2)); do
  run "${targets[i]}" &
  if ((i + 1 < ${#targets[@]})); then run "${targets[i + 1]}" & fi
  wait
done

status=0
printf '%-11s %12s %8s %8s %8s\n' target executions cov ft crashes
for t in "${targets[@]}"; do
  log=build-fuzz/logs/$t.log
  execs=$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#' || echo 0)  # the last status line
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
  crashes=$(find build-fuzz/artifacts/"$t" -type f | wc -l)
  printf '%-11s %12s %8s %8s %8s\n' "$t" "$execs" "$cov" "$ft" "$crashes"
  if [ "$crashes" -gt 0 ]; then status=1; fi
done
exit $status
