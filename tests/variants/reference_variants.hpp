// The next lessons' variants, deliberately naive: double precision and plain index loops straight
// from the formulas, sharing nothing with core/ but the inputs. Covers grouped K/V heads (query
// head i reads K/V head i / g), cross-attention (K, V from x_kv), and multi-head latent attention
// (K, V from the latent c_kv; queries optionally from c_q; a rotary part shared by the heads), and
// Llama's RoPE on every head's q and k.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "reference_mha.hpp"

namespace attnlab::testing {

struct VariantReference {
  std::vector<double> weights;  // (B, h, T, T_k)
  std::vector<double> out;      // (B, T, d_out)
};

// row (width) = src[b, t, :] (src (B, n, d_in)) @ w (d_in, width) [+ bias]
inline std::vector<double> naive_row(const Tensor& src, int64_t b, int64_t t, const Tensor& w,
                                     const Tensor& bias = Tensor()) {
  const int64_t d_in = w.size(0), width = w.size(1);
  std::vector<double> row(size_t(width), 0.0);
  for (int64_t o = 0; o < width; ++o) {
    double sum = bias.storage() ? double(bias.at({o})) : 0.0;
    for (int64_t i = 0; i < d_in; ++i) sum += double(src.at({b, t, i})) * double(w.at({i, o}));
    row[size_t(o)] = sum;
  }
  return row;
}

// The same from a row of doubles (a latent).
inline std::vector<double> naive_row(const std::vector<double>& src, const Tensor& w) {
  std::vector<double> row(size_t(w.size(1)), 0.0);
  for (int64_t o = 0; o < w.size(1); ++o)
    for (int64_t i = 0; i < w.size(0); ++i) row[size_t(o)] += src[size_t(i)] * double(w.at({i, o}));
  return row;
}

// RoPE at position t: pair (2p, 2p+1) of every d_rope-wide chunk turned by t * 10000^(-2p/d_rope).
inline void naive_rope(std::vector<double>& row, int64_t d_rope, int64_t t) {
  for (size_t chunk = 0; chunk < row.size(); chunk += size_t(d_rope))
    for (int64_t p = 0; 2 * p < d_rope; ++p) {
      const double angle = double(t) * std::pow(10000.0, -2.0 * double(p) / double(d_rope));
      double& a = row[chunk + size_t(2 * p)];
      double& b = row[chunk + size_t(2 * p + 1)];
      const double x = a, y = b;
      a = x * std::cos(angle) - y * std::sin(angle);
      b = x * std::sin(angle) + y * std::cos(angle);
    }
}

// Llama's RoPE at position t: in every d-wide chunk (one per head) pair (i, i + d/2) turned by
// t * inv_freq[i], as transformers' x * cos + rotate_half(x) * sin writes it.
inline void naive_rotate_half(std::vector<double>& row, int64_t d, int64_t t,
                              const std::vector<double>& inv_freq) {
  for (size_t chunk = 0; chunk < row.size(); chunk += size_t(d))
    for (int64_t i = 0; i < d / 2; ++i) {
      const double angle = double(t) * inv_freq[size_t(i)];
      double& a = row[chunk + size_t(i)];
      double& b = row[chunk + size_t(i + d / 2)];
      const double x = a, y = b;
      a = x * std::cos(angle) - y * std::sin(angle);
      b = y * std::cos(angle) + x * std::sin(angle);
    }
}

// The inverse frequencies the inputs hold (given, or theta^(-2i/d_k) as complete_inputs made them).
inline std::vector<double> inverse_frequencies(const Inputs& in) {
  std::vector<double> f;
  for (int64_t i = 0; in.rope_inv_freq.storage() && i < in.rope_inv_freq.size(0); ++i)
    f.push_back(double(in.rope_inv_freq.at({i})));
  return f;
}

// x, x_kv (cross only) and the weights as complete_inputs() made them; no dropout. With
// rope_theta, q and k turned by Llama's RoPE (positions first_position + t).
inline VariantReference reference_variant(const Config& c, const Inputs& in,
                                          int64_t first_position = 0) {
  const int64_t B = c.batch, T = c.tokens(), Tk = c.key_tokens(), h = c.n_heads;
  const int64_t g = c.group_size(), dk = c.head_dim_k(), dv = c.head_dim_v(), dout = c.out_dim();
  const int64_t dr = c.latent() ? c.rope_dim : 0;
  const Tensor& kv_source = c.cross() ? in.x_kv : in.x;
  const std::vector<double> inv_freq = inverse_frequencies(in);
  VariantReference r;
  r.weights.assign(size_t(B * h * T * Tk), 0.0);
  r.out.assign(size_t(B * T * dout), 0.0);
  for (int64_t b = 0; b < B; ++b) {
    // Per token: Q (h*d_k), its rotary part (h*d_rope); per key: K, V (n_kv*d), rotary key.
    using Rows = std::vector<std::vector<double>>;
    Rows q(static_cast<size_t>(T)), q_rope(static_cast<size_t>(T));
    Rows k(static_cast<size_t>(Tk)), v(static_cast<size_t>(Tk)), k_rope(static_cast<size_t>(Tk));
    for (int64_t t = 0; t < T; ++t) {
      if (c.q_latent > 0) {
        const std::vector<double> c_q = naive_row(in.x, b, t, in.w_dq);
        q[size_t(t)] = naive_row(c_q, in.w_q);
        if (dr > 0) q_rope[size_t(t)] = naive_row(c_q, in.w_qr);
      } else {
        q[size_t(t)] = naive_row(in.x, b, t, in.w_q, in.b_q);
        if (dr > 0) q_rope[size_t(t)] = naive_row(in.x, b, t, in.w_qr);
      }
      if (dr > 0) naive_rope(q_rope[size_t(t)], dr, t);
      if (c.rotary()) naive_rotate_half(q[size_t(t)], dk, first_position + t, inv_freq);
    }
    for (int64_t j = 0; j < Tk; ++j) {
      if (c.latent()) {
        const std::vector<double> c_kv = naive_row(in.x, b, j, in.w_dkv);
        k[size_t(j)] = naive_row(c_kv, in.w_k);
        v[size_t(j)] = naive_row(c_kv, in.w_v);
        if (dr > 0) {
          k_rope[size_t(j)] = naive_row(in.x, b, j, in.w_kr);
          naive_rope(k_rope[size_t(j)], dr, j);
        }
      } else {
        k[size_t(j)] = naive_row(kv_source, b, j, in.w_k, in.b_k);
        v[size_t(j)] = naive_row(kv_source, b, j, in.w_v, in.b_v);
        if (c.rotary()) naive_rotate_half(k[size_t(j)], dk, first_position + j, inv_freq);
      }
    }
    std::vector<double> concat(size_t(T * h * dv), 0.0);
    for (int64_t hd = 0; hd < h; ++hd) {
      const int64_t kv = hd / g;  // the K/V head this query head reads
      for (int64_t i = 0; i < T; ++i) {
        std::vector<double> logits(size_t(Tk), -std::numeric_limits<double>::infinity());
        double top = -std::numeric_limits<double>::infinity();
        for (int64_t j = 0; j < Tk; ++j) {
          if (!reference_visible(c.mask, b, i, j)) continue;
          double dot = 0;
          for (int64_t e = 0; e < dk; ++e)
            dot += q[size_t(i)][size_t(hd * dk + e)] * k[size_t(j)][size_t(kv * dk + e)];
          for (int64_t e = 0; e < dr; ++e)
            dot += q_rope[size_t(i)][size_t(hd * dr + e)] * k_rope[size_t(j)][size_t(e)];
          logits[size_t(j)] = dot / std::sqrt(double(dk + dr));
          top = std::max(top, logits[size_t(j)]);
        }
        double total = 0;
        for (double logit : logits)
          if (std::isfinite(logit)) total += std::exp(logit - top);
        for (int64_t j = 0; j < Tk; ++j) {
          if (!std::isfinite(logits[size_t(j)])) continue;
          const double w = std::exp(logits[size_t(j)] - top) / total;
          r.weights[size_t(((b * h + hd) * T + i) * Tk + j)] = w;
          for (int64_t e = 0; e < dv; ++e)
            concat[size_t(i * h * dv + hd * dv + e)] += w * v[size_t(j)][size_t(kv * dv + e)];
        }
      }
    }
    for (int64_t t = 0; t < T; ++t)
      for (int64_t o = 0; o < dout; ++o) {
        double sum = 0;
        if (!c.output_proj) {
          sum = concat[size_t(t * dout + o)];
        } else {
          sum = in.b_o.storage() ? double(in.b_o.at({o})) : 0.0;
          for (int64_t e = 0; e < h * dv; ++e)
            sum += concat[size_t(t * h * dv + e)] * double(in.w_o.at({e, o}));
        }
        r.out[size_t((b * T + t) * dout + o)] = sum;
      }
  }
  return r;
}

}  // namespace attnlab::testing
