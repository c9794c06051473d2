// Fused QKV (GPT-2's c_attn, the lecture's fused class): one GEMM x @ W_qkv, then q, k and v are
// column blocks of its output, views with the fused row's stride. The values are the separate
// projections' to float rounding (one (d, 36) GEMM sums in another order than three narrower
// ones on some BLAS kernels); the strides are PyTorch's for qkv.split(...).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/model/tokenizer.hpp"
#include "core/trace/mha.hpp"
#include "core/trace/plan.hpp"

namespace attnlab {
namespace {

Config fused_config() {
  Config c;
  c.sentence = "the cat sat on the mat today";
  c.batch = 2;
  c.d_model = 16;
  c.n_heads = 4;
  c.n_kv_heads = 2;
  c.d_v = 6;
  c.bias = true;
  c.mask.causal = true;
  c.fused_qkv = true;
  return c;
}

// The weights are the same numbers (TheParameterIsTheThreeWeightsSideBySide), but OpenBLAS picks
// its blocking by the GEMM's shape: with OPENBLAS_CORETYPE=Haswell or Zen the fused product's
// last digit differs (0.0266868 vs 0.0266869), so the two runs agree to rounding, not bit for bit.
TEST(FusedQkv, EqualsTheSeparateProjectionsToRounding) {
  Config fused = fused_config(), separate = fused_config();
  separate.fused_qkv = false;
  const Trace a = run(fused), b = run(separate);
  for (const char* name : {"q", "k", "v", "q_heads", "weights", "context", "out"}) {
    const std::vector<Scalar> x = a.find(name)->tensor.to_vector();
    const std::vector<Scalar> y = b.find(name)->tensor.to_vector();
    ASSERT_EQ(x.size(), y.size()) << name;
    double largest = 0, worst = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      largest = std::max(largest, std::abs(double(y[i])));
      worst = std::max(worst, std::abs(double(x[i]) - double(y[i])));
    }
    std::printf("  %-8s max |fused - separate| = %.2e (largest |value| %.3f)\n", name, worst,
                largest);
    EXPECT_GT(largest, 0.01) << name << ": a tensor of zeros would prove nothing";
    EXPECT_LE(worst, 1e-6 * largest) << name;
  }
}

TEST(FusedQkv, QKVAreColumnBlocksOfOneTensor) {
  const Config c = fused_config();
  const Trace t = run(c);
  const int64_t T = c.tokens(), W = 4 * 4 + 2 * (4 + 6);  // h*d_k + n_kv*(d_k + d_v) = 36
  ASSERT_EQ(W, fused_width(c));
  const TensorRecord* qkv = t.find("qkv");
  ASSERT_NE(qkv, nullptr);
  EXPECT_EQ(qkv->tensor.shape(), (Shape{2, T, W}));
  EXPECT_EQ(qkv->stage, Stage::Project);
  EXPECT_DOUBLE_EQ(qkv->flops, 2.0 * 2 * T * 16 * W + 2 * T * W);  // GEMM + bias
  const Shape row_strides{T * W, W, 1};
  const std::vector<std::pair<const char*, std::pair<int64_t, int64_t>>> blocks = {
      {"q", {0, 16}}, {"k", {16, 8}}, {"v", {24, 12}}};
  for (const auto& [name, block] : blocks) {
    const TensorRecord* r = t.find(name);
    ASSERT_NE(r, nullptr) << name;
    EXPECT_TRUE(r->is_view) << name;
    EXPECT_TRUE(r->tensor.shares_storage_with(qkv->tensor)) << name;
    EXPECT_EQ(r->tensor.offset(), block.first) << name;
    EXPECT_EQ(r->tensor.shape(), (Shape{2, T, block.second})) << name;
    EXPECT_EQ(r->tensor.strides(), row_strides) << name;
    EXPECT_FALSE(r->tensor.is_contiguous()) << name;
    EXPECT_EQ(r->inputs, (std::vector<std::string>{"qkv"})) << name;
  }
  // The split stage's view of a column block keeps the fused row's stride.
  EXPECT_EQ(t.find("k_split")->tensor.strides(), (Shape{T * W, W, 4, 1}));
  EXPECT_NE(t.find("q")->pytorch.find("qkv.split([16, 8, 12], dim=2)"), std::string::npos);
}

// W_qkv is [W_q | W_k | W_v] and b_qkv [b_q | b_k | b_v]: the parameters the trace lists instead.
TEST(FusedQkv, TheParameterIsTheThreeWeightsSideBySide) {
  const Config c = fused_config();
  const Trace t = run(c);
  const Inputs in = trace_inputs(t, {});
  const TensorRecord* w = t.find("w_qkv");
  const TensorRecord* b = t.find("b_qkv");
  ASSERT_TRUE(w && b);
  EXPECT_EQ(t.find("w_q"), nullptr);
  EXPECT_EQ(t.find("b_k"), nullptr);
  ASSERT_NE(t.find("w_o"), nullptr);
  EXPECT_EQ(w->tensor.shape(), (Shape{16, 36}));
  for (int64_t r = 0; r < 16; ++r) {
    for (int64_t j = 0; j < 16; ++j) EXPECT_EQ(w->tensor.at({r, j}), in.w_q.at({r, j}));
    for (int64_t j = 0; j < 8; ++j) EXPECT_EQ(w->tensor.at({r, 16 + j}), in.w_k.at({r, j}));
    for (int64_t j = 0; j < 12; ++j) EXPECT_EQ(w->tensor.at({r, 24 + j}), in.w_v.at({r, j}));
  }
  EXPECT_EQ(b->tensor.at({30}), in.b_v.at({6}));
  EXPECT_EQ(w->axes_text(), "(d_in, h*d_k+n_kv*(d_k+d_v))");
}

TEST(FusedQkv, TheMemoryEstimateIsTheRunsOwn) {
  Config c = fused_config();
  const int64_t estimate = trace_bytes_needed(c);
  const Trace t = run(c);
  int64_t held = t.counters.bytes;
  for (const TensorRecord& p : t.parameters) held += p.bytes;
  EXPECT_EQ(estimate, held);
}

TEST(FusedQkv, RefusedWhereOneProjectionCannotMakeAllThree) {
  const auto issue_on_fused = [](Config c) {
    for (const ConfigIssue& i : validate(c))
      if (i.field == "fused_qkv") return i.message;
    return std::string();
  };
  Config cross = fused_config();
  cross.sentence_kv = "le chat";
  EXPECT_NE(issue_on_fused(cross).find("drop --fused-qkv"), std::string::npos);
  Config latent = fused_config();
  latent.n_kv_heads = 0;
  latent.bias = false;
  latent.kv_latent = 8;
  EXPECT_NE(issue_on_fused(latent).find("latent"), std::string::npos);
  Config shared = fused_config();
  shared.n_kv_heads = 0;
  shared.mistake = Mistake::SharedQkProjection;
  EXPECT_NE(issue_on_fused(shared).find("W_q and W_k apart"), std::string::npos);
  EXPECT_TRUE(validate(fused_config()).empty());
}

}  // namespace
}  // namespace attnlab
