#!/usr/bin/env bash
# Frame-time benchmark of the desktop app under a virtual display (Xvfb, started here; Mesa
# llvmpipe renders). Reports the median and 95th-percentile frame time, vsync off:
#   seed003   seed 003's preset at the attend stage           target: median <= 16.7 ms
#   stress    T=128, 16 heads, all 16 heatmaps visible         target: median <= 33 ms
#   drag      the base preset (B=32, T=128, d_model=512) while n_heads is dragged 8, 4, 2, ...:
#     drag-1    a change every frame: each supersedes the worker's run in flight
#     drag-15   a change every 15 frames: new traces arrive during the drag
#                                                              target: p95 <= 2x median
# Usage: bench/frame_time.sh [ATTNLAB] [FRAMES]   (default: build/app/gui/attnlab, 300)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
app=${1:-$root/build/app/gui/attnlab}
frames=${2:-300}
[ -x "$app" ] || { echo "frame_time.sh: no attnlab binary at $app (build it first)" >&2; exit 2; }
work=$(mktemp -d)
source "$root/tests/gui/start_xvfb.sh"  # a free display, stopped (and $work removed) on exit
export ATTNLAB_CONFIG_DIR="$work/config"

echo "attnlab frame times, $frames frames, 1600x1000, $(nproc) cores, $(glxinfo -B 2>/dev/null | grep -m1 'OpenGL renderer' | cut -d: -f2- | sed 's/^ *//' || true)"
status=0
bench() {  # NAME TARGET_MS ARGS...
  local name=$1 target=$2
  shift 2
  local line
  line=$("$app" "$@" --bench-frames "$frames") || { echo "$name: attnlab failed" >&2; status=1; return; }
  local median=${line#*median_ms=}
  median=${median%% *}
  local verdict=ok
  awk -v m="$median" -v t="$target" 'BEGIN { exit !(m <= t) }' || verdict="ABOVE TARGET"
  printf '%-8s %s  (target median <= %s ms: %s)\n' "$name" "$line" "$target" "$verdict"
}
bench seed003 16.7 --preset seed003 --stage attend
bench stress 33 --preset tiny --seq-len 128 --heads 16 --stage attend

bench_drag() {  # NAME EVERY: p95 within 2x the median while the slider moves
  local name=$1 every=$2
  local line
  line=$("$app" --preset base --bench-frames "$frames" --bench-drag "$every") ||
    { echo "$name: attnlab failed" >&2; status=1; return; }
  local median=${line#*median_ms=} p95=${line#*p95_ms=}
  median=${median%% *}
  p95=${p95%% *}
  local verdict=ok
  awk -v m="$median" -v p="$p95" 'BEGIN { exit !(p <= 2 * m) }' || verdict="ABOVE TARGET"
  printf '%-8s %s  (target p95 <= 2x median: %s)\n' "$name" "$line" "$verdict"
}
bench_drag drag-1 1
bench_drag drag-15 15
exit $status
