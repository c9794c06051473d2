#!/usr/bin/env bash
# The audience's window survives any close (issue 38): the real app under Xvfb playing a lesson
# with --audience; the audience's window is closed by its close button (WM_DELETE_WINDOW, as
# close_window.py sends it) and destroyed by another client (`xdotool windowclose`: the app's next
# request on it fails with an X error, which used to end the app and lose the settings). Each
# time the lecturer's window goes on: PageDown moves the lesson on, key A opens the audience's
# window again, and a normal quit exits 0 with the settings written (the scene reached).
#   run_audience_close_test.sh ATTNLAB
set -u
app=$(realpath "${1:?attnlab binary}")
work=$(mktemp -d)
source "$(dirname "$0")/app_test_setup.sh"
here=$(cd "$(dirname "$0")" && pwd)

audience_of() {  # the audience's window of process $1 once it shows, or ""
  window_named "$1" "^Attention Lab: audience$" 50
}

for how in close-button windowclose; do
  rm -rf "$ATTNLAB_CONFIG_DIR"
  "$app" --lesson notebook --audience --width 800 --height 600 >"$work/out" 2>"$work/err" &
  pid=$!
  main=$(window_of "$pid")
  audience=$(audience_of "$pid")
  if [ -z "$main" ] || [ -z "$audience" ]; then
    bad "$how: the windows did not show (lecturer '$main', audience '$audience')"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    continue
  fi
  case $how in
    close-button) /usr/bin/python3 "$here/close_window.py" "$audience" ;;
    windowclose) xdotool windowclose "$audience" ;;
  esac
  sleep 0.5
  for _ in 1 2 3 4; do  # the lecturer's clicker: the frames they bring meet the closed window
    xdotool key --window "$main" Next 2>/dev/null
    sleep 0.4
  done
  if ! kill -0 "$pid" 2>/dev/null; then
    wait "$pid"
    bad "$how: the app ended (exit $?) when its audience's window was closed: $(head -c 500 "$work/err")"
    continue
  fi
  if [ -z "$(xdotool search --all --pid "$pid" --name "^Attention Lab: audience$" 2>/dev/null)" ]; then ok; else
    bad "$how: the audience's window is still there"
  fi
  xdotool key --window "$main" a 2>/dev/null  # opened again
  if [ -n "$(audience_of "$pid")" ]; then ok; else bad "$how: key A did not open the audience's window again"; fi
  /usr/bin/python3 "$here/close_window.py" "$main"
  for _ in $(seq 200); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  if kill -0 "$pid" 2>/dev/null; then
    bad "$how: still running 10 s after its window was closed"
    kill -KILL "$pid"
  fi
  wait "$pid"
  code=$?
  if [ "$code" = 0 ] && ! grep -q -i "X Error\|fatal" "$work/err"; then ok; else
    bad "$how: exit $code; stderr: $(head -c 1000 "$work/err")"
  fi
  scene=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['lesson']['scene'])" \
    "$ATTNLAB_CONFIG_DIR/settings.json" 2>&1)
  # Four presses from the first scene: a question takes one press to reveal.
  if [ "$scene" -ge 1 ] 2>/dev/null; then
    echo "$how: the lecturer's window went on to scene $((scene + 1)); the settings were saved"
    ok
  else
    bad "$how: the saved settings hold no scene past the first: $scene"
  fi
done
report
