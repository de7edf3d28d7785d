#!/usr/bin/env bash
# Installs dependencies, builds, and runs every test: ctest on the Release build, then the
# sanitizer builds (scripts/sanitizer_tests.sh: engine, io, app and input tests under ASan + UBSan,
# the threaded runtime tests under TSan). Exit code = test result.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh build
# GUI and renderer tests need a display: run everything under a virtual X server. -noreset: by
# default Xvfb resets when its last client disconnects, and a GUI test connecting during that
# reset (ctest runs two at once) fails with "cannot open display".
(cd build && xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" \
  ctest --output-on-failure -j "$(nproc)" --timeout 900)
scripts/sanitizer_tests.sh
