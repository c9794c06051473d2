// The batched trace against the per-head loop and the naive reference, on many configurations;
// shapes and strides of every stage; masks; dropout; counters; shape-only mode.
#include <gtest/gtest.h>

#include <cmath>

#include "core/model/errors.hpp"
#include "core/model/forward.hpp"
#include "core/model/masks.hpp"
#include "core/model/mha_loop.hpp"
#include "core/model/tokenizer.hpp"
#include "core/trace/mha.hpp"
#include "reference_mha.hpp"

namespace attnlab {
namespace {

using testing::max_abs_diff;
using testing::reference_mha;

Config make(int64_t B, int64_t T, int64_t d_model, int64_t h) {
  Config c;
  c.batch = B;
  c.seq_len = T;
  c.d_model = d_model;
  c.n_heads = h;
  c.seed = 7;
  return c;
}

int64_t parameter_bytes(const Trace& t) {
  int64_t bytes = 0;
  for (const TensorRecord& p : t.parameters) bytes += p.bytes;
  return bytes;
}

std::vector<Scalar> values(const Trace& t, const std::string& name) {
  return t.find(name)->tensor.to_vector();
}

// A spread of configurations, including the unusual ones.
std::vector<Config> configurations() {
  std::vector<Config> all;
  all.push_back(make(1, 3, 4, 2));
  all.push_back(make(2, 7, 12, 3));
  Config c = make(2, 5, 8, 2);
  c.d_k = 6;  // d_k != d_model / h
  c.d_v = 3;
  all.push_back(c);
  c = make(3, 6, 16, 4);
  c.bias = true;
  c.mask.causal = true;
  c.d_in = 5;
  all.push_back(c);
  c = make(2, 9, 8, 8);
  c.mask.padding_lengths = {4, 9};
  c.output_proj = false;
  all.push_back(c);
  c = make(1, 11, 6, 1);  // single head
  c.mask.window = 2;
  c.mask.global_tokens = 1;
  all.push_back(c);
  c = make(2, 9, 4, 1);
  c.d_k = 1;  // size-1 axes: their strides are arbitrary and must not reach BLAS
  c.d_v = 1;
  all.push_back(c);
  c = make(2, 4, 8, 2);
  c.mask.padding_lengths = {0, 2};  // sequence 0 is entirely padding: every row empty
  c.bias = true;
  all.push_back(c);
  return all;
}

TEST(Mha, BatchedPathEqualsPerHeadLoop) {
  for (const Config& c : configurations()) {
    const Trace trace = run(c);
    const LoopResult loop = run_loop(c);
    const double out_diff = max_abs_diff(values(trace, "out"), loop.out.to_vector());
    std::printf("%s: batched vs loop max |diff| = %.3g\n", describe(c.mask).c_str(), out_diff);
    EXPECT_LT(out_diff, 1e-5);
    const Tensor& weights = trace.find("weights")->tensor;
    for (int64_t h = 0; h < c.n_heads; ++h)
      for (int64_t b = 0; b < c.batch; ++b)
        for (int64_t i = 0; i < c.tokens(); ++i)
          for (int64_t j = 0; j < c.tokens(); ++j)
            ASSERT_NEAR(weights.at({b, h, i, j}), loop.weights[size_t(h)].at({b, i, j}), 1e-6);
  }
}

TEST(Mha, BatchedPathEqualsNaiveDoubleReference) {
  for (const Config& c : configurations()) {
    const Inputs in = complete_inputs(c, tokens_for(c.sentence, c.tokens()), {}, {});
    const Trace trace = run(c, in);
    const testing::Reference ref = reference_mha(c, in);
    const double w = max_abs_diff(values(trace, "weights"), ref.weights);
    const double ctx = max_abs_diff(values(trace, "context"), ref.context);
    const double out = max_abs_diff(values(trace, "out"), ref.out);
    std::printf("vs reference: weights %.3g context %.3g out %.3g\n", w, ctx, out);
    EXPECT_LT(w, 1e-5);
    EXPECT_LT(ctx, 1e-5);
    EXPECT_LT(out, 1e-5);
  }
}

TEST(Mha, ShapesAndStridesOfEveryStage) {
  const Trace t = run(make(2, 5, 12, 3));  // B=2, T=5, h=3, d_k=4
  struct Expected {
    const char* name;
    Shape shape, strides;
    bool contiguous, view;
    const char* owner;
  };
  const Expected expected[] = {
      {"x", {2, 5, 12}, {60, 12, 1}, true, false, "x"},
      {"q", {2, 5, 12}, {60, 12, 1}, true, false, "q"},
      {"q_split", {2, 5, 3, 4}, {60, 12, 4, 1}, true, true, "q"},
      {"k_split", {2, 5, 3, 4}, {60, 12, 4, 1}, true, true, "k"},
      {"q_heads", {2, 3, 5, 4}, {60, 4, 12, 1}, false, true, "q"},
      {"v_heads", {2, 3, 5, 4}, {60, 4, 12, 1}, false, true, "v"},
      {"scores", {2, 3, 5, 5}, {75, 25, 5, 1}, true, false, "scores"},
      {"scaled", {2, 3, 5, 5}, {75, 25, 5, 1}, true, false, "scaled"},
      {"masked", {2, 3, 5, 5}, {75, 25, 5, 1}, true, true, "scaled"},  // no mask: same tensor
      {"weights", {2, 3, 5, 5}, {75, 25, 5, 1}, true, false, "weights"},
      {"context", {2, 3, 5, 4}, {60, 20, 4, 1}, true, false, "context"},
      {"context_t", {2, 5, 3, 4}, {60, 4, 20, 1}, false, true, "context"},
      {"context_contiguous", {2, 5, 3, 4}, {60, 12, 4, 1}, true, false, "context_contiguous"},
      {"concat", {2, 5, 12}, {60, 12, 1}, true, true, "context_contiguous"},
      {"out", {2, 5, 12}, {60, 12, 1}, true, false, "out"},
  };
  for (const Expected& e : expected) {
    const TensorRecord* r = t.find(e.name);
    ASSERT_NE(r, nullptr) << e.name;
    EXPECT_EQ(r->tensor.shape(), e.shape) << e.name;
    EXPECT_EQ(r->tensor.strides(), e.strides) << e.name;
    EXPECT_EQ(r->tensor.is_contiguous(), e.contiguous) << e.name;
    EXPECT_EQ(r->is_view, e.view) << e.name;
    EXPECT_EQ(r->storage_owner, e.owner) << e.name;
    EXPECT_EQ(r->bytes, e.view ? 0 : r->tensor.numel() * 4) << e.name;
  }
  // The stages come in the lecture's order.
  Stage last = Stage::Input;
  for (const TensorRecord& r : t.records) {
    EXPECT_GE(static_cast<int>(r.stage), static_cast<int>(last)) << r.name;
    last = r.stage;
  }
}

TEST(Mha, IndependentDkChangesTheWidths) {
  Config c = make(1, 4, 8, 2);
  c.d_k = 6;
  c.d_v = 3;
  const Trace t = run(c);
  EXPECT_EQ(t.find("q")->tensor.shape(), (Shape{1, 4, 12}));
  EXPECT_EQ(t.find("v_heads")->tensor.shape(), (Shape{1, 2, 4, 3}));
  EXPECT_EQ(t.find("concat")->tensor.shape(), (Shape{1, 4, 6}));
  EXPECT_EQ(t.find("w_o")->tensor.shape(), (Shape{6, 8}));
  EXPECT_EQ(t.find("out")->tensor.shape(), (Shape{1, 4, 8}));
  EXPECT_NE(t.find("scaled")->formula.find("d_k = 6"), std::string::npos);
}

TEST(Mha, CausalUpperTriangleIsExactlyZeroAndRowsSumToOne) {
  Config c = make(2, 9, 8, 2);
  c.mask.causal = true;
  const Trace t = run(c);
  const Tensor& w = t.find("weights")->tensor;
  const Tensor& masked = t.find("masked")->tensor;
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t h = 0; h < 2; ++h)
      for (int64_t i = 0; i < 9; ++i) {
        double sum = 0;
        for (int64_t j = 0; j < 9; ++j) {
          sum += w.at({b, h, i, j});
          if (j > i) {
            EXPECT_EQ(w.at({b, h, i, j}), 0.0f);
            EXPECT_TRUE(std::isinf(masked.at({b, h, i, j})) && masked.at({b, h, i, j}) < 0);
          }
        }
        EXPECT_NEAR(sum, 1.0, 1e-6);
      }
  EXPECT_EQ(t.diagnostics.masked_nonzero, 0);
  EXPECT_EQ(t.diagnostics.masked_entries, 2 * 2 * 36);
  EXPECT_LT(t.diagnostics.max_row_sum_error, 1e-6);
  EXPECT_EQ(t.diagnostics.nonfinite_values, 0);
}

TEST(Mha, FullyMaskedRowsGetZeroWeightsAndContextNotNaN) {
  Config c = make(2, 4, 8, 2);
  c.mask.padding_lengths = {0, 2};
  const Trace t = run(c);
  EXPECT_EQ(t.diagnostics.empty_rows.size(), 4u);  // every query of sequence 0
  EXPECT_EQ(t.diagnostics.empty_rows[0], (std::array<int64_t, 2>{0, 0}));
  EXPECT_EQ(t.diagnostics.nonfinite_values, 0);
  const Tensor& w = t.find("weights")->tensor;
  const Tensor& ctx = t.find("context")->tensor;
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t i = 0; i < 4; ++i) {
      for (int64_t j = 0; j < 4; ++j) EXPECT_EQ(w.at({0, h, i, j}), 0.0f);
      for (int64_t e = 0; e < 4; ++e) EXPECT_EQ(ctx.at({0, h, i, e}), 0.0f);
      EXPECT_EQ(w.at({1, h, i, 2}), 0.0f);  // sequence 1: keys 2, 3 are padding
      EXPECT_NEAR(w.at({1, h, i, 0}) + w.at({1, h, i, 1}), 1.0f, 1e-6);
    }
}

TEST(Mha, UniformScoresGiveMaximalEntropy) {
  Config c = make(1, 8, 4, 2);
  Inputs in;
  in.w_q = Tensor::zeros("w_q", {4, 4});  // zeros: every score is 0, every row uniform
  const Trace t = run(c, in);
  ASSERT_EQ(t.diagnostics.head_entropy_bits.size(), 2u);
  for (double bits : t.diagnostics.head_entropy_bits) EXPECT_NEAR(bits, 3.0, 1e-5);  // log2 8
  c.mask.causal = true;  // row i is uniform over i+1 keys: mean of log2(i+1)
  const Trace causal = run(c, in);
  double expected = 0;
  for (int i = 1; i <= 8; ++i) expected += std::log2(double(i)) / 8;
  EXPECT_NEAR(causal.diagnostics.head_entropy_bits[0], expected, 1e-5);
}

TEST(Mha, DropoutIsInvertedReproducibleAndSharedByBothPaths) {
  Config c = make(2, 16, 8, 2);
  c.dropout = 0.25;
  c.dropout_seed = 3;
  const Trace t = run(c);
  const std::vector<Scalar> before = values(t, "weights");
  const std::vector<Scalar> after = values(t, "weights_dropout");
  int64_t dropped = 0;
  for (size_t i = 0; i < before.size(); ++i) {
    if (after[i] == 0.0f && before[i] != 0.0f) {
      ++dropped;
    } else {
      EXPECT_NEAR(after[i], before[i] / 0.75f, 1e-6);
    }
  }
  const double fraction = double(dropped) / double(before.size());
  EXPECT_GT(fraction, 0.18);
  EXPECT_LT(fraction, 0.32);
  EXPECT_EQ(values(run(c), "out"), values(t, "out"));  // same seed, same drops
  EXPECT_LT(max_abs_diff(values(t, "out"), run_loop(c).out.to_vector()), 1e-5);
  c.dropout_seed = 4;
  EXPECT_NE(values(run(c), "weights_dropout"), after);
}

TEST(Mha, OutputEqualsConcatWithoutOutputProjection) {
  Config c = make(1, 5, 8, 2);
  c.output_proj = false;
  const Trace t = run(c);
  EXPECT_TRUE(t.find("out")->is_view);
  EXPECT_EQ(values(t, "out"), values(t, "concat"));
  EXPECT_EQ(t.find("w_o"), nullptr);
}

TEST(Mha, CountersFollowTheFormulas) {
  Config c = make(2, 6, 12, 3);  // d_k = 4
  c.bias = true;
  const Trace t = run(c);
  const Counters& n = t.counters;
  EXPECT_EQ(n.parameters(), 4 * 12 * 12 + 4 * 12);
  EXPECT_EQ(n.attention_elements, 2 * 3 * 6 * 6);
  EXPECT_DOUBLE_EQ(t.find("scores")->flops, 2.0 * 2 * 3 * 6 * 6 * 4);
  EXPECT_DOUBLE_EQ(t.find("q")->flops, 2.0 * 2 * 6 * 12 * 12 + 2 * 6 * 12);
  EXPECT_DOUBLE_EQ(t.stage_flops(Stage::Split) + t.stage_flops(Stage::Transpose), 0.0);
  EXPECT_EQ(t.stage_bytes(Stage::Split), 0);
  EXPECT_EQ(n.bytes + parameter_bytes(t), trace_bytes_needed(c));
  // Same parameters whatever the head count (seed 003's point).
  EXPECT_EQ(run(make(1, 4, 12, 1)).counters.parameters(),
            run(make(1, 4, 12, 6)).counters.parameters());
}

TEST(Mha, TraceBytesEstimateMatchesTheRecordsInEveryMode) {
  for (Config c : configurations()) {
    const Trace t = run(c);
    EXPECT_EQ(t.counters.bytes + parameter_bytes(t), trace_bytes_needed(c));
    c.dropout = 0.1;
    const Trace dropped = run(c);
    EXPECT_EQ(dropped.counters.bytes + parameter_bytes(dropped), trace_bytes_needed(c));
  }
}

TEST(Mha, ShapeOnlyGpt3AllocatesNothing) {
  Config c = make(1, 2048, 12288, 96);
  c.mask.causal = true;
  c.shape_only = true;
  const Trace t = run(c);
  EXPECT_TRUE(t.shape_only);
  for (const TensorRecord& r : t.records) EXPECT_FALSE(r.tensor.has_values()) << r.name;
  EXPECT_EQ(t.find("q_heads")->tensor.shape(), (Shape{1, 96, 2048, 128}));
  EXPECT_EQ(t.find("q_heads")->tensor.strides(), (Shape{2048 * 12288, 128, 12288, 1}));
  EXPECT_EQ(t.counters.parameters(), int64_t{4} * 12288 * 12288);
  EXPECT_EQ(t.counters.attention_elements, int64_t{96} * 2048 * 2048);
  c.shape_only = false;  // computing it is refused with the bytes it would need
  try {
    run(c);
    FAIL();
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find(std::to_string(trace_bytes_needed(c)) + " bytes"),
              std::string::npos);
  }
}

TEST(Mha, InvalidConfigThrowsWithTheMessage) {
  try {
    run(make(1, 4, 10, 4));
    FAIL();
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("not divisible by n_heads=4"), std::string::npos);
  }
}

TEST(Mha, GivenWeightsOfTheWrongShapeAreNamed) {
  Inputs in;
  in.w_k = Tensor::zeros("w_k", {4, 3});
  try {
    run(make(1, 4, 4, 2), in);
    FAIL();
  } catch (const UserError& e) {
    EXPECT_NE(
        std::string(e.what()).find("w_k has shape (4, 3) but this configuration needs (4, 4)"),
        std::string::npos);
  }
}

TEST(Mha, CancelStopsTheRunAndProgressReachesOne) {
  std::atomic<bool> cancel{true};
  RunControl stop;
  stop.cancel = &cancel;
  EXPECT_THROW(run(make(2, 8, 8, 2), {}, stop), Cancelled);
  double last = 0;
  RunControl watch;
  watch.progress = [&](double p) {
    EXPECT_GE(p, last);
    last = p;
  };
  run(make(2, 8, 8, 2), {}, watch);
  EXPECT_DOUBLE_EQ(last, 1.0);
}

TEST(Mha, SameSeedSameTraceAndTokensLabelTheSentence) {
  Config c = make(1, 0, 4, 2);
  c.seq_len = 0;
  c.sentence = "The cat sat on the mat";
  const Trace a = run(c);
  EXPECT_EQ(a.tokens, (std::vector<std::string>{"The", "cat", "sat", "on", "the", "mat"}));
  EXPECT_EQ(values(a, "out"), values(run(c), "out"));
  // "The" and "the" share a token vector; only the position encoding differs.
  const Tensor& x = a.find("x")->tensor;
  const double d = std::abs(x.at({0, 0, 3}) - x.at({0, 4, 3}));
  EXPECT_GT(d, 0.0);
  c.seed = 1;
  EXPECT_NE(values(a, "out"), values(run(c), "out"));
}

}  // namespace
}  // namespace attnlab

namespace attnlab {
namespace {

TEST(Forward, BareForwardEqualsTheTrace) {
  for (const Config& c : configurations()) {
    const Inputs in = complete_inputs(c, tokens_for(c.sentence, c.tokens()), {}, {});
    const double diff = max_abs_diff(forward(c, in).to_vector(), values(run(c, in), "out"));
    EXPECT_LT(diff, 1e-6) << describe(c.mask);
  }
  Config big = make(2, 64, 256, 8);  // large enough to run on several threads
  big.mask.causal = true;
  big.dropout = 0.1;
  const Inputs in = complete_inputs(big, tokens_for("", 64), {}, {});
  EXPECT_LT(max_abs_diff(forward(big, in).to_vector(), values(run(big, in), "out")), 1e-5);
  // The threaded paths against the serial per-head loop.
  EXPECT_LT(max_abs_diff(forward(big, in).to_vector(), run_loop(big, in).out.to_vector()), 1e-5);
}

}  // namespace
}  // namespace attnlab

namespace attnlab {
namespace {

TEST(Mha, EveryStageIsBitReproducible) {
  // Large enough for the threaded paths; every buffer is freshly allocated each run, so this also
  // guards against results that depend on where the allocator put a row.
  Config c = make(2, 50, 96, 4);
  c.mask.causal = true;
  c.bias = true;
  const Trace first = run(c);
  for (int repeat = 0; repeat < 3; ++repeat) {
    const Trace again = run(c);
    for (const TensorRecord& r : first.records)
      ASSERT_EQ(r.tensor.to_vector(), again.find(r.name)->tensor.to_vector()) << r.name;
  }
}

}  // namespace
}  // namespace attnlab
