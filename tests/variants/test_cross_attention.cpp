// Cross-attention: queries from one sequence (T_q tokens), keys and values from another (T_k
// tokens, its own width), padding on the key side; the maps are T_q x T_k.
#include <gtest/gtest.h>

#include "core/model/forward.hpp"
#include "core/model/mha_loop.hpp"
#include "variant_fixtures.hpp"

namespace attnlab {
namespace {

using testing::inputs_for;
using testing::small_config;
using testing::worst;

struct CrossCase {
  int64_t T_q, T_k, d_in_kv, n_kv;
  std::vector<int64_t> padding;  // key-side lengths
};

class CrossAttention : public ::testing::TestWithParam<CrossCase> {};

TEST_P(CrossAttention, MatchesTheNaiveLoopWithPaddingOnTheKeySide) {
  const CrossCase p = GetParam();
  Config c = small_config(2, p.T_q, 8, 2, p.n_kv);
  c.kv_len = p.T_k;
  c.d_in_kv = p.d_in_kv;
  c.mask.padding_lengths = p.padding;
  // X_kv given, as --x-kv gives it: (B, T_k, d_in_kv) of arbitrary numbers.
  Inputs given;
  given.x_kv = Tensor::empty("x_kv", {2, p.T_k, p.d_in_kv});
  for (int64_t i = 0; i < given.x_kv.numel(); ++i)
    given.x_kv.data()[i] = Scalar(std::sin(0.7 * double(i) + 0.3));
  const Inputs in = inputs_for(c, given);
  EXPECT_EQ(in.w_k.shape(), (Shape{p.d_in_kv, c.kv_heads() * 4}));
  const Trace t = run(c, in);
  const testing::VariantReference ref = testing::reference_variant(c, in);
  EXPECT_EQ(t.find("scores")->tensor.shape(), (Shape{2, 2, p.T_q, p.T_k}));
  EXPECT_EQ(t.find("weights")->tensor.shape(), (Shape{2, 2, p.T_q, p.T_k}));
  EXPECT_LT(worst(t, "weights", ref.weights), 1e-5);
  EXPECT_LT(worst(t, "out", ref.out), 1e-5);
  EXPECT_LT(testing::max_abs_diff(forward(c, in).to_vector(), ref.out), 1e-5);
  EXPECT_LT(testing::max_abs_diff(run_loop(c, in).out.to_vector(), ref.out), 1e-5);
  // Padded keys get exactly zero weight from every query.
  const Tensor& w = t.find("weights")->tensor;
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t j = p.padding[size_t(b)]; j < p.T_k; ++j)
      EXPECT_EQ(w.at({b, 1, p.T_q - 1, j}), 0.0f);
  EXPECT_EQ(t.tokens_kv.size(), size_t(p.T_k));
  EXPECT_EQ(t.counters.attention_elements, 2 * 2 * p.T_q * p.T_k);
}

INSTANTIATE_TEST_SUITE_P(Lengths, CrossAttention,
                         ::testing::Values(CrossCase{3, 7, 5, 0, {7, 4}},
                                           CrossCase{8, 4, 8, 0, {2, 4}},
                                           CrossCase{5, 6, 3, 1, {6, 1}}));

TEST(CrossAttention, TwoSentencesLabelBothAxes) {
  Config c = small_config(1, 0, 8, 2, 0);
  c.sentence = "the cat sat";
  c.sentence_kv = "le chat est assis";
  const Trace t = run(c, inputs_for(c));
  EXPECT_EQ(t.tokens, (std::vector<std::string>{"the", "cat", "sat"}));
  EXPECT_EQ(t.tokens_kv, (std::vector<std::string>{"le", "chat", "est", "assis"}));
  EXPECT_EQ(t.find("weights")->tensor.shape(), (Shape{1, 2, 3, 4}));
  EXPECT_EQ(t.find("x_kv")->tensor.shape(), (Shape{1, 4, 8}));
}

}  // namespace
}  // namespace attnlab
