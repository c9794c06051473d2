// The heart of FlashAttention, for one query block of one head: sweep the key blocks, keeping per
// row the running maximum m, the running sum l and an unnormalised output accumulator; each new
// tile rescales them by exp(m_old - m_new). A tile's scores are the per-head kernel's own
// (score_block: scale, and ALiBi's or any bias added inside the tile, as FlashAttention-2 adds it),
// with the choices the run's plan made. A template over the scalar type, so that the float kernel
// and a double check run the same code.
#pragma once

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/attention/head_attention.hpp"
#include "core/flash/tile_plan.hpp"
#include "core/model/masks.hpp"

namespace attnlab {

// The per-row state of a query block, and the current tile (reused from block to block).
template <typename S>
struct BlockState {
  using Matrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Column = Eigen::Array<S, Eigen::Dynamic, 1>;
  Column m, l;     // (Br): running max and running sum of exp(s - m)
  Column rescale;  // (Br): exp(m_old - m_new) of the last tile
  Matrix acc;      // (Br, d_v): sum_j exp(s_j - m) v_j, not yet divided by l
  Matrix scores;   // (Br, Bc): this tile's scaled (and biased) scores; then exp(s - m_new)
};

// What the sweep recorder sees after each tile (the fast path passes none).
struct NoTileObserver {
  static constexpr bool kRecords = false;
};

// Computes the query block qb of one head (HeadOperands: core/attention/head_attention.hpp; its
// bias read when the choices have one, its masks from `mask`) over every key block, writes its rows
// of `out` (rows whose keys are all hidden get zeros, as the ordinary softmax gives them) and
// returns nothing; m and l of its rows stay in `state` for the caller. With a recording observer,
// calls observe(qb, kb, kind, state, m_before, l_before, tile_scores) after every key block,
// skipped ones included (tile_scores: the tile's scaled, biased scores, -inf where hidden; empty
// when skipped).
template <typename S, typename Observer = NoTileObserver>
void sweep_query_block(const HeadOperands<S>& op, const AttentionChoices& choices,
                       const MaskSpec& mask_spec, TileSizes tiles, int64_t qb, BlockState<S>& state,
                       Observer&& observe = {}) {
  using Matrix = typename BlockState<S>::Matrix;
  using Strided = Eigen::Map<const Matrix, 0, Eigen::OuterStride<>>;
  using StridedOut = Eigen::Map<Matrix, 0, Eigen::OuterStride<>>;
  constexpr S kMinusInf = -std::numeric_limits<S>::infinity();
  static const MaskSpec kNoMask;
  const MaskSpec& mask = choices.mask ? mask_spec : kNoMask;
  const int64_t i0 = qb * tiles.rows, rows = std::min(tiles.rows, op.T - i0);
  state.m.setConstant(rows, kMinusInf);
  state.l.setZero(rows);
  state.rescale.setOnes(rows);
  state.acc.setZero(rows, op.dv);
  typename BlockState<S>::Column m_before, l_before;
  Matrix tile_scores;  // kept for a recording observer only
  for (int64_t kb = 0, key_blocks = block_count(op.Tk, tiles.cols); kb < key_blocks; ++kb) {
    const int64_t j0 = kb * tiles.cols, cols = std::min(tiles.cols, op.Tk - j0);
    const TileKind kind = classify_tile(mask, op.batch_index, i0, i0 + rows, j0, j0 + cols);
    if constexpr (std::decay_t<Observer>::kRecords) {
      m_before = state.m;
      l_before = state.l;
    }
    if (kind == TileKind::Skipped) {
      if constexpr (std::decay_t<Observer>::kRecords) {
        state.rescale.setOnes(rows);
        observe(qb, kb, kind, state, m_before, l_before, Matrix());
      }
      continue;
    }
    const Strided V(op.v + j0 * op.v_stride, cols, op.dv, Eigen::OuterStride<>(op.v_stride));
    Matrix& s = state.scores;
    score_block(op, choices, i0, rows, j0, cols, s);  // (rows, cols): q k^T * scale (+ bias)
    if (kind == TileKind::Partial) {
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c)
          if (!key_visible(mask, op.batch_index, i0 + r, j0 + c)) s(r, c) = kMinusInf;
    }
    if constexpr (std::decay_t<Observer>::kRecords) tile_scores = s;
    // m_new = max(m_old, this tile's row max); a row with no visible key so far keeps -inf.
    const typename BlockState<S>::Column m_new = state.m.max(s.rowwise().maxCoeff().array());
    // Rescale what was summed against m_old to m_new: exp(m_old - m_new), 0 when m_old = -inf.
    state.rescale = (state.m == kMinusInf).select(S(0), (state.m - m_new).exp());
    // p = exp(s - m_new); exactly 0 for hidden keys (a vectorised exp(-inf) is clamped, not 0).
    const typename BlockState<S>::Column shift = (m_new == kMinusInf).select(S(0), m_new);
    if (kind == TileKind::Partial) {
      s = (s.array() == kMinusInf).select(S(0), (s.array().colwise() - shift).exp()).matrix();
    } else {
      s = (s.array().colwise() - shift).exp().matrix();
    }
    state.l = state.rescale * state.l + s.rowwise().sum().array();
    state.acc = state.rescale.matrix().asDiagonal() * state.acc;
    state.acc.noalias() += s * V;  // (rows, cols) @ (cols, d_v)
    state.m = m_new;
    if constexpr (std::decay_t<Observer>::kRecords)
      observe(qb, kb, kind, state, m_before, l_before, tile_scores);
  }
  // out = acc / l; a row that saw no key (l = 0) is all zeros, not 0/0.
  StridedOut out(op.out + i0 * op.out_stride, rows, op.dv, Eigen::OuterStride<>(op.out_stride));
  const typename BlockState<S>::Column inverse = (state.l > S(0)).select(state.l.inverse(), S(0));
  out.noalias() = inverse.matrix().asDiagonal() * state.acc;
}

}  // namespace attnlab
