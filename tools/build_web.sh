#!/usr/bin/env bash
# Builds the browser page into build-web/ (index.html, attnlab.js/.wasm/.data/.worker.js) with
# Debian's emscripten; Dear ImGui's sources come from Debian's imgui source package, unpacked under
# build-web/ (never into the repository). Needs the packages ./setup.sh web installs.
#   tools/build_web.sh                the page, served (threads: needs cross-origin isolation)
#   tools/build_web.sh --single-file  build-web-single/attnlab.html: the page as one file, with no
#                                     threads, that opens from file:// (prints its path)
set -euo pipefail
cd "$(dirname "$0")/.."
sources=build-web  # the Debian source packages, shared by both builds
out=build-web
one_thread=OFF
target=attnlab
if [ "${1:-}" = --single-file ]; then
  out=build-web-single
  one_thread=ON
  target=attnlab_one_page
fi
mkdir -p "$out"
tools/debian_source.sh imgui "$sources/debian-src"
imgui_dir=$(find "$sources/debian-src" -maxdepth 2 -name imgui.cpp -printf '%h\n' | head -n1)
[ -n "$imgui_dir" ] || { echo "build_web.sh: no imgui.cpp under $sources/debian-src" >&2; exit 1; }
# zlib, for students' np.savez_compressed answers (the Check tab): Debian's source package too.
tools/debian_source.sh zlib "$sources/debian-src-zlib"
zlib_dir=$(find "$sources/debian-src-zlib" -maxdepth 2 -name inflate.c -printf '%h\n' | head -n1)
[ -n "$zlib_dir" ] || { echo "build_web.sh: no inflate.c under $sources/debian-src-zlib" >&2; exit 1; }
# Emscripten's optimizer finds Debian's acorn there when node is not Debian's own.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
emcmake cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
  -DATTNLAB_ONE_THREAD="$one_thread" \
  -DIMGUI_SOURCE_DIR="$(realpath "$imgui_dir")" -DZLIB_SOURCE_DIR="$(realpath "$zlib_dir")" >/dev/null
cmake --build "$out" -j "$(nproc)" --target "$target"
if [ "$one_thread" = ON ]; then
  echo "The page as one file: $(realpath "$out/attnlab.html")"
fi
