// The per-head loop of seeds 001 and 003: slice each head's columns out of W_q, W_k, W_v,
// attend with plain matrices, concatenate. Written independently of the batched path (no views,
// no trace, no per-head kernel, its own softmax and dropout rows) so that the two can check each
// other; its decisions are the run's plan's (attention_choices), its random numbers the run's
// (uniform_at), and RoPE and ALiBi the one function each (rope_turn through rotate_half_rows,
// add_alibi) that every path calls.
#include "core/model/mha_loop.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/attention/head_attention.hpp"
#include "core/kernels/blas_threads.hpp"
#include "core/kernels/rng.hpp"
#include "core/model/errors.hpp"
#include "core/model/masks.hpp"
#include "core/model/tokenizer.hpp"
#include "core/position/rope_alibi.hpp"
#include "core/trace/plan.hpp"
#include "core/variants/rotary.hpp"

namespace attnlab {

namespace {

using Matrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Vector = Eigen::Matrix<Scalar, 1, Eigen::Dynamic>;

Matrix to_matrix(const Tensor& t, int64_t rows, int64_t cols) {
  return Eigen::Map<const Matrix>(t.data(), rows, cols);
}

// The loop's own row functions, written apart from the kernels' (core/kernels/attention_math),
// which the per-head kernel and the traced run share: a check that shares no code with what it
// checks. Softmax over the keys of one row, -inf a masked key, in double; a row with no visible
// key is all zeros.
void softmax_over_keys(Scalar* row, int64_t n) {
  double top = -std::numeric_limits<double>::infinity();
  for (int64_t j = 0; j < n; ++j) top = std::max(top, double(row[j]));
  if (top == -std::numeric_limits<double>::infinity()) {
    std::fill(row, row + n, Scalar(0));
    return;
  }
  double sum = 0;
  std::vector<double> e(static_cast<size_t>(n));
  for (int64_t j = 0; j < n; ++j) sum += e[size_t(j)] = std::exp(double(row[j]) - top);
  for (int64_t j = 0; j < n; ++j) row[j] = Scalar(e[size_t(j)] / sum);
}

// Inverted dropout of one row: weight j of the (B, h, T, T_k) map, flat index first + j, is
// dropped when uniform_at(seed, first + j) < p (the run's random numbers, so the same weights
// drop), the others divided by 1 - p.
void drop_weights(Scalar* row, int64_t n, double p, uint64_t seed, int64_t first) {
  for (int64_t j = 0; j < n; ++j)
    row[j] = uniform_at(seed, first + j) < p ? Scalar(0) : Scalar(double(row[j]) / (1.0 - p));
}

}  // namespace

LoopResult run_loop(const Config& c, const Inputs& given, const RunControl& control) {
  use_single_threaded_blas();
  const std::vector<ConfigIssue> issues = validate(c);
  if (!issues.empty()) throw UserError(describe(issues));
  if (c.mistake != Mistake::None)
    throw UserError("the per-head loop computes the correct path only: set the mistake to none");
  if (c.latent())
    throw UserError(
        "the per-head loop computes multi-head, grouped-query and cross-attention; "
        "latent attention (MLA) is computed by the traced run");
  const int64_t B = c.batch, T = c.tokens(), d_in = c.input_dim(), h = c.n_heads;
  const int64_t dk = c.head_dim_k(), dv = c.head_dim_v(), d_out = c.out_dim();
  // Keys and values: n_kv heads (head hd uses hd / g), T_k tokens of x_kv with cross-attention.
  const int64_t Tk = c.key_tokens(), hk = c.kv_heads(), g = c.group_size();
  const int64_t d_kv = c.kv_input_dim();
  const Inputs in =
      complete_inputs(c, tokens_for(c.sentence, T), given, tokens_for(c.sentence_kv, Tk));
  const Tensor& x_kv = c.cross() ? in.x_kv : in.x;
  const Matrix W_q = to_matrix(in.w_q, d_in, h * dk);
  const Matrix W_k = to_matrix(in.w_k, d_kv, hk * dk);
  const Matrix W_v = to_matrix(in.w_v, d_kv, hk * dv);
  // What runs is the plan's (RoPE), and each head's scale, bias, mask, dropout and switch are the
  // choices it makes for every path: decided there, computed here with plain matrices.
  const Plan plan = plan_for(c);
  const AttentionChoices choices = attention_choices(plan);
  const Scalar minus_inf = -std::numeric_limits<Scalar>::infinity();

  LoopResult result;
  result.out = Tensor::zeros("out", {B, T, d_out});
  Matrix concat(B * T, h * dv);  // row b*T + t: [head 0 | head 1 | ... | head h-1]
  for (int64_t hd = 0; hd < h; ++hd) {
    Tensor head_weights = Tensor::zeros("weights_head" + std::to_string(hd), {B, T, Tk});
    Tensor head_context = Tensor::zeros("context_head" + std::to_string(hd), {B, T, dv});
    // This head's projection matrices: columns [hd*d, (hd+1)*d) of the full ones (its K/V head's).
    const int64_t kv = hd / g;
    const Matrix Wq_h = W_q.middleCols(hd * dk, dk);  // (d_in, d_k)
    const Matrix Wk_h = W_k.middleCols(kv * dk, dk);  // (d_in_kv, d_k)
    const Matrix Wv_h = W_v.middleCols(kv * dv, dv);  // (d_in_kv, d_v)
    for (int64_t b = 0; b < B; ++b) {
      control.check_cancel();
      const Matrix X = Eigen::Map<const Matrix>(in.x.data() + b * T * d_in, T, d_in);
      const Matrix X_kv = Eigen::Map<const Matrix>(x_kv.data() + b * Tk * d_kv, Tk, d_kv);
      Matrix Q = X * Wq_h;     // (T, d_k)
      Matrix K = X_kv * Wk_h;  // (T_k, d_k)
      Matrix V = X_kv * Wv_h;  // (T_k, d_v)
      if (c.bias) {
        Q.rowwise() += Eigen::Map<const Vector>(in.b_q.data() + hd * dk, dk);
        K.rowwise() += Eigen::Map<const Vector>(in.b_k.data() + kv * dk, dk);
        V.rowwise() += Eigen::Map<const Vector>(in.b_v.data() + kv * dv, dv);
      }
      if (plan.rotate) {  // Llama's RoPE: Q and K turned by their tokens' positions
        rotate_half_rows(Q.data(), T, T, dk, dk, in.rope_inv_freq.data());
        rotate_half_rows(K.data(), Tk, Tk, dk, dk, in.rope_inv_freq.data());
      }
      Matrix A = (Q * K.transpose()) * static_cast<Scalar>(choices.scale);  // (T, T_k)
      if (choices.bias)  // ALiBi: + this head's (T, T_k) distance bias, -m_h |t - s|
        add_alibi(A.data(), A.data(), Tk, T, Tk, 0, 0, in.alibi_bias.data() + hd * T * Tk, Tk, 0.0);
      for (int64_t i = 0; i < T; ++i) {
        for (int64_t j = 0; j < Tk && choices.mask; ++j)
          if (!key_visible(c.mask, b, i, j)) A(i, j) = minus_inf;
        softmax_over_keys(A.row(i).data(), Tk);
        if (choices.dropout > 0)
          drop_weights(A.row(i).data(), Tk, choices.dropout, choices.dropout_seed,
                       ((b * h + hd) * T + i) * Tk);
      }
      // (T, d_v); a switched-off head's context is 0 (its weights are still shown)
      const Matrix C = choices.head_off(hd) ? Matrix::Zero(T, dv) : Matrix(A * V);
      Eigen::Map<Matrix>(head_weights.data() + b * T * Tk, T, Tk) = A;
      Eigen::Map<Matrix>(head_context.data() + b * T * dv, T, dv) = C;
      concat.block(b * T, hd * dv, T, dv) = C;
    }
    result.weights.push_back(head_weights);
    result.context.push_back(head_context);
    control.report(double(hd + 1) / double(h));
  }
  Eigen::Map<Matrix> out(result.out.data(), B * T, d_out);
  if (c.output_proj) {
    out = concat * to_matrix(in.w_o, h * dv, d_out);
    if (c.bias) out.rowwise() += Eigen::Map<const Vector>(in.b_o.data(), d_out);
  } else {
    out = concat;
  }
  return result;
}

}  // namespace attnlab
