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

// Softmax of every row of m in place, vectorised (Eigen's exp). Masked scores are -inf on entry;
// exp clamps them to a denormal, so the caller zeroes them afterwards (zero_masked).
template <typename S>
void softmax_rows(Matrix<S>& m) {
  auto a = m.array();
  const Eigen::Array<S, Eigen::Dynamic, 1> max = a.rowwise().maxCoeff();
  a.colwise() -= max;
  a = a.exp();
  const Eigen::Array<S, Eigen::Dynamic, 1> sum = a.rowwise().sum();
  a.colwise() /= sum;
}

// Sets the keys j > i of every (T, T) block of `weights` (B*h*T, T) to `value`.
template <typename S>
void fill_future(Matrix<S>& weights, int64_t T, S value) {
  for (int64_t r = 0; r < weights.rows(); ++r) {
    S* row = weights.row(r).data();
    for (int64_t j = r % T + 1; j < T; ++j) row[j] = value;
  }
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
  Matrix<S>& z = cache.z_out;  // the running residual stream
  z.resize(N, D);
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
        c.weights.block((b * h + hd) * T, 0, T, T).noalias() = (Q * K.transpose()) * scale;
      }
    }
    // scale + mask + softmax over the keys, all heads at once: (B*h*T, T)
    if (s.causal) fill_future(c.weights, T, minus_inf);
    softmax_rows(c.weights);
    if (s.causal) fill_future(c.weights, T, S(0));
    for (int64_t b = 0; b < B; ++b) {
      for (int64_t hd = 0; hd < h; ++hd) {
        const auto A = c.weights.block((b * h + hd) * T, 0, T, T);  // (T, T)
        const auto V = c.v.block(b * T, hd * dk, T, dk);
        c.concat.block(b * T, hd * dk, T, dk).noalias() = A * V;  // (T, T) @ (T, d_k)
      }
    }
    affine(c.concat, p[w.w_o], bias_or_null(p, w.b_o), c.attention);  // (B*T, D)
    c.z_mid = c.z_in + c.attention;
    if (s.mlp) {
      affine(c.z_mid, p[w.mlp_w1], &p[w.mlp_b1], c.mlp_hidden);  // (B*T, 4D)
      c.mlp_hidden = c.mlp_hidden.cwiseMax(S(0));
      Matrix<S>& out = cache.scratch.mlp_out;
      affine(c.mlp_hidden, p[w.mlp_w2], &p[w.mlp_b2], out);  // (B*T, D)
      z = c.z_mid + out;
    } else {
      z = c.z_mid;
    }
  }

  LossReport report;
  const size_t outputs = at.unembed.size();
  cache.probs.resize(outputs);
  for (size_t j = 0; j < outputs; ++j) {
    Matrix<S>& probs = cache.probs[j];
    affine(z, p[at.unembed[j]], &p[at.unembed_bias[j]], probs);  // logits (B*T, V_j)
    softmax_rows(probs);
    double loss = 0;
    int64_t counted = 0, correct = 0;
    for (int64_t n = 0; n < N; ++n) {
      const S* row = probs.row(n).data();
      int64_t best = 0;  // the argmax of the probabilities is the logits'
      for (int64_t v = 1; v < probs.cols(); ++v)
        if (row[v] > row[best]) best = v;
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
              ForwardCache<S>& cache, Parameters<S>& g) {
  use_single_threaded_blas();
  const ParameterLayout& at = p.layout;
  const int64_t B = batch.batch, T = batch.seq_len, N = B * T, D = s.d_model, h = s.heads;
  const int64_t dk = s.head_dim();
  const S scale = S(1.0 / std::sqrt(double(dk)));

  // Output heads: dlogits = (softmax - onehot) / count on targeted rows, 0 elsewhere.
  typename ForwardCache<S>::Scratch& x = cache.scratch;
  Matrix<S>& dz = x.dz;  // (B*T, D)
  dz.setZero(N, D);
  for (size_t j = 0; j < at.unembed.size(); ++j) {
    const std::vector<int64_t>& target = batch.targets[j];
    int64_t counted = 0;
    for (int64_t t : target) counted += t >= 0;
    Matrix<S>& dlogits = x.dlogits;
    dlogits = cache.probs[j];  // (B*T, V_j)
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

  Matrix<S>&dq = x.dq, &dk_ = x.dk, &dv = x.dv, &dA = x.dA, &dS = x.dS;
  dq.resize(N, h * dk);
  dk_.resize(N, h * dk);
  dv.resize(N, h * dk);
  dA.resize(T, T);
  dS.resize(T, T);
  for (int64_t l = s.layers - 1; l >= 0; --l) {
    const LayerSlots& w = at.layers[size_t(l)];
    const LayerCache<S>& c = cache.layers[size_t(l)];
    if (s.mlp) {
      // z = z_mid + hidden W2 + b2, hidden = relu(z_mid W1 + b1)
      affine_grads(c.mlp_hidden, dz, g, w.mlp_w2, w.mlp_b2);
      Matrix<S>& dhidden = x.dhidden;
      dhidden.noalias() = dz * p[w.mlp_w2].transpose();  // (B*T, 4D)
      dhidden.array() *= (c.mlp_hidden.array() > S(0)).template cast<S>();
      affine_grads(c.z_mid, dhidden, g, w.mlp_w1, w.mlp_b1);
      dz.noalias() += dhidden * p[w.mlp_w1].transpose();  // dz is now d z_mid
    }
    // z_mid = z_in + concat W_o + b_o
    affine_grads(c.concat, dz, g, w.w_o, w.b_o);
    Matrix<S>& dconcat = x.dconcat;
    dconcat.noalias() = dz * p[w.w_o].transpose();  // (B*T, h*d_k)
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
                              ForwardCache<float>&, Parameters<float>&);
template void backward<double>(const ModelShape&, const Parameters<double>&, const Batch&,
                               ForwardCache<double>&, Parameters<double>&);

}  // namespace attnlab::training
