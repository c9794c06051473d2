#!/usr/bin/env bash
# Idle CPU and frame times of the desktop app under a virtual display (Xvfb 3840x2160, started
# here; Mesa llvmpipe renders):
#   idle     seed003 at the attend stage, run as a user would (window 1600x1000), left alone: its
#            CPU time (utime + stime from /proc/PID/stat) over SECONDS after 2 s to settle, in % of
#            one core; then SIGTERM, and how long it takes to exit    target: <= 3 %, exit <= 1 s
#   frames   --bench-frames FRAMES (vsync off) at 1024x768 and 3840x2160, seed003 and base at the
#            attend stage: median and p95 frame time
# Usage: bench/idle_cpu.sh [ATTNLAB] [FRAMES] [SECONDS]   (default: build/app/gui/attnlab, 300, 10)
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
app=${1:-$root/build/app/gui/attnlab}
frames=${2:-300}
seconds=${3:-10}
[ -x "$app" ] || { echo "idle_cpu.sh: no attnlab binary at $app (build it first)" >&2; exit 2; }
work=$(mktemp -d)
xvfb_screen=3840x2160x24
source "$root/tests/gui/start_xvfb.sh"  # a free display, stopped (and $work removed) on exit
export ATTNLAB_CONFIG_DIR="$work/config"
ticks_per_second=$(getconf CLK_TCK)

# utime + stime of PID, in clock ticks (fields 14 and 15; the name in parentheses may hold spaces).
cpu_ticks() {
  local stat
  stat=$(cat "/proc/$1/stat") || return 1
  stat=${stat##*) }
  awk '{ print $12 + $13 }' <<<"$stat"
}
now() { date +%s.%N; }

renderer=$(glxinfo -B 2>/dev/null | grep -m1 'OpenGL renderer' | cut -d: -f2- | sed 's/^ *//')
echo "attnlab idle CPU and frame times, $(nproc) cores, ${renderer:-renderer unknown (no glxinfo)}"
status=0

"$app" --preset seed003 --stage attend --width 1600 --height 1000 >"$work/out" 2>"$work/err" &
pid=$!
sleep 2
start_ticks=$(cpu_ticks "$pid") || { echo "idle: attnlab did not start: $(cat "$work/err")" >&2; exit 1; }
start=$(now)
sleep "$seconds"
end_ticks=$(cpu_ticks "$pid")
end=$(now)
kill -TERM "$pid"
term=$(now)
while kill -0 "$pid" 2>/dev/null; do sleep 0.02; done
exited=$(now)
wait "$pid"
read -r percent exit_s < <(awk -v t0="$start_ticks" -v t1="$end_ticks" -v hz="$ticks_per_second" \
  -v a="$start" -v b="$end" -v c="$term" -v d="$exited" \
  'BEGIN { printf "%.1f %.2f\n", 100 * (t1 - t0) / hz / (b - a), d - c }')
verdict=ok
awk -v p="$percent" -v e="$exit_s" 'BEGIN { exit !(p <= 3 && e <= 1) }' || { verdict="ABOVE TARGET"; status=1; }
printf 'idle     seed003 attend 1600x1000, %s s: cpu=%s%% of one core, exit after SIGTERM %s s  (target <= 3 %%, <= 1 s: %s)\n' \
  "$seconds" "$percent" "$exit_s" "$verdict"

bench() {  # NAME WIDTH HEIGHT ARGS...
  local name=$1 width=$2 height=$3
  shift 3
  local line
  line=$("$app" "$@" --width "$width" --height "$height" --bench-frames "$frames") ||
    { echo "$name: attnlab failed" >&2; status=1; return; }
  printf '%-8s %4sx%-4s %s\n' "$name" "$width" "$height" "$line"
}
for size in "1024 768" "3840 2160"; do
  read -r width height <<<"$size"
  bench seed003 "$width" "$height" --preset seed003 --stage attend
  bench base "$width" "$height" --preset base --stage attend
done
exit $status
