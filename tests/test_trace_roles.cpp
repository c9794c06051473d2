// Every record is found by what it holds (Trace::find(Op, which), and beside the forward pass by
// pass and position too), never by its export name: the panels rely on it (issue 28). Checked
// over every mistake, grouped and latent heads, RoPE, ALiBi, fused QKV, cross-attention and
// decoding, against the export names as an independent witness of what each record is.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/model/config.hpp"
#include "core/teaching/mistakes.hpp"
#include "core/trace/mha.hpp"
#include "core/trace/plan.hpp"

namespace attnlab {
namespace {

Config base() {
  Config c;
  c.sentence = "the cat sat on the mat today";
  c.batch = 2;
  c.d_model = 16;
  c.n_heads = 4;
  c.bias = true;
  c.mask.causal = true;
  return c;
}

std::string label(const Config& c) {
  return "mistake " +
         std::string(c.mistake == Mistake::None ? "none" : mistake_info(c.mistake).name) +
         " n_kv " + std::to_string(c.n_kv_heads) + " d_c " + std::to_string(c.kv_latent) +
         " decode " + std::to_string(c.decode_steps);
}

// The configs: every mistake (with dropout and a head off, and without), then the variants.
std::vector<Config> configs() {
  std::vector<Config> out;
  std::vector<Mistake> mistakes = {Mistake::None};
  for (const MistakeInfo& info : all_mistakes()) mistakes.push_back(info.id);
  for (Mistake mistake : mistakes) {
    for (int variant = 0; variant < 2; ++variant) {
      Config c = base();
      c.mistake = mistake;
      if (variant == 1) {
        c.dropout = 0.2;
        c.ablated_heads = {false, true};
      }
      out.push_back(c);
    }
  }
  Config gqa = base();
  gqa.n_kv_heads = 2;
  gqa.decode_steps = 3;
  out.push_back(gqa);
  Config rope = gqa;
  rope.pos = PositionEncoding::Rope;
  out.push_back(rope);
  Config mla = base();
  mla.kv_latent = 8;
  mla.q_latent = 8;
  mla.rope_dim = 4;
  mla.bias = false;  // DeepSeek-V2's projections have none
  out.push_back(mla);
  Config alibi = base();
  alibi.pos = PositionEncoding::Alibi;
  out.push_back(alibi);
  Config fused = base();
  fused.fused_qkv = true;
  out.push_back(fused);
  Config cross = base();
  cross.mask.causal = false;
  cross.sentence_kv = "a dog ran";
  out.push_back(cross);
  return out;
}

TEST(TraceRoles, EveryRecordIsFoundByWhatItHolds) {
  for (const Config& c : configs()) {
    ASSERT_TRUE(validate(c).empty()) << label(c) << ": " << describe(validate(c));
    const Trace t = run(c);
    ASSERT_FALSE(t.records.empty()) << label(c);
    for (const TensorRecord& r : t.records)  // unique: find() returns this very record
      EXPECT_EQ(t.find(r.op, r.which), &r) << label(c) << ": " << r.name;
    for (const TensorRecord& r : t.side_records)
      EXPECT_EQ(t.find(r.pass, r.op, r.which, r.position), &r) << label(c) << ": " << r.name;
  }
}

TEST(TraceRoles, EachRecordCarriesItsPlannedStep) {
  for (const Config& c : configs()) {
    const Plan plan = plan_for(c);
    const Trace t = run(c);
    size_t planned = 0;
    for (const PlannedStep& s : plan.steps) planned += s.recorded && s.reached;
    EXPECT_EQ(t.records.size() + t.side_records.size(), planned) << label(c);
    for (const std::vector<TensorRecord>* list : {&t.records, &t.side_records}) {
      for (const TensorRecord& r : *list) {
        const PlannedStep& s = plan.step(r.name);
        EXPECT_EQ(r.op, s.op) << label(c) << ": " << r.name;
        EXPECT_EQ(r.which, s.which) << label(c) << ": " << r.name;
      }
    }
  }
}

// What the panels ask for, against the export names that are the file format.
TEST(TraceRoles, ThePanelsLookupsFindTheRecordsTheyMean) {
  const auto name_of = [](const TensorRecord* r) { return r ? r->name : std::string("(none)"); };
  for (const Config& c : configs()) {
    const Trace t = run(c);
    const Plan plan = plan_for(c);
    EXPECT_EQ(name_of(t.weights()), "weights") << label(c);
    EXPECT_EQ(name_of(t.find(Op::Scores)), "scores") << label(c);
    EXPECT_EQ(name_of(t.find(Op::Scale)), "scaled") << label(c);
    EXPECT_EQ(name_of(t.find(Op::Mask)), "masked") << label(c);
    EXPECT_EQ(t.find(Op::Softmax),
              t.find(plan.mask_after_softmax ? "weights_before_mask" : "weights"))
        << label(c);
    for (char x : {'q', 'k', 'v'}) {
      const std::string n(1, x);
      EXPECT_EQ(name_of(t.find(c.fused_qkv ? Op::SplitColumns : Op::Project, x)), n) << label(c);
      EXPECT_EQ(name_of(t.find(Op::Split, x)), n + "_split") << label(c);
      EXPECT_EQ(t.find(Op::Transpose, x), t.find(n + "_heads")) << label(c);
      EXPECT_EQ(t.find(Op::ExpandHeads, x), x == 'q' ? nullptr : t.find(n + "_grouped"))
          << label(c);
    }
    EXPECT_EQ(t.find(Op::ExpandHeads, 'r'), t.find("k_rope_heads")) << label(c);
    EXPECT_EQ(t.find(Op::Compress, 'k'), t.find("c_kv")) << label(c);
    EXPECT_EQ(t.find(Op::TransposeBack), t.find("context_t")) << label(c);
    if (!t.failure.failed) {
      EXPECT_EQ(name_of(t.find(Op::ConcatView)), "concat") << label(c);
      EXPECT_EQ(name_of(t.find(Op::OutputProject)), "out") << label(c);
    }
    for (size_t i = 0; i < t.decode.steps.size(); ++i) {
      const int64_t at = t.decode.prompt_tokens + int64_t(i);
      EXPECT_EQ(name_of(t.find(Pass::Decode, Op::DecodeSoftmax, 0, at)),
                decode_name(int64_t(i), "weights"));
      EXPECT_EQ(name_of(t.find(Pass::Decode, Op::DecodeScores, 0, at)),
                decode_name(int64_t(i), "scores"));
      EXPECT_EQ(name_of(t.find(Pass::Decode, Op::DecodeProject, 'q', at)),
                decode_name(int64_t(i), "q"));
      EXPECT_EQ(name_of(t.find(Pass::Decode, Op::CacheAppend, 'k', at)),
                decode_name(int64_t(i), "k_cache"));
    }
  }
}

TEST(TraceRoles, ConfigsCoverTheVariantsThePanelsRelyOn) {
  // A guard on the list above: without these the lookups of the panels are not exercised.
  int decoded = 0, grouped = 0, latent = 0, failed = 0, after_softmax = 0;
  for (const Config& c : configs()) {
    const Trace t = run(c);
    decoded += !t.decode.steps.empty();
    grouped += t.find(Op::ExpandHeads, 'k') != nullptr;
    latent += t.find(Op::ExpandHeads, 'r') != nullptr;
    failed += t.failure.failed;
    after_softmax += t.find(Op::ZeroMasked) != nullptr;
  }
  EXPECT_GE(decoded, 2);
  EXPECT_GE(grouped, 2);
  EXPECT_GE(latent, 1);
  EXPECT_GE(failed, 1);
  EXPECT_GE(after_softmax, 1);
}

}  // namespace
}  // namespace attnlab
