#!/usr/bin/env bash
# Configures and builds contactlab (Release, -O2; through ccache, scripts/ccache_env.sh) into build/. Usage: scripts/build.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=${1:-build}
source scripts/ccache_env.sh
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "${CCACHE_CMAKE_ARGS[@]}" >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
