// The tiled kernel (core/flash/tiled_attention.hpp) against the ordinary path: forward() in float
// on many shapes, tile sizes and masks, a naive double loop through the same template in double,
// and a naive reference at a length the ordinary trace refuses.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "core/flash/online_softmax.hpp"
#include "core/flash/tiled_attention.hpp"
#include "core/model/errors.hpp"
#include "core/model/forward.hpp"
#include "flash_reference.hpp"

namespace attnlab {
namespace {

using testing::attend_row;
using testing::head_qkv;
using testing::inputs_for;

Config base_config(int64_t B, int64_t T, int64_t d_model, int64_t h) {
  Config c;
  c.batch = B;
  c.seq_len = T;
  c.d_model = d_model;
  c.n_heads = h;
  c.seed = 11;
  return c;
}

double max_abs_diff(const Tensor& a, const Tensor& b) {
  const std::vector<Scalar> x = a.to_vector(), y = b.to_vector();
  EXPECT_EQ(x.size(), y.size());
  double worst = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i)
    worst = std::max(worst, std::abs(double(x[i]) - double(y[i])));
  return worst;
}

struct MaskCase {
  const char* name;
  MaskSpec mask;
};

std::vector<MaskCase> mask_cases() {
  MaskSpec causal;
  causal.causal = true;
  MaskSpec padding;  // sequence 1 has no valid key at all: its rows are fully masked
  padding.padding_lengths = {5, 0};
  MaskSpec window;
  window.window = 2;
  MaskSpec window_global = window;
  window_global.global_tokens = 2;
  MaskSpec everything = window_global;
  everything.causal = true;
  everything.padding_lengths = {9, 4};
  return {{"none", {}},
          {"causal", causal},
          {"padding", padding},
          {"window", window},
          {"window+global", window_global},
          {"causal+padding+window+global", everything}};
}

// [SECTION] float: the tiled output equals forward()'s
TEST(TiledAttention, EqualsTheOrdinaryPathOnManyShapesTilesAndMasks) {
  const std::vector<TileSizes> tile_sizes = {{1, 1}, {4, 4}, {3, 5}, {8, 2}, {64, 64}};
  int checked = 0;
  for (const int64_t T : {1, 7, 13, 24}) {
    for (const MaskCase& m : mask_cases()) {
      Config c = base_config(2, T, 12, 3);
      c.mask = m.mask;
      for (int64_t& length : c.mask.padding_lengths) length = std::min(length, T);
      c.mask.global_tokens = std::min(c.mask.global_tokens, T);
      c.bias = T % 2 == 1;
      c.output_proj = T != 13;
      const Inputs in = inputs_for(c);
      const Tensor ordinary = forward(c, in);
      for (const TileSizes tiles : tile_sizes) {
        const double diff = max_abs_diff(flash_forward(c, in, tiles).out, ordinary);
        EXPECT_LE(diff, 1e-5) << "T=" << T << " mask " << m.name << " tiles " << tiles.rows << ":"
                              << tiles.cols << " max diff " << diff;
        ++checked;
      }
    }
  }
  EXPECT_EQ(checked, 4 * 6 * 5);
}

TEST(TiledAttention, EqualsTheOrdinaryPathWithGroupedHeadsCrossAttentionAndRope) {
  Config grouped = base_config(1, 19, 16, 4);
  grouped.n_kv_heads = 2;
  grouped.mask.causal = true;
  Config crossed = base_config(2, 9, 8, 2);
  crossed.sentence_kv = "the keys come from another sentence entirely here";
  crossed.mask.padding_lengths = {3, 8};
  Config rope = base_config(1, 21, 16, 2);
  rope.rope_theta = 10000;
  rope.mask.causal = true;
  for (const Config& c : {grouped, crossed, rope}) {
    const Inputs in = inputs_for(c);
    const double diff = max_abs_diff(flash_forward(c, in, {4, 3}).out, forward(c, in));
    EXPECT_LE(diff, 1e-5) << describe(c.mask) << " max diff " << diff;
  }
}

TEST(TiledAttention, RowStatisticsAreEachRowsMaxAndSumOfExponentials) {
  Config c = base_config(2, 11, 8, 2);
  c.mask.causal = true;
  c.mask.padding_lengths = {11, 0};  // sequence 1: every row fully masked
  const Inputs in = inputs_for(c);
  const FlashResult r = flash_forward(c, in, {4, 3});
  double worst = 0;
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t hd = 0; hd < 2; ++hd) {
      const testing::HeadQKV head = head_qkv(c, in, b, hd);
      for (int64_t i = 0; i < 11; ++i) {
        const testing::RowReference want = attend_row(head, c.mask, b, i);
        const size_t at = size_t((b * 2 + hd) * 11 + i);
        if (std::isinf(want.max)) {
          EXPECT_TRUE(std::isinf(r.row_max[at]) && r.row_max[at] < 0) << "b " << b << " i " << i;
          EXPECT_EQ(r.row_sum[at], 0.0f);
          continue;
        }
        worst = std::max({worst, std::abs(r.row_max[at] - want.max),
                          std::abs(r.row_sum[at] - want.sum) / want.sum});
      }
    }
  EXPECT_LE(worst, 1e-5) << "max diff " << worst;
}

// [SECTION] double: the same template, to 1e-12
TEST(TiledAttention, TheTemplateInDoubleMatchesANaiveLoopTo1e12) {
  std::mt19937 rng(3);
  std::normal_distribution<double> normal;
  const int64_t T = 37, Tk = 37, dk = 8, dv = 5;
  std::vector<double> q(T * dk), k(Tk * dk), v(Tk * dv);
  for (auto* values : {&q, &k, &v})
    for (double& x : *values) x = 2.0 * normal(rng);
  testing::HeadQKV head{{T, dk, q}, {Tk, dk, k}, {Tk, dv, v}};
  for (const MaskCase& m : mask_cases()) {
    MaskSpec mask = m.mask;
    if (!mask.padding_lengths.empty()) mask.padding_lengths = {mask.padding_lengths[1]};
    for (const TileSizes tiles : {TileSizes{5, 7}, TileSizes{1, 37}, TileSizes{16, 4}}) {
      std::vector<double> out(T * dv, -1.0);
      const HeadOperands<double> op{q.data(), dk, k.data(), dk, v.data(), dv, out.data(),
                                    dv,       T,  Tk,       dk, dv,       0};
      AttentionChoices choices;
      choices.scale = 1.0 / std::sqrt(double(dk));
      choices.mask = true;
      BlockState<double> state;
      for (int64_t qb = 0; qb < block_count(T, tiles.rows); ++qb)
        sweep_query_block(op, choices, mask, tiles, qb, state);
      double worst = 0;
      for (int64_t i = 0; i < T; ++i) {
        const testing::RowReference want = attend_row(head, mask, 0, i);
        for (int64_t d = 0; d < dv; ++d)
          worst = std::max(worst, std::abs(out[size_t(i * dv + d)] - want.out[size_t(d)]));
      }
      EXPECT_LE(worst, 1e-12) << m.name << " tiles " << tiles.rows << ":" << tiles.cols
                              << " max diff " << worst;
    }
  }
}

// [SECTION] long context: where the ordinary trace refuses
TEST(TiledAttention, RunsAtALengthTheOrdinaryTraceRefusesAndMatchesANaiveReference) {
  Config c = base_config(1, 8192, 32, 8);
  c.output_proj = false;  // out is the concat: each head's context readable directly
  c.mask.window = 16;
  c.mask.global_tokens = 1;
  const std::vector<ConfigIssue> issues = validate(c);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].field, "memory");
  EXPECT_NE(issues[0].message.find("above the cap"), std::string::npos) << issues[0].message;
  ASSERT_EQ(flash_unavailable(c, {64, 64}), "");
  const Inputs in = inputs_for(c);
  const FlashResult r = flash_forward(c, in, {64, 64});
  const int64_t hd = 5, dv = c.head_dim_v();
  const testing::HeadQKV head = head_qkv(c, in, 0, hd);
  double worst = 0;
  for (const int64_t i : {0, 1, 17, 4000, 8191}) {
    const testing::RowReference want = attend_row(head, c.mask, 0, i);
    for (int64_t d = 0; d < dv; ++d)
      worst =
          std::max(worst, std::abs(double(r.out.at({0, i, hd * dv + d})) - want.out[size_t(d)]));
  }
  EXPECT_LE(worst, 1e-5) << "max diff " << worst;
  // The tiles the window hides were skipped. Per head: query block 0 (the global row) meets all
  // 128 key blocks; blocks 1 and 127 meet key block 0 (the global column) and two more around
  // their diagonal; blocks 2..126 meet key block 0 and the three around their diagonal.
  EXPECT_EQ(r.counters.tiles_computed, 8 * (128 + 3 + 125 * 4 + 3));
}

// [SECTION] what the tiled path refuses
TEST(TiledAttention, RefusesWhatOnlyTheTraceComputesAndBadTiles) {
  const Config ok = base_config(1, 8, 8, 2);
  Config mistake = ok;
  mistake.mistake = Mistake::NoScale;
  Config dropout = ok;
  dropout.dropout = 0.1;
  Config tiny_cap = ok;
  tiny_cap.memory_cap_bytes = 64;
  Config bad_heads = ok;
  bad_heads.n_heads = 3;
  EXPECT_NE(flash_unavailable(mistake, {4, 4}).find("mistake"), std::string::npos);
  EXPECT_NE(flash_unavailable(dropout, {4, 4}).find("dropout"), std::string::npos);
  EXPECT_NE(flash_unavailable(tiny_cap, {4, 4}).find("above the cap"), std::string::npos);
  EXPECT_NE(flash_unavailable(bad_heads, {4, 4}).find("divisible"), std::string::npos);
  EXPECT_NE(flash_unavailable(ok, {0, 4}).find("between 1 and"), std::string::npos);
  EXPECT_THROW(flash_forward(dropout, inputs_for(ok), {4, 4}), UserError);
}

TEST(TiledAttention, ParsesTileSizesAndNamesWhatIsWrong) {
  EXPECT_EQ(parse_tile_sizes("64:32"), (TileSizes{64, 32}));
  EXPECT_EQ(parse_tile_sizes("1:1024"), (TileSizes{1, 1024}));
  for (const char* bad : {"64", "64:", ":8", "a:b", "8:8:8", "0:4", "4:-1", "2000:8", " 8:8"}) {
    try {
      parse_tile_sizes(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const UserError& e) {
      EXPECT_NE(std::string(e.what()).find("BR:BC") == std::string::npos &&
                    std::string(e.what()).find("between 1 and") == std::string::npos,
                true)
          << bad << ": " << e.what();
    }
  }
}

}  // namespace
}  // namespace attnlab
