#!/usr/bin/env bash
# Mutation testing (scripts/mutate.py; the mutants in scripts/mutants.txt): each one-line mutant
# applied alone, the module's tests and then, if it survives them, the whole suite run; the kill
# table printed. Builds in build-mutate/ (Release, ccache as scripts/build.sh) under a virtual
# X server for the GUI tests; the source tree is restored after every mutant.
# Usage: scripts/mutate.sh [--only SUBSTRING] [--module-only] [--list FILE]
# Exit code: 0 every mutant killed or marked equivalent; 1 survivors; 2 a bad mutant list.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
source scripts/ccache_env.sh
cmake -S . -B build-mutate -DCMAKE_BUILD_TYPE=Release "${CCACHE_CMAKE_ARGS[@]}" >/dev/null
cmake --build build-mutate -j "$(nproc)" >/dev/null
if [ -z "${DISPLAY:-}" ]; then
  exec xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" \
    python3 scripts/mutate.py --build-dir build-mutate "$@"
fi
exec python3 scripts/mutate.py --build-dir build-mutate "$@"
