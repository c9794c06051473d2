#!/usr/bin/env bash
# Attention Lab's one set-up script, for a fresh Debian 12 machine.
#   ./setup.sh run [APP OPTIONS]   install what is missing, build, start the app
#   ./setup.sh test                install what is missing, build (desktop, browser page, one-file
#                                  page), run every test, the browser pages' in headless Chromium
#                                  among them
#   ./setup.sh web [--port N]      install what is missing, build the browser page into build-web/
#                                  and serve it on http://127.0.0.1:8000 (loopback only)
#   ./setup.sh web --single-file   install what is missing, build the page as one file,
#                                  build-web-single/attnlab.html, and print its path: it runs on one
#                                  thread and opens from a USB stick by double-click (no server)
#   ./setup.sh build               install what is missing, build the desktop app
# Debian packages (and, for the browser test's driver, the npm registry) only; nothing is
# downloaded at build time.
set -euo pipefail
cd "$(dirname "$0")"

packages=(
  cmake g++ make pkg-config
  libeigen3-dev libopenblas-dev nlohmann-json3-dev libcli11-dev
  libimgui-dev libglfw3-dev libx11-dev python3-glad libstb-dev fonts-dejavu-core libfontconfig-dev
  fonts-droid-fallback fonts-unfonts-core fonts-symbola
  libgtest-dev libbenchmark-dev xvfb xauth xdotool python3-numpy zlib1g-dev libcairo2-dev
  libgif-dev libexpat1-dev xclip poppler-utils
)
# The browser page: emscripten, and dpkg-dev to unpack Dear ImGui's source package.
web_packages=(
  cmake make python3 emscripten dpkg-dev
  libeigen3-dev nlohmann-json3-dev libcli11-dev libstb-dev fonts-dejavu-core
)
# Its test: Debian's chromium, driven by puppeteer-core (tests/web/package.json) under node.
browser_test_packages=(chromium)
# The Python package `import attnlab` (python/; optional in a build) and its tests: pytest, and
# the wheel built and installed into a fresh venv.
python_test_packages=(pybind11-dev python3-pytest python3-build python3-wheel python3-venv python3-pip)

build() {
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
  cmake --build build -j "$(nproc)"
}

install_node() {  # node and npm, Debian's unless the machine has its own
  command -v node >/dev/null && command -v npm >/dev/null && return
  tools/install_packages.sh nodejs npm
}

mode=${1:-run}
[ $# -gt 0 ] && shift
case "$mode" in
  build | run)
    tools/install_packages.sh "${packages[@]}"
    build
    [ "$mode" = run ] && exec build/app/gui/attnlab "$@"
    ;;
  test)
    tools/install_packages.sh "${packages[@]}" "${web_packages[@]}" "${browser_test_packages[@]}" \
      "${python_test_packages[@]}"
    install_node
    (cd tests/web && npm ci --no-audit --no-fund --loglevel=error)
    (cd tests/tokenizers && npm ci --no-audit --no-fund --loglevel=error)
    tools/build_web.sh
    tools/build_web.sh --single-file
    build -DATTNLAB_BROWSER_TEST=ON
    cd build && ctest --output-on-failure -j "$(nproc)"
    ;;
  web)
    tools/install_packages.sh "${web_packages[@]}"
    if [ "${1:-}" = --single-file ]; then
      exec tools/build_web.sh --single-file
    fi
    tools/build_web.sh
    exec python3 tools/serve_web.py build-web "$@"
    ;;
  *) echo "setup.sh: unknown mode '$mode': use run, test, web or build" >&2; exit 2 ;;
esac
