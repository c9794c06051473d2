#include "core/attention/head_attention.hpp"

#include <cmath>

#include "core/kernels/attention_math.hpp"
#include "core/trace/plan.hpp"

namespace attnlab {

AttentionChoices attention_choices(const Plan& p) {
  const Config& c = p.config;
  AttentionChoices choices;
  choices.scale = p.scale ? 1.0 / std::sqrt(double(p.scale_by)) : 1.0;
  choices.bias = p.alibi;
  choices.mask = p.mask_before_softmax;
  choices.dropout = p.drop_weights ? c.dropout : 0.0;
  choices.dropout_seed = c.dropout_seed;
  choices.heads_off.assign(size_t(std::max<int64_t>(c.n_heads, 0)), false);
  for (int64_t hd : p.ablated) choices.heads_off[size_t(hd)] = true;
  return choices;
}

AttentionChoices attention_choices(const Config& config) {
  return attention_choices(plan_for(config));
}

void attend_head(const HeadOperands<Scalar>& op, const AttentionChoices& choices,
                 HeadScratch& scratch) {
  using StridedOut = Eigen::Map<RowMajorMatrix<Scalar>, 0, Eigen::OuterStride<>>;
  using Strided = Eigen::Map<const RowMajorMatrix<Scalar>, 0, Eigen::OuterStride<>>;
  StridedOut out(op.out, op.T, op.dv, Eigen::OuterStride<>(op.out_stride));  // (T, d_v)
  const bool off = choices.head_off(op.head);
  if (off && !op.scores && !op.weights) {  // nothing of it is asked for
    out.setZero();
    return;
  }
  constexpr Scalar kMinusInf = -std::numeric_limits<Scalar>::infinity();
  RowMajorMatrix<Scalar>& s = scratch.scores;
  s.resize(op.T, op.Tk);
  score_block(op, choices, 0, op.T, 0, op.Tk, s);  // (T, T_k): q k^T * scale (+ bias)
  for (int64_t i = 0; i < op.T; ++i) {
    Scalar* row = s.row(i).data();
    if (choices.mask) {
      const uint8_t* seen = op.visible + i * op.visible_stride;
      for (int64_t j = 0; j < op.Tk; ++j)
        if (!seen[j]) row[j] = kMinusInf;
    }
    if (op.scores) std::copy_n(row, op.Tk, op.scores + i * op.scores_stride);
    masked_softmax_row(row, op.Tk);
    if (op.weights) std::copy_n(row, op.Tk, op.weights + i * op.weights_stride);
    if (choices.dropout > 0)
      dropout_row(row, op.Tk, choices.dropout, choices.dropout_seed, op.dropout_index + i * op.Tk);
  }
  if (off) {
    out.setZero();
    return;
  }
  const Strided V(op.v, op.Tk, op.dv, Eigen::OuterStride<>(op.v_stride));
  out.noalias() = s * V;  // (T, T_k) @ (T_k, d_v)
}

}  // namespace attnlab
