// The entropy a head is compared with: uniform attention over each query's visible keys, averaged
// over the same rows as the heads' entropy (queries with no visible key left out of both). Checked
// against a direct count of visible keys, against hand-derived numbers, and against heads whose
// scores are all 0 (so their attention IS uniform over the visible keys).
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "core/trace/diagnostics.hpp"
#include "core/trace/export.hpp"
#include "core/model/masks.hpp"
#include "core/trace/mha.hpp"
#include "core/model/preset.hpp"

namespace attnlab {
namespace {

Config make(int64_t B, int64_t T, MaskSpec mask) {
  Config c;
  c.batch = B;
  c.seq_len = T;
  c.d_model = 4;
  c.n_heads = 2;
  c.seed = 5;
  c.mask = std::move(mask);
  return c;
}

// Mean over (b, i) with at least one visible key of log2(number of visible keys).
double direct_uniform_bits(const Config& c) {
  const int64_t T = c.tokens();
  double sum = 0;
  int64_t rows = 0;
  for (int64_t b = 0; b < c.batch; ++b) {
    for (int64_t i = 0; i < T; ++i) {
      int64_t visible = 0;
      for (int64_t j = 0; j < T; ++j) visible += key_visible(c.mask, b, i, j) ? 1 : 0;
      if (visible == 0) continue;
      sum += std::log2(double(visible));
      ++rows;
    }
  }
  return rows ? sum / double(rows) : 0.0;
}

std::vector<std::pair<std::string, Config>> masked_configs() {
  MaskSpec causal, padding, window, combined;
  causal.causal = true;
  padding.padding_lengths = {0, 3, 5};  // sequence 0 is empty: every query of it sees nothing
  window.window = 1;
  window.global_tokens = 2;
  combined.causal = true;
  combined.window = 2;
  combined.global_tokens = 1;
  combined.padding_lengths = {4, 7};
  return {{"causal B=2", make(2, 7, causal)},
          {"padding with an empty sequence B=3", make(3, 5, padding)},
          {"window+global", make(1, 9, window)},
          {"causal+window+global+padding B=2", make(2, 8, combined)},
          {"none B=2", make(2, 6, MaskSpec{})}};
}

TEST(UniformEntropy, MatchesADirectCountOfVisibleKeysUnderEveryMask) {
  for (const auto& [name, config] : masked_configs()) {
    const Trace t = run(config);
    EXPECT_NEAR(t.diagnostics.uniform_entropy_bits, direct_uniform_bits(config), 1e-12) << name;
  }
}

TEST(UniformEntropy, HandDerivedValues) {
  MaskSpec causal;
  causal.causal = true;
  // Row i of a causal (T = 4) map sees i + 1 keys: (log2 1 + log2 2 + log2 3 + log2 4) / 4.
  EXPECT_NEAR(run(make(1, 4, causal)).diagnostics.uniform_entropy_bits,
              (0 + 1 + std::log2(3.0) + 2) / 4, 1e-12);
  // Sequence 0 has no key (left out), sequence 1 shows 3 of 4 keys to every query: log2 3, not
  // the log2(3) / 2 that counting the empty rows as 0 bits would give.
  MaskSpec padding;
  padding.padding_lengths = {0, 3};
  EXPECT_NEAR(run(make(2, 4, padding)).diagnostics.uniform_entropy_bits, std::log2(3.0), 1e-12);
  // No mask: log2 T.
  EXPECT_NEAR(run(make(1, 6, MaskSpec{})).diagnostics.uniform_entropy_bits, std::log2(6.0), 1e-12);
}

TEST(UniformEntropy, HeadsWithAllScoresZeroReachItExactly) {
  for (const auto& [name, config] : masked_configs()) {
    Inputs in;
    in.w_q = Tensor::zeros("w_q", {4, 4});  // zeros: every score is 0, every row uniform
    const Trace t = run(config, in);
    for (double bits : t.diagnostics.head_entropy_bits)
      EXPECT_NEAR(bits, t.diagnostics.uniform_entropy_bits, 1e-5) << name;
    for (size_t h = 0; h < t.diagnostics.head_entropy_bits.size(); ++h)
      EXPECT_NEAR(fraction_of_uniform(t.diagnostics, h), 1.0, 1e-5) << name;
  }
}

TEST(UniformEntropy, Seed003IsCausalSoItsReferenceIsMeanLog2OfOneToEleven) {
  const Preset p = find_preset("seed003");
  const Trace t = run(p.config, p.inputs);
  double expected = 0;
  for (int i = 1; i <= 11; ++i) expected += std::log2(double(i)) / 11;  // 2.2955
  EXPECT_NEAR(t.diagnostics.uniform_entropy_bits, expected, 1e-12);
  EXPECT_NEAR(t.diagnostics.uniform_entropy_bits, 2.30, 0.005);
  EXPECT_EQ(describe_uniform_entropy(t), "uniform over each query's visible keys: 2.30 bits");
  ASSERT_EQ(t.diagnostics.head_entropy_bits.size(), 2u);
  for (size_t h = 0; h < 2; ++h) {
    EXPECT_NEAR(fraction_of_uniform(t.diagnostics, h),
                t.diagnostics.head_entropy_bits[h] / expected, 1e-12);
    EXPECT_GT(fraction_of_uniform(t.diagnostics, h), 0.9) << "seed 003's heads are barely focused";
  }
  const nlohmann::json j = nlohmann::json::parse(trace_to_json(t));
  EXPECT_NEAR(j["diagnostics"]["uniform_entropy_bits"].get<double>(), expected, 1e-12);
}

TEST(UniformEntropy, WithoutAMaskItIsLog2TAndSaysSo) {
  const Trace t = run(make(1, 11, MaskSpec{}));
  EXPECT_EQ(describe_uniform_entropy(t), "uniform over T = 11 keys: 3.46 bits");
}

TEST(UniformEntropy, ForgottenTransposeSpreadsOverTheHeads) {
  // Weights (B, T, h, h): each row spreads over the h heads, and the (T, T) mask never applied.
  Config c = find_preset("seed003").config;
  c.mistake = Mistake::ForgetTranspose;
  const Trace t = run(c);
  EXPECT_NEAR(t.diagnostics.uniform_entropy_bits, 1.0, 1e-12);  // log2 2
  EXPECT_EQ(describe_uniform_entropy(t), "uniform over h = 2 keys: 1.00 bits");
}

TEST(UniformEntropy, EveryQueryEmptyLeavesNothingToCompare) {
  MaskSpec padding;
  padding.padding_lengths = {0};
  const Trace t = run(make(2, 3, padding));
  EXPECT_EQ(t.diagnostics.uniform_entropy_bits, 0.0);
  EXPECT_EQ(fraction_of_uniform(t.diagnostics, 0), 0.0);
}

}  // namespace
}  // namespace attnlab
