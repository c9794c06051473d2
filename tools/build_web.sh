#!/usr/bin/env bash
# Builds the browser page into build-web/ (index.html, attnlab.js/.wasm/.data/.worker.js) with
# Debian's emscripten; Dear ImGui's sources come from Debian's imgui source package, unpacked under
# build-web/ (never into the repository). Needs the packages ./setup.sh web installs.
set -euo pipefail
cd "$(dirname "$0")/.."
out=build-web
mkdir -p "$out"
tools/debian_source.sh imgui "$out/debian-src"
imgui_dir=$(find "$out/debian-src" -maxdepth 2 -name imgui.cpp -printf '%h\n' | head -n1)
[ -n "$imgui_dir" ] || { echo "build_web.sh: no imgui.cpp under $out/debian-src" >&2; exit 1; }
# zlib, for students' np.savez_compressed answers (the Check tab): Debian's source package too.
tools/debian_source.sh zlib "$out/debian-src-zlib"
zlib_dir=$(find "$out/debian-src-zlib" -maxdepth 2 -name inflate.c -printf '%h\n' | head -n1)
[ -n "$zlib_dir" ] || { echo "build_web.sh: no inflate.c under $out/debian-src-zlib" >&2; exit 1; }
# Emscripten's optimizer finds Debian's acorn there when node is not Debian's own.
export NODE_PATH=${NODE_PATH:-/usr/share/nodejs}
emcmake cmake -S . -B "$out" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF \
  -DIMGUI_SOURCE_DIR="$(realpath "$imgui_dir")" -DZLIB_SOURCE_DIR="$(realpath "$zlib_dir")" >/dev/null
cmake --build "$out" -j "$(nproc)" --target attnlab
