#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test (ctest). Exit code = test result.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh build
cd build && ctest --output-on-failure -j "$(nproc)" --timeout 900
