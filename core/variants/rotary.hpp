// Rotary position embedding (RoPE) in its two pairings. DeepSeek-V2's decoupled key and query
// (MLA) turn each pair of neighbouring dimensions (2p, 2p + 1) of a token's vector by the angle
// t * 10000^(-2p / d_rope), t the token's position. Llama (and GPT-NeoX, Mistral, Qwen2) pairs
// dimension i with i + d/2 instead ("rotate half"), turned by t * inv_freq[i]. Either way q·k
// depends on the two positions only through their difference; the two pairings are the same
// rotation in a permuted basis (even dimensions first, then odd). The functions here only walk a
// layout: each vector is turned by rope_turn (core/position/rope_alibi.hpp), the one
// function that applies RoPE.
#pragma once

#include <cstdint>
#include <string>

#include "core/tensor/tensor.hpp"

namespace attnlab {

// Rotates, in place, every d_rope-wide chunk of each row of a contiguous (B, T, width) tensor
// (width a multiple of d_rope: one chunk per head) by its token's position, first_position + t.
void rotate_by_position(Tensor& rows, int64_t d_rope, int64_t first_position = 0);

// Llama's RoPE (transformers' apply_rotary_pos_emb) on x (L0, L1, T, d), read through its strides:
// for the token at position t = first_position + (its index on axis 2) and angle_i = t *
// inv_freq[i] (i < d/2, cos and sin repeated over both halves),
//   out = x * cos + rotate_half(x) * sin,  rotate_half(x) = cat(-x[d/2:], x[:d/2]).
// Returns a new contiguous (L0, L1, T, d) tensor (shape only when `compute` is false).
Tensor rotate_half(const Tensor& x, const Tensor& inv_freq, const std::string& name,
                   int64_t first_position = 0, bool compute = true);

// The same rotation in place on `rows` contiguous rows of `width` = n * d values (n heads side by
// side, each turned alike), row r at position first_position + r % T.
void rotate_half_rows(Scalar* values, int64_t rows, int64_t T, int64_t width, int64_t d,
                      const Scalar* inv_freq, int64_t first_position = 0);

// FLOPs of either rotation: 6 per pair (two products and a sum for each of the two outputs).
double rotation_flops(const Shape& shape);

}  // namespace attnlab
