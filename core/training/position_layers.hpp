// Where each position encoding (core/position) enters the trainer's forward pass, and its backward
// pass. Rows of every matrix are b*T + t, so a row's position is its index modulo T.
//   none        x0 = E[tokens]                                    nothing to learn
//   sinusoidal  x0 = E[tokens] + PE[t]                            PE fixed: no gradient
//   learned     x0 = E[tokens] + pos_emb[t]                       dpos_emb[t] = sum over b of dx0
//   rope        q, k of every head turned by t after the projection (rotate-half pairing);
//               backward: dq, dk turned back, the transposed rotation
//   alibi       scores[t, s] += -slope_h * |t - s| before the mask; no parameters, the gradient
//               of the scores passes through unchanged
#pragma once

#include <cstdint>
#include <vector>

#include "core/position/position_encoding.hpp"
#include "core/training/parameters.hpp"

namespace attnlab::training {

// x0 += P for the additive encodings (sinusoidal, learned); x0 (B*T, D) holds E[tokens] on entry.
// A learned table needs T <= its rows (the caller checks).
template <typename S>
void add_positions(PositionEncoding pos, const Parameters<S>& params, int64_t T, Matrix<S>& x0);

// dpos_emb from dx0 (B*T, D) for a learned table; nothing for the other encodings.
template <typename S>
void position_gradients(PositionEncoding pos, const Matrix<S>& dx0, int64_t T,
                        Parameters<S>& grads);

// RoPE's cos and sin of t * inv_freq[i] for t < T, i < d_k / 2: (T, d_k / 2) each.
template <typename S>
struct RopeAngles {
  Matrix<S> cos, sin;
};
// Fills `angles` for T positions and head width d_k (even), unless it already holds them.
template <typename S>
void rope_angles(int64_t T, int64_t d_k, RopeAngles<S>& angles);

// Turns, in place, the first `width` columns of qkv (B*T, >= width) head by head (d_k each):
// x[i], x[i + d_k/2] -> x[i] cos - x[i + d_k/2] sin, x[i + d_k/2] cos + x[i] sin, at the row's
// position. transposed = true applies the inverse (the transpose): the backward pass's rotation.
template <typename S>
void rotate_heads(Matrix<S>& qkv, int64_t width, int64_t T, int64_t d_k,
                  const RopeAngles<S>& angles, bool transposed);

// ALiBi's bias for T positions and `heads` heads, (h*T, T): row head*T + query holds
// -slope_head * |query - key| over the keys. Filled unless it already has that size.
template <typename S>
void alibi_bias_table(int64_t T, int64_t heads, Matrix<S>& bias);

// scores (B*h*T, T), rows (b*h + head)*T + query: += the head's (T, T) block of `bias`.
template <typename S>
void add_alibi_bias(Matrix<S>& scores, int64_t T, int64_t heads, const Matrix<S>& bias);

}  // namespace attnlab::training
