#!/usr/bin/env bash
# Attention Lab's one set-up script, for a fresh Debian 12 machine.
#   ./setup.sh run [APP OPTIONS]   install what is missing, build, start the app
#   ./setup.sh test                install what is missing, build, run every test
#   ./setup.sh build               install what is missing, build
# Debian packages only; nothing is downloaded at build time.
set -euo pipefail
cd "$(dirname "$0")"

packages=(
  cmake g++ make pkg-config
  libeigen3-dev libopenblas-dev nlohmann-json3-dev libcli11-dev
  libimgui-dev libglfw3-dev python3-glad libstb-dev fonts-dejavu-core
  libgtest-dev libbenchmark-dev xvfb xauth python3-numpy
)

install_missing() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return
  echo "setup.sh: installing ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
}

build() {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j "$(nproc)"
}

mode=${1:-run}
[ $# -gt 0 ] && shift
install_missing
build
case "$mode" in
  build) ;;
  test) cd build && ctest --output-on-failure -j "$(nproc)" ;;
  run)
    if [ -x build/app/gui/attnlab ]; then
      exec build/app/gui/attnlab "$@"
    else
      exec build/app/attnlab-cli --preset seed003 "$@"
    fi
    ;;
  *) echo "setup.sh: unknown mode '$mode': use run, test or build" >&2; exit 2 ;;
esac
