// The recorded sweep (core/flash/flash_sweep.hpp): every step's m, l and rescale factor obey the
// online-softmax recurrence, recomputed here in double from the step's own tile; the final rows
// are the ordinary attention's; flash_m and flash_l are the rows' state after each step.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/flash/flash_sweep.hpp"
#include "core/flash/tiled_attention.hpp"
#include "core/model/errors.hpp"
#include "flash_reference.hpp"

namespace attnlab {
namespace {

Config causal_config() {
  Config c;
  c.batch = 2;
  c.seq_len = 11;
  c.d_model = 12;
  c.n_heads = 3;
  c.seed = 4;
  c.mask.causal = true;
  c.mask.padding_lengths = {11, 6};
  return c;
}

TEST(FlashSweep, VisitsEveryTileInOrderAndSkipsTheHiddenOnes) {
  const Config c = causal_config();
  const FlashSweep sweep = record_sweep(c, testing::inputs_for(c), {4, 3}, 1, 2);
  ASSERT_EQ(sweep.steps.size(), size_t(3 * 4));  // ceil(11/4) query blocks x ceil(11/3) key blocks
  for (size_t s = 0; s < sweep.steps.size(); ++s) {
    const SweepStep& step = sweep.steps[s];
    EXPECT_EQ(step.query_block, int64_t(s / 4));
    EXPECT_EQ(step.key_block, int64_t(s % 4));
    EXPECT_EQ(step.rows, step.query_block == 2 ? 3 : 4);
    EXPECT_EQ(step.cols, step.key_block == 3 ? 2 : 3);
    EXPECT_EQ(step.kind, classify_tile(c.mask, 1, step.row0, step.row0 + step.rows, step.col0,
                                       step.col0 + step.cols));
    EXPECT_EQ(step.scores.empty(), step.kind == TileKind::Skipped);
  }
  // Sequence 1's keys 6.. are padding: key block 2 (keys 6..8) and 3 are skipped for every row.
  EXPECT_EQ(sweep.steps[2].kind, TileKind::Skipped);
  EXPECT_EQ(sweep.steps[11].kind, TileKind::Skipped);
}

TEST(FlashSweep, EveryStepFollowsTheOnlineSoftmaxRecurrence) {
  const Config c = causal_config();
  const FlashSweep sweep = record_sweep(c, testing::inputs_for(c), {4, 3}, 0, 1);
  constexpr double kMinusInf = -std::numeric_limits<double>::infinity();
  double worst = 0;
  for (const SweepStep& step : sweep.steps) {
    for (int64_t r = 0; r < step.rows; ++r) {
      const size_t at = size_t(r);
      if (step.kind == TileKind::Skipped) {
        EXPECT_EQ(step.m_after[at], step.m_before[at]);
        EXPECT_EQ(step.l_after[at], step.l_before[at]);
        continue;
      }
      double tile_max = kMinusInf;
      for (int64_t j = 0; j < step.cols; ++j)
        tile_max = std::max(tile_max, double(step.scores[size_t(r * step.cols + j)]));
      const double m_new = std::max(double(step.m_before[at]), tile_max);
      if (std::isinf(m_new)) {  // no visible key yet: nothing summed
        EXPECT_EQ(step.l_after[at], 0.0f);
        continue;
      }
      const double rescale =
          std::isinf(double(step.m_before[at])) ? 0.0 : std::exp(step.m_before[at] - m_new);
      double l = rescale * step.l_before[at];
      for (int64_t j = 0; j < step.cols; ++j) {
        const double s = step.scores[size_t(r * step.cols + j)];
        if (!std::isinf(s)) l += std::exp(s - m_new);
      }
      worst = std::max({worst, std::abs(step.m_after[at] - m_new),
                        std::abs(step.rescale[at] - rescale), std::abs(step.l_after[at] - l)});
    }
  }
  EXPECT_LE(worst, 1e-5) << "max diff " << worst;
}

TEST(FlashSweep, TheLastStepOfEachBlockHoldsTheOrdinaryAttentionsRows) {
  const Config c = causal_config();
  const Inputs in = testing::inputs_for(c);
  for (const int64_t b : {0, 1}) {
    const FlashSweep sweep = record_sweep(c, in, {4, 3}, b, 2);
    const testing::HeadQKV head = testing::head_qkv(c, in, b, 2);
    double worst = 0;
    for (const SweepStep& step : sweep.steps) {
      if (step.key_block != 3) continue;  // the block's last key block
      for (int64_t r = 0; r < step.rows; ++r) {
        const testing::RowReference want = testing::attend_row(head, c.mask, b, step.row0 + r);
        for (int64_t d = 0; d < sweep.d_v; ++d) {
          worst = std::max(
              worst, std::abs(step.partial_out[size_t(r * sweep.d_v + d)] - want.out[size_t(d)]));
          worst = std::max(worst, std::abs(sweep.context[size_t((step.row0 + r) * sweep.d_v + d)] -
                                           want.out[size_t(d)]));
        }
        if (!std::isinf(want.max))
          worst = std::max(worst, std::abs(step.m_after[size_t(r)] - want.max));
      }
    }
    EXPECT_LE(worst, 1e-5) << "sequence " << b << " max diff " << worst;
  }
}

TEST(FlashSweep, RowStateAfterEachStepIsWhatTheCliExports) {
  const Config c = causal_config();
  const Inputs in = testing::inputs_for(c);
  const FlashSweep sweep = record_sweep(c, in, {4, 3}, 0, 0);
  const Tensor m = sweep_row_max(sweep), l = sweep_row_sum(sweep);
  ASSERT_EQ(m.shape(), (Shape{12, 11}));
  // Step 0 touched rows 0..3 only; the others still hold the start: -inf and 0.
  EXPECT_TRUE(std::isinf(m.at({0, 4})) && m.at({0, 4}) < 0);
  EXPECT_EQ(l.at({0, 10}), 0.0f);
  EXPECT_EQ(m.at({0, 2}), sweep.steps[0].m_after[2]);
  // After the last step every row holds its final statistics, those of the tiled kernel.
  const FlashResult r = flash_forward(c, in, {4, 3});
  for (int64_t i = 0; i < 11; ++i) {
    EXPECT_EQ(m.at({11, i}), r.row_max[size_t(i)]) << "row " << i;
    EXPECT_NEAR(l.at({11, i}), r.row_sum[size_t(i)], 1e-6) << "row " << i;
  }
}

TEST(FlashSweep, RefusesLongSequencesAndHeadsThatDoNotExist) {
  Config c = causal_config();
  const Inputs in = testing::inputs_for(c);
  EXPECT_THROW(record_sweep(c, in, {4, 4}, 0, 3), UserError);
  EXPECT_THROW(record_sweep(c, in, {4, 4}, 2, 0), UserError);
  c.seq_len = kMaxSweepTokens + 1;
  EXPECT_THROW(record_sweep(c, testing::inputs_for(c), {4, 4}, 0, 0), UserError);
}

}  // namespace
}  // namespace attnlab
