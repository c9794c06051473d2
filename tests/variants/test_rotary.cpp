// Llama's RoPE (rotate-half) as a sub-step of the transpose stage: q_rot and k_rot against a naive
// double-precision loop, GQA reading the turned keys, decoding turning each token by its position,
// the relative-position property, the equivalence with MLA's interleaved pairing, the inverse
// frequencies (generated or given), the rules, and the mistakes run with it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/model/config_fields.hpp"
#include "core/model/config_json.hpp"
#include "core/model/errors.hpp"
#include "core/model/forward.hpp"
#include "core/model/mha_loop.hpp"
#include "core/teaching/code_view.hpp"
#include "core/teaching/mistakes.hpp"
#include "core/trace/plan.hpp"
#include "core/variants/rotary.hpp"
#include "variant_fixtures.hpp"

namespace attnlab {
namespace {

using testing::inputs_for;
using testing::small_config;
using testing::worst;

Config rope_config(int64_t n_kv = 4) {
  Config c = small_config(2, 7, 16, 4, n_kv);  // d_k = 4
  c.rope_theta = 10000;
  c.bias = true;
  c.mask.causal = true;
  return c;
}

// (B, heads, T, d_k) naive: row (b, t) projected, split into heads, turned at position t.
std::vector<double> naive_rotated(const Config& c, const Inputs& in, char which) {
  const Tensor& w = which == 'q' ? in.w_q : in.w_k;
  const Tensor& bias = which == 'q' ? in.b_q : in.b_k;
  const int64_t B = c.batch, T = c.tokens(), dk = c.head_dim_k(), heads = w.size(1) / dk;
  const std::vector<double> inv_freq = testing::inverse_frequencies(in);
  std::vector<double> out(size_t(B * heads * T * dk));
  for (int64_t b = 0; b < B; ++b)
    for (int64_t t = 0; t < T; ++t) {
      std::vector<double> row = testing::naive_row(in.x, b, t, w, bias);
      testing::naive_rotate_half(row, dk, t, inv_freq);
      for (int64_t hd = 0; hd < heads; ++hd)
        for (int64_t e = 0; e < dk; ++e)
          out[size_t(((b * heads + hd) * T + t) * dk + e)] = row[size_t(hd * dk + e)];
    }
  return out;
}

double worst_out(const Trace& t, const testing::VariantReference& ref) {
  return worst(t, "out", ref.out);
}

// [SECTION] the sub-step against the naive loop

TEST(Rotary, QAndKRotAgainstANaiveLoop) {
  const Config c = rope_config();
  const Inputs in = inputs_for(c);
  const Trace t = run(c, in);
  const double q = worst(t, "q_rot", naive_rotated(c, in, 'q'));
  const double k = worst(t, "k_rot", naive_rotated(c, in, 'k'));
  const testing::VariantReference ref = testing::reference_variant(c, in);
  const double w = worst(t, "weights", ref.weights), out = worst_out(t, ref);
  std::printf("rope: max |q_rot| diff %.2e, k_rot %.2e, weights %.2e, out %.2e\n", q, k, w, out);
  EXPECT_LT(q, 1e-5);
  EXPECT_LT(k, 1e-5);
  EXPECT_LT(w, 1e-5);
  EXPECT_LT(out, 1e-5);
}

TEST(Rotary, TheRecordsAreTheTransposeStagesRotateSubstep) {
  const Config c = rope_config();
  const Trace t = run(c);
  const TensorRecord* q = t.find("q_rot");
  const TensorRecord* k = t.find("k_rot");
  ASSERT_TRUE(q && k);
  EXPECT_EQ(q->stage, Stage::Transpose);
  EXPECT_EQ(q->substep, Substep::Rotate);
  EXPECT_EQ(q->axes_text(), "(B, h, T, d_k)");
  EXPECT_EQ(q->tensor.shape(), (Shape{2, 4, 7, 4}));
  EXPECT_EQ(q->inputs, (std::vector<std::string>{"q_heads", "rope_inv_freq"}));
  EXPECT_EQ(k->inputs, (std::vector<std::string>{"k_heads", "rope_inv_freq"}));
  EXPECT_FALSE(q->is_view);  // a new tensor: the rotation reads the transposed view's strides
  EXPECT_TRUE(q->tensor.is_contiguous());
  EXPECT_DOUBLE_EQ(q->flops, 6.0 * 2 * 4 * 7 * 2);  // 6 per pair
  EXPECT_EQ(t.find("scores")->inputs, (std::vector<std::string>{"q_rot", "k_rot"}));
  EXPECT_NE(q->pytorch.find("q = q * cos + rotate_half(q) * sin"), std::string::npos);
  EXPECT_NE(q->formula.find("theta = 10000"), std::string::npos);
  // In the order the stage runs: the transposes, then the rotations.
  std::vector<std::string> transpose;
  for (const TensorRecord* r : t.stage_records(Stage::Transpose)) transpose.push_back(r->name);
  EXPECT_EQ(transpose,
            (std::vector<std::string>{"q_heads", "k_heads", "v_heads", "q_rot", "k_rot"}));
  Substep parsed = Substep::None;
  ASSERT_TRUE(parse_substep("rotate", parsed));
  EXPECT_EQ(parsed, Substep::Rotate);
  // The inverse frequencies are a parameter of the trace (exported as rope_inv_freq.npy).
  const TensorRecord* freq = t.find("rope_inv_freq");
  ASSERT_NE(freq, nullptr);
  EXPECT_EQ(freq->tensor.shape(), (Shape{2}));
  EXPECT_EQ(freq->pytorch, "self.rotary_emb.inv_freq");
}

TEST(Rotary, OffRecordsNothingAndChangesNothing) {
  Config c = rope_config();
  c.rope_theta = 0;
  const Trace t = run(c);
  EXPECT_EQ(t.find("q_rot"), nullptr);
  EXPECT_EQ(t.find("rope_inv_freq"), nullptr);
  EXPECT_EQ(t.find("scores")->inputs, (std::vector<std::string>{"q_heads", "k_heads"}));
  EXPECT_FALSE(plan_for(c).rotate);
  EXPECT_TRUE(plan_for(rope_config()).rotate);
}

TEST(Rotary, ThePositionZeroTokenIsNotTurned) {
  const Trace t = run(rope_config());
  const Tensor& heads = t.find("q_heads")->tensor;
  const Tensor& turned = t.find("q_rot")->tensor;
  for (int64_t hd = 0; hd < 4; ++hd)
    for (int64_t e = 0; e < 4; ++e) EXPECT_EQ(turned.at({1, hd, 0, e}), heads.at({1, hd, 0, e}));
}

// [SECTION] the inverse frequencies

TEST(Rotary, GeneratedInverseFrequenciesAreThetaToTheMinusTwoIOverDk) {
  Config c = rope_config();
  c.d_model = 32;  // d_k = 8
  c.rope_theta = 500000;
  const Inputs in = inputs_for(c);
  ASSERT_EQ(in.rope_inv_freq.shape(), (Shape{4}));
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_FLOAT_EQ(in.rope_inv_freq.at({i}), float(std::pow(500000.0, -2.0 * double(i) / 8.0)));
}

TEST(Rotary, AGivenInverseFrequencyIsUsed) {
  const Config c = rope_config();
  Inputs given;
  given.rope_inv_freq = Tensor::zeros("freq", {2});
  given.rope_inv_freq.at({0}) = 0.75f;  // as a model's rope_scaling would supply its own
  given.rope_inv_freq.at({1}) = 0.002f;
  const Inputs in = inputs_for(c, given);
  EXPECT_EQ(in.rope_inv_freq.at({0}), 0.75f);
  const Trace t = run(c, in);
  EXPECT_LT(worst(t, "q_rot", naive_rotated(c, in, 'q')), 1e-5);
  EXPECT_LT(worst_out(t, testing::reference_variant(c, in)), 1e-5);
  EXPECT_EQ(t.find("rope_inv_freq")->tensor.at({0}), 0.75f);
  // ... and differs from the generated one.
  const Trace plain = run(c, inputs_for(c));
  EXPECT_GT(max_abs_difference(plain.find("q_rot")->tensor, t.find("q_rot")->tensor), 1e-3);
}

TEST(Rotary, AGivenInverseFrequencyOfTheWrongShapeIsRefused) {
  const Config c = rope_config();
  Inputs given;
  given.rope_inv_freq = Tensor::zeros("freq", {3});
  try {
    inputs_for(c, given);
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("rope_inv_freq has shape (3) but this configuration "
                                         "needs (2) (d_k/2 inverse frequencies, d_k = 4)"),
              std::string::npos)
        << e.what();
  }
}

// [SECTION] positions: only their difference counts

TEST(Rotary, ScoresAreUnchangedWhenEveryPositionShifts) {
  // Random (1, 3, T, d) q and k turned from position 0 and from position 37: q_rot k_rot^T equal.
  const int64_t T = 6, d = 8;
  Tensor q = Tensor::zeros("q", {1, 3, T, d}), k = Tensor::zeros("k", {1, 3, T, d});
  for (int64_t i = 0; i < q.numel(); ++i) {
    q.data()[i] = float(std::sin(0.7 * double(i) + 0.3));
    k.data()[i] = float(std::cos(1.3 * double(i) - 0.2));
  }
  Tensor freq = Tensor::zeros("f", {d / 2});
  for (int64_t i = 0; i < d / 2; ++i) freq.data()[i] = float(std::pow(10000.0, -2.0 * i / d));
  double worst_shift = 0, largest = 0;
  for (int64_t shift : {1, 37, 1000}) {
    const Tensor q0 = rotate_half(q, freq, "q0"), k0 = rotate_half(k, freq, "k0");
    const Tensor qs = rotate_half(q, freq, "qs", shift), ks = rotate_half(k, freq, "ks", shift);
    for (int64_t hd = 0; hd < 3; ++hd)
      for (int64_t i = 0; i < T; ++i)
        for (int64_t j = 0; j < T; ++j) {
          double at0 = 0, shifted = 0;
          for (int64_t e = 0; e < d; ++e) {
            at0 += double(q0.at({0, hd, i, e})) * double(k0.at({0, hd, j, e}));
            shifted += double(qs.at({0, hd, i, e})) * double(ks.at({0, hd, j, e}));
          }
          worst_shift = std::max(worst_shift, std::abs(at0 - shifted));
          largest = std::max(largest, std::abs(at0));
        }
  }
  std::printf("rope: max |scores(shifted) - scores| = %.2e (scores up to %.2f)\n", worst_shift,
              largest);
  EXPECT_LT(worst_shift, 1e-4);
  EXPECT_GT(largest, 0.1);
}

TEST(Rotary, TheNaiveReferenceShiftedGivesTheSameWeights) {
  const Config c = rope_config();
  const Inputs in = inputs_for(c);
  const testing::VariantReference at0 = testing::reference_variant(c, in);
  const testing::VariantReference at50 = testing::reference_variant(c, in, 50);
  EXPECT_LT(testing::max_abs_diff(at0.weights, at50.weights), 1e-12);
}

TEST(Rotary, TheSameTokenEverywhereGivesScoresThatDependOnlyOnTheDistance) {
  // Every token the same vector: without RoPE all scores of a head are equal; with it, score
  // (i, j) depends on i - j only (each diagonal constant), and the diagonals differ.
  Config c = rope_config();
  c.mask = {};
  c.batch = 1;
  Inputs given;
  given.x = Tensor::zeros("x", {1, 7, 16});
  for (int64_t t = 0; t < 7; ++t)
    for (int64_t e = 0; e < 16; ++e) given.x.at({0, t, e}) = float(std::cos(double(e)));
  const Trace t = run(c, given);
  const Tensor& s = t.find("scores")->tensor;
  double off_diagonal = 0, across = 0;
  for (int64_t hd = 0; hd < 4; ++hd)
    for (int64_t i = 0; i + 1 < 7; ++i)
      for (int64_t j = 0; j + 1 < 7; ++j) {
        off_diagonal = std::max(
            off_diagonal, double(std::abs(s.at({0, hd, i, j}) - s.at({0, hd, i + 1, j + 1}))));
        across = std::max(across, double(std::abs(s.at({0, hd, i, j}) - s.at({0, hd, 0, 0}))));
      }
  EXPECT_LT(off_diagonal, 1e-5);
  EXPECT_GT(across, 1e-2);
}

// [SECTION] the two pairings: the same rotation in a permuted basis

TEST(Rotary, RotateHalfIsMlasInterleavedPairingWithEvenDimensionsFirst) {
  // MLA's rotate_by_position turns pairs (2p, 2p + 1) by t * 10000^(-2p/d); rotate_half turns
  // (p, p + d/2) by t * inv_freq[p]. With the basis permuted (even dimensions first, then odd)
  // they are the same: rotate_half(P y) = P interleaved(y).
  const int64_t T = 5, d = 8;
  Tensor rows = Tensor::zeros("rows", {1, T, d});  // interleaved layout, (B, T, d_rope)
  for (int64_t i = 0; i < rows.numel(); ++i) rows.data()[i] = float(std::sin(1.1 * double(i)));
  Tensor permuted = Tensor::zeros("permuted", {1, 1, T, d});  // P y: evens, then odds
  for (int64_t t = 0; t < T; ++t)
    for (int64_t p = 0; p < d / 2; ++p) {
      permuted.at({0, 0, t, p}) = rows.at({0, t, 2 * p});
      permuted.at({0, 0, t, p + d / 2}) = rows.at({0, t, 2 * p + 1});
    }
  Tensor freq = Tensor::zeros("f", {d / 2});
  for (int64_t p = 0; p < d / 2; ++p) freq.data()[p] = float(std::pow(10000.0, -2.0 * p / d));
  const Tensor half = rotate_half(permuted, freq, "half");
  rotate_by_position(rows, d);
  double diff = 0;
  for (int64_t t = 0; t < T; ++t)
    for (int64_t p = 0; p < d / 2; ++p) {
      diff = std::max(diff, double(std::abs(half.at({0, 0, t, p}) - rows.at({0, t, 2 * p}))));
      diff = std::max(diff,
                      double(std::abs(half.at({0, 0, t, p + d / 2}) - rows.at({0, t, 2 * p + 1}))));
    }
  std::printf("rope: max |rotate_half(P y) - P interleaved(y)| = %.2e\n", diff);
  EXPECT_LT(diff, 1e-6);
}

// [SECTION] GQA/MQA and decoding

class RotaryGrouped : public ::testing::TestWithParam<int64_t> {};

TEST_P(RotaryGrouped, TheExpandReadsTheTurnedKeys) {
  const int64_t n_kv = GetParam();
  const Config c = rope_config(n_kv);
  const Inputs in = inputs_for(c);
  const Trace t = run(c, in);
  const TensorRecord* k = t.find("k_rot");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->tensor.shape(), (Shape{2, n_kv, 7, 4}));
  if (n_kv < 4) {
    EXPECT_EQ(k->axes_text(), "(B, n_kv, T, d_k)");
    EXPECT_EQ(t.find("k_grouped")->inputs, (std::vector<std::string>{"k_rot"}));
    EXPECT_EQ(t.find("v_grouped")->inputs, (std::vector<std::string>{"v_heads"}));
    EXPECT_EQ(t.find("scores")->inputs, (std::vector<std::string>{"q_rot", "k_expanded"}));
  } else {
    EXPECT_EQ(t.find("scores")->inputs, (std::vector<std::string>{"q_rot", "k_rot"}));
  }
  EXPECT_LT(worst(t, "k_rot", naive_rotated(c, in, 'k')), 1e-5);
  const testing::VariantReference ref = testing::reference_variant(c, in);
  EXPECT_LT(worst(t, "weights", ref.weights), 1e-5);
  EXPECT_LT(worst_out(t, ref), 1e-5);
  // The production path and the per-head loop turn q and k too.
  EXPECT_LT(max_abs_difference(forward(c, in), t.find("out")->tensor), 1e-5);
  EXPECT_LT(max_abs_difference(run_loop(c, in).out, t.find("out")->tensor), 1e-5);
}

INSTANTIATE_TEST_SUITE_P(KVHeads, RotaryGrouped, ::testing::Values(1, 2, 4));

TEST(Rotary, DecodingTurnsEachTokenByItsPosition) {
  Config c = rope_config(2);
  c.decode_steps = 3;
  const Inputs in = inputs_for(c);
  const Trace t = run(c, in);
  const int64_t P = 4;
  Config full = c;
  full.decode_steps = 0;
  const testing::VariantReference ref = testing::reference_variant(full, in);
  // The cache holds the turned keys: the prompt's are k_rot's first P positions.
  const Tensor& k_rot = t.find("k_rot")->tensor;
  const Tensor& prefill = t.find("prefill_k_cache")->tensor;
  double cache = 0;
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t j = 0; j < 2; ++j)
      for (int64_t s = 0; s < P; ++s)
        for (int64_t e = 0; e < 4; ++e)
          cache =
              std::max(cache, double(std::abs(prefill.at({b, j, s, e}) - k_rot.at({b, j, s, e}))));
  EXPECT_LT(cache, 1e-6);
  for (int64_t i = 0; i < 3; ++i) {
    const std::string n = "decode" + std::to_string(i);
    const TensorRecord* q = t.find(n + "_q_rot");
    ASSERT_NE(q, nullptr) << n;
    EXPECT_EQ(q->pass, Pass::Decode);
    EXPECT_EQ(q->substep, Substep::Rotate);
    EXPECT_EQ(t.find(n + "_k_rot")->tensor.shape(), (Shape{2, 2, 1, 4}));
    EXPECT_EQ(t.find(n + "_scores")->inputs[0], n + "_q_rot");
    EXPECT_EQ(t.find(n + "_k_cache")->inputs[1], n + "_k_rot");
    // Row P + i of the forward pass's q_rot, and of its output.
    double q_row = 0;
    const Tensor& forward_q = t.find("q_rot")->tensor;
    for (int64_t b = 0; b < 2; ++b)
      for (int64_t hd = 0; hd < 4; ++hd)
        for (int64_t e = 0; e < 4; ++e)
          q_row = std::max(q_row, double(std::abs(q->tensor.at({b, hd, 0, e}) -
                                                  forward_q.at({b, hd, P + i, e}))));
    EXPECT_LT(q_row, 1e-6) << n;
    const Tensor& row = t.find(n + "_out")->tensor;
    double out = 0;
    for (int64_t b = 0; b < 2; ++b)
      for (int64_t o = 0; o < 16; ++o)
        out = std::max(
            out, std::abs(double(row.at({b, 0, o})) - ref.out[size_t((b * 7 + P + i) * 16 + o)]));
    EXPECT_LT(out, 1e-5) << n;
  }
}

// [SECTION] the rules

std::string issues_of(const Config& c) {
  return describe(validate(c));
}

TEST(Rotary, NotWithMla) {
  Config c = rope_config();
  c.n_kv_heads = 0;
  c.bias = false;
  c.kv_latent = 6;
  c.rope_dim = 2;
  EXPECT_EQ(issues_of(c),
            "MLA has its own rotary part, interleaved pairs on a separate key (--mla D_C:D_ROPE): "
            "drop --rope-theta, or drop --mla");
}

TEST(Rotary, NotWithCrossAttention) {
  Config c = rope_config();
  c.mask = {};
  c.sentence_kv = "Le chat";
  EXPECT_EQ(issues_of(c),
            "RoPE turns queries and keys by their positions in one sequence, but "
            "cross-attention's keys are another sentence: drop --rope-theta, or drop "
            "--sentence-kv / --x-kv");
}

TEST(Rotary, DkMustBeEven) {
  Config c = rope_config();
  c.d_k = 5;
  const std::vector<ConfigIssue> issues = validate(c);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].field, "rope_theta");
  EXPECT_EQ(issues[0].message,
            "d_k=5 must be even for RoPE, which turns pairs of dimensions: set d_k to 6 (--d-k 6), "
            "or drop --rope-theta");
  EXPECT_EQ(issues[0].in_controls,
            "d_k=5 must be even for RoPE, which turns pairs of dimensions: set d_k to 6, or turn "
            "off RoPE theta");
}

TEST(Rotary, ThetaOutOfRange) {
  for (double theta : {-1.0, 0.5, 1e13, std::numeric_limits<double>::quiet_NaN()}) {
    Config c = rope_config();
    c.rope_theta = theta;
    const std::vector<ConfigIssue> issues = validate(c);
    ASSERT_EQ(issues.size(), 1u) << theta;
    EXPECT_EQ(issues[0].field, "rope_theta");
    EXPECT_EQ(issues[0].message, "rope_theta=" + format_number(theta) +
                                     " is out of range: the RoPE base theta must be 0 (off) or "
                                     "at least 1 and below 1e+12");
  }
  for (double theta : {0.0, 1.0, 10000.0, 500000.0}) {
    Config c = rope_config();
    c.rope_theta = theta;
    EXPECT_TRUE(validate(c).empty()) << theta;
  }
}

TEST(Rotary, TheConfigFieldReadsAndWritesJson) {
  const ConfigField* f = find_config_field("rope_theta");
  ASSERT_NE(f, nullptr);
  EXPECT_STREQ(f->flag, "--rope-theta");
  Config c;
  EXPECT_EQ(field_text(*f, c), "off");
  c.rope_theta = 500000;
  EXPECT_EQ(field_text(*f, c), "500000");
  std::vector<std::string> warnings;
  EXPECT_EQ(config_from_json(config_to_json(c), "test", {}, warnings).rope_theta, 500000);
  try {
    config_from_json(nlohmann::json{{"rope_theta", -3}}, "preset.json", {}, warnings);
    FAIL() << "no error";
  } catch (const UserError& e) {
    EXPECT_NE(std::string(e.what()).find("must be 0 (off) or a number in [1, 1e+12), not -3"),
              std::string::npos)
        << e.what();
  }
}

// [SECTION] the mistakes with RoPE

TEST(Rotary, EveryMistakeRunsWithIt) {
  for (const MistakeInfo& m : all_mistakes()) {
    Config c = rope_config();
    c.n_kv_heads = 0;
    c.mistake = m.id;
    ASSERT_TRUE(validate(c).empty()) << m.name << ": " << issues_of(c);
    const Trace t = run(c);
    const bool turned = t.find("q_rot") != nullptr;
    EXPECT_EQ(turned, m.id != Mistake::ForgetTranspose) << m.name;
    EXPECT_FALSE(reference_code(c).empty());
  }
}

TEST(Rotary, ForgetTransposeSkipsTheRotationAndSaysSo) {
  Config c = rope_config();
  c.n_kv_heads = 0;
  c.mistake = Mistake::ForgetTranspose;
  const Plan p = plan_for(c);
  EXPECT_FALSE(p.rotate);
  const Trace t = run(c);
  EXPECT_EQ(t.find("q_rot"), nullptr);
  EXPECT_EQ(t.find("scores")->inputs, (std::vector<std::string>{"q_split", "k_split"}));
  bool said = false;
  for (const std::string& notice : t.diagnostics.notices)
    said = said || notice.find("q and k were not rotated") != std::string::npos;
  EXPECT_TRUE(said);
  // The code shows the rotation commented out, beside the forgotten transpose.
  bool commented = false;
  for (const CodeLine& line : reference_code(c))
    commented =
        commented || line.text.find("# q = q * cos + rotate_half(q) * sin") != std::string::npos;
  EXPECT_TRUE(commented);
}

// [SECTION] the code view, shape-only, memory

TEST(Rotary, TheCodeViewPrintsTheRotation) {
  std::string code;
  for (const CodeLine& line : reference_code(rope_config(2))) code += line.text + "\n";
  const size_t cos_sin = code.find("cos, sin = rotary_cos_sin(T, self.inv_freq)");
  const size_t q = code.find("q = q * cos + rotate_half(q) * sin");
  const size_t k = code.find("k = k * cos + rotate_half(k) * sin");
  const size_t transpose = code.find("k = k.transpose(1, 2)");
  const size_t expand = code.find("k = k[:, :, None].expand");
  ASSERT_NE(q, std::string::npos) << code;
  EXPECT_LT(transpose, cos_sin);
  EXPECT_LT(cos_sin, q);
  EXPECT_LT(q, k);
  EXPECT_LT(k, expand);
}

TEST(Rotary, ShapeOnlyRunsAndTheMemoryEstimateCountsTheRotation) {
  Config c = rope_config();
  c.shape_only = true;
  const Trace t = run(c);
  ASSERT_NE(t.find("q_rot"), nullptr);
  EXPECT_EQ(t.find("q_rot")->tensor.shape(), (Shape{2, 4, 7, 4}));
  Config off = rope_config();
  off.rope_theta = 0;
  // q_rot (2*4*7*4) and k_rot (the same) and rope_inv_freq (2) floats more.
  EXPECT_EQ(trace_bytes_needed(rope_config()) - trace_bytes_needed(off),
            int64_t(sizeof(Scalar)) * (2 * 224 + 2));
}

}  // namespace
}  // namespace attnlab
