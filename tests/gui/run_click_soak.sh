#!/usr/bin/env bash
# Starts of the real app under Xvfb with real clicks (xdotool), as the lecturer who saw it vanish:
# presenter mode on `base` at attend with a click on head 0's map, and a normal 1024x768 window
# with a click on the T slider; then random clicks over the window. After each start the app must
# still be running, then end cleanly at Ctrl+C (exit 0) with no fatal line, sanitizer report or
# anything else on stderr. Build the app with AddressSanitizer to find what a crash would hide.
#   run_click_soak.sh ATTNLAB [STARTS]   (default 20 starts, alternating the two)
# Prints "N passed, M failed"; the failing runs' stderr are printed.
set -u
app=$(realpath "${1:?attnlab binary}")
starts=${2:-20}
work=$(mktemp -d)
xvfb_screen=1600x1000x24
source "$(dirname "$0")/start_xvfb.sh"
cd "$work" || exit 1  # a random click on Save writes its PNG here
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
export ATTNLAB_CONFIG_DIR="$work/config"
passed=0
failed=0

presenter=(--preset base --stage attend --present)
small=(--width 1024 --height 768)

# The centre of the first layout item whose label starts with $2, or head $2's map ("map:0").
where() {  # LAYOUT_JSON WHAT
  python3 - "$1" "$2" <<'EOF'
import json, sys
layout, what = json.load(open(sys.argv[1])), sys.argv[2]
if what.startswith("map:"):
    rects = [m["rect"] for m in layout["heatmaps"] if m["head"] == int(what[4:])]
else:
    rects = [i["rect"] for i in layout["items"] if i["label"].startswith(what)]
r = rects[0]
print(int((r[0] + r[2]) / 2), int((r[1] + r[3]) / 2))
EOF
}

# Where to click, from a screenshot run's layout of the same start.
"$app" "${presenter[@]}" --screenshot "$work/p.png" --dump-layout "$work/p.json" --frames 3 \
  >/dev/null 2>&1
"$app" "${small[@]}" --screenshot "$work/s.png" --dump-layout "$work/s.json" --frames 3 \
  >/dev/null 2>&1
head0=$(where "$work/p.json" map:0) || head0=
t_slider=$(where "$work/s.json" "Sequence length T") || t_slider=
if [ -z "$head0" ] || [ -z "$t_slider" ]; then
  echo "FAIL: no head 0 map ($head0) or T slider ($t_slider) in the layouts"
  exit 1
fi

for run in $(seq "$starts"); do
  if [ $((run % 2)) = 1 ]; then args=("${presenter[@]}") target=$head0; else args=("${small[@]}") target=$t_slider; fi
  rm -rf "$ATTNLAB_CONFIG_DIR"
  "$app" "${args[@]}" >"$work/out" 2>"$work/err" &
  pid=$!
  window=
  for _ in $(seq 200); do
    window=$(xdotool search --pid "$pid" --name "^Attention Lab$" 2>/dev/null | head -n1)
    [ -n "$window" ] && break
    sleep 0.05
  done
  # As soon as it shows: the click that made it vanish, then random clicks for a few seconds.
  # shellcheck disable=SC2086
  [ -n "$window" ] && xdotool mousemove --window "$window" $target click 1 2>/dev/null
  for _ in $(seq 25); do
    sleep 0.2
    [ -n "$window" ] && xdotool mousemove --window "$window" $((RANDOM % 1000)) $((RANDOM % 700)) \
      click 1 2>/dev/null
  done
  sleep 1
  alive=yes
  kill -0 "$pid" 2>/dev/null || alive=no
  kill -INT "$pid" 2>/dev/null
  wait "$pid"
  code=$?
  if [ "$alive" = yes ] && [ "$code" = 0 ] && [ ! -s "$work/err" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: start $run (${args[*]}): alive=$alive exit=$code, stderr:"
    head -c 4000 "$work/err"
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
