#!/usr/bin/env bash
# The app as a user meets it, under Xvfb (started here): no display, bad options, failed exports,
# a broken shader, settings saved at exit (also on Ctrl+C), restored, and a corrupted settings
# file moved aside.
#   run_app_tests.sh ATTNLAB
set -u
app=${1:?attnlab binary}
work=$(mktemp -d)
source "$(dirname "$0")/start_xvfb.sh"
# Under AddressSanitizer: Mesa's driver, loaded with dlopen, keeps a few allocations until exit
# that LeakSanitizer cannot attribute; the headless tests keep leak checking on.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
export ATTNLAB_CONFIG_DIR="$work/config"
settings="$ATTNLAB_CONFIG_DIR/settings.json"
program=$app
source "$(dirname "$0")/../expect.sh"

# Runs the app interactively for a moment, then stops it as Ctrl+C would.
run_interactive() {
  "$app" "$@" >"$work/out" 2>"$work/err" &
  local pid=$!
  sleep 1.5
  kill -INT "$pid"
  wait "$pid"
}

shot=(--screenshot "$work/shot.png" --frames 2)
DISPLAY= WAYLAND_DISPLAY= expect 2 "xvfb-run -a attnlab" --preset seed003
expect 2 "unknown stage" --stage attention "${shot[@]}"
expect 2 "--theme" --theme blue
expect 2 "unknown preset" --preset nosuch "${shot[@]}"
expect 2 "not divisible" --preset seed003 --heads 3 "${shot[@]}"
expect 0 "--screenshot" --help
expect 0 "" --preset seed003 --stage output-project "${shot[@]}"
[ -s "$work/shot.png" ] && ok || bad "no screenshot written"
expect 0 "" --preset seed003 --panel heads "${shot[@]}"
[ -e "$settings" ] && bad "a scripted run wrote settings" || ok

# A screenshot waits for what its picture shows: ten-minutes scene 7 runs Transformer base (B = 32,
# T = 128, d_model = 512), computed on the worker after the scene opens; one frame asked for, the
# picture is still of that run, not of the scene before it, and nothing is left computing.
expect 0 "" --lesson ten-minutes --scene 7 --screenshot "$work/scene.png" --frames 1 \
  --dump-layout "$work/scene.json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["shapes"].get("q_split") == [32, 128, 8, 64] and not d["computing"] else 1)' \
  "$work/scene.json" && ok || bad "the screenshot of scene 7 shows another run: $(head -c 300 "$work/scene.json")"

# ... and for its windows to stand still: ten-minutes scene 10 at 1024x768, font 1.5, computes for
# most of a second under the amber banner, which scrolls the stage view; three frames after, its
# scroll bars still followed that, and the picture saved scrolled sideways over cut lines.
expect 0 "" --lesson ten-minutes --scene 10 --present --font-scale 1.5 --width 1024 --height 768 \
  --screenshot "$work/scene10.png" --frames 1 --dump-layout "$work/scene10.json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["shapes"].get("q_heads") == [32, 8, 128, 64] and not d["content_findings"]
         and not d["text_findings"] else 1)' "$work/scene10.json" && ok ||
  bad "the screenshot of scene 10 is not whole: $(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["content_findings"], d["text_findings"])' "$work/scene10.json")"

# ... and for the measurement a tab starts as it is first drawn: ten-minutes 6 shows the Paths tab,
# whose loop-against-batched timing starts with its first frame (it showed "measuring 0%").
expect 0 "" --lesson ten-minutes --scene 6 --present --font-scale 1.5 --width 1280 --height 720 \
  --screenshot "$work/scene6.png" --frames 1 --dump-layout "$work/scene6.json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if d["tab"] == "paths" and not d["measuring"] else 1)' "$work/scene6.json" && ok ||
  bad "the screenshot of scene 6 was taken while measuring: $(head -c 300 "$work/scene6.json")"

# A scripted run makes no settings folder and no log in it (issue 43): with HOME and
# XDG_CONFIG_HOME at empty folders (and no ATTNLAB_CONFIG_DIR), a screenshot with --dump-layout and
# an export leave both empty. (Mesa's shader cache is pointed elsewhere: it is not the app's.)
for scripted in "--screenshot $work/plain.png --dump-layout $work/layout.json --frames 2" \
  "--export-svg $work/maps.svg"; do
  rm -rf "$work/home" "$work/xdg" && mkdir -p "$work/home" "$work/xdg"
  # shellcheck disable=SC2086 # the options are words
  (unset ATTNLAB_CONFIG_DIR; HOME="$work/home" XDG_CONFIG_HOME="$work/xdg" \
    XDG_CACHE_HOME="$work/cache" MESA_SHADER_CACHE_DISABLE=true \
    "$app" --preset seed003 $scripted >"$work/out" 2>"$work/err")
  got=$?
  [ "$got" = 0 ] && ok || bad "scripted run ($scripted): exit $got, $(cat "$work/err")"
  [ -z "$(ls -A "$work/xdg")" ] && ok || bad "scripted run ($scripted) made $(ls -A "$work/xdg")"
  (unset ATTNLAB_CONFIG_DIR XDG_CONFIG_HOME; HOME="$work/home" XDG_CACHE_HOME="$work/cache" \
    MESA_SHADER_CACHE_DISABLE=true "$app" --preset seed003 $scripted >"$work/out" 2>"$work/err")
  [ -z "$(ls -A "$work/home")" ] && ok || bad "scripted run ($scripted) made ~/$(ls -A "$work/home")"
done

# Exports never leave a half-written file: an unwritable folder, and a write that fails midway
# (a 64 KiB file-size limit with SIGXFSZ ignored stands in for a full disk): one line, exit 2, no
# file under the final name and no temp file.
expect 2 "cannot write" --preset seed003 --screenshot "$work/no/such/folder/shot.png" --frames 2
mkdir -p "$work/full"
(trap '' XFSZ; ulimit -f 64; "$app" --preset seed003 --screenshot "$work/full/shot.png" \
  --frames 2 >"$work/out" 2>"$work/err")
got=$?
[ "$got" = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] && grep -q "cannot write" "$work/err" && ok ||
  bad "a failed write: exit $got, $(cat "$work/err")"
[ -z "$(ls -A "$work/full")" ] && ok || bad "a failed write left $(ls "$work/full")"

# A broken shader: the info log on stderr, a readable message instead of the maps, exit 0.
mkdir -p "$work/shaders"
cp "$(dirname "$0")/../../shaders/heatmap.vert.glsl" "$work/shaders/"
echo "#version 330 core
void main() { gl_FragColor = oops; }" >"$work/shaders/heatmap.frag.glsl"
ATTNLAB_SHADER_DIR="$work/shaders" expect 0 "heatmap.frag failed to compile" \
  --preset seed003 "${shot[@]}"

# Settings: written at exit (Ctrl+C included), restored at the next start.
run_interactive --preset cat --theme dark --font-scale 1.5
grep -q '"theme": "dark"' "$settings" && grep -q '"font_scale": 1.5' "$settings" &&
  grep -q '"sentence": "The cat sat on the mat"' "$settings" && ok ||
  bad "settings not saved at exit: $(cat "$settings" 2>/dev/null)"
run_interactive
grep -q '"theme": "dark"' "$settings" && grep -q '"sentence": "The cat sat on the mat"' "$settings" &&
  ok || bad "settings not restored"
ls "$ATTNLAB_CONFIG_DIR" | grep -v '^settings.json$' | grep -q . && bad "temp files left" || ok

# A fatal error leaves one line on stderr and in the log beside the settings, then the process
# ends as the signal would have it (an ASan build leaves the signal to ASan's own report).
if ! nm -C "$app" 2>/dev/null | grep -q __asan_init; then
  for signal in SEGV ABRT; do
    rm -f "$ATTNLAB_CONFIG_DIR/attnlab.log"
    "$app" --preset seed003 >"$work/out" 2>"$work/err" &
    pid=$!
    sleep 1.5
    kill -"$signal" "$pid"
    wait "$pid" && status=0 || status=$?
    [ "$status" -eq $((128 + $(kill -l "$signal"))) ] && ok || bad "SIG$signal: exit $status"
    grep -q "^attnlab: fatal: SIG$signal" "$work/err" && ok || bad "SIG$signal: no line on stderr"
    grep -q "attnlab: fatal: SIG$signal" "$ATTNLAB_CONFIG_DIR/attnlab.log" 2>/dev/null && ok ||
      bad "SIG$signal: no line in attnlab.log"
  done
  rm -f "$ATTNLAB_CONFIG_DIR/attnlab.log"
fi

# A corrupted settings file: moved aside, defaults used, the app still starts and saves anew.
echo '{"config": {"d_model": ' >"$settings"
run_interactive
[ -e "$settings.bad" ] && ok || bad "corrupted settings not moved to settings.json.bad"
grep -q '"theme": "light"' "$settings" && ok || bad "defaults not used after a corrupted file"

# Every kind of job stops at SIGTERM: the trace worker, head importance with the one-head
# comparison, and the loop-vs-batched timing, on GPT-3 (shape-only: refused at once) and on the
# base shape made large enough that each job runs for seconds. The process is gone within 2 s and
# has saved its settings.
stops_within_2s() {  # SECONDS_BEFORE_SIGTERM APP_ARGS...
  local wait_before=$1
  shift
  rm -f "$settings"
  "$app" "$@" >"$work/out" 2>"$work/err" &
  local pid=$!
  sleep "$wait_before"
  kill -TERM "$pid"
  local tenths=0
  while kill -0 "$pid" 2>/dev/null && [ "$tenths" -lt 20 ]; do
    sleep 0.1
    tenths=$((tenths + 1))
  done
  if kill -0 "$pid" 2>/dev/null; then
    bad "still running 2 s after SIGTERM: $*"
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    return
  fi
  wait "$pid"
  [ -s "$settings" ] && ok || bad "settings not saved at SIGTERM: $*"
}
big=(--preset base --batch 128 --heads 16)  # its measurements take 5-10 s here
stops_within_2s 1.5 --preset gpt3 --tab head-tools
stops_within_2s 1.5 --preset gpt3 --tab paths
stops_within_2s 0.3 "${big[@]}"
stops_within_2s 3 "${big[@]}" --tab head-tools
stops_within_2s 3 "${big[@]}" --tab paths
grep -q '"batch": 128' "$settings" && ok || bad "the base run's settings were not the ones saved"

summary
