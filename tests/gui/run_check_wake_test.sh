#!/usr/bin/env bash
# An answer rewritten from a terminal is graded with no input at all (issue 38): the real app
# under Xvfb, started with --check on an exercise whose answer forgets the transpose, left alone
# (no key, no click, no pointer motion), while the shell rewrites answer.npz with the right
# stages. Idle, the app sleeps until an event arrives and draws nothing on its own (first check:
# its window's pixels stay the same); the Check tab's watcher wakes it (glfwPostEmptyEvent), so
# the window turns every stage green within a generous bound (5 s, for a loaded machine; the
# watcher looks four times a second). The pixels are read from the X server, which sends the app
# no event. Prints the measured latency (to the first look that saw it: each look starts Python).
#   run_check_wake_test.sh ATTNLAB ATTNLAB_CLI
set -u
app=$(realpath "${1:?attnlab binary}")
cli=$(realpath "${2:?attnlab-cli binary}")
work=$(mktemp -d)
source "$(dirname "$0")/app_test_setup.sh"
here=$(cd "$(dirname "$0")" && pwd)

# The stage boxes' fills (app/gui/check/panel_check.cpp): right, wrong.
right=40,140,80
wrong=200,55,55
exercise="$work/exercise"
"$cli" exercise "$exercise" --preset seed003 >/dev/null || { echo "FAIL: no exercise"; exit 1; }
for kind in right forget-transpose; do
  mistake=()
  [ "$kind" = right ] || mistake=(--mistake "$kind")
  "$cli" --preset seed003 "${mistake[@]}" --export "$work/$kind" >/dev/null || exit 1
done
# write_answer KIND: answer.npz rewritten in place, as a student's script does with np.savez.
write_answer() {
  /usr/bin/python3 - "$work/$1" "$exercise/answer.npz" <<'PY'
import pathlib, sys
import numpy as np
folder = pathlib.Path(sys.argv[1])
np.savez(sys.argv[2], **{p.stem: np.load(p) for p in sorted(folder.glob("*.npy"))})
PY
}
write_answer forget-transpose || exit 1

"$app" --check "$exercise" --width 1280 --height 720 >"$work/out" 2>"$work/err" &
pid=$!
window=$(window_of "$pid")
[ -n "$window" ] || { echo "FAIL: no window"; kill -KILL "$pid"; exit 1; }
counts() { /usr/bin/python3 "$here/window_pixels.py" "$window" "$right" "$wrong"; }

# The wrong answer graded: red boxes shown (the grading runs on a job, which draws frames).
before=
for _ in $(seq 100); do
  before=$(counts)
  [ "${before#* }" -gt 0 ] 2>/dev/null && break
  sleep 0.1
done
if [ "${before#* }" -gt 0 ] 2>/dev/null; then ok; else bad "the wrong answer never showed red stages: $before"; fi
sleep 1  # the frames after the grading settle

# Idle, nothing is drawn on its own: the same pixels over two seconds (no event, no frame).
settled=$(counts)
sleep 2
if [ "$(counts)" = "$settled" ]; then ok; else bad "the idle window changed with no event"; fi

write_answer right || exit 1
started=$(date +%s.%N)  # the answer is written whole (Python's start is not the app's latency)
after=
seconds=0
while awk -v s="$seconds" 'BEGIN { exit !(s < 5) }'; do  # at most 5 s (a look takes ~0.3 s)
  after=$(counts)
  seconds=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
  [ "${after#* }" = 0 ] && [ "${after% *}" -gt "${settled% *}" ] && break
  sleep 0.05
done
if [ "${after#* }" = 0 ] && [ "${after% *}" -gt "${settled% *}" ]; then
  echo "the rewritten answer was graded ${seconds} s after it was written, with no input event"
  ok
else
  bad "5 s after the answer was rewritten the window still shows it wrong (green, red pixels: $after; before: $settled)"
fi

kill -TERM "$pid"
wait "$pid"
code=$?
[ "$code" = 0 ] && ok || bad "exit $code; stderr: $(head -c 2000 "$work/err")"
report
