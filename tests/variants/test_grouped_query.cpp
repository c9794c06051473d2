// Grouped-query and multi-query attention: n_kv K/V heads, each serving g = h / n_kv query heads,
// against the naive loop; the expand view's zero stride; where reshape copies and where not.
#include <gtest/gtest.h>

#include "core/model/errors.hpp"
#include "core/model/forward.hpp"
#include "core/model/mha_loop.hpp"
#include "variant_fixtures.hpp"

namespace attnlab {
namespace {

using testing::inputs_for;
using testing::reference_variant;
using testing::small_config;
using testing::worst;

struct GroupCase {
  int64_t h, n_kv;
  bool bias;
  bool causal;
};

class GroupedQuery : public ::testing::TestWithParam<GroupCase> {};

TEST_P(GroupedQuery, MatchesTheNaiveLoopAndTheOtherPaths) {
  const GroupCase p = GetParam();
  Config c = small_config(2, 7, 16, p.h, p.n_kv);
  c.bias = p.bias;
  c.mask.causal = p.causal;
  c.mask.padding_lengths = {7, 5};
  const Inputs in = inputs_for(c);
  EXPECT_EQ(in.w_k.shape(), (Shape{16, p.n_kv * (16 / p.h)}));
  const Trace t = run(c, in);
  const testing::VariantReference ref = reference_variant(c, in);
  EXPECT_LT(worst(t, "weights", ref.weights), 1e-5);
  EXPECT_LT(worst(t, "out", ref.out), 1e-5);
  // k_heads / v_heads keep n_kv heads; what the scores read has h.
  EXPECT_EQ(t.find("k_heads")->tensor.shape(), (Shape{2, p.n_kv, 7, 16 / p.h}));
  EXPECT_EQ(t.find("v_heads")->tensor.shape(), (Shape{2, p.n_kv, 7, 16 / p.h}));
  if (p.n_kv < p.h)
    EXPECT_EQ(t.find("k_expanded")->tensor.shape(), (Shape{2, p.h, 7, 16 / p.h}));
  else
    EXPECT_EQ(t.find("k_expanded"), nullptr);
  // The fused forward and the per-head loop agree with the traced run.
  EXPECT_LT(testing::max_abs_diff(forward(c, in).to_vector(), ref.out), 1e-5);
  EXPECT_LT(testing::max_abs_diff(run_loop(c, in).out.to_vector(), ref.out), 1e-5);
}

INSTANTIATE_TEST_SUITE_P(
    Heads, GroupedQuery,
    ::testing::Values(GroupCase{4, 1, false, false}, GroupCase{4, 2, true, true},
                      GroupCase{4, 4, false, true}, GroupCase{8, 1, true, true},
                      GroupCase{8, 2, false, false}, GroupCase{8, 8, true, false}));

TEST(GroupedQuery, ExpandIsAViewWithAZeroStrideOnTheGroupAxis) {
  const Config c = small_config(1, 5, 16, 8, 2);  // g = 4, d_k = 2
  const Trace t = run(c, inputs_for(c));
  const TensorRecord& grouped = *t.find("k_grouped");
  EXPECT_EQ(grouped.tensor.shape(), (Shape{1, 2, 4, 5, 2}));
  EXPECT_EQ(grouped.tensor.strides()[2], 0);  // the group axis: no copy
  EXPECT_TRUE(grouped.is_view);
  EXPECT_TRUE(grouped.tensor.shares_storage_with(t.find("k")->tensor));
  // Merging (n_kv, g) into h heads cannot keep a zero stride between two real strides: it copies,
  // as repeat_interleave does, into (B, h, T, d_k) with every group's rows equal.
  const TensorRecord& expanded = *t.find("k_expanded");
  EXPECT_FALSE(expanded.is_view);
  EXPECT_TRUE(expanded.tensor.is_contiguous());
  for (int64_t hd = 0; hd < 8; ++hd)
    for (int64_t i = 0; i < 5; ++i)
      for (int64_t e = 0; e < 2; ++e)
        EXPECT_EQ(expanded.tensor.at({0, hd, i, e}),
                  t.find("k_heads")->tensor.at({0, hd / 4, i, e}));
}

TEST(GroupedQuery, MultiQueryExpandNeedsNoCopy) {
  // One K/V head: (B, 1, g, T, d) merges into (B, h, T, d) with the head stride 0: still a view.
  const Config c = small_config(2, 5, 16, 4, 1);
  const Trace t = run(c, inputs_for(c));
  const TensorRecord& expanded = *t.find("k_expanded");
  EXPECT_TRUE(expanded.is_view);
  EXPECT_EQ(expanded.tensor.strides()[1], 0);
  EXPECT_TRUE(expanded.tensor.shares_storage_with(t.find("k")->tensor));
  EXPECT_EQ(t.find("k_expanded")->bytes, 0);
}

TEST(GroupedQuery, CountersFollowTheKVHeads) {
  Config c = small_config(1, 6, 32, 8, 2);  // d_k = 4
  c.bias = true;
  const Counters n = run(c, inputs_for(c)).counters;
  EXPECT_EQ(n.kv_cache_numbers, 2 * 2 * 4);                // 2 n_kv d_k
  EXPECT_EQ(n.kv_parameters, 2 * 32 * 2 * 4 + 2 * 2 * 4);  // W_k, W_v and their biases
  EXPECT_EQ(n.qkv_weights, 32 * 32 + 2 * 32 * 8);
}

TEST(GroupedQuery, ANonDivisorIsExplainedWithTheChoices) {
  const Config c = small_config(1, 6, 16, 4, 3);
  try {
    run(c);
    FAIL() << "n_kv_heads=3 with h=4 ran";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("choose n_kv_heads in {1, 2, 4}"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace attnlab
