// The teaching toolkit's core: crafted heads show their patterns, the model table matches the
// seeds, one head vs many, loop vs batched, and the code view follows the config and mistakes.
#include <gtest/gtest.h>

#include <cmath>

#include "core/model/tokenizer.hpp"
#include "core/teaching/code_view.hpp"
#include "core/teaching/comparisons.hpp"
#include "core/teaching/crafted_heads.hpp"
#include "core/teaching/model_table.hpp"
#include "core/trace/mha.hpp"

namespace attnlab {
namespace {

int64_t argmax_key(const Tensor& w, int64_t head, int64_t query) {
  int64_t best = 0;
  for (int64_t j = 1; j < w.size(3); ++j)
    if (w.at({0, head, query, j}) > w.at({0, head, query, best})) best = j;
  return best;
}

TEST(CraftedHeads, EachHeadShowsItsPattern) {
  const Preset p = find_preset("crafted");
  const Trace t = run(p.config, p.inputs);
  const Tensor& w = t.find("weights")->tensor;
  const auto T = int64_t(t.tokens.size());
  ASSERT_EQ(T, 11);
  for (int64_t i = 1; i < T; ++i) EXPECT_EQ(argmax_key(w, 0, i), i - 1) << "previous-token head";
  for (int64_t i = 0; i < T; ++i) EXPECT_EQ(argmax_key(w, 1, i), 0) << "first-token head";
  for (int64_t i = 0; i < T; ++i) {  // same-word head: the argmax is the same word
    EXPECT_EQ(t.tokens[size_t(argmax_key(w, 2, i))], t.tokens[size_t(i)]) << i;
    EXPECT_GT(w.at({0, 2, i, i}), 0.3f);
  }
  // "the" (0, 4, 7) spreads over its three occurrences.
  EXPECT_NEAR(w.at({0, 2, 4, 0}), 1.0 / 3.0, 1e-3);
  const std::vector<double>& bits = t.diagnostics.head_entropy_bits;
  EXPECT_NEAR(bits[3], std::log2(double(T)), 1e-5) << "uniform head";
  EXPECT_LT(bits[0], 0.05);
  EXPECT_LT(bits[1], 0.05);
  EXPECT_GT(bits[2], bits[1]);
  EXPECT_LT(bits[2], bits[3]);
  EXPECT_NE(p.description.find("previous token"), std::string::npos);
}

TEST(ModelTable, MatchesTheSeedsHyperparameterTable) {
  const std::vector<ModelRow> rows = model_table();
  ASSERT_EQ(rows.size(), 9u);
  auto row = [&](const std::string& preset) {
    for (const ModelRow& r : rows)
      if (r.preset == preset) return r;
    ADD_FAILURE() << preset;
    return ModelRow{};
  };
  EXPECT_EQ(row("base").d_k, 64);
  EXPECT_EQ(row("base").parameters, 4 * 512 * 512 + 4 * 512);
  EXPECT_EQ(row("bert-base").n_heads, 12);
  EXPECT_EQ(row("bert-large").d_model, 1024);
  EXPECT_EQ(row("gpt3").d_k, 128);
  EXPECT_EQ(row("gpt3").attention_bytes, int64_t{96} * 2048 * 2048 * 4);
  EXPECT_EQ(row("tiny").d_k, 32);
  // Grouped-query models: the KV cache holds 2 n_kv d_k numbers per token per layer.
  EXPECT_EQ(row("llama2-70b").n_kv_heads, 8);
  EXPECT_EQ(row("llama2-70b").kv_cache_numbers, 2 * 8 * 128);
  EXPECT_EQ(row("llama2-70b").kv_cache_bytes_per_token(), int64_t{2} * 8 * 128 * 80 * 2);
  EXPECT_EQ(row("llama2-70b").kv_parameters, int64_t{2} * 8192 * 8 * 128);
  EXPECT_EQ(row("llama2-70b").parameters, int64_t{2} * 8192 * 8192 + 2 * 8192 * 1024);
  EXPECT_EQ(row("mistral-7b").kv_cache_numbers, 2 * 8 * 128);
  EXPECT_EQ(row("mistral-7b").kv_parameters, int64_t{2} * 4096 * 8 * 128);
  EXPECT_EQ(row("gpt3").kv_cache_numbers, 2 * 96 * 128);
  // DeepSeek-V2 caches the latent and the rotary key: 512 + 64.
  EXPECT_EQ(row("deepseek-v2").kv_cache_numbers, 512 + 64);
  EXPECT_EQ(row("deepseek-v2").kv_parameters, int64_t{5120} * (512 + 64) + 512 * 128 * 256);
}

TEST(ModelTable, DeepSeekV2CacheUnderEachSharing) {
  const std::vector<CacheRow> rows = deepseek_v2_cache_rows();
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].variant, "MHA");
  EXPECT_EQ(rows[0].kv_cache_numbers, 2 * 128 * 128);
  EXPECT_EQ(rows[1].variant, "GQA-8");
  EXPECT_EQ(rows[1].kv_cache_numbers, 2 * 8 * 128);
  EXPECT_EQ(rows[2].variant, "MQA");
  EXPECT_EQ(rows[2].kv_cache_numbers, 2 * 128);
  EXPECT_EQ(rows[3].variant, "MLA");
  EXPECT_EQ(rows[3].kv_cache_numbers, 576);
  EXPECT_DOUBLE_EQ(rows[3].share_of_multi_head, 576.0 / 32768.0);
}

TEST(HeadCounts, SameParametersMoreAttentionMemory) {
  Config c;
  c.seq_len = 7;
  c.d_model = 16;
  c.n_heads = 4;
  const Inputs in = complete_inputs(c, tokens_for("", 7), {}, {});
  const HeadCountComparison cmp = compare_head_counts(c, in);
  EXPECT_EQ(cmp.single.config.n_heads, 1);
  EXPECT_EQ(cmp.single.config.head_dim_k(), 16);
  EXPECT_EQ(cmp.multi.config.head_dim_k(), 4);
  EXPECT_EQ(cmp.single.counters.parameters(), cmp.multi.counters.parameters());
  EXPECT_EQ(cmp.multi.counters.attention_elements, 4 * cmp.single.counters.attention_elements);
  EXPECT_EQ(cmp.single.diagnostics.head_entropy_bits.size(), 1u);
  EXPECT_EQ(cmp.multi.diagnostics.head_entropy_bits.size(), 4u);
  // Same Q and K: one head's scores are the sum of the h heads' unscaled scores.
  const Tensor& one = cmp.single.find("scores")->tensor;
  const Tensor& many = cmp.multi.find("scores")->tensor;
  double sum = 0;
  for (int64_t h = 0; h < 4; ++h) sum += many.at({0, h, 2, 5});
  EXPECT_NEAR(one.at({0, 0, 2, 5}), sum, 1e-4);
}

TEST(Paths, LoopAndBatchedAgreeAndAreTimed) {
  Config c;
  c.seq_len = 20;
  c.d_model = 32;
  c.n_heads = 4;
  c.mask.causal = true;
  const Inputs in = complete_inputs(c, tokens_for("", 20), {}, {});
  const PathComparison cmp = compare_paths(c, in, 3);
  EXPECT_LT(cmp.max_abs_difference, 1e-5);
  EXPECT_GT(cmp.loop_ms, 0.0);
  EXPECT_GT(cmp.batched_ms, 0.0);
  EXPECT_EQ(cmp.runs, 3);
}

TEST(CodeView, FollowsTheConfigAndMarksTheMistake) {
  Config c;
  auto has = [](const std::vector<CodeLine>& code, const std::string& text) {
    for (const CodeLine& l : code)
      if (l.text.find(text) != std::string::npos) return true;
    return false;
  };
  std::vector<CodeLine> code = reference_code(c);
  EXPECT_TRUE(has(code, "q = q.transpose(1, 2)"));
  EXPECT_FALSE(has(code, "masked_fill"));
  for (const CodeLine& l : code) EXPECT_FALSE(l.changed);
  c.mask.causal = true;
  c.mistake = Mistake::SoftmaxWrongAxis;
  code = reference_code(c);
  EXPECT_TRUE(has(code, "masked_fill(~visible, float('-inf'))"));
  int changed = 0;
  for (const CodeLine& l : code) {
    if (!l.changed) continue;
    ++changed;
    EXPECT_NE(l.text.find("dim=-2"), std::string::npos);
    EXPECT_EQ(l.stage, Stage::Attend);
    EXPECT_EQ(l.substep, Substep::Softmax);
  }
  EXPECT_EQ(changed, 1);
  // Every substep the trace records has a line to highlight.
  const Trace t = run(Config{});
  code = reference_code(t.config);
  for (const TensorRecord& r : t.records) {
    if (r.stage != Stage::Attend) continue;
    bool found = false;
    for (const CodeLine& l : code) found = found || (l.stage == r.stage && l.substep == r.substep);
    // No mask line without a mask.
    EXPECT_TRUE(found || r.substep == Substep::Mask) << substep_name(r.substep);
  }
}

}  // namespace
}  // namespace attnlab
