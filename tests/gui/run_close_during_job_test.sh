#!/usr/bin/env bash
# A close ends the app within a second whatever runs (issue 43): the real app under Xvfb, closed
# while a job runs, by the window's X (WM_DELETE_WINDOW, close_window.py), by SIGTERM and by
# Ctrl+C (SIGINT). The jobs: a 12-layer d_model 768 GPT-2 opened (the load, then the head finder,
# which cannot be interrupted: abandoned at exit), and a huge config's trace computing. Each run
# must end with exit 0 and nothing fatal on stderr, within a generous bound (10 s, for a loaded
# test machine; the app's own is one second for the jobs), not be killed.
#   run_close_during_job_test.sh ATTNLAB
# Prints "N passed, M failed".
set -u
app=$(realpath "${1:?attnlab binary}")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
source "$(dirname "$0")/app_test_setup.sh"
here=$(cd "$(dirname "$0")" && pwd)

model="$work/gpt2-small-random"
/usr/bin/python3 - "$root/tests/numpy" "$model" <<'PY' || { echo "FAIL: could not write the checkpoint"; exit 1; }
import os, sys
sys.path.insert(0, sys.argv[1])
import hf_checkpoints
os.makedirs(sys.argv[2], exist_ok=True)
hf_checkpoints.write_gpt2(sys.argv[2], seed=12, d=768, n_layer=12, n_head=12, vocab=2048,
                          n_positions=1024, mask_buffer=None)
PY

# close NAME HOW ARGS...: starts the app, waits for its window and a moment for the job to run,
# closes it (HOW: x, term, int) and waits at most 10 s for it to end.
close() {
  local name=$1 how=$2
  shift 2
  rm -rf "$ATTNLAB_CONFIG_DIR"
  "$app" "$@" >"$work/out" 2>"$work/err" &
  local pid=$!
  local window
  window=$(window_of "$pid")
  if [ -z "$window" ]; then
    bad "$name ($how): no window"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    return
  fi
  sleep 1.5  # the job is under way
  local started
  started=$(date +%s.%N)
  case $how in
    x) /usr/bin/python3 "$here/close_window.py" "$window" ;;
    term) kill -TERM "$pid" ;;
    int) kill -INT "$pid" ;;
  esac
  local ended=
  for _ in $(seq 200); do
    if ! kill -0 "$pid" 2>/dev/null; then
      ended=yes
      break
    fi
    sleep 0.05
  done
  local seconds
  seconds=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.2f", b - a }')
  if [ -z "$ended" ]; then
    bad "$name ($how): still running 10 s after the close"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    return
  fi
  wait "$pid"
  local code=$?
  if [ "$code" != 0 ]; then
    bad "$name ($how): exit $code after the close; stderr: $(head -c 2000 "$work/err")"
  elif grep -q -i "fatal\|terminate called\|AddressSanitizer" "$work/err"; then
    bad "$name ($how): stderr: $(head -c 2000 "$work/err")"
  else
    echo "$name ($how): ended ${seconds} s after the close"
    ok
  fi
}

for how in x term int; do
  close "the model opening" "$how" --model "$model" --tab model
  close "a huge config computing" "$how" --preset base --batch 64 --seq-len 1024 --d-model 1024
done
report
