# Sourced by the GUI test scripts: starts Xvfb on a free display number (Xvfb picks it and
# writes it to -displayfd), exports DISPLAY, and stops it on exit. Needs $work (a temp folder);
# $xvfb_screen, when set, is the screen's size (default 1600x1000x24).
xvfb_pid=
stop_xvfb() {
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null && wait "$xvfb_pid" 2>/dev/null
  rm -rf "$work"
}
trap stop_xvfb EXIT
exec 3>"$work/display"
Xvfb -displayfd 3 -noreset -screen 0 "${xvfb_screen:-1600x1000x24}" -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
exec 3>&-
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
if [ ! -s "$work/display" ]; then
  echo "FAIL: Xvfb did not start"; cat "$work/xvfb.log"; exit 1
fi
export DISPLAY=":$(head -n1 "$work/display")"
