#!/usr/bin/env bash
# The Save dialog and Record in the real app (issue 32), driven by keys as a lecturer would: with
# the choices remembered in the settings, Ctrl+Shift+E then Enter writes the still (its size, its
# transparent background) and the animation (its size, its stages) they ask for while the window
# goes on; Esc cancels a long export, ends the copy of the app and leaves no file; a folder that is
# not there saves nothing; Ctrl+Shift+R, the arrows and Ctrl+Shift+R again write a recording of the
# window's size; the choices are still in the settings when the app closes.
#   run_save_dialog_test.sh ATTNLAB
# Prints "N passed, M failed".
set -u
app=$(realpath "${1:?attnlab binary}")
work=$(mktemp -d)
source "$(dirname "$0")/app_test_setup.sh"
mkdir -p "$work/config"
pid= win=

with_choices() {  # JSON: the Save dialog's remembered choices
  printf '{"first_start_done": true, "save": %s}\n' "$1" >"$work/config/settings.json"
}
start() {
  "$app" --preset seed003 --width 1024 --height 768 >"$work/app.log" 2>&1 &
  pid=$!
  win=$(window_of "$pid")
  [ -n "$win" ] || bad "the app's window did not show: $(cat "$work/app.log")"
}
stop() {
  kill -TERM "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
}
key() {
  xdotool key --window "$win" "$@"
  sleep 0.4
}
wait_for() {  # GLOB SECONDS: true once a file matches
  for _ in $(seq $(($2 * 10))); do
    compgen -G "$1" >/dev/null && return 0
    sleep 0.1
  done
  return 1
}
copies() {  # how many copies of the app are writing into FOLDER
  pgrep -f -- "--export-(png|animation) $1/" | wc -l
}
copy_shows() {  # FOLDER: true once a copy of the app writes into it (within 5 s)
  for _ in $(seq 100); do
    [ "$(copies "$1")" -ge 1 ] && return 0
    sleep 0.05
  done
  return 1
}
gif_problems() {  # GIF WIDTH HEIGHT MIN_FRAMES MIN_CS MAX_CS: what is wrong with it, or nothing
  /usr/bin/python3 - "$@" <<'PY'
import sys
import gif_frames
w, h, frames = gif_frames.read_gif(sys.argv[1])
want_w, want_h, least, shortest, longest = map(int, sys.argv[2:])
problems = []
if (w, h) != (want_w, want_h): problems.append(f"{w}x{h}, want {want_w}x{want_h}")
if len(frames) < least: problems.append(f"{len(frames)} distinct frames, want at least {least}")
total = sum(d for d, _ in frames)
if not shortest <= total <= longest: problems.append(f"{total} cs in all, want {shortest} to {longest}")
print("; ".join(problems))
PY
}

# A transparent still at 800x600.
mkdir -p "$work/still"
with_choices '{"kind": "still", "width": 800, "height": 600, "transparent": true, "folder": "'"$work/still"'"}'
start
key ctrl+shift+e
key Return
if wait_for "$work/still/attnlab-seed003-*.png" 60; then
  problems=$(/usr/bin/python3 - "$work"/still/attnlab-seed003-*.png <<'PY'
import sys
from png_rows import read_png
w, h, ch, rows = read_png(sys.argv[1])
problems = []
if (w, h) != (800, 600): problems.append(f"{w}x{h}, want 800x600")
if ch != 4 or rows[2][4 * 2 + 3] != 0: problems.append("the corner is not transparent")
if ch == 4 and max(row[4 * x + 3] for row in rows[::10] for x in range(0, w, 10)) != 255:
    problems.append("nothing opaque: the picture is missing")
print("; ".join(problems))
PY
)
  [ -z "$problems" ] && ok || bad "the dialog's still: $problems"
else
  bad "Ctrl+Shift+E, Enter wrote no still in 60 s: $(cat "$work/app.log")"
fi
stop

# The stages animated, 960x540 at 10 frames a second; the window takes keys meanwhile.
mkdir -p "$work/gif"
with_choices '{"kind": "animation", "width": 960, "height": 540, "fps": 10, "seconds_per_stage": 0.5, "folder": "'"$work/gif"'"}'
start
key ctrl+shift+e
key Return
copy_shows "$work/gif" && ok || bad "no copy of the app writes the animation"
key Right
if wait_for "$work/gif/attnlab-seed003-pipeline-*.gif" 120; then
  # The 13 steps, 0.5 s each.
  problems=$(gif_problems "$work"/gif/attnlab-seed003-pipeline-*.gif 960 540 12 $((13 * 50 - 60)) $((13 * 50 + 60)))
  [ -z "$problems" ] && ok || bad "the dialog's animation: $problems"
else
  bad "Enter wrote no animation in 120 s: $(cat "$work/app.log")"
fi
stop

# Esc cancels a long export: the copy ends within seconds and writes nothing.
mkdir -p "$work/cancel"
with_choices '{"kind": "animation", "width": 1920, "height": 1080, "fps": 30, "seconds_per_stage": 5, "folder": "'"$work/cancel"'"}'
start
key ctrl+shift+e
key Return
copy_shows "$work/cancel" && ok || bad "the long export did not start"
key Escape
for _ in $(seq 50); do [ "$(copies "$work/cancel")" = 0 ] && break; sleep 0.1; done
[ "$(copies "$work/cancel")" = 0 ] && ok || bad "Esc left the copy of the app running"
sleep 1
left=$(ls -A "$work/cancel")
[ -z "$left" ] && ok || bad "a cancelled export left files: $left"
kill -0 "$pid" 2>/dev/null && ok || bad "the app closed on Esc"
stop

# A folder that is not there: Save is refused, nothing starts.
with_choices '{"kind": "still", "folder": "'"$work/missing"'"}'
start
key ctrl+shift+e
key Return
sleep 2
[ "$(copies "$work/missing")" = 0 ] && [ ! -e "$work/missing" ] && ok ||
  bad "Save started for a folder that is not there"
stop

# Record: the arrows stepped while recording, at the window's size.
mkdir -p "$work/rec"
with_choices '{"fps": 10, "folder": "'"$work/rec"'"}'
start
key ctrl+shift+r
for _ in 1 2 3 4; do key Right; sleep 0.6; done
key ctrl+shift+r
if wait_for "$work/rec/attnlab-recording-*.gif" 60; then
  # The window's size; the first picture and 4 steps; about 4 s of stepping.
  problems=$(gif_problems "$work"/rec/attnlab-recording-*.gif 1024 768 5 250 1500)
  [ -z "$problems" ] && ok || bad "the recording: $problems"
else
  bad "Ctrl+Shift+R twice wrote no recording: $(cat "$work/app.log")"
fi
stop
remembered=$(/usr/bin/python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['save']; print(s['fps'], s['folder'])" "$work/config/settings.json" 2>&1)
[ "$remembered" = "10 $work/rec" ] && ok || bad "the choices after closing: $remembered"

rm -rf "$work"
report
