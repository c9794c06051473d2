#include "core/training/model.hpp"

#include <cassert>
#include <cmath>
#include <limits>

#include "core/kernels/blas_threads.hpp"

namespace attnlab::training {

namespace {

// y = x W (+ b): b is a (1, n) row or an empty matrix.
template <typename S>
void affine(const Matrix<S>& x, const Matrix<S>& w, const Matrix<S>* b, Matrix<S>& y) {
  y.noalias() = x * w;
  if (b) y.rowwise() += b->row(0);
}

// The core's masked softmax (core/kernels/attention_math.cpp) in S: -inf keys get weight 0.
template <typename S>
void softmax_row(S* row, int64_t n) {
  S max = -std::numeric_limits<S>::infinity();
  for (int64_t j = 0; j < n; ++j) max = std::max(max, row[j]);
  S sum = 0;
  for (int64_t j = 0; j < n; ++j) {
    row[j] = row[j] == -std::numeric_limits<S>::infinity() ? S(0) : std::exp(row[j] - max);
    sum += row[j];
  }
  for (int64_t j = 0; j < n; ++j) row[j] /= sum;
}

// Accumulates dL/dW = x^T dy and dL/db = colsum(dy) of y = x W + b.
template <typename S>
void affine_grads(const Matrix<S>& x, const Matrix<S>& dy, Parameters<S>& g, int w, int b) {
  g[w].noalias() = x.transpose() * dy;    // (in, out) = (in, N) (N, out)
  if (b >= 0) g[b] = dy.colwise().sum();  // (1, out)
}

template <typename S>
const Matrix<S>* bias_or_null(const Parameters<S>& p, int slot) {
  return slot >= 0 ? &p[slot] : nullptr;
}

}  // namespace

template <typename S>
LossReport forward_loss(const ModelShape& s, const Parameters<S>& p, const Batch& batch,
                        ForwardCache<S>& cache) {
  use_single_threaded_blas();
  const ParameterLayout& at = p.layout;
  const int64_t B = batch.batch, T = batch.seq_len, N = B * T, D = s.d_model, h = s.heads;
  const int64_t dk = s.head_dim();
  assert(T == s.seq_len && int64_t(batch.tokens.size()) == N);
  const S scale = S(1.0 / std::sqrt(double(dk)));
  const S minus_inf = -std::numeric_limits<S>::infinity();

  // x0 = E[tokens] + P: (B*T, D)
  Matrix<S> z(N, D);
  for (int64_t n = 0; n < N; ++n)
    z.row(n) = p[at.tok_emb].row(batch.tokens[size_t(n)]) + p[at.pos_emb].row(n % T);

  cache.layers.resize(size_t(s.layers));
  for (int64_t l = 0; l < s.layers; ++l) {
    const LayerSlots& w = at.layers[size_t(l)];
    LayerCache<S>& c = cache.layers[size_t(l)];
    c.z_in = z;
    affine(c.z_in, p[w.w_q], bias_or_null(p, w.b_q), c.q);  // (B*T, h*d_k)
    affine(c.z_in, p[w.w_k], bias_or_null(p, w.b_k), c.k);
    affine(c.z_in, p[w.w_v], bias_or_null(p, w.b_v), c.v);
    c.weights.resize(B * h * T, T);
    c.concat.resize(N, h * dk);
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t hd = 0; hd < h; ++hd) {
        // Head hd of sequence b: (T, d_k) blocks, as q.view(B, T, h, d_k).transpose(1, 2) reads.
        auto Q = c.q.block(b * T, hd * dk, T, dk);
        auto K = c.k.block(b * T, hd * dk, T, dk);
        auto V = c.v.block(b * T, hd * dk, T, dk);
        auto A = c.weights.block((b * h + hd) * T, 0, T, T);  // (T, T)
        A.noalias() = (Q * K.transpose()) * scale;
        for (int64_t i = 0; i < T; ++i) {
          if (s.causal)
            for (int64_t j = i + 1; j < T; ++j) A(i, j) = minus_inf;
          softmax_row(&A(i, 0), T);
        }
        c.concat.block(b * T, hd * dk, T, dk).noalias() = A * V;  // (T, T) @ (T, d_k)
      }
    }
    affine(c.concat, p[w.w_o], bias_or_null(p, w.b_o), c.attention);  // (B*T, D)
    c.z_mid = c.z_in + c.attention;
    if (s.mlp) {
      affine(c.z_mid, p[w.mlp_w1], &p[w.mlp_b1], c.mlp_hidden);  // (B*T, 4D)
      c.mlp_hidden = c.mlp_hidden.cwiseMax(S(0));
      Matrix<S> out;
      affine(c.mlp_hidden, p[w.mlp_w2], &p[w.mlp_b2], out);  // (B*T, D)
      z = c.z_mid + out;
    } else {
      z = c.z_mid;
    }
  }
  cache.z_out = z;

  LossReport report;
  const size_t outputs = at.unembed.size();
  cache.probs.resize(outputs);
  for (size_t j = 0; j < outputs; ++j) {
    Matrix<S>& probs = cache.probs[j];
    affine(z, p[at.unembed[j]], &p[at.unembed_bias[j]], probs);  // logits (B*T, V_j)
    double loss = 0;
    int64_t counted = 0, correct = 0;
    for (int64_t n = 0; n < N; ++n) {
      S* row = probs.row(n).data();
      const int64_t cols = probs.cols();
      int64_t best = 0;
      for (int64_t v = 1; v < cols; ++v)
        if (row[v] > row[best]) best = v;
      softmax_row(row, cols);
      const int64_t target = batch.targets[j][size_t(n)];
      if (target < 0) continue;
      loss -= std::log(double(std::max(row[target], std::numeric_limits<S>::min())));
      ++counted;
      correct += best == target;
    }
    report.output_loss.push_back(counted ? loss / double(counted) : 0.0);
    report.accuracy.push_back(counted ? double(correct) / double(counted) : 1.0);
    report.loss += report.output_loss.back();
  }
  return report;
}

template <typename S>
void backward(const ModelShape& s, const Parameters<S>& p, const Batch& batch,
              const ForwardCache<S>& cache, Parameters<S>& g) {
  use_single_threaded_blas();
  const ParameterLayout& at = p.layout;
  const int64_t B = batch.batch, T = batch.seq_len, N = B * T, D = s.d_model, h = s.heads;
  const int64_t dk = s.head_dim();
  const S scale = S(1.0 / std::sqrt(double(dk)));

  // Output heads: dlogits = (softmax - onehot) / count on targeted rows, 0 elsewhere.
  Matrix<S> dz = Matrix<S>::Zero(N, D);  // (B*T, D)
  for (size_t j = 0; j < at.unembed.size(); ++j) {
    const std::vector<int64_t>& target = batch.targets[j];
    int64_t counted = 0;
    for (int64_t t : target) counted += t >= 0;
    Matrix<S> dlogits = cache.probs[j];  // (B*T, V_j)
    for (int64_t n = 0; n < N; ++n) {
      if (target[size_t(n)] < 0) {
        dlogits.row(n).setZero();
      } else {
        dlogits(n, target[size_t(n)]) -= S(1);
        dlogits.row(n) /= S(counted);
      }
    }
    affine_grads(cache.z_out, dlogits, g, at.unembed[j], at.unembed_bias[j]);
    dz.noalias() += dlogits * p[at.unembed[j]].transpose();  // (B*T, V_j) (V_j, D)
  }

  Matrix<S> dq(N, h * dk), dk_(N, h * dk), dv(N, h * dk), dA(T, T), dS(T, T);
  for (int64_t l = s.layers - 1; l >= 0; --l) {
    const LayerSlots& w = at.layers[size_t(l)];
    const LayerCache<S>& c = cache.layers[size_t(l)];
    if (s.mlp) {
      // z = z_mid + hidden W2 + b2, hidden = relu(z_mid W1 + b1)
      affine_grads(c.mlp_hidden, dz, g, w.mlp_w2, w.mlp_b2);
      Matrix<S> dhidden = dz * p[w.mlp_w2].transpose();  // (B*T, 4D)
      dhidden = dhidden.cwiseProduct((c.mlp_hidden.array() > S(0)).matrix().template cast<S>());
      affine_grads(c.z_mid, dhidden, g, w.mlp_w1, w.mlp_b1);
      dz.noalias() += dhidden * p[w.mlp_w1].transpose();  // dz is now d z_mid
    }
    // z_mid = z_in + concat W_o + b_o
    affine_grads(c.concat, dz, g, w.w_o, w.b_o);
    const Matrix<S> dconcat = dz * p[w.w_o].transpose();  // (B*T, h*d_k)
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t hd = 0; hd < h; ++hd) {
        const auto Q = c.q.block(b * T, hd * dk, T, dk);
        const auto K = c.k.block(b * T, hd * dk, T, dk);
        const auto V = c.v.block(b * T, hd * dk, T, dk);
        const auto A = c.weights.block((b * h + hd) * T, 0, T, T);
        const auto dctx = dconcat.block(b * T, hd * dk, T, dk);
        dA.noalias() = dctx * V.transpose();                               // (T, T)
        dv.block(b * T, hd * dk, T, dk).noalias() = A.transpose() * dctx;  // (T, d_k)
        // softmax backward per row: dS = A * (dA - sum_j A dA); masked keys have A = 0.
        const Eigen::Array<S, Eigen::Dynamic, 1> row_dot = (A.array() * dA.array()).rowwise().sum();
        dS = (A.array() * (dA.array().colwise() - row_dot)).matrix() * scale;
        dq.block(b * T, hd * dk, T, dk).noalias() = dS * K;               // (T, d_k)
        dk_.block(b * T, hd * dk, T, dk).noalias() = dS.transpose() * Q;  // (T, d_k)
      }
    }
    affine_grads(c.z_in, dq, g, w.w_q, w.b_q);
    affine_grads(c.z_in, dk_, g, w.w_k, w.b_k);
    affine_grads(c.z_in, dv, g, w.w_v, w.b_v);
    // The residual passes dz through; the three projections add theirs.
    dz.noalias() += dq * p[w.w_q].transpose();
    dz.noalias() += dk_ * p[w.w_k].transpose();
    dz.noalias() += dv * p[w.w_v].transpose();
  }

  // x0 = E[tokens] + P
  g[at.tok_emb].setZero();
  g[at.pos_emb].setZero();
  for (int64_t n = 0; n < N; ++n) {
    g[at.tok_emb].row(batch.tokens[size_t(n)]) += dz.row(n);
    g[at.pos_emb].row(n % T) += dz.row(n);
  }
}

template LossReport forward_loss<float>(const ModelShape&, const Parameters<float>&, const Batch&,
                                        ForwardCache<float>&);
template LossReport forward_loss<double>(const ModelShape&, const Parameters<double>&, const Batch&,
                                         ForwardCache<double>&);
template void backward<float>(const ModelShape&, const Parameters<float>&, const Batch&,
                              const ForwardCache<float>&, Parameters<float>&);
template void backward<double>(const ModelShape&, const Parameters<double>&, const Batch&,
                               const ForwardCache<double>&, Parameters<double>&);

}  // namespace attnlab::training
