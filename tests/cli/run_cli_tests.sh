#!/usr/bin/env bash
# attnlab-cli as a user meets it: exit codes, one-line messages, the export, seed 002's numbers.
# Prints "N passed, M failed" and exits non-zero on any failure.
set -u
cli=${ATTNLAB_CLI:?set ATTNLAB_CLI to the attnlab-cli binary}
data=$(cd "$(dirname "$0")/../data" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
program=$cli
source "$(dirname "$0")/../expect.sh"

# [SECTION] runs that work
expect 0 "shape journey" -- --help
expect 0 "seed003" -- --list-presets
expect 0 "(B, h, T, d_k)" -- --preset seed003
expect 0 "view of q" -- --preset seed003
expect 0 "[shape-only]" -- --preset gpt3
expect 0 "causal + padding:3,5" -- --sentence "a b c d e" --batch 2 --mask causal --mask padding:3,5
expect 0 "window:2:1" -- --seq-len 9 --mask window:2:1
expect 0 "d_k=6" -- --d-model 8 --heads 2 --d-k 6 --d-v 3
expect 0 "dropout=0.2" -- --preset cat --dropout 0.2 --seed 4
expect 0 "queries with no visible key" -- --seq-len 4 --batch 2 --mask padding:0,2
# Entropy is compared with uniform attention over the keys each query sees (seed 003 is causal:
# mean log2(1..11) = 2.30 bits), or over all T keys when there is no mask (log2 6 = 2.58 bits).
expect 0 "uniform over each query's visible keys: 2.30 bits; each head's share of it: h0=98% h1=96%" -- --preset seed003
expect 0 "uniform over T = 6 keys: 2.58 bits" -- --seq-len 6
expect 0 "\"format\": \"attention-lab trace 1\"" -- --preset seed002 --json
# FLOPs as the app writes them: project = 3 projections * 2*T*d_in*(h*d_k) = 3*2*16*32*32 = 98304,
# output-project = 2*T*(h*d_v)*d_model = 32768.
expect 0 "project 98.3 kFLOP" -- --seq-len 16 --d-model 32 --heads 2
expect 0 "output-project 32.8 kFLOP" -- --seq-len 16 --d-model 32 --heads 2

# [SECTION] seed 002: the printed output, through --show and through --export with .npy inputs
"$cli" --preset seed002 --show out >"$work/show" 2>&1
want="-0.11650333 -0.15291629 0.05670701 -0.11995107 -0.11619959 -0.15312817 0.05761014 -0.12044207 -0.1164723 -0.15317532 0.05724618 -0.12031059"
got=$(sed -n '/^out (1, 3, 4)/,$p' "$work/show" | tail -n 3 | tr -d '[]' | tr -s ' \n' ' ')
if awk -v a="$want" -v b="$got" 'BEGIN { n = split(a, x, " "); m = split(b, y, " ");
      if (n != 12 || m != 12) exit 1;
      for (i = 1; i <= n; i++) { d = x[i] - y[i]; if (d < 0) d = -d; if (d > 1e-6) exit 1 } }'; then
  ok
else
  bad "seed 002 out: got '$got'"
fi
expect 0 "wrote 23 .npy files" -- --x "$data/seed002/x.npy" --wq "$data/seed002/w_q.npy" \
  --wk "$data/seed002/w_k.npy" --wv "$data/seed002/w_v.npy" --wo "$data/seed002/w_o.npy" \
  --heads 2 --export "$work/export"
for name in x q k v q_split k_split v_split q_heads k_heads v_heads scores scaled masked weights \
  context concat out w_q w_k w_v w_o; do
  if [ -s "$work/export/$name.npy" ]; then ok; else bad "export lacks $name.npy"; fi
done
if grep -q '"strides"' "$work/export/trace.json"; then ok; else bad "trace.json lacks strides"; fi

# Text that is not UTF-8 is still a sentence: JSON and the export replace the bad bytes.
expect 0 "attention-lab trace 1" -- --sentence $'caf\xe9 ok' --json
expect 0 "wrote" -- --sentence $'caf\xe9 ok' --export "$work/latin1"

# An empty or blank sentence: the sample text is used, and one line on stderr says so.
for case in "|is empty" "   |has only spaces"; do
  sentence=${case%%|*}
  "$cli" --sentence "$sentence" >"$work/out" 2>"$work/err"
  code=$?
  if [ "$code" = 0 ] && [ "$(wc -l <"$work/err")" = 1 ] &&
    grep -qF "attnlab-cli: --sentence ${case#*|}: using the built-in sample text (35 tokens" "$work/err"; then
    ok
  else
    bad "--sentence '$sentence': exit $code, stderr: $(cat "$work/err")"
  fi
done

# [SECTION] the mistakes simulator
expect 0 "shared-qk-projection" -- --list-mistakes
expect 0 "saturated softmax: entropy drops" -- --d-model 64 --heads 8 --seq-len 12 --mistake no-scale
expect 0 "masked tokens leak" -- --preset seed003 --mistake mask-zero
expect 0 "too small to see on this config; it shows with d_model = 64 (d_k = 32)" -- --preset seed003 --mistake no-scale
expect 3 "needs h's stride to be d_v = 2, it is 22" -- --preset seed003 --mistake view-no-contiguous
expect 3 "concat stage: RuntimeError: view size is not compatible" -- --preset seed003 --mistake view-no-contiguous
expect 0 "Head importance" -- --preset cat --importance --ablate 1
expect 0 "GPT-3 175B           12288    96    96   128" -- --model-table
# The next lessons: K/V sharing, decoding with a cache, latent attention, cross-attention.
expect 0 "Llama 2 70B           8192    64     8   128" -- --model-table
expect 0 "MLA   d_c 512 + d_rope 64        576 numbers/token/layer" -- --model-table
expect 0 "(32, 2, 0, 4, 1)" -- --sentence "the cat sat on the mat today ." --d-model 16 --heads 8 --kv-heads 2
expect 0 "each shared by g=4); K/V parameters 128" -- --sentence "the cat sat on the mat today ." --d-model 16 --heads 8 --kv-heads 2
expect 0 "token 7  (1, 2, 8, 4)  (1, 4, 1, 8)" -- --sentence "the cat sat on the mat today ." --d-model 16 --heads 4 --kv-heads 2 --decode 3
expect 0 "= d_c 8 + d_rope 4 (MLA caches the latent)" -- --seq-len 6 --d-model 16 --heads 4 --mla 8:4
expect 0 "absorbed form: out_absorbed differs from out by at most" -- --seq-len 6 --d-model 16 --heads 4 --mla 8:4 --q-latent 6
expect 0 "(B, h, T, T_k)" -- --sentence "the cat sat" --sentence-kv "le chat est assis" --d-model 8 --heads 2
expect 2 "choose n_kv_heads in {1, 2, 4}" -- --d-model 16 --heads 4 --kv-heads 3
expect 2 "decode at most 5 tokens" -- --seq-len 6 --decode 6
expect 2 "d_rope=3 must be even" -- --d-model 16 --heads 4 --mla 8:3
expect 2 "--mla x: d_c \"x\" is not a whole number" -- --mla x
expect 2 "drop --kv-heads, or drop --mla" -- --d-model 16 --heads 4 --mla 8 --kv-heads 2
# Llama's RoPE: the transpose stage's rotation, its rules, and the loop and batched paths with it.
expect 0 "q = q * cos + rotate_half(q) * sin" -- --preset seed003 --rope-theta 10000
expect 0 "k_rot" -- --d-model 16 --heads 4 --kv-heads 2 --rope-theta 500000 --show k_rot
expect 2 "d_k=3 must be even for RoPE" -- --d-model 12 --heads 4 --rope-theta 10000
expect 2 "drop --rope-theta, or drop --mla" -- --d-model 16 --heads 4 --mla 8 --rope-theta 10000
expect 2 "rope_theta=-1 is out of range" -- --rope-theta -1
expect 0 "outputs differ by at most" -- --preset cat --rope-theta 10000 --compare-paths
expect 0 "wrote" -- --preset seed003 --rope-theta 10000 --export "$work/rope"
for name in q_rot k_rot rope_inv_freq; do
  if [ -s "$work/rope/$name.npy" ]; then ok; else bad "the RoPE export lacks $name.npy"; fi
done
expect 2 "use a padding mask" -- --sentence-kv "a b" --mask causal
expect 2 "give a key/value sentence (--sentence-kv) or X_kv (--x-kv)" -- --d-in-kv 5
expect 0 "parameters 96  attention memory 242 weights" -- --preset seed003 --compare-heads
expect 0 "outputs differ by at most" -- --preset cat --compare-paths
# Measurements on a cross-attention trace read the key/value sentence's X_kv too (issue 21).
cross=(--sentence "the cat sat" --sentence-kv "le chat est assis")
expect 0 "Head importance (||out - out with the head off||): h0=" -- "${cross[@]}" --importance
expect 0 "single: h=1 d_k=4  parameters 64  attention memory 12 weights" -- "${cross[@]}" --compare-heads
# The loop and batched paths agree to float rounding (exactly 0 with GCC; ~1e-8 with Clang's code).
"$cli" "${cross[@]}" --compare-paths >"$work/paths" 2>&1
gap=$(sed -n 's/.*outputs differ by at most \([0-9.e+-]*\).*/\1/p' "$work/paths")
if [ -n "$gap" ] && awk -v g="$gap" 'BEGIN { exit !(g < 1e-6) }'; then
  ok
else
  bad "cross-attention --compare-paths: gap '$gap' (want < 1e-6): $(tail -n 1 "$work/paths")"
fi
# A measurement that cannot take the config: one line naming the flag, exit 2.
expect 2 "--importance: the production path computes multi-head" -- --seq-len 6 --d-model 16 --heads 4 --mla 8 --importance
# Measurements need values: a shape-only or over-the-cap config is refused in one line, exit 2.
expect 2 "--importance needs computed values, and this configuration is shape-only" -- --preset gpt3 --importance
expect 2 "--compare-heads needs computed values" -- --preset gpt3 --compare-heads
expect 2 "--compare-paths needs computed values" -- --preset base --memory-cap-mb 50 --shape-only --compare-paths
expect 0 "!!     scores = scores / math.sqrt(d_model)" -- --preset cat --mistake scale-d-model --code
expect 2 "unknown; choose one of forget-transpose" -- --mistake sideways
expect 2 "--ablate 5: heads are numbered 0..1" -- --preset seed003 --ablate 5

# [SECTION] bad input: exit 2, one line naming the problem and the fix
expect 2 "not divisible by n_heads=4" -- --d-model 10 --heads 4
expect 2 "choose n_heads in {1, 2, 5, 10} or set d_k" -- --d-model 10 --heads 4
expect 2 "larger than d_model" -- --d-model 4 --heads 8
expect 2 "no preset named \"nope\"" -- --preset nope
expect 2 "is not a mask" -- --mask sideways
expect 2 "the window must be at least 1" -- --mask window:0
expect 2 "padding length 9 is outside" -- --seq-len 4 --mask padding:9
expect 2 "lists 2 lengths but the batch has B=3" -- --seq-len 4 --batch 3 --mask padding:1,2
expect 2 "dropout=1" -- --dropout 1
expect 2 "above the cap of 1.0 MiB" -- --preset base --memory-cap-mb 1
# A cap above the machine's memory (100 TiB), both numbers named (core/limits/machine_memory.hpp).
expect 2 "the memory cap of 104857600 MiB is above this machine's memory" -- --memory-cap-mb 104857600
expect 2 "" -- --heads abc
expect 2 "" -- --no-such-flag
expect 2 "cannot open the file" -- --x "$work/missing.npy"
printf 'not numpy' >"$work/junk.npy"
expect 2 "--x" -- --x "$work/junk.npy"
expect 2 "contains NaN at index" -- --x "$data/npy/f4_nan_2x3.npy"
expect 2 "dtype '<i8' is not supported" -- --x "$data/npy/i8_3.npy"
expect 2 "Fortran (column-major) order" -- --x "$data/npy/f4_fortran_2x3.npy"
head -c 100 "$data/seed002/w_q.npy" >"$work/trunc.npy"
expect 2 "truncated" -- --preset seed002 --wq "$work/trunc.npy"
expect 2 "w_q has shape (4, 4) but this configuration needs (4, 8)" -- --preset seed002 --d-model 8 --heads 2
expect 2 "biases come together" -- --bq "$data/seed002/w_q.npy"
expect 2 "--show nothing: no such tensor" -- --show nothing
touch "$work/afile"
expect 2 "cannot create the export folder" -- --export "$work/afile/sub"
expect 2 "shape-only trace has no values to export" -- --preset gpt3 --export "$work/gpt3"

# [SECTION] train (issue 12): a short run writes the model; bad settings exit 2 with one line
train_args=(--layers 1 --heads 2 --d-model 16 --seq-len 8 --vocab 8 --steps 20 --batch-size 8
            --lr 3e-3 --seed 1)
expect 0 "wrote 14 parameters, model.json and history.json" -- train --task previous-and-first \
  "${train_args[@]}" --out "$work/trained"
for f in model.json history.json tok_emb.npy pos_emb.npy layer0.w_q.npy layer0.b_o.npy \
         unembed1.npy unembed1_bias.npy; do
  if [ -f "$work/trained/$f" ]; then ok; else bad "train did not write $f"; fi
done
if ls "$work/trained" | grep -q tmp; then bad "train left a temp file"; else ok; fi
expect 0 "wrote 8 parameters" -- train --task reverse "${train_args[@]}" --no-bias --out "$work/nb"
expect 0 "wrote the batch and 28 gradients" -- train --task induction --layers 2 --heads 2 \
  --d-model 8 --seq-len 8 --vocab 8 --mlp --steps 0 --batch-size 4 --lr 1e-3 --seed 2 \
  --out "$work/g_model" --grads "$work/g"
for f in batch_tokens.npy batch_targets0.npy loss.json grad_tok_emb.npy grad_layer1.mlp_w2.npy \
         grad_unembed0_bias.npy; do
  if [ -f "$work/g/$f" ]; then ok; else bad "--grads did not write $f"; fi
done
expect 0 "--task" -- train --help
expect 2 "unknown task; choose one of previous-token" -- train --task copy "${train_args[@]}" \
  --out "$work/x"
expect 2 "--vocab 1: a task needs at least 2 tokens" -- train --task previous-token \
  --layers 1 --heads 2 --d-model 16 --seq-len 8 --vocab 1 --steps 1 --batch-size 8 --lr 1e-3 \
  --seed 1 --out "$work/x"
expect 2 "--seq-len 4 is too short for induction" -- train --task induction --layers 2 \
  --heads 2 --d-model 16 --seq-len 4 --vocab 8 --steps 1 --batch-size 8 --lr 1e-3 --seed 1 \
  --out "$work/x"
expect 2 "--layers 3: use 1 or 2 layers" -- train --task previous-token --layers 3 --heads 2 \
  --d-model 16 --seq-len 8 --vocab 8 --steps 1 --batch-size 8 --lr 1e-3 --seed 1 --out "$work/x"
expect 2 "--grads is for the untrained model" -- train --task previous-token "${train_args[@]}" \
  --out "$work/x" --grads "$work/y"
expect 2 "--out is required" -- train --task previous-token "${train_args[@]}"
expect 2 "excludes" -- train --task previous-token "${train_args[@]}" --bias --no-bias --out "$work/x"
touch "$work/afile2"
expect 2 "cannot create the folder" -- train --task previous-token "${train_args[@]}" \
  --out "$work/afile2/sub"
# issue 23: --pos and --eval-seq-len (a learned table says n/a beyond its rows)
expect 0 "eval T=16  n/a: the learned table has 8 rows" -- train --task previous-token \
  "${train_args[@]}" --eval-seq-len 16 --out "$work/learned_long"
expect 0 "eval T=16  loss" -- train --task previous-token "${train_args[@]}" --pos rope \
  --eval-seq-len 16 32 --out "$work/rope"
if grep -q '"pos": "rope"' "$work/rope/model.json" && [ ! -f "$work/rope/pos_emb.npy" ]; then ok
else bad "a --pos rope model has no pos in model.json or a pos_emb.npy"; fi
if grep -q '"length_eval"' "$work/rope/history.json"; then ok; else bad "no length_eval"; fi
expect 2 "--pos absolute: unknown position encoding; use one of none|sinusoidal|learned|rope|alibi" \
  -- train --task previous-token "${train_args[@]}" --pos absolute --out "$work/x"
expect 2 "RoPE (--pos rope) needs an even d_k" -- train --task previous-token --layers 1 --heads 2 \
  --d-model 10 --seq-len 8 --vocab 8 --steps 1 --batch-size 8 --lr 1e-3 --seed 1 --pos rope \
  --out "$work/x"
expect 2 "--eval-seq-len 5000: use a length from 2" -- train --task previous-token \
  "${train_args[@]}" --eval-seq-len 5000 --out "$work/x"
expect 0 "wrote 11 parameters" -- train --task previous-token "${train_args[@]}" --pos alibi \
  --out "$work/alibi_model"
expect 0 "scores = scores + self.alibi_bias" -- --model "$work/alibi_model"
expect 0 "q = q * cos + rotate_half(q) * sin" -- --model "$work/rope"

# [SECTION] --flash BR:BC: the tiled kernel (issue 24). Causal, T = 8 in tiles of 4: 3 of 4 tiles
# per head computed, 1 skipped; 2 heads.
expect 0 "tiles computed:  6 of 8 (4 on a mask's edge" -- --flash 4:4 --seq-len 8 --mask causal
expect 0 "tiles skipped:   2 (25 %" -- --flash 4:4 --seq-len 8 --mask causal
expect 0 "wrote 3 .npy files" -- --flash 2:3 --seq-len 7 --mask window:1 --export "$work/flash"
for name in out flash_m flash_l; do
  if [ -s "$work/flash/$name.npy" ]; then ok; else bad "--flash --export lacks $name.npy"; fi
done
# Where the ordinary trace is refused by the memory cap, the tiled kernel runs and says so.
expect 0 "the ordinary trace: refused" -- --flash 64:64 --seq-len 4096 --d-model 16 --heads 4 \
  --mask window:8
expect 2 "--flash 64: '64' has no ':' (expected BR:BC" -- --flash 64
expect 2 "--flash a:b: 'a:b' is not two whole numbers" -- --flash a:b
expect 2 "must be between 1 and 1024" -- --flash 0:8
expect 2 "the tiled path computes without dropout" -- --flash 4:4 --dropout 0.1
expect 2 "drop them or --flash" -- --flash 4:4 --show out
expect 2 "the tiled run needs" -- --flash 4:4 --seq-len 4096 --d-model 4096 --memory-cap-mb 64

# --model DIR: the trained model's first layer as an ordinary trace (and export)
expect 0 "h=2 d_k=8 d_v=8 mask=causal bias=on" -- --model "$work/trained"
expect 0 "wrote" -- --model "$work/trained" --batch 2 --export "$work/trained_export"
if [ -f "$work/trained_export/weights.npy" ]; then ok; else bad "--model --export wrote no weights.npy"; fi
expect 0 "mask=none" -- --model "$work/nb"
expect 2 "has no config.json (a Hugging Face model's) nor model.json" -- --model "$work"
expect 2 "drop --heads" -- --model "$work/trained" --heads 4
expect 2 "drop --preset" -- --model "$work/trained" --preset seed003

# Word order (--pos, --shuffle): the encodings and the shuffle demonstration.
expect 0 "pos                                  (6, 4)" -- --sentence "the cat sat on the mat" --pos learned
expect 0 "biased" -- --sentence "the cat sat on the mat" --pos alibi
expect 0 "rotate_half(q) * sin" -- --sentence "the cat sat on the mat" --pos rope
expect 0 "X = token embedding only" -- --sentence "the cat sat on the mat" --pos none
expect 0 "equal up to float rounding" -- --sentence "the cat sat on the mat" --pos none --shuffle 3
expect 0 "the maps changed: position information (rope)" -- --sentence "the cat sat on the mat" --pos rope --shuffle 3
expect 2 "choose one of none|sinusoidal|learned|rope|alibi" -- --pos bogus
expect 2 "--shuffle needs at least two tokens" -- --sentence cat --shuffle 1
expect 2 "--shuffle needs computed values" -- --shuffle 1 --shape-only
expect 2 "choose another position encoding (--pos)" -- --pos alibi --sentence-kv "another one"
expect 2 "d_k=3 must be even for RoPE" -- --pos rope --d-model 6 --heads 2

summary
