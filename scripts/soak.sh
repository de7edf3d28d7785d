#!/usr/bin/env bash
# The soak (docs/architecture.md §8): MINUTES of random teleoperation, random live parameter
# changes and scene switches, two thirds headless (the sim runtime alone, as fast as it goes)
# and one third in the GUI under Xvfb (random keys, pointer drags over the panels, dropped scene
# files). Checks no NaN, every failure and rejected change reported, memory flat after warm-up.
# Usage: scripts/soak.sh MINUTES [OUT_DIR]   Exit code: 0 if both phases passed.
set -euo pipefail
cd "$(dirname "$0")/.."
minutes=${1:?usage: scripts/soak.sh MINUTES [OUT_DIR]}
out=${2:-soak-out}
scripts/install_deps.sh
scripts/build.sh build >/dev/null
mkdir -p "$out"
headless=$(python3 -c "print($minutes * 2 / 3)")
gui=$(python3 -c "print($minutes / 3)")
status=0
build/soak/contactlab_soak --phase headless --minutes "$headless" --report "$out/headless.json" ||
  status=1
xvfb-run -a -s "-screen 0 1280x1024x24" \
  build/soak/contactlab_soak --phase gui --minutes "$gui" --report "$out/gui.json" || status=1
exit $status
