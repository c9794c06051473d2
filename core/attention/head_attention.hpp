// One head's attention, the shared kernel: scores, scale, bias, mask, softmax, dropout, @ V (and a
// switched-off head's zero context). forward(), KV-cache decoding, MLA's absorbed form and the
// pretrained models' forward call attend_head() once per (sequence, head); FlashAttention calls
// its score step, score_block(), tile by tile. What it does is decided once, in
// attention_choices(), from the run's plan: no caller decides again. The paths that compute
// attention on their own, on purpose (the traced run's recorded sub-steps, the per-head loop that
// checks it, the trainer's backward pass, the grader's simulated students), are listed with why in
// docs/architecture.md.
//
// One head of one sequence is read through strides, so no caller copies a head out:
//   q (T, d_k), k (T_k, d_k), v (T_k, d_v), out (T, d_v), rows `*_stride` elements apart (a head's
//   slice of (B, T, h*d) has stride h*d); bias (T, T_k) and visible (T, T_k) the same way (or
//   ALiBi's bias from its slope, computed block by block).
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <vector>

#include "core/position/rope_alibi.hpp"
#include "core/tensor/tensor.hpp"

namespace attnlab {

struct Config;
struct Plan;

// [SECTION] the choices, from the plan

// What every head's attention does in a run. Only the correct path's choices: the mistakes the
// traced run simulates stay in its batched sub-steps (core/trace/mha.cpp), which read the same
// plan; a path that cannot simulate them refuses such a config before computing.
struct AttentionChoices {
  double scale = 1;             // scores * scale: 1/sqrt(d_k) (d_k + d_rope with MLA); 1 unscaled
  bool bias = false;            // + the head's (T, T_k) bias map after the scale (ALiBi)
  bool mask = false;            // keys whose visibility is 0 get -inf before the softmax
  double dropout = 0;           // p of inverted dropout on the weights; 0 = none
  uint64_t dropout_seed = 0;    // uniform_at(seed, flat index in (B, h, T, T_k))
  std::vector<bool> heads_off;  // heads_off[hd]: head hd's context is 0 (ablation)

  bool head_off(int64_t head) const {
    return head >= 0 && head < int64_t(heads_off.size()) && heads_off[size_t(head)];
  }
};

// The plan's choices: its scale (or none), ALiBi, mask before the softmax, dropout on the weights
// and ablated heads.
AttentionChoices attention_choices(const Plan& plan);
// The same for plan_for(config).
AttentionChoices attention_choices(const Config& config);

// [SECTION] one head's operands

template <typename S>
struct HeadOperands {
  const S* q;
  int64_t q_stride;
  const S* k;
  int64_t k_stride;
  const S* v;
  int64_t v_stride;
  S* out;
  int64_t out_stride;
  int64_t T, Tk, dk, dv;
  int64_t batch_index = 0;  // b: which padding length (FlashAttention's masks) applies
  int64_t head = 0;         // hd: whether the choices switch it off
  // (T, T_k) added to the scaled scores when the choices have a bias (ALiBi's -m_h |t - s|, or any
  // map). Without a map, ALiBi's bias is computed inside each block from the head's slope m_h
  // (FlashAttention-2's alibi_slopes), so a tiled run holds no (T, T_k) matrix.
  const S* bias = nullptr;
  int64_t bias_stride = 0;
  double alibi_slope = 0;
  // (T, T_k) 1 = visible, when the choices mask (FlashAttention reads the MaskSpec instead).
  const uint8_t* visible = nullptr;
  int64_t visible_stride = 0;
  int64_t dropout_index = 0;  // flat index of weight (0, 0) in its (B, h, T, T_k); row i: + i*T_k
  // Optional outputs: the scaled, biased, masked scores and the softmax weights, before dropout.
  S* scores = nullptr;
  int64_t scores_stride = 0;
  S* weights = nullptr;
  int64_t weights_stride = 0;
};

template <typename S>
using RowMajorMatrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// [SECTION] the score step, shared with FlashAttention's tiles

// s (rows, cols) = Q[i0 : i0 + rows] K[j0 : j0 + cols]^T * scale, + the same block of the bias map
// when the choices have one: the scores of one block of the (T, T_k) map (the whole map, or a
// tile).
template <typename S>
void score_block(const HeadOperands<S>& op, const AttentionChoices& choices, int64_t i0,
                 int64_t rows, int64_t j0, int64_t cols, RowMajorMatrix<S>& s) {
  using Strided = Eigen::Map<const RowMajorMatrix<S>, 0, Eigen::OuterStride<>>;
  const Strided Q(op.q + i0 * op.q_stride, rows, op.dk, Eigen::OuterStride<>(op.q_stride));
  const Strided K(op.k + j0 * op.k_stride, cols, op.dk, Eigen::OuterStride<>(op.k_stride));
  s.noalias() = (Q * K.transpose()) * static_cast<S>(choices.scale);  // (rows, cols)
  if (choices.bias)  // ALiBi's one adder: the map's block, or -m_h |t - s| from the slope
    add_alibi(s.data(), s.data(), cols, rows, cols, i0, j0, op.bias, op.bias_stride,
              op.alibi_slope);
}

// [SECTION] the whole head

// Scratch one thread reuses from head to head.
struct HeadScratch {
  RowMajorMatrix<Scalar> scores;  // (T, T_k)
};

// One head: out = dropout(softmax(mask(q k^T * scale + bias))) @ v, rows with no visible key 0, a
// switched-off head's out 0 (its scores and weights still written when asked for).
void attend_head(const HeadOperands<Scalar>& op, const AttentionChoices& choices,
                 HeadScratch& scratch);

}  // namespace attnlab
