#!/usr/bin/env bash
# Frame times of the desktop app while a real model works (issue 37: "the window never waits on
# real work"). Writes a GPT-2-small-sized checkpoint with the tests' checkpoint writer
# (tests/numpy/hf_checkpoints.py: d_model 768, 12 heads, 12 layers, 1024 positions, a small
# vocabulary, random weights, in the published safetensors layout), opens it in the app under a
# virtual display (Xvfb, started here; Mesa llvmpipe renders) on the Model tab's Next token page,
# and for FRAMES frames switches a head of the shown layer off or on every EVERY frames (the pass
# without it is a job) while generating 16 tokens with the KV cache over and over (a job too).
# Prints the frame time's median and p95, vsync off.                   target: p95 < 33 ms
# Usage: bench/bench_model_frames.sh [ATTNLAB] [FRAMES] [EVERY] [TOKENS]
#        (default: build/app/gui/attnlab, 600, 20, 16). The Model tab draws every head's T x T map
# each frame (144 maps): at 64 tokens that drawing, not the model, dominates the frame.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
app=${1:-$root/build/app/gui/attnlab}
frames=${2:-600}
every=${3:-20}
tokens=${4:-16}
[ -x "$app" ] || { echo "bench_model_frames.sh: no attnlab binary at $app (build it first)" >&2; exit 2; }
work=$(mktemp -d)
source "$root/tests/gui/start_xvfb.sh"  # a free display, stopped (and $work removed) on exit
export ATTNLAB_CONFIG_DIR="$work/config"

model="$work/gpt2-small-random"
/usr/bin/python3 - "$root/tests/numpy" "$model" <<'PY' || { echo "bench_model_frames.sh: could not write the checkpoint" >&2; exit 2; }
import os, sys
sys.path.insert(0, sys.argv[1])
import hf_checkpoints
os.makedirs(sys.argv[2], exist_ok=True)
hf_checkpoints.write_gpt2(sys.argv[2], seed=12, d=768, n_layer=12, n_head=12, vocab=2048,
                          n_positions=1024, mask_buffer=None)
PY
# A prompt of ids (the folder has no tokenizer).
sentence=$(/usr/bin/python3 -c "print(', '.join(str((11 + 37 * i) % 2048) for i in range($tokens)))")

echo "attnlab frame times with a 12-layer d_model 768 GPT-2 ($tokens tokens) working, $frames frames, a head switched every $every frames, 1600x1000, $(nproc) cores, $(glxinfo -B 2>/dev/null | grep -m1 'OpenGL renderer' | cut -d: -f2- | sed 's/^ *//' || true)"
line=$("$app" --model "$model" --sentence "$sentence" --tab model --model-page next \
  --width 1600 --height 1000 --bench-frames "$frames" --bench-model "$every") ||
  { echo "bench_model_frames.sh: attnlab failed" >&2; exit 1; }
p95=${line#*p95_ms=}
p95=${p95%% *}
verdict=ok
awk -v p="$p95" 'BEGIN { exit !(p < 33) }' || verdict="ABOVE TARGET"
echo "model    $line  (target p95 < 33 ms: $verdict)"
