#!/usr/bin/env bash
# The lecture keys as a lecturer meets them: the real app in a real window under Xvfb, driven by
# xdotool's clicks and key taps (each tap is a press and a release sent at once, as a presentation
# clicker sends them, so most fall inside one frame). What the app did is read from the settings it
# saves at Ctrl+C: the stage it stands on, presenter mode and the config.
#   run_real_keys_test.sh ATTNLAB
# Prints "N passed, M failed".
set -u
app=${1:?attnlab binary}
work=$(mktemp -d)
xvfb_screen=1400x900x24
source "$(dirname "$0")/app_test_setup.sh"
settings="$ATTNLAB_CONFIG_DIR/settings.json"
look=(--preset seed003 --present --width 1280 --height 720 --font-scale 1.5)

# Where the presenter bar's causal checkbox is: the layout a screenshot run records (its items'
# rectangles, named by their tooltips).
"$app" "${look[@]}" --screenshot "$work/shot.png" --dump-layout "$work/layout.json" --frames 3 \
  >/dev/null 2>&1 || bad "the screenshot run failed"
causal_xy=$(python3 - "$work/layout.json" <<'EOF'
import json, sys
items = json.load(open(sys.argv[1]))["items"]
rect = next(i["rect"] for i in items if i["label"].startswith("Each token sees only itself"))
print(int(rect[0] + 15), int((rect[1] + rect[3]) / 2))  # the box at the item's left end
EOF
)
[ -n "$causal_xy" ] && ok || bad "no causal checkbox in the layout"

# Runs the app with ARGS, waits for its window, does what the function named first says, then
# Ctrl+C; the settings it saved are left in $settings.
drive() {  # FUNCTION APP_ARGS...
  local act=$1
  shift
  rm -rf "$ATTNLAB_CONFIG_DIR"
  # Not the very first start: the first-start card (which takes the first key or click) is tested
  # on its own (FirstStartCard.*).
  mkdir -p "$ATTNLAB_CONFIG_DIR"
  echo '{"first_start_done": true}' >"$settings"
  "$app" "$@" >"$work/out" 2>"$work/err" &
  local pid=$!
  local window=
  for _ in $(seq 100); do
    window=$(xdotool search --name "^Attention Lab$" 2>/dev/null | head -n1)
    [ -n "$window" ] && break
    sleep 0.1
  done
  [ -n "$window" ] || bad "no window appeared: $(cat "$work/err")"
  sleep 0.8  # the first frames
  xdotool windowfocus --sync "$window" 2>/dev/null
  "$act" "$window"
  sleep 0.5
  kill -INT "$pid"
  wait "$pid"
}
setting() {  # PYTHON_EXPRESSION over s = the saved settings
  python3 -c "import json; s = json.load(open('$settings')); print($1)" 2>/dev/null
}

# A click on a control keeps no keys: after clicking "causal", three taps of → step three times
# and P twice leaves presenter mode on.
click_then_keys() {
  # shellcheck disable=SC2086
  xdotool mousemove --window "$1" $causal_xy click 1
  sleep 0.3
  xdotool key --window "$1" Right Right Right
  sleep 0.3
  xdotool key --window "$1" p
  sleep 0.3
  xdotool key --window "$1" p
}
drive click_then_keys "${look[@]}"
[ "$(setting 's["config"]["mask"]["causal"]')" = False ] && ok ||
  bad "the click did not reach the causal checkbox: $(setting 's["config"]["mask"]')"
[ "$(setting 's["stage"]')" = "transpose" ] && ok ||
  bad "after a click, 3 taps of Right: at '$(setting 's["stage"]')', wanted transpose"
[ "$(setting 's["presenter"]')" = True ] && ok || bad "P twice did not leave presenter mode on"

# Taps 4 ms apart, each a press and a release at once: several fall inside one frame, and each
# counts once. (Not 0 ms: GLFW drops an X11 key press with the same millisecond time stamp as the
# last one of that key, as the input method's duplicate; no hand or clicker taps that fast.)
fast_taps() {
  xdotool key --window "$1" --delay 4 Right Right Right Right
}
drive fast_taps "${look[@]}"
[ "$(setting 's["stage"]')" = "attend:QK^T" ] && ok ||
  bad "4 taps of Right sent at once: at '$(setting 's["stage"]')', wanted attend:QK^T"

# Digits pick tabs with the mouse over the heads panel: 8 opens Decode, 9 KV cache.
digits_over_heads() {
  xdotool mousemove --window "$1" 900 550
  sleep 0.2
  xdotool key --window "$1" 8
  sleep 0.3
  xdotool key --window "$1" 9
}
drive digits_over_heads "${look[@]}"
[ "$(setting 's["tab"]')" = "kv-cache" ] && ok ||
  bad "8 then 9 over the heads panel: tab '$(setting 's["tab"]')', wanted kv-cache"

report
