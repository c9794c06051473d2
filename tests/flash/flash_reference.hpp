// What the tiled-attention tests check against: one head's q, k, v computed naively in double from
// the inputs (x @ W + b), and softmax(q k^T / sqrt(d_k)) v one row at a time, the ordinary way.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/model/masks.hpp"
#include "core/model/tokenizer.hpp"

namespace attnlab::testing {

// A (rows, cols) row-major matrix of doubles.
struct Dense {
  int64_t rows = 0, cols = 0;
  std::vector<double> values;
  double& at(int64_t r, int64_t c) { return values[size_t(r * cols + c)]; }
  double at(int64_t r, int64_t c) const { return values[size_t(r * cols + c)]; }
};

inline Inputs inputs_for(const Config& c) {
  return complete_inputs(
      c, tokens_for(c.sentence, c.tokens()), {},
      c.cross() ? tokens_for(c.sentence_kv, c.key_tokens()) : std::vector<std::string>{});
}

// Columns [col0, col0 + width) of x[b] @ w (+ bias): (rows, width). x and w are contiguous.
inline Dense project(const Tensor& x, int64_t b, const Tensor& w, const Tensor& bias, int64_t col0,
                     int64_t width) {
  const int64_t rows = x.size(1), d_in = x.size(2), w_cols = w.size(1);
  const Scalar* xs = x.data() + b * rows * d_in;
  const Scalar* ws = w.data();
  Dense out{rows, width, std::vector<double>(size_t(rows * width), 0.0)};
  for (int64_t t = 0; t < rows; ++t)
    for (int64_t c = 0; c < width; ++c) {
      double sum = bias.storage() ? double(bias.data()[col0 + c]) : 0.0;
      for (int64_t i = 0; i < d_in; ++i)
        sum += double(xs[t * d_in + i]) * double(ws[i * w_cols + col0 + c]);
      out.at(t, c) = sum;
    }
  return out;
}

struct HeadQKV {
  Dense q, k, v;
};

// Head hd of sequence b (its K/V head under GQA), no RoPE.
inline HeadQKV head_qkv(const Config& c, const Inputs& in, int64_t b, int64_t hd) {
  const int64_t dk = c.head_dim_k(), dv = c.head_dim_v(), kv = hd / c.group_size();
  const Tensor& x_kv = c.cross() ? in.x_kv : in.x;
  return {project(in.x, b, in.w_q, in.b_q, hd * dk, dk),
          project(x_kv, b, in.w_k, in.b_k, kv * dk, dk),
          project(x_kv, b, in.w_v, in.b_v, kv * dv, dv)};
}

// The ordinary attention of query row i: its scaled scores over the visible keys, their max, and
// the output row softmax(s) v (zeros when no key is visible).
struct RowReference {
  double max = -std::numeric_limits<double>::infinity();
  double sum = 0;  // sum_j exp(s_j - max) over the visible keys
  std::vector<double> out;
};

inline RowReference attend_row(const HeadQKV& head, const MaskSpec& mask, int64_t b, int64_t i) {
  const int64_t Tk = head.k.rows, dk = head.q.cols, dv = head.v.cols;
  std::vector<double> s(size_t(Tk), -std::numeric_limits<double>::infinity());
  RowReference r;
  r.out.assign(size_t(dv), 0.0);
  for (int64_t j = 0; j < Tk; ++j) {
    if (!key_visible(mask, b, i, j)) continue;
    double dot = 0;
    for (int64_t d = 0; d < dk; ++d) dot += head.q.at(i, d) * head.k.at(j, d);
    s[size_t(j)] = dot / std::sqrt(double(dk));
    r.max = std::max(r.max, s[size_t(j)]);
  }
  if (std::isinf(r.max)) return r;
  for (int64_t j = 0; j < Tk; ++j) {
    if (std::isinf(s[size_t(j)])) continue;
    const double p = std::exp(s[size_t(j)] - r.max);
    r.sum += p;
    for (int64_t d = 0; d < dv; ++d) r.out[size_t(d)] += p * head.v.at(j, d);
  }
  for (double& value : r.out) value /= r.sum;
  return r;
}

}  // namespace attnlab::testing
