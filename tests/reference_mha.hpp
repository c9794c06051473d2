// A third, deliberately naive implementation for the tests: double precision, plain index loops,
// straight from the formulas (no Eigen, no views, nothing shared with core/ but the inputs).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"

namespace attnlab::testing {

struct Reference {
  std::vector<double> weights;  // (B, h, T, T)
  std::vector<double> context;  // (B, h, T, d_v)
  std::vector<double> out;      // (B, T, d_out)
};

// Whether query i of sequence b sees key j, straight from MaskSpec's definitions: every mask in
// force must allow it.
inline bool reference_visible(const MaskSpec& m, int64_t b, int64_t i, int64_t j) {
  const bool causal_allows = !m.causal || j <= i;
  bool padding_allows = true;
  if (!m.padding_lengths.empty()) {
    const int64_t length =
        m.padding_lengths.size() == 1 ? m.padding_lengths[0] : m.padding_lengths[size_t(b)];
    padding_allows = j < length;
  }
  const bool global = i < m.global_tokens || j < m.global_tokens;
  const bool window_allows = m.window == 0 || global || (i - j <= m.window && j - i <= m.window);
  return causal_allows && padding_allows && window_allows;
}

// X (B,T,d_in) and W as completed by complete_inputs(); no dropout.
inline Reference reference_mha(const Config& c, const Inputs& in) {
  const int64_t B = c.batch, T = c.tokens(), D = c.input_dim(), h = c.n_heads;
  const int64_t dk = c.head_dim_k(), dv = c.head_dim_v(), dout = c.out_dim();
  auto X = [&](int64_t b, int64_t t, int64_t i) { return double(in.x.at({b, t, i})); };
  auto proj = [&](const Tensor& W, const Tensor& bias, int64_t b, int64_t t, int64_t col) {
    double sum = bias.storage() ? double(bias.at({col})) : 0.0;
    for (int64_t i = 0; i < D; ++i) sum += X(b, t, i) * double(W.at({i, col}));
    return sum;
  };
  Reference r;
  r.weights.assign(size_t(B * h * T * T), 0.0);
  r.context.assign(size_t(B * h * T * dv), 0.0);
  std::vector<double> concat(size_t(B * T * h * dv), 0.0);
  for (int64_t b = 0; b < B; ++b)
    for (int64_t hd = 0; hd < h; ++hd)
      for (int64_t i = 0; i < T; ++i) {
        std::vector<double> logits(size_t(T), -std::numeric_limits<double>::infinity());
        double max_logit = -std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < T; ++j) {
          if (!reference_visible(c.mask, b, i, j)) continue;
          double dot = 0;
          for (int64_t e = 0; e < dk; ++e)
            dot +=
                proj(in.w_q, in.b_q, b, i, hd * dk + e) * proj(in.w_k, in.b_k, b, j, hd * dk + e);
          logits[size_t(j)] = dot / std::sqrt(double(dk));
          max_logit = std::max(max_logit, logits[size_t(j)]);
        }
        double total = 0;
        for (int64_t j = 0; j < T; ++j)
          if (std::isfinite(logits[size_t(j)])) total += std::exp(logits[size_t(j)] - max_logit);
        for (int64_t j = 0; j < T; ++j) {
          const double w = std::isfinite(logits[size_t(j)])
                               ? std::exp(logits[size_t(j)] - max_logit) / total
                               : 0.0;
          r.weights[size_t(((b * h + hd) * T + i) * T + j)] = w;
          for (int64_t e = 0; e < dv; ++e) {
            const double value = w * proj(in.w_v, in.b_v, b, j, hd * dv + e);
            r.context[size_t(((b * h + hd) * T + i) * dv + e)] += value;
            concat[size_t((b * T + i) * h * dv + hd * dv + e)] += value;
          }
        }
      }
  r.out.assign(size_t(B * T * dout), 0.0);
  for (int64_t bt = 0; bt < B * T; ++bt)
    for (int64_t o = 0; o < dout; ++o) {
      if (!c.output_proj) {
        r.out[size_t(bt * dout + o)] = concat[size_t(bt * dout + o)];
        continue;
      }
      double sum = in.b_o.storage() ? double(in.b_o.at({o})) : 0.0;
      for (int64_t e = 0; e < h * dv; ++e)
        sum += concat[size_t(bt * h * dv + e)] * double(in.w_o.at({e, o}));
      r.out[size_t(bt * dout + o)] = sum;
    }
  return r;
}

// max |a - b| over two equally long sequences (printed by the tests, as llm.c's check_tensor);
// infinity when the lengths differ or a difference is NaN (std::max would skip a NaN).
template <typename A, typename B>
double max_abs_diff(const A& a, const B& b) {
  if (a.size() != b.size()) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double d = std::abs(double(a[i]) - double(b[i]));
    if (std::isnan(d)) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, d);
  }
  return worst;
}

}  // namespace attnlab::testing
