// Each position encoding where it enters the six stages, against formulas written out here:
// sinusoidal and learned added to the toy x (and recorded as pos), RoPE by --pos as Llama's rotate
// sub-step, ALiBi a bias sub-step of the scores before the mask; forward() and the per-head loop
// agree with the traced run, decoding with a KV cache adds the same bias, and the rules.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/model/errors.hpp"
#include "core/model/forward.hpp"
#include "core/model/mha_loop.hpp"
#include "core/trace/mha.hpp"
#include "core/trace/plan.hpp"

namespace attnlab {
namespace {

Config small(PositionEncoding pos, int64_t heads = 4) {
  Config c;
  c.sentence = "the cat sat on the mat because it was tired";
  c.d_model = 16;
  c.n_heads = heads;
  c.pos = pos;
  c.seed = 3;
  return c;
}

const TensorRecord& record(const Trace& t, const std::string& name) {
  const TensorRecord* r = t.find(name);
  if (!r) throw std::runtime_error("no record " + name);
  return *r;
}

double max_difference(const Tensor& a, const Tensor& b) {
  const std::vector<Scalar> x = a.to_vector(), y = b.to_vector();
  EXPECT_EQ(x.size(), y.size());
  double worst = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i)
    worst = std::max(worst, std::abs(double(x[i]) - double(y[i])));
  return worst;
}

// [SECTION] additive encodings: x = token embedding + pos

TEST(EncodingsInPipeline, SinusoidalIsTheDefaultAndItsTableIsWhatXGains) {
  EXPECT_EQ(Config{}.pos, PositionEncoding::Sinusoidal);
  const Trace with = run(small(PositionEncoding::Sinusoidal));
  const Trace without = run(small(PositionEncoding::None));
  const Tensor& pos = record(with, "pos").tensor;
  const int64_t T = with.config.tokens(), d = 16;
  ASSERT_EQ(pos.shape(), (Shape{T, d}));
  EXPECT_EQ(record(with, "pos").stage, Stage::Input);
  double worst_table = 0, worst_x = 0;
  for (int64_t t = 0; t < T; ++t)
    for (int64_t i = 0; i < d; ++i) {
      // Vaswani et al.: PE[t, 2k] = sin(t / 10000^(2k/d)), PE[t, 2k+1] = cos(t / 10000^(2k/d))
      const int64_t k = i / 2;
      const double angle = double(t) / std::pow(10000.0, 2.0 * double(k) / double(d));
      const double want = i % 2 == 0 ? std::sin(angle) : std::cos(angle);
      worst_table = std::max(worst_table, std::abs(double(pos.at({t, i})) - want));
      const double added = double(record(with, "x").tensor.at({0, t, i})) -
                           double(record(without, "x").tensor.at({0, t, i}));
      worst_x = std::max(worst_x, std::abs(added - want));
    }
  std::printf("sinusoidal: max |pos - formula| = %.2e, max |x - x_none - formula| = %.2e\n",
              worst_table, worst_x);
  EXPECT_LT(worst_table, 1e-6);
  EXPECT_LT(worst_x, 1e-5);
  EXPECT_EQ(without.find("pos"), nullptr) << "none adds nothing, so it records no table";
}

TEST(EncodingsInPipeline, TheLearnedTableIsSeededRandomAndAddedToX) {
  const Trace a = run(small(PositionEncoding::Learned));
  const Trace none = run(small(PositionEncoding::None));
  Config other_seed = small(PositionEncoding::Learned);
  other_seed.seed = 4;
  const Trace b = run(other_seed);
  const Tensor& pos = record(a, "pos").tensor;
  EXPECT_EQ(max_difference(pos, record(run(small(PositionEncoding::Learned)), "pos").tensor), 0.0)
      << "the same seed gives the same table";
  EXPECT_GT(max_difference(pos, record(b, "pos").tensor), 0.1) << "another seed, another table";
  double largest = 0, worst_x = 0;
  for (int64_t t = 0; t < pos.size(0); ++t)
    for (int64_t i = 0; i < pos.size(1); ++i) {
      largest = std::max(largest, std::abs(double(pos.at({t, i}))));
      const double added = double(record(a, "x").tensor.at({0, t, i})) -
                           double(record(none, "x").tensor.at({0, t, i}));
      worst_x = std::max(worst_x, std::abs(added - double(pos.at({t, i}))));
    }
  EXPECT_LE(largest, 1.0) << "U(-1, 1)";
  EXPECT_GT(largest, 0.5);
  EXPECT_LT(worst_x, 1e-6);
}

TEST(EncodingsInPipeline, AGivenXIsUsedAsItIsWithNoTable) {
  Config c = small(PositionEncoding::Sinusoidal);
  c.seq_len = 3;
  Inputs given;
  given.x = Tensor::zeros("x", {1, 3, 16});
  const Trace t = run(c, given);
  EXPECT_EQ(t.find("pos"), nullptr);
  EXPECT_EQ(max_difference(record(t, "x").tensor, given.x), 0.0);
}

// [SECTION] RoPE: --pos rope is Llama's rotate sub-step

TEST(EncodingsInPipeline, PosRopeIsLlamasRotationAtBase10000OrTheGivenTheta) {
  Config by_pos = small(PositionEncoding::Rope);
  Config by_theta = small(PositionEncoding::None);
  by_theta.rope_theta = 10000;
  const Trace a = run(by_pos), b = run(by_theta);
  EXPECT_EQ(record(a, "q_rot").substep, Substep::Rotate);
  EXPECT_EQ(max_difference(record(a, "q_rot").tensor, record(b, "q_rot").tensor), 0.0);
  EXPECT_EQ(max_difference(record(a, "out").tensor, record(b, "out").tensor), 0.0);
  EXPECT_EQ(a.find("pos"), nullptr) << "RoPE adds nothing to x";
  by_pos.rope_theta = 500000;
  by_theta.rope_theta = 500000;
  EXPECT_EQ(max_difference(record(run(by_pos), "out").tensor, record(run(by_theta), "out").tensor),
            0.0);
  // theta^(-2i/d_k) with d_k = 4: 1 and 10000^(-1/2) = 0.01.
  const Tensor& inv = record(a, "rope_inv_freq").tensor;
  EXPECT_FLOAT_EQ(inv.at({0}), 1.0f);
  EXPECT_FLOAT_EQ(inv.at({1}), 0.01f);
}

// [SECTION] ALiBi: a bias sub-step of the scores before the mask

TEST(EncodingsInPipeline, AlibiBiasIsMinusSlopeTimesDistanceWithPressEtAlsSlopes) {
  const Trace t = run(small(PositionEncoding::Alibi, 8));  // d_k = 2
  const Tensor& bias = record(t, "alibi_bias").tensor;
  const int64_t T = t.config.tokens();
  ASSERT_EQ(bias.shape(), (Shape{8, T, T}));
  // H = 8: slopes 1/2, 1/4, ..., 1/256 (Press et al.).
  const double slopes[8] = {0.5, 0.25, 0.125, 0.0625, 1 / 32.0, 1 / 64.0, 1 / 128.0, 1 / 256.0};
  double worst = 0;
  for (int64_t hd = 0; hd < 8; ++hd)
    for (int64_t q = 0; q < T; ++q)
      for (int64_t k = 0; k < T; ++k)
        worst = std::max(
            worst, std::abs(double(bias.at({hd, q, k})) + slopes[hd] * double(std::abs(q - k))));
  EXPECT_EQ(worst, 0.0);
  EXPECT_FLOAT_EQ(bias.at({0, 3, 1}), -1.0f);                 // two tokens away at slope 1/2
  const Trace four = run(small(PositionEncoding::Alibi, 4));  // slopes 1/4, 1/16, 1/64, 1/256
  EXPECT_FLOAT_EQ(record(four, "alibi_bias").tensor.at({1, 0, 4}), -0.25f);
}

TEST(EncodingsInPipeline, AlibiIsASubstepBetweenScaleAndMaskAndTheWeightsFollowFromIt) {
  Config c = small(PositionEncoding::Alibi);
  c.mask.causal = true;
  c.batch = 2;
  const Trace t = run(c);
  std::vector<std::string> order;
  for (const TensorRecord& r : t.records)
    if (r.stage == Stage::Attend) order.push_back(r.name);
  ASSERT_GE(order.size(), 4u);
  EXPECT_EQ(order[1], "scaled");
  EXPECT_EQ(order[2], "biased");
  EXPECT_EQ(order[3], "masked");
  EXPECT_EQ(record(t, "biased").substep, Substep::Bias);
  EXPECT_EQ(record(t, "masked").inputs, (std::vector<std::string>{"biased"}));
  // biased = scaled + bias; weights = softmax over the visible keys (j <= i) of biased, by hand.
  const Tensor& scaled = record(t, "scaled").tensor;
  const Tensor& biased = record(t, "biased").tensor;
  const Tensor& bias = record(t, "alibi_bias").tensor;
  const Tensor& weights = record(t, "weights").tensor;
  const int64_t T = c.tokens();
  double worst_bias = 0, worst_weights = 0;
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t hd = 0; hd < 4; ++hd)
      for (int64_t i = 0; i < T; ++i) {
        double total = 0;
        for (int64_t j = 0; j <= i; ++j) total += std::exp(double(biased.at({b, hd, i, j})));
        for (int64_t j = 0; j < T; ++j) {
          worst_bias = std::max(
              worst_bias, std::abs(double(biased.at({b, hd, i, j})) -
                                   double(scaled.at({b, hd, i, j})) - double(bias.at({hd, i, j}))));
          const double want = j <= i ? std::exp(double(biased.at({b, hd, i, j}))) / total : 0.0;
          worst_weights =
              std::max(worst_weights, std::abs(double(weights.at({b, hd, i, j})) - want));
        }
      }
  EXPECT_LT(worst_bias, 1e-6);
  EXPECT_LT(worst_weights, 1e-6);
}

TEST(EncodingsInPipeline, ForwardAndThePerHeadLoopAgreeWithTheTracedRunUnderAlibi) {
  Config c = small(PositionEncoding::Alibi);
  c.batch = 2;
  c.bias = true;
  c.mask.padding_lengths = {9, 6};
  const Trace t = run(c);
  const Inputs in = trace_inputs(t, {});
  const Tensor& out = record(t, "out").tensor;
  EXPECT_LT(max_difference(forward(c, in), out), 1e-5);
  EXPECT_LT(max_difference(run_loop(c, in).out, out), 1e-5);
  Config none = c;
  none.pos = PositionEncoding::None;
  EXPECT_GT(max_difference(out, record(run(none), "out").tensor), 1e-3)
      << "the bias changes the output";
}

TEST(EncodingsInPipeline, DecodingWithACacheAddsTheSameBiasRow) {
  Config c = small(PositionEncoding::Alibi);
  c.decode_steps = 4;
  c.mask.causal = true;
  const Trace t = run(c);
  const Tensor& out = record(t, "out").tensor;  // (1, T, d_model)
  const int64_t T = c.tokens();
  for (int64_t step = 0; step < 4; ++step) {
    const Tensor& row = record(t, decode_name(step, "out")).tensor;  // (1, 1, d_model)
    double worst = 0;
    for (int64_t e = 0; e < 16; ++e)
      worst = std::max(worst,
                       std::abs(double(row.at({0, 0, e})) - double(out.at({0, T - 4 + step, e}))));
    EXPECT_LT(worst, 1e-5) << "decode step " << step;
  }
}

TEST(EncodingsInPipeline, ForgetTransposeLeavesTheBiasOutAndSaysSo) {
  Config c = small(PositionEncoding::Alibi);
  c.mistake = Mistake::ForgetTranspose;
  const Trace t = run(c);
  EXPECT_EQ(t.find("biased"), nullptr);
  bool said = false;
  for (const std::string& n : t.diagnostics.notices) said |= n.find("ALiBi") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(EncodingsInPipeline, ShapeOnlyAndTheMemoryEstimateCountTheTables) {
  Config c = small(PositionEncoding::Alibi);
  c.shape_only = true;
  const Trace t = run(c);
  ASSERT_NE(t.find("biased"), nullptr);
  Config none = c;
  none.pos = PositionEncoding::None;
  const int64_t T = c.tokens();
  // ALiBi adds the (h, T, T) bias and the (B, h, T, T) biased scores, 4 bytes each.
  EXPECT_EQ(trace_bytes_needed(c) - trace_bytes_needed(none), 4 * (4 * T * T + 4 * T * T));
  Config sinusoidal = none;
  sinusoidal.pos = PositionEncoding::Sinusoidal;
  EXPECT_EQ(trace_bytes_needed(sinusoidal) - trace_bytes_needed(none), 4 * T * 16);
}

// [SECTION] the rules

std::string issues_of(const Config& c) {
  std::string all;
  for (const ConfigIssue& issue : validate(c)) all += issue.field + ": " + issue.message + "\n";
  return all;
}

TEST(EncodingsInPipeline, RopeAndAlibiNeedOneSequenceAndRopeAnEvenDk) {
  Config cross = small(PositionEncoding::Alibi);
  cross.sentence_kv = "a different sentence";
  EXPECT_NE(issues_of(cross).find("pos: ALiBi"), std::string::npos) << issues_of(cross);
  cross.pos = PositionEncoding::Rope;
  EXPECT_NE(issues_of(cross).find("choose another position encoding (--pos)"), std::string::npos) << issues_of(cross);
  Config odd = small(PositionEncoding::Rope);
  odd.d_k = 3;
  EXPECT_NE(issues_of(odd).find("pos: d_k=3 must be even"), std::string::npos) << issues_of(odd);
  Config mla = small(PositionEncoding::Alibi);
  mla.kv_latent = 6;
  EXPECT_NE(issues_of(mla).find("pos: MLA"), std::string::npos) << issues_of(mla);
  EXPECT_THROW(run(cross), UserError);
  EXPECT_EQ(issues_of(small(PositionEncoding::Learned)), "");
}

}  // namespace
}  // namespace attnlab
