#!/usr/bin/env bash
# RoPE is applied by one function and ALiBi added by one (docs/architecture.md): no code in core/
# or app/ computes a rotation's cos and sin but core/position/rope_alibi.hpp (rope_cos_sin), the
# sinusoidal table (core/position/position_encoding.cpp) and the random numbers' Box-Muller
# (core/kernels/rng.cpp); ALiBi's bias is added by add_alibi only, its value read from alibi_bias
# by the bias tables (core/model/inputs.cpp, the trainer's) and the Word order tab's drawing alone; the per-head
# loop has its own softmax, not the kernels' it checks. Prints "N passed, M failed".
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
passed=0
failed=0
# only_in PATTERN WHAT ALLOWED_FILE...: fails when a source file of core/ or app/ other than the
# allowed ones matches the extended regular expression PATTERN (comments ignored).
only_in() {
  local pattern=$1 what=$2
  shift 2
  local offenders=
  for file in $(grep -rlE "$pattern" core app --include=*.cpp --include=*.hpp 2>/dev/null); do
    case " $* " in *" $file "*) continue ;; esac
    grep -vE '^\s*//' "$file" | grep -qE "$pattern" && offenders="$offenders $file"
  done
  if [ -n "$offenders" ]; then
    echo "FAIL: $what outside$(printf ' %s' "$@"):$offenders"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
}
only_in 'std::(cos|sin)\(' "cos or sin (a RoPE copy?)" \
  core/position/rope_alibi.hpp core/position/position_encoding.cpp core/kernels/rng.cpp
only_in '\balibi_bias\(' "ALiBi's bias computed" core/position/position_encoding.hpp \
  core/position/rope_alibi.hpp core/model/inputs.cpp core/training/position_layers.cpp \
  app/gui/positions/word_order_alibi.cpp
only_in '\badd_alibi\(' "ALiBi added" \
  core/position/rope_alibi.hpp core/attention/head_attention.hpp core/trace/mha.cpp \
  core/model/mha_loop.cpp core/training/position_layers.cpp
if grep -vE '^\s*//' core/model/mha_loop.cpp |
  grep -qE '\b(masked_softmax_row|dropout_row|softmax_rows|attend_head|score_block)\('; then
  echo "FAIL: core/model/mha_loop.cpp calls the kernels' attention code it is there to check"
  failed=$((failed + 1))
else
  passed=$((passed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
