#!/usr/bin/env bash
# Installs what is missing (apt), builds (Release), and runs contactlab with the given
# arguments (none: the GUI on the default scene).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install_deps.sh
scripts/build.sh build >/dev/null
exec build/contactlab "$@"
