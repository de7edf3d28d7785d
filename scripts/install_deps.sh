#!/usr/bin/env bash
# Installs the Debian 12 packages contactlab needs, and any named as arguments (e.g. clang for
# scripts/fuzz.sh); skips what is already there. Idempotent. Uses sudo when not run as root.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git python3 ccache
  libeigen3-dev libsuitesparse-dev libopenblas0-serial libspdlog-dev libfmt-dev libyaml-cpp-dev libcli11-dev
  googletest libgtest-dev libbenchmark-dev
  python3-numpy python3-matplotlib python3-yaml python3-dev pybind11-dev
  libglfw3-dev libgl-dev libimgui-dev libstb-dev libassimp-dev python3-glad
  xvfb xauth libgl1-mesa-dri
  libspnav-dev liburdfdom-dev
  slurm-wlm munge  # the one-node cluster of tests/studies/slurm_test.py
  "$@"
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install_deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install_deps: installing ${missing[*]}"
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
