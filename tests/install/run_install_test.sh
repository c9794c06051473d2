#!/usr/bin/env bash
# `cmake --install` as a user runs it: the installed attnlab-cli (and attnlab, when built) read
# the installed presets, from another working folder, with the source tree's assets switched off
# (ATTNLAB_NO_SOURCE_ASSETS=1). A preset that exists only in the installed folder proves which
# folder is read; with no presets folder anywhere, one line names every path tried.
#   run_install_test.sh BUILD_DIR [gui]
set -u
build=${1:?build folder}
with_gui=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$here/../expect.sh"

prefix=$work/prefix
share=$prefix/share/attention-lab
if ! cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1; then
  echo "FAIL: cmake --install $build --prefix $prefix"
  cat "$work/install.log"
  exit 1
fi
installed=(bin/attnlab-cli share/attention-lab/presets/seed003.json
  share/attention-lab/shaders/heatmap.vert.glsl share/attention-lab/shaders/heatmap.frag.glsl)
[ -n "$with_gui" ] && installed+=(bin/attnlab)
for file in "${installed[@]}"; do
  [ -s "$prefix/$file" ] && ok || bad "cmake --install did not put $file under the prefix"
done

unset ATTNLAB_ASSETS_DIR
export ATTNLAB_NO_SOURCE_ASSETS=1
cd "$work"
cp "$share/presets/tiny.json" "$share/presets/installed-only.json"

program=$prefix/bin/attnlab-cli
expect 0 "installed-only" -- --list-presets
expect 0 "(B, h, T, d_k)" -- --preset seed003
expect 0 "(B, h, T, d_k)" -- --preset installed-only

# $ATTNLAB_ASSETS_DIR comes first: only its presets are listed.
mkdir -p "$work/mine/presets"
cp "$share/presets/tiny.json" "$work/mine/presets/only-mine.json"
ATTNLAB_ASSETS_DIR=$work/mine "$program" --list-presets >"$work/out" 2>&1
grep -q only-mine "$work/out" && ! grep -q installed-only "$work/out" && ok ||
  bad "ATTNLAB_ASSETS_DIR was not read first: $(cat "$work/out")"
# Set to a folder without presets/: said, not silently passed over.
ATTNLAB_ASSETS_DIR=$work/nothing expect 2 "ATTNLAB_ASSETS_DIR=$work/nothing has no presets folder" \
  -- --preset seed003

if [ -n "$with_gui" ]; then
  source "$here/../gui/start_xvfb.sh"  # its exit trap also removes $work
  # Under AddressSanitizer: Mesa keeps allocations LeakSanitizer cannot attribute (as
  # run_app_tests.sh).
  export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
  export ATTNLAB_CONFIG_DIR="$work/config"
  program=$prefix/bin/attnlab
  expect 0 "" --preset seed003 --screenshot "$work/installed.png" --frames 3
  [ -s "$work/installed.png" ] && ok || bad "the installed attnlab wrote no screenshot"
  expect 0 "" --preset installed-only --screenshot "$work/marker.png" --frames 3
fi

# No presets folder anywhere: one line naming the paths tried.
mv "$share/presets" "$share/presets-away"
program=$prefix/bin/attnlab-cli
expect 2 "no presets folder found; tried $share/presets" -- --preset seed003
grep -q "ATTNLAB_ASSETS_DIR" "$work/err" && ok || bad "the message does not name ATTNLAB_ASSETS_DIR"
expect 0 "(B, h, T, d_k)" -- --preset crafted
if [ -n "$with_gui" ]; then
  program=$prefix/bin/attnlab
  expect 2 "no presets folder found; tried $share/presets" \
    --preset seed003 --screenshot "$work/none.png" --frames 3
fi

summary
