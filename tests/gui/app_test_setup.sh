# Sourced by the scripts that run the real app (needs $work, a temp folder): a virtual display
# (start_xvfb.sh), settings in $work/config, the tests' Python readers (png_rows.py, gif_frames.py)
# on PYTHONPATH, sanitizer reports without leak checks, and the pass/fail counters: ok, bad "what
# failed", and report (prints "N passed, M failed"; fails if any);
# window_of PID: the app's window once it shows (focused, its first frames drawn), or "".
source "$(dirname "${BASH_SOURCE[0]}")/start_xvfb.sh"
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
export ATTNLAB_CONFIG_DIR="$work/config"
PYTHONPATH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export PYTHONPATH
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() {
  echo "FAIL: $*"
  failed=$((failed + 1))
}
report() {
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}
# window_named PID NAME TENTHS: the window of process PID whose name matches NAME (a regex), once
# it shows, waiting up to TENTHS tenths of a second; "" if none did.
window_named() {
  local window=
  for _ in $(seq "$3"); do
    window=$(xdotool search --all --pid "$1" --name "$2" 2>/dev/null | head -n1)
    [ -n "$window" ] && break
    sleep 0.1
  done
  echo "$window"
}
window_of() {
  local window
  window=$(window_named "$1" "^Attention Lab$" 100)
  if [ -n "$window" ]; then
    sleep 1
    xdotool windowfocus --sync "$window" 2>/dev/null
  fi
  echo "$window"
}
