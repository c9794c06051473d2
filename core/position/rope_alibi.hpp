// RoPE applied and ALiBi added: the one function each, called by every path that uses them (the
// traced run, forward(), the per-head loop, KV-cache decoding, FlashAttention, the pretrained
// forward, the trainer, the Word order tab; docs/architecture.md). Their numbers (RoPE's inverse
// frequencies, ALiBi's slopes and bias) are core/position/position_encoding.hpp's.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "core/position/position_encoding.hpp"

namespace attnlab {

// [SECTION] RoPE: the one function that turns a vector by its position

// Which dimensions RoPE turns together: Llama's (i, i + d/2), "rotate half" (GPT-NeoX, Mistral,
// Qwen2, the trainer, the Word order tab), or DeepSeek-V2 MLA's neighbours (2i, 2i + 1). The two
// are the same rotation in a permuted basis.
enum class RopePairing { Half, Neighbours };

// One position's angles, position * inv_freq[i] for i < d/2: their cos and sin, in double.
struct RopeCosSin {
  std::vector<double> cos, sin;
};

// Fills `a` with the cos and sin of position * inv_freq[i], i < half (inv_freq float or double).
template <typename F>
void rope_cos_sin(double position, const F* inv_freq, int64_t half, RopeCosSin& a) {
  a.cos.resize(static_cast<size_t>(half));
  a.sin.resize(static_cast<size_t>(half));
  for (int64_t i = 0; i < half; ++i) {
    const double angle = position * static_cast<double>(inv_freq[i]);
    a.cos[static_cast<size_t>(i)] = std::cos(angle);
    a.sin[static_cast<size_t>(i)] = std::sin(angle);
  }
}

// RoPE, applied by this function wherever it is used (the traced run, forward(), the per-head
// loop, KV-cache decoding, FlashAttention's projections, the pretrained forward, the trainer, the
// Word order tab): one d-wide vector x (d = 2 * half), read `stride` elements apart, turned pair
// by pair into out (contiguous; out may be x when stride is 1) by its position's angles (cos[i],
// sin[i] for i < half: rope_cos_sin's, or a table of them):
//   out[lo] = x[lo] cos - x[hi] sin,  out[hi] = x[hi] cos + x[lo] sin
// with (lo, hi) the pairing's pair i. inverse = true turns by -angle, the transpose (the trainer's
// backward pass). Computed in double, stored as S.
template <typename S, typename C>
void rope_turn(const S* x, int64_t stride, S* out, int64_t half, const C* cos, const C* sin,
               RopePairing pairing, bool inverse = false) {
  for (int64_t i = 0; i < half; ++i) {
    const int64_t lo = pairing == RopePairing::Half ? i : 2 * i;
    const int64_t hi = pairing == RopePairing::Half ? i + half : 2 * i + 1;
    const double first = static_cast<double>(x[lo * stride]);
    const double second = static_cast<double>(x[hi * stride]);
    const double c = static_cast<double>(cos[i]);
    const double s = inverse ? -static_cast<double>(sin[i]) : static_cast<double>(sin[i]);
    out[lo] = static_cast<S>(first * c - second * s);
    out[hi] = static_cast<S>(second * c + first * s);
  }
}

// The same with one position's RopeCosSin.
template <typename S>
void rope_turn(const S* x, int64_t stride, S* out, const RopeCosSin& a, RopePairing pairing,
               bool inverse = false) {
  rope_turn(x, stride, out, static_cast<int64_t>(a.cos.size()), a.cos.data(), a.sin.data(), pairing,
            inverse);
}

// [SECTION] ALiBi: the one function that adds it

// ALiBi, added by this function wherever it is used (the per-head kernel's score step, so
// forward(), KV-cache decoding and FlashAttention's tiles; the traced run; the per-head loop; the
// trainer): over a block of rows x cols scores (rows `stride` apart) for queries i0.. and keys
// j0..,
//   out(r, c) = scores(r, c) + bias(i0 + r, j0 + c)
// (out may be scores), the bias read from the head's (T, T_k) map when one is given (`map` points
// at its (0, 0), rows map_stride apart: ALiBi's table or any map a caller gave), else computed as
// alibi_bias(slope, i0 + r, j0 + c) in double, so a tiled run holds no (T, T_k) matrix.
template <typename S>
void add_alibi(const S* scores, S* out, int64_t stride, int64_t rows, int64_t cols, int64_t i0,
               int64_t j0, const S* map, int64_t map_stride, double slope) {
  for (int64_t r = 0; r < rows; ++r) {
    const S* in_row = scores + r * stride;
    S* out_row = out + r * stride;
    const S* map_row = map ? map + (i0 + r) * map_stride + j0 : nullptr;
    for (int64_t c = 0; c < cols; ++c)
      out_row[c] =
          in_row[c] + (map_row ? map_row[c] : static_cast<S>(alibi_bias(slope, i0 + r, j0 + c)));
  }
}

}  // namespace attnlab
