// Multi-head latent attention: K and V from the latent c_kv, the decoupled rotary key shared by
// every head, queries optionally through their own latent; the absorbed form gives the same out.
#include <gtest/gtest.h>

#include <cmath>

#include "core/variants/rotary.hpp"
#include "variant_fixtures.hpp"

namespace attnlab {
namespace {

using testing::inputs_for;
using testing::small_config;
using testing::worst;

struct LatentCase {
  int64_t d_c, d_rope, q_latent;
  bool causal;
  int64_t batch;
};

class LatentAttention : public ::testing::TestWithParam<LatentCase> {};

TEST_P(LatentAttention, MatchesTheNaiveLoopAndTheAbsorbedForm) {
  const LatentCase p = GetParam();
  Config c = small_config(p.batch, 7, 16, 4, 0);
  c.kv_latent = p.d_c;
  c.rope_dim = p.d_rope;
  c.q_latent = p.q_latent;
  c.mask.causal = p.causal;
  const Inputs in = inputs_for(c);
  const Trace t = run(c, in);
  const testing::VariantReference ref = testing::reference_variant(c, in);
  EXPECT_LT(worst(t, "weights", ref.weights), 1e-5);
  EXPECT_LT(worst(t, "out", ref.out), 1e-5);
  EXPECT_LT(worst(t, "out_absorbed", ref.out), 1e-5);
  EXPECT_LT(t.absorbed.max_abs_difference, 1e-5);
  EXPECT_EQ(t.find("c_kv")->tensor.shape(), (Shape{p.batch, 7, p.d_c}));
  EXPECT_EQ(t.counters.kv_cache_numbers, p.d_c + p.d_rope);
  if (p.d_rope > 0) {
    // One rotary key read by every head: a stride of 0 on the head axis.
    const TensorRecord& k_rope = *t.find("k_rope_heads");
    EXPECT_EQ(k_rope.tensor.shape(), (Shape{p.batch, 4, 7, p.d_rope}));
    EXPECT_EQ(k_rope.tensor.strides()[1], 0);
    EXPECT_EQ(t.find("q_full")->tensor.size(3), 4 + p.d_rope);
  } else {
    EXPECT_EQ(t.find("k_rope"), nullptr);
  }
}

INSTANTIATE_TEST_SUITE_P(RopeAndQueryLatent, LatentAttention,
                         ::testing::Values(LatentCase{8, 0, 0, false, 1},
                                           LatentCase{8, 4, 0, true, 2},
                                           LatentCase{6, 2, 5, false, 1},
                                           LatentCase{12, 0, 6, true, 2}));

TEST(LatentAttention, AbsorbedFormKeepsDropoutAndAblation) {
  Config c = small_config(2, 6, 16, 4, 0);
  c.kv_latent = 8;
  c.rope_dim = 4;
  c.dropout = 0.3;
  c.dropout_seed = 9;
  c.ablated_heads = {false, true, false, false};
  const Trace t = run(c, inputs_for(c));
  EXPECT_LT(t.absorbed.max_abs_difference, 1e-5);
}

TEST(Rotary, ScoresDependOnlyOnTheDistanceBetweenPositions) {
  // q at position m and k at position n: rope(q, m) . rope(k, n) is a function of m - n.
  const int64_t d = 6;
  auto rotated = [&](const std::vector<Scalar>& v, int64_t position) {
    Tensor row = Tensor::empty("row", {1, 1, d});
    std::copy(v.begin(), v.end(), row.data());
    rotate_by_position(row, d, position);
    return row.to_vector();
  };
  const std::vector<Scalar> q{0.3f, -1.2f, 0.8f, 0.5f, -0.4f, 1.1f};
  const std::vector<Scalar> k{1.0f, 0.2f, -0.7f, 0.9f, 0.6f, -0.3f};
  auto dot = [&](int64_t m, int64_t n) {
    const std::vector<Scalar> a = rotated(q, m), b = rotated(k, n);
    double s = 0;
    for (int64_t e = 0; e < d; ++e) s += double(a[size_t(e)]) * double(b[size_t(e)]);
    return s;
  };
  EXPECT_NEAR(dot(5, 2), dot(13, 10), 1e-5);
  EXPECT_NEAR(dot(0, 0), dot(7, 7), 1e-5);
  EXPECT_GT(std::abs(dot(5, 2) - dot(5, 4)), 1e-3);  // a different distance scores differently
  // Position 0 is no rotation; pair 0 turns by one radian a position.
  EXPECT_EQ(rotated(q, 0), q);
  const std::vector<Scalar> one = rotated(q, 1);
  EXPECT_NEAR(one[0], 0.3 * std::cos(1.0) + 1.2 * std::sin(1.0), 1e-6);
  EXPECT_NEAR(one[1], 0.3 * std::sin(1.0) - 1.2 * std::cos(1.0), 1e-6);
}

}  // namespace
}  // namespace attnlab
