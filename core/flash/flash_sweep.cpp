#include "core/flash/flash_sweep.hpp"

#include <limits>

#include "core/flash/online_softmax.hpp"
#include "core/flash/projections.hpp"
#include "core/flash/tiled_attention.hpp"
#include "core/model/errors.hpp"

namespace attnlab {

namespace {

std::vector<float> to_floats(const Eigen::Array<Scalar, Eigen::Dynamic, 1>& column) {
  return {column.begin(), column.end()};
}

// Records every tile of the sweep_query_block it is passed to.
struct StepRecorder {
  static constexpr bool kRecords = true;
  FlashSweep& sweep;

  void operator()(int64_t qb, int64_t kb, TileKind kind, const BlockState<Scalar>& state,
                  const Eigen::Array<Scalar, Eigen::Dynamic, 1>& m_before,
                  const Eigen::Array<Scalar, Eigen::Dynamic, 1>& l_before,
                  const BlockState<Scalar>::Matrix& tile_scores) {
    SweepStep step;
    step.query_block = qb;
    step.key_block = kb;
    step.row0 = qb * sweep.tiles.rows;
    step.rows = state.m.size();
    step.col0 = kb * sweep.tiles.cols;
    step.cols = std::min(sweep.tiles.cols, sweep.Tk - step.col0);  // the last may be short
    step.kind = kind;
    step.m_before = to_floats(m_before);
    step.l_before = to_floats(l_before);
    step.m_after = to_floats(state.m);
    step.l_after = to_floats(state.l);
    step.rescale = to_floats(state.rescale);
    step.scores.assign(tile_scores.data(), tile_scores.data() + tile_scores.size());
    const int64_t dv = state.acc.cols();
    step.partial_out.resize(size_t(step.rows * dv));
    for (int64_t r = 0; r < step.rows; ++r)
      for (int64_t c = 0; c < dv; ++c)
        step.partial_out[size_t(r * dv + c)] = state.l(r) > 0 ? state.acc(r, c) / state.l(r) : 0.0f;
    sweep.steps.push_back(std::move(step));
  }
};

}  // namespace

FlashSweep record_sweep(const Config& c, const Inputs& in, TileSizes tiles, int64_t batch_index,
                        int64_t head) {
  if (std::string reason = flash_unavailable(c, tiles); !reason.empty()) throw UserError(reason);
  const int64_t T = c.tokens(), Tk = c.key_tokens(), dv = c.head_dim_v();
  if (T > kMaxSweepTokens || Tk > kMaxSweepTokens)
    throw UserError("the sweep is recorded for T up to " + std::to_string(kMaxSweepTokens) +
                    " tokens (this config has " + std::to_string(std::max(T, Tk)) +
                    "): lower T, or read the counters alone");
  if (batch_index < 0 || batch_index >= c.batch || head < 0 || head >= c.n_heads)
    throw UserError("no head " + std::to_string(head) + " in sequence " +
                    std::to_string(batch_index) + ": heads are 0.." +
                    std::to_string(c.n_heads - 1) + ", sequences 0.." +
                    std::to_string(c.batch - 1));
  FlashSweep sweep;
  sweep.batch_index = batch_index;
  sweep.head = head;
  sweep.T = T;
  sweep.Tk = Tk;
  sweep.d_v = dv;
  sweep.tiles = tiles;
  sweep.context.assign(size_t(T * dv), 0.0f);
  const Projections p = project_qkv(c, in);
  const HeadOperands<Scalar> op = head_operands(c, p, batch_index, head, sweep.context.data(), dv);
  const AttentionChoices choices = attention_choices(c);  // as the tiled run: bias in each tile
  BlockState<Scalar> state;
  StepRecorder recorder{sweep};
  for (int64_t qb = 0; qb < block_count(T, tiles.rows); ++qb)
    sweep_query_block(op, choices, c.mask, tiles, qb, state, recorder);
  return sweep;
}

namespace {

// (steps, T): after each step, the rows it touched take their new value; the others keep theirs.
Tensor rows_after_each_step(const FlashSweep& sweep, const char* name, float initial,
                            std::vector<float> SweepStep::*after) {
  const auto steps = int64_t(sweep.steps.size());
  Tensor t = Tensor::zeros(name, {steps, sweep.T});
  std::vector<float> current(size_t(sweep.T), initial);
  Scalar* out = t.data();
  for (int64_t s = 0; s < steps; ++s) {
    const SweepStep& step = sweep.steps[size_t(s)];
    for (int64_t r = 0; r < step.rows; ++r)
      current[size_t(step.row0 + r)] = (step.*after)[size_t(r)];
    std::copy(current.begin(), current.end(), out + s * sweep.T);
  }
  return t;
}

}  // namespace

Tensor sweep_row_max(const FlashSweep& sweep) {
  return rows_after_each_step(sweep, "flash_m", -std::numeric_limits<float>::infinity(),
                              &SweepStep::m_after);
}

Tensor sweep_row_sum(const FlashSweep& sweep) {
  return rows_after_each_step(sweep, "flash_l", 0.0f, &SweepStep::l_after);
}

}  // namespace attnlab
