#!/usr/bin/env bash
# The pixel test: runs the real app under a virtual display (Xvfb on a free display number,
# started here), saves screenshots with a layout sidecar, and checks every heatmap cell's colour
# against the core's numbers (of the record each step shows: scores at QK^T, scaled at the scale
# sub-step, masked at mask, weights at softmax), and that 4 heads draw 4 heatmaps.
#   run_pixel_test.sh ATTNLAB GUI_PIXEL_CHECK
set -u
app=${1:?attnlab binary}
check=${2:?gui_pixel_check binary}
work=$(mktemp -d)
source "$(dirname "$0")/start_xvfb.sh"
# Under AddressSanitizer: Mesa's driver, loaded with dlopen, keeps a few allocations until exit
# that LeakSanitizer cannot attribute; the headless tests keep leak checking on.
export ASAN_OPTIONS="${ASAN_OPTIONS:-}${ASAN_OPTIONS:+:}detect_leaks=0"
export ATTNLAB_CONFIG_DIR="$work/config"
failed=0

check_args=()  # more of gui_pixel_check's options for the next run_case
run_case() {  # NAME EXPECTED_HEADS EXPECTED_RECORD ARGS...
  local name=$1 heads=$2 record=$3
  shift 3
  if ! "$app" "$@" --screenshot "$work/$name.png" --frames 3 --dump-layout "$work/$name.json" \
      2>"$work/$name.err"; then
    echo "FAIL: $name: attnlab exited $?: $(cat "$work/$name.err")"; failed=1; return
  fi
  echo "== $name"
  if ! "$check" "$work/$name.png" "$work/$name.json" --expect-heads "$heads" \
      --expect-record "$record" "${check_args[@]}"; then
    failed=1
    [ -n "${ATTNLAB_KEEP_FAILED:-}" ] && cp "$work/$name.png" "$work/$name.json" "$ATTNLAB_KEEP_FAILED"
  fi
}

run_case seed003_attend 2 weights --preset seed003 --stage attend:softmax
run_case seed003_4heads 4 weights --preset seed003 --stage attend:softmax --d-model 8 --heads 4
# The score sub-steps draw their own record on the diverging map, whatever --heatmaps chose.
run_case seed003_qk 2 scores --preset seed003 --stage attend:QK^T
run_case seed003_scale 2 scaled --preset seed003 --stage attend:scale --heatmaps weights
run_case seed003_mask 2 masked --preset seed003 --stage attend:mask
run_case seed003_scores 2 scores --preset seed003 --stage attend:softmax --heatmaps scores
run_case seed002_dark 2 weights --preset seed002 --stage attend:softmax --theme dark
# Each colour scale of the weights: on seed003 (causal) and on base's random, near-uniform weights
# (T = 64 and 2 heads, so cells are big enough to sample: 128 tokens x 8 heads are under a pixel).
for scale in per-map per-row log fixed; do
  run_case "seed003_$scale" 2 weights --preset seed003 --stage attend:softmax --colour-scale "$scale"
  run_case "base_$scale" 2 weights --preset base --stage attend:softmax --heads 2 --seq-len 64 \
    --batch 1 --colour-scale "$scale"
done

# Crafted head 3 is uniform: per row, each of its rows is spread evenly and drawn grey, not the
# map's top colour (issue 38).
check_args=(--expect-even-rows 10)
run_case crafted_per_row 4 weights --preset crafted --stage attend:softmax --colour-scale per-row
exit $failed
