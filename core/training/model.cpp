#include "core/training/model.hpp"

#include <cassert>
#include <cmath>
#include <limits>

#include "core/kernels/blas_threads.hpp"
#include "core/kernels/parallel.hpp"
#include "core/training/position_layers.hpp"

namespace attnlab::training {

namespace {

// y = x W (+ b): b is a (1, n) row or an empty matrix.
template <typename S>
void affine(const Matrix<S>& x, const Matrix<S>& w, const Matrix<S>* b, Matrix<S>& y) {
  y.noalias() = x * w;
  if (b) y.rowwise() += b->row(0);
}

// Softmax of every row of m in place, vectorised (Eigen's exp). Masked scores are -inf on entry;
// Eigen's exp clamps them to a denormal, so the caller zeroes them afterwards (fill_future). The
// trainer's own attention, on purpose: it keeps every head's weights (B*h*T, T) in S (float, or
// double for the gradient check) for its hand-written backward pass, which the per-head kernel
// (core/attention: float32, keeps nothing) does not. RoPE and ALiBi are the shared functions
// (core/position/rope_alibi.hpp, through position_layers).
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

// Writes dL/dW = x^T dy and dL/db = colsum(dy) of y = x W + b.
template <typename S>
void affine_grads(const Matrix<S>& x, const Matrix<S>& dy, Parameters<S>& g, int w, int b) {
  g[w].noalias() = x.transpose() * dy;    // (in, out) = (in, N) (N, out)
  if (b >= 0) g[b] = dy.colwise().sum();  // (1, out)
}

// [W_q | W_k | W_v] (D, 3*h*d_k): the three projections as one product.
template <typename S>
void stack_qkv(const Parameters<S>& p, const LayerSlots& w, Matrix<S>& out) {
  const int64_t H = p[w.w_q].cols();
  out.resize(p[w.w_q].rows(), 3 * H);
  out.leftCols(H) = p[w.w_q];
  out.middleCols(H, H) = p[w.w_k];
  out.rightCols(H) = p[w.w_v];
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
  // Any T for the encodings without a table (evaluation on longer sequences); a learned table
  // has T rows.
  assert(int64_t(batch.tokens.size()) == N);
  assert(s.pos != PositionEncoding::Learned || T <= s.seq_len);
  const S scale = S(1.0 / std::sqrt(double(dk)));
  const S minus_inf = -std::numeric_limits<S>::infinity();
  const int64_t H = h * dk;
  const double attention_flops = 2.0 * double(B * h * T * T) * double(2 * dk);

  // x0 = E[tokens] (+ P for sinusoidal and learned): (B*T, D)
  Matrix<S>& z = cache.z_out;  // the running residual stream
  z.resize(N, D);
  for (int64_t n = 0; n < N; ++n) z.row(n) = p[at.tok_emb].row(batch.tokens[size_t(n)]);
  add_positions(s.pos, p, T, z);
  const bool rope = s.pos == PositionEncoding::Rope;
  if (rope) rope_angles(T, dk, cache.scratch.rope);
  const bool alibi = s.pos == PositionEncoding::Alibi;
  if (alibi) alibi_bias_table(T, h, cache.scratch.alibi);

  cache.layers.resize(size_t(s.layers));
  for (int64_t l = 0; l < s.layers; ++l) {
    const LayerSlots& w = at.layers[size_t(l)];
    LayerCache<S>& c = cache.layers[size_t(l)];
    c.z_in = z;
    stack_qkv(p, w, cache.scratch.w_qkv);
    c.qkv.noalias() = c.z_in * cache.scratch.w_qkv;  // (B*T, 3*h*d_k): Q | K | V
    if (s.bias) {
      c.qkv.leftCols(H).rowwise() += p[w.b_q].row(0);
      c.qkv.middleCols(H, H).rowwise() += p[w.b_k].row(0);
      c.qkv.rightCols(H).rowwise() += p[w.b_v].row(0);
    }
    if (rope) rotate_heads(c.qkv, 2 * H, T, dk, cache.scratch.rope, false);  // Q, K turned by t
    c.weights.resize(B * h * T, T);
    c.concat.resize(N, H);
    // One (sequence, head) pair per index; pairs write disjoint blocks, so any split of the loop
    // over threads gives the same bits.
    parallel_for(B * h, attention_flops, [&](int64_t begin, int64_t end) {
      for (int64_t pair = begin; pair < end; ++pair) {
        const int64_t b = pair / h, hd = pair % h;
        // Head hd of sequence b: (T, d_k) blocks, as q.view(B, T, h, d_k).transpose(1, 2) reads.
        const auto Q = c.qkv.block(b * T, hd * dk, T, dk);
        const auto K = c.qkv.block(b * T, H + hd * dk, T, dk);
        c.weights.block(pair * T, 0, T, T).noalias() = (Q * K.transpose()) * scale;  // (T, T)
      }
    });
    // scale (+ ALiBi's bias) + mask + softmax over the keys, all heads at once: (B*h*T, T)
    if (alibi) add_alibi_bias(c.weights, T, h, cache.scratch.alibi);
    if (s.causal) fill_future(c.weights, T, minus_inf);
    softmax_rows(c.weights);
    if (s.causal) fill_future(c.weights, T, S(0));
    parallel_for(B * h, attention_flops, [&](int64_t begin, int64_t end) {
      for (int64_t pair = begin; pair < end; ++pair) {
        const int64_t b = pair / h, hd = pair % h;
        const auto A = c.weights.block(pair * T, 0, T, T);  // (T, T)
        const auto V = c.qkv.block(b * T, 2 * H + hd * dk, T, dk);
        c.concat.block(b * T, hd * dk, T, dk).noalias() = A * V;  // (T, T) @ (T, d_k)
      }
    });
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

  const int64_t H = h * dk;
  const double attention_flops = 2.0 * double(B * h * T * T) * double(4 * dk);
  Matrix<S>& dqkv = x.dqkv;  // (B*T, 3*h*d_k): dQ | dK | dV
  dqkv.resize(N, 3 * H);
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
    parallel_for(B * h, attention_flops, [&](int64_t begin, int64_t end) {
      Matrix<S> dA(T, T), dS(T, T);  // this chunk's scratch
      Eigen::Array<S, Eigen::Dynamic, 1> row_dot(T);
      for (int64_t pair = begin; pair < end; ++pair) {
        const int64_t b = pair / h, hd = pair % h, r = b * T, q0 = hd * dk;
        const auto Q = c.qkv.block(r, q0, T, dk);
        const auto K = c.qkv.block(r, H + q0, T, dk);
        const auto V = c.qkv.block(r, 2 * H + q0, T, dk);
        const auto A = c.weights.block(pair * T, 0, T, T);
        const auto dctx = dconcat.block(r, q0, T, dk);
        dA.noalias() = dctx * V.transpose();                                // (T, T)
        dqkv.block(r, 2 * H + q0, T, dk).noalias() = A.transpose() * dctx;  // dV (T, d_k)
        // softmax backward per row: dS = A * (dA - sum_j A dA); masked keys have A = 0.
        row_dot = (A.array() * dA.array()).rowwise().sum();
        dS = (A.array() * (dA.array().colwise() - row_dot)).matrix() * scale;
        dqkv.block(r, q0, T, dk).noalias() = dS * K;                  // dQ (T, d_k)
        dqkv.block(r, H + q0, T, dk).noalias() = dS.transpose() * Q;  // dK (T, d_k)
      }
    });
    // RoPE: Q and K were turned after the projection; their gradients turn back (R^T).
    if (s.pos == PositionEncoding::Rope) rotate_heads(dqkv, 2 * H, T, dk, x.rope, true);
    // qkv = z_in [W_q | W_k | W_v] + [b_q | b_k | b_v]
    Matrix<S>& dw = x.dw_qkv;
    dw.noalias() = c.z_in.transpose() * dqkv;  // (D, 3*h*d_k)
    g[w.w_q] = dw.leftCols(H);
    g[w.w_k] = dw.middleCols(H, H);
    g[w.w_v] = dw.rightCols(H);
    if (s.bias) {
      const Matrix<S> db = dqkv.colwise().sum();  // (1, 3*h*d_k)
      g[w.b_q] = db.leftCols(H);
      g[w.b_k] = db.middleCols(H, H);
      g[w.b_v] = db.rightCols(H);
    }
    // The residual passes dz through; the projections add theirs.
    stack_qkv(p, w, x.w_qkv);
    dz.noalias() += dqkv * x.w_qkv.transpose();  // (B*T, 3*h*d_k) (3*h*d_k, D)
  }

  // x0 = E[tokens] (+ P)
  g[at.tok_emb].setZero();
  for (int64_t n = 0; n < N; ++n) g[at.tok_emb].row(batch.tokens[size_t(n)]) += dz.row(n);
  position_gradients(s.pos, dz, T, g);
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
