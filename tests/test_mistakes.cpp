// Each injected mistake produces the symptom the seeds document; head ablation zeroes a head.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "core/model/preset.hpp"
#include "core/model/tokenizer.hpp"
#include "core/teaching/ablation.hpp"
#include "core/teaching/mistakes.hpp"
#include "core/trace/mha.hpp"
#include "mistake_landings.hpp"

namespace attnlab {
namespace {

Config base(Mistake mistake, int64_t T = 6, int64_t d_model = 8, int64_t h = 2) {
  Config c;
  c.batch = 2;
  c.seq_len = T;
  c.d_model = d_model;
  c.n_heads = h;
  c.seed = 5;
  c.mistake = mistake;
  return c;
}

const Tensor& tensor(const Trace& t, const std::string& name) {
  const TensorRecord* r = t.find(name);
  EXPECT_NE(r, nullptr) << name;
  return r->tensor;
}

Config without_mistake(Config c) {
  c.mistake = Mistake::None;
  return c;
}

TEST(Mistakes, EveryMistakeHasANameAndParses) {
  EXPECT_EQ(all_mistakes().size(), 10u);
  for (const MistakeInfo& m : all_mistakes()) {
    Mistake parsed = Mistake::None;
    EXPECT_TRUE(parse_mistake(m.name, parsed));
    EXPECT_EQ(parsed, m.id);
    EXPECT_NE(std::string(m.wrong), std::string(m.right));
  }
  Mistake none;
  EXPECT_FALSE(parse_mistake("forgot-everything", none));
}

TEST(Mistakes, ForgetTransposeAttendsHeadsToHeads) {
  const Trace t = run(base(Mistake::ForgetTranspose));
  EXPECT_EQ(tensor(t, "scores").shape(), (Shape{2, 6, 2, 2}));  // (B, T, h, h)
  EXPECT_EQ(tensor(t, "weights").shape(), (Shape{2, 6, 2, 2}));
  EXPECT_EQ(t.find("q_heads"), nullptr);                  // no transpose happened
  EXPECT_EQ(tensor(t, "out").shape(), (Shape{2, 6, 8}));  // and yet the shapes line up
  EXPECT_GT(compare_with_correct(run(without_mistake(t.config)), t).out_max_abs_error, 1e-3);
}

TEST(Mistakes, ConcatWithoutTransposeScramblesUnlessOneHead) {
  const Trace t = run(base(Mistake::ConcatNoTranspose));
  EXPECT_TRUE(t.find("concat")->is_view);
  EXPECT_EQ(t.find("concat")->storage_owner, "context");
  EXPECT_GT(compare_with_correct(run(without_mistake(t.config)), t).out_max_abs_error, 1e-3);
  const Trace one_head = run(base(Mistake::ConcatNoTranspose, 6, 8, 1));
  EXPECT_EQ(compare_with_correct(run(without_mistake(one_head.config)), one_head).out_max_abs_error,
            0.0);
}

TEST(Mistakes, ViewWithoutContiguousRaisesInTheConcatStage) {
  const Trace t = run(base(Mistake::ViewNoContiguous));
  ASSERT_TRUE(t.failure.failed);
  EXPECT_EQ(t.failure.stage, Stage::Concat);
  EXPECT_NE(t.failure.message.find("view size is not compatible"), std::string::npos);
  EXPECT_EQ(t.find("out"), nullptr);
  EXPECT_NE(t.find("context_t"), nullptr);
  EXPECT_NE(compare_with_correct(run(without_mistake(t.config)), t).symptom.find("RuntimeError"),
            std::string::npos);
  // With one head the transposed context is still contiguous: PyTorch raises nothing either.
  EXPECT_FALSE(run(base(Mistake::ViewNoContiguous, 6, 8, 1)).failure.failed);
}

TEST(Mistakes, ScaleByDModelFlattensAndNoScaleSaturates) {
  const Config good = base(Mistake::None, 12, 64, 8);  // d_k = 8, d_model = 64
  const Trace correct = run(good);
  Config c = good;
  c.mistake = Mistake::ScaleDModel;
  const Trace flat = run(c);
  const Tensor& scores = tensor(flat, "scores");
  EXPECT_NEAR(tensor(flat, "scaled").at({1, 3, 4, 5}), scores.at({1, 3, 4, 5}) / 8.0f, 1e-6);
  const MistakeReport flat_report = compare_with_correct(correct, flat);
  EXPECT_GT(flat_report.entropy_buggy_bits, flat_report.entropy_correct_bits);
  c.mistake = Mistake::NoScale;
  const Trace sharp = run(c);
  EXPECT_TRUE(sharp.find("scaled")->is_view);  // the unscaled scores themselves
  const MistakeReport sharp_report = compare_with_correct(correct, sharp);
  EXPECT_LT(sharp_report.entropy_buggy_bits, sharp_report.entropy_correct_bits);
  EXPECT_NE(sharp_report.symptom.find("saturated softmax: entropy drops"), std::string::npos);
}

TEST(Mistakes, SoftmaxOverTheWrongAxisNormalisesColumns) {
  const Trace t = run(base(Mistake::SoftmaxWrongAxis));
  const Tensor& w = tensor(t, "weights");
  for (int64_t j = 0; j < 6; ++j) {
    double column = 0;
    for (int64_t i = 0; i < 6; ++i) column += w.at({1, 1, i, j});
    EXPECT_NEAR(column, 1.0, 1e-6);
  }
  EXPECT_GT(t.diagnostics.max_row_sum_error, 0.01);
}

TEST(Mistakes, MaskAfterSoftmaxLeavesRowsShort) {
  Config c = base(Mistake::MaskAfterSoftmax);
  c.mask.causal = true;
  const Trace t = run(c);
  const Tensor& before = tensor(t, "weights_before_mask");
  const Tensor& w = tensor(t, "weights");
  EXPECT_EQ(w.at({0, 0, 1, 4}), 0.0f);                           // upper triangle zeroed
  EXPECT_FLOAT_EQ(w.at({0, 0, 0, 0}), before.at({0, 0, 0, 0}));  // row 0 keeps one weight
  EXPECT_LT(w.at({0, 0, 0, 0}), 0.9f);                           // ... and sums to < 1
  EXPECT_GT(t.diagnostics.max_row_sum_error, 0.1);
}

TEST(Mistakes, MaskWithZeroLeaksFutureTokens) {
  Config c = base(Mistake::MaskZero);
  c.mask.causal = true;
  const Trace t = run(c);
  EXPECT_EQ(tensor(t, "masked").at({0, 1, 2, 5}), 0.0f);  // 0, not -inf
  EXPECT_GT(tensor(t, "weights").at({0, 1, 2, 5}), 0.0f);
  EXPECT_GT(t.diagnostics.masked_nonzero, 0);
  const MistakeReport report = compare_with_correct(run(without_mistake(c)), t);
  EXPECT_GT(report.max_future_weight, 0.0);
  EXPECT_NE(report.symptom.find("masked tokens leak"), std::string::npos);
}

TEST(Mistakes, DropoutOnTheOutputKeepsWeightsAndDropsValues) {
  Config c = base(Mistake::DropoutOnOutput, 16);
  c.dropout = 0.5;
  const Trace t = run(c);
  EXPECT_EQ(t.find("weights_dropout"), nullptr);
  EXPECT_LT(t.diagnostics.max_row_sum_error, 1e-6);
  const std::vector<Scalar> raw = tensor(t, "context_before_dropout").to_vector();
  const std::vector<Scalar> dropped = tensor(t, "context").to_vector();
  int zeros = 0;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (dropped[i] == 0.0f) {
      ++zeros;
    } else {
      EXPECT_NEAR(dropped[i], 2.0f * raw[i], 1e-6);
    }
  }
  EXPECT_GT(zeros, int(raw.size() / 4));
}

TEST(Mistakes, SharedProjectionMakesScoresSymmetric) {
  const Trace t = run(base(Mistake::SharedQkProjection));
  EXPECT_EQ(tensor(t, "k").to_vector(), tensor(t, "q").to_vector());
  // S[i, j] = q_i . q_j and S[j, i] = q_j . q_i: the same products, but two different cells of
  // the GEMM, which need not sum them in the same order: symmetric to rounding.
  const Tensor& s = tensor(t, "scores");
  for (int64_t i = 0; i < 6; ++i)
    for (int64_t j = 0; j < 6; ++j)
      EXPECT_NEAR(s.at({1, 0, i, j}), s.at({1, 0, j, i}), 1e-5) << i << "," << j;
}

// seed 003: the artist sentence, 11 tokens, d_in 8, d_model 4, 2 heads of d_k 2, causal mask, no
// output projection.
Config seed003(Mistake mistake) {
  Config c = find_preset("seed003").config;
  c.mistake = mistake;
  return c;
}

// Largest |b - a| over the largest |value| of either, both read through at() from the two records.
double change_on_scale(const Tensor& a, const Tensor& b) {
  const std::vector<Scalar> x = a.to_vector(), y = b.to_vector();
  double largest = 0, change = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    largest = std::max({largest, double(std::abs(x[i])), double(std::abs(y[i]))});
    change = std::max(change, double(std::abs(y[i] - x[i])));
  }
  return change / largest;
}

TEST(Mistakes, EachIsComparedOnTheRecordWhereItLands) {
  using test_data::kMistakeLandings;
  ASSERT_EQ(std::size(kMistakeLandings), all_mistakes().size());
  const Trace correct = run(seed003(Mistake::None));
  for (const test_data::Landing& c : kMistakeLandings) {
    const Trace buggy = run(seed003(c.mistake));
    const MistakeReport report = compare_with_correct(correct, buggy);
    EXPECT_EQ(report.record, c.record) << mistake_info(c.mistake).name;
    EXPECT_EQ(std::string(mistake_info(c.mistake).lands_in), c.record);
    const TensorRecord* wrong = buggy.find(c.record);
    if (c.mistake == Mistake::ViewNoContiguous || c.mistake == Mistake::ForgetTranspose) continue;
    ASSERT_NE(wrong, nullptr) << c.record;
    EXPECT_NEAR(report.visible_change,
                change_on_scale(correct.find(c.record)->tensor, wrong->tensor), 1e-6)
        << mistake_info(c.mistake).name;
  }
}

TEST(Mistakes, ConcatWithoutTransposeAndOutputDropoutChangeWhatTheyLandIn) {
  const Trace correct = run(seed003(Mistake::None));
  // The buggy concat reads the (B, h, T, d_v) context in its own order: concat row t, column c is
  // context element t * h*d_v + c of head-major storage, not head c / d_v of token t.
  const Trace scrambled = run(seed003(Mistake::ConcatNoTranspose));
  const Tensor& context = scrambled.find("context")->tensor;  // (1, 2, 11, 2)
  const Tensor& concat = scrambled.find("concat")->tensor;    // (1, 11, 4)
  EXPECT_EQ(concat.at({0, 3, 1}), context.at({0, 0, 6, 1}));  // flat 13 = head 0, token 6, e 1
  EXPECT_EQ(correct.find("concat")->tensor.at({0, 3, 1}), context.at({0, 0, 3, 1}));
  const MistakeReport scrambled_report = compare_with_correct(correct, scrambled);
  EXPECT_FALSE(scrambled_report.too_small_to_see) << scrambled_report.visible_change;

  // Dropout slider at 0: the bug drops the context with p = dropout_on_output_p = 0.1.
  ASSERT_EQ(correct.config.dropout, 0.0);
  EXPECT_EQ(dropout_on_output_p(correct.config), 0.1);
  const Trace dropped = run(seed003(Mistake::DropoutOnOutput));
  const std::vector<Scalar> raw = dropped.find("context_before_dropout")->tensor.to_vector();
  const std::vector<Scalar> out = dropped.find("context")->tensor.to_vector();
  EXPECT_EQ(raw, correct.find("context")->tensor.to_vector());
  int zeros = 0;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (out[i] == 0.0f && raw[i] != 0.0f) {
      ++zeros;
    } else {
      EXPECT_NEAR(out[i], raw[i] / 0.9f, 1e-6) << i;
    }
  }
  EXPECT_GT(zeros, 0);
  const MistakeReport dropped_report = compare_with_correct(correct, dropped);
  EXPECT_FALSE(dropped_report.too_small_to_see) << dropped_report.visible_change;
  EXPECT_NE(std::find(dropped.diagnostics.notices.begin(), dropped.diagnostics.notices.end(),
                      "dropout-on-output: dropout is off, so p = 0.1 is used"),
            dropped.diagnostics.notices.end());
}

TEST(Mistakes, ViewWithoutContiguousNamesTheStridesThatForbidTheView) {
  const Trace buggy = run(seed003(Mistake::ViewNoContiguous));
  const MistakeReport report = compare_with_correct(run(seed003(Mistake::None)), buggy);
  // context (1, 2, 11, 2) is contiguous with strides (44, 22, 2, 1); transposed to (1, 11, 2, 2)
  // its strides are (44, 2, 22, 1): h (stride 22) and d_v (2 of stride 1) are not adjacent.
  EXPECT_NE(report.layout.find("(1, 11, 2, 2)"), std::string::npos) << report.layout;
  EXPECT_NE(report.layout.find("strides (44, 2, 22, 1)"), std::string::npos) << report.layout;
  EXPECT_FALSE(report.too_small_to_see);
}

TEST(Mistakes, SharedProjectionIsSymmetricOnTheScaledScoresUnderTheCausalMask) {
  const Trace t = run(seed003(Mistake::SharedQkProjection));
  ASSERT_TRUE(t.config.mask.causal);
  const Tensor& scaled = tensor(t, "scaled");  // (1, 2, 11, 11), before the mask
  for (int64_t h = 0; h < 2; ++h)
    for (int64_t i = 0; i < 11; ++i)
      for (int64_t j = 0; j < i; ++j)  // two GEMM cells: equal to rounding
        EXPECT_NEAR(scaled.at({0, h, i, j}), scaled.at({0, h, j, i}), 1e-5) << i << "," << j;
  EXPECT_TRUE(std::isinf(tensor(t, "masked").at({0, 0, 0, 1})))  // after it, half is hidden
      << "the masked scores cannot show the symmetry";
}

TEST(Mistakes, NoScaleIsTooSmallToSeeOnSeed003AndTheSuggestedConfigShowsIt) {
  const Config c = seed003(Mistake::NoScale);
  const MistakeReport here = compare_with_correct(run(without_mistake(c)), run(c));
  EXPECT_NEAR(here.entropy_correct_bits, 2.22, 0.005);
  EXPECT_NEAR(here.entropy_buggy_bits, 2.15, 0.005);
  EXPECT_TRUE(here.too_small_to_see) << here.visible_change;

  const std::optional<ShowcaseConfig> there = config_where_it_shows(c);
  ASSERT_TRUE(there.has_value());
  EXPECT_EQ(there->config.mistake, Mistake::NoScale);
  EXPECT_GE(there->config.head_dim_k(), 16) << "a large d_k makes the missing 1/sqrt(d_k) large";
  EXPECT_TRUE(validate(there->config).empty());
  const Trace good = run(without_mistake(there->config)), bad = run(there->config);
  const double change = change_on_scale(good.find("weights")->tensor, bad.find("weights")->tensor);
  EXPECT_GT(change, kVisibleChange) << there->change;
  EXPECT_FALSE(compare_with_correct(good, bad).too_small_to_see);
}

TEST(Mistakes, EverySuggestedConfigShowsItsMistake) {
  // Configs on which a mistake changes nothing or little: no mask, one head, d_k = 2.
  Config quiet = seed003(Mistake::None);
  quiet.mask = {};
  for (int64_t heads : {1, 2}) {
    quiet.n_heads = heads;
    for (const MistakeInfo& info : all_mistakes()) {
      Config c = quiet;
      c.mistake = info.id;
      const std::optional<ShowcaseConfig> there = config_where_it_shows(c);
      if (!there) continue;
      const MistakeReport report =
          compare_with_correct(run(without_mistake(there->config)), run(there->config));
      EXPECT_FALSE(report.too_small_to_see)
          << info.name << " with " << there->change << ": " << report.visible_change;
    }
  }
}

TEST(Ablation, AllHeadsOffLeavesOnlyTheBias) {
  Config c = base(Mistake::None);
  c.bias = true;
  c.ablated_heads = {true, true};
  const Trace t = run(c);
  const Tensor& out = tensor(t, "out");
  const Tensor& b_o = t.find("b_o")->tensor;
  for (int64_t b = 0; b < 2; ++b)
    for (int64_t i = 0; i < 6; ++i)
      for (int64_t e = 0; e < 8; ++e) EXPECT_FLOAT_EQ(out.at({b, i, e}), b_o.at({e}));
}

TEST(Ablation, OneHeadOffZeroesItsColumnsAndImportanceMeasuresIt) {
  Config c = base(Mistake::None);
  c.ablated_heads = {false, true};
  const Trace t = run(c);
  const Tensor& concat = tensor(t, "concat");  // head 1 owns columns 4..7
  for (int64_t e = 4; e < 8; ++e) EXPECT_EQ(concat.at({1, 3, e}), 0.0f);
  EXPECT_NE(concat.at({1, 3, 0}), 0.0f);

  const Config all_on = base(Mistake::None);
  const Inputs in = complete_inputs(all_on, tokens_for("", 6), {}, {});
  const std::vector<double> importance = head_importance(all_on, in);
  ASSERT_EQ(importance.size(), 2u);
  const std::vector<Scalar> full = run(all_on, in).find("out")->tensor.to_vector();
  const std::vector<Scalar> off = run(c, in).find("out")->tensor.to_vector();
  double norm = 0;
  for (size_t i = 0; i < full.size(); ++i) norm += double(full[i] - off[i]) * (full[i] - off[i]);
  EXPECT_NEAR(importance[1], std::sqrt(norm), 1e-5);
  EXPECT_GT(importance[0], 0.0);
  EXPECT_EQ(head_importance(c, in)[1], 0.0);  // an ablated head has nothing left to remove
}

// No mistake has an entry too, named as --mistake none: callers need no special case.
TEST(Mistakes, NoneHasAnEntryNamedNone) {
  const MistakeInfo& none = mistake_info(Mistake::None);
  EXPECT_EQ(none.id, Mistake::None);
  EXPECT_STREQ(none.name, "none");
  Mistake parsed = Mistake::NoScale;
  ASSERT_TRUE(parse_mistake(none.name, parsed));
  EXPECT_EQ(parsed, Mistake::None);
  for (const MistakeInfo& info : all_mistakes()) EXPECT_NE(info.id, Mistake::None) << info.name;
}

}  // namespace
}  // namespace attnlab
