// KV-cache decoding: prefill, then one token at a time over a growing cache, must give the rows of
// a full causal run; the cache's shapes, the score row, and FLOPs against recomputing.
#include <gtest/gtest.h>

#include "core/variants/kv_cache_decode.hpp"
#include "variant_fixtures.hpp"

namespace attnlab {
namespace {

using testing::inputs_for;
using testing::small_config;

struct DecodeCase {
  int64_t n_kv;   // 4 = MHA, 2 = GQA, 1 = MQA (h = 4)
  int64_t steps;  // tokens decoded after the prompt
};

class KVCacheDecode : public ::testing::TestWithParam<DecodeCase> {};

TEST_P(KVCacheDecode, EqualsTheFullCausalRun) {
  const DecodeCase p = GetParam();
  Config c = small_config(2, 9, 16, 4, p.n_kv);
  c.mask.causal = true;
  c.bias = true;
  c.decode_steps = p.steps;
  const Inputs in = inputs_for(c);
  const Trace t = run(c, in);
  const int64_t P = 9 - p.steps, dk = 4;
  ASSERT_EQ(t.decode.prompt_tokens, P);
  ASSERT_EQ(int64_t(t.decode.steps.size()), p.steps);
  // The reference is the naive full causal run of all 9 tokens.
  Config full = c;
  full.decode_steps = 0;
  const testing::VariantReference ref = testing::reference_variant(full, in);
  const Tensor& out = t.find("out")->tensor;
  EXPECT_EQ(t.find("prefill_k_cache")->tensor.shape(), (Shape{2, p.n_kv, P, dk}));
  for (int64_t i = 0; i < p.steps; ++i) {
    const DecodeStep& step = t.decode.steps[size_t(i)];
    const int64_t pos = P + i;
    EXPECT_EQ(step.position, pos);
    const std::string n = "decode" + std::to_string(i);
    EXPECT_EQ(t.find(n + "_k_cache")->tensor.shape(), (Shape{2, p.n_kv, pos + 1, dk}));
    EXPECT_EQ(t.find(n + "_v_cache")->tensor.shape(), (Shape{2, p.n_kv, pos + 1, dk}));
    EXPECT_EQ(t.find(n + "_scores")->tensor.shape(), (Shape{2, 4, 1, pos + 1}));
    EXPECT_EQ(t.find(n + "_q")->tensor.shape(), (Shape{2, 4, 1, dk}));
    EXPECT_EQ(t.find(n + "_k")->tensor.shape(), (Shape{2, p.n_kv, 1, dk}));
    const Tensor& row = t.find(n + "_out")->tensor;  // (B, 1, d_model)
    ASSERT_EQ(row.shape(), (Shape{2, 1, 16}));
    double worst = 0, worst_ref = 0;
    for (int64_t b = 0; b < 2; ++b)
      for (int64_t o = 0; o < 16; ++o) {
        worst = std::max(worst, double(std::abs(row.at({b, 0, o}) - out.at({b, pos, o}))));
        worst_ref = std::max(worst_ref, std::abs(double(row.at({b, 0, o})) -
                                                 ref.out[size_t((b * 9 + pos) * 16 + o)]));
      }
    EXPECT_LT(worst, 1e-5) << n;
    EXPECT_LT(worst_ref, 1e-5) << n;
    // The weights of the new row are row pos of the full run's, over pos + 1 keys.
    const Tensor& w = t.find(n + "_weights")->tensor;
    const Tensor& full_w = t.find("weights")->tensor;
    for (int64_t hd = 0; hd < 4; ++hd)
      for (int64_t j = 0; j <= pos; ++j)
        EXPECT_NEAR(w.at({1, hd, 0, j}), full_w.at({1, hd, pos, j}), 1e-6);
    // The cache holds the full run's keys of positions 0..pos.
    const Tensor& cache = t.find(n + "_k_cache")->tensor;
    const Tensor& k_heads = t.find("k_heads")->tensor;
    for (int64_t j = 0; j <= pos; ++j)
      EXPECT_NEAR(cache.at({0, p.n_kv - 1, j, dk - 1}), k_heads.at({0, p.n_kv - 1, j, dk - 1}),
                  1e-6);
    EXPECT_EQ(step.cache_bytes, kv_cache_bytes(c, pos + 1));
    EXPECT_EQ(step.cache_bytes, 2 * p.n_kv * (pos + 1) * (dk + dk) * 4);
    EXPECT_GT(step.recompute_flops, step.flops);
  }
}

INSTANTIATE_TEST_SUITE_P(MhaGqaMqa, KVCacheDecode,
                         ::testing::Values(DecodeCase{4, 1}, DecodeCase{4, 7}, DecodeCase{2, 1},
                                           DecodeCase{2, 7}, DecodeCase{1, 1}, DecodeCase{1, 7}));

TEST(KVCacheDecode, StepFlopsGrowWithTheCacheAndRecomputingGrowsFaster) {
  Config c = small_config(1, 12, 32, 4, 2);
  c.mask.causal = true;
  c.decode_steps = 6;
  const Trace t = run(c, inputs_for(c));
  for (size_t i = 1; i < t.decode.steps.size(); ++i) {
    const DecodeStep& a = t.decode.steps[i - 1];
    const DecodeStep& b = t.decode.steps[i];
    // One more cached key: the score row and the weighted sum grow by 2 d_k + 2 d_v per head.
    EXPECT_GT(b.flops, a.flops);
    EXPECT_GT(b.recompute_flops - a.recompute_flops, b.flops - a.flops);
  }
}

}  // namespace
}  // namespace attnlab
