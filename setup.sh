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
  libimgui-dev libglfw3-dev python3-glad libstb-dev fonts-dejavu-core libfontconfig-dev
  libgtest-dev libbenchmark-dev xvfb xauth python3-numpy
)

build() {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build build -j "$(nproc)"
}

mode=${1:-run}
[ $# -gt 0 ] && shift
tools/install_packages.sh "${packages[@]}"
build
case "$mode" in
  build) ;;
  test) cd build && ctest --output-on-failure -j "$(nproc)" ;;
  run) exec build/app/gui/attnlab "$@" ;;
  *) echo "setup.sh: unknown mode '$mode': use run, test or build" >&2; exit 2 ;;
esac
