// Decoding with a KV cache and MLA's absorbed form are passes of the plan (issue 21): the plan
// lists their steps once, and the run's records, their words, the export, trace.json and the code
// view all follow that list.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/teaching/code_view.hpp"
#include "core/trace/export.hpp"
#include "core/trace/mha.hpp"
#include "core/trace/narration.hpp"
#include "core/trace/plan.hpp"

namespace attnlab {
namespace {

Config decoding() {
  Config c;
  c.sentence = "the cat sat on the mat today";
  c.batch = 2;
  c.d_model = 16;
  c.n_heads = 4;
  c.n_kv_heads = 2;
  c.bias = true;
  c.mask.causal = true;
  c.decode_steps = 3;
  return c;
}

Config latent() {
  Config c;
  c.seq_len = 6;
  c.d_model = 16;
  c.n_heads = 4;
  c.kv_latent = 8;
  c.rope_dim = 4;
  c.mask.causal = true;
  return c;
}

std::vector<const PlannedStep*> side_steps(const Plan& plan) {
  std::vector<const PlannedStep*> out;
  for (const PlannedStep& s : plan.steps)
    if (s.pass != Pass::Forward) out.push_back(&s);
  return out;
}

TEST(PlanPasses, ThePlanListsThePrefillAndEachDecodeStep) {
  const Plan plan = plan_for(decoding());
  EXPECT_EQ(plan.decode_prompt, 4);  // 7 tokens, the last 3 decoded
  std::vector<std::string> names;
  for (const PlannedStep* s : side_steps(plan)) names.push_back(s->name);
  std::vector<std::string> want = {"prefill_k_cache", "prefill_v_cache"};
  for (int i = 0; i < 3; ++i)
    for (const char* part :
         {"x", "q", "k", "v", "k_cache", "v_cache", "scores", "weights", "context", "out"})
      want.push_back("decode" + std::to_string(i) + "_" + part);
  EXPECT_EQ(names, want);
  EXPECT_EQ(plan.step("decode2_scores").position, 6);
  EXPECT_EQ(axes_label(plan.step("decode1_k_cache").axes), "(B, n_kv, t+1, d_k)");
  EXPECT_EQ(plan.step("decode1_k_cache").inputs,
            (std::vector<std::string>{"prefill_k_cache", "decode1_k"}));
}

TEST(PlanPasses, TheRunRecordsThePlansSideStepsInItsWords) {
  for (const Config& c : {decoding(), latent()}) {
    const Plan plan = plan_for(c);
    const Trace t = run(c);
    const std::vector<const PlannedStep*> planned = side_steps(plan);
    ASSERT_EQ(t.side_records.size(), planned.size());
    ASSERT_FALSE(planned.empty());
    for (size_t i = 0; i < planned.size(); ++i) {
      const PlannedStep& s = *planned[i];
      const TensorRecord& r = t.side_records[i];
      EXPECT_EQ(r.name, s.name);
      EXPECT_EQ(r.pass, s.pass);
      EXPECT_EQ(r.position, s.position);
      EXPECT_EQ(r.stage, s.stage);
      EXPECT_EQ(r.substep, s.substep);
      EXPECT_EQ(r.inputs, s.inputs);
      EXPECT_EQ(r.axes_text(), axes_label(s.axes)) << r.name;
      EXPECT_EQ(r.formula, narrate(plan, s).formula) << r.name;
      EXPECT_EQ(r.pytorch, pytorch_line(plan, s)) << r.name;
      // Every input was recorded before it (or is a parameter).
      for (const std::string& input : r.inputs) EXPECT_NE(t.find(input), nullptr) << input;
    }
  }
}

TEST(PlanPasses, DecodingsCostsAreItsRecordsCosts) {
  const Trace t = run(decoding());
  ASSERT_EQ(t.decode.steps.size(), 3u);
  for (const DecodeStep& step : t.decode.steps) {
    double flops = 0;
    for (const TensorRecord* r : t.pass_records(Pass::Decode, step.position)) flops += r->flops;
    EXPECT_EQ(step.flops, flops);
    EXPECT_EQ(t.pass_records(Pass::Decode, step.position).size(), 10u);
  }
  // The cache's records are views of the prefill's storage: nothing copied per step.
  const TensorRecord& cache = *t.find("decode2_k_cache");
  EXPECT_TRUE(cache.is_view);
  EXPECT_EQ(cache.storage_owner, "prefill_k_cache");
  EXPECT_EQ(cache.bytes, 0);
  // The forward pass's counters are the forward pass's alone.
  Config forward_only = decoding();
  forward_only.decode_steps = 0;
  EXPECT_EQ(t.counters.flops, run(forward_only).counters.flops);
}

TEST(PlanPasses, ExportAndTraceJsonHoldThePlansRecords) {
  const Config c = decoding();
  const Plan plan = plan_for(c);
  const Trace t = run(c);
  std::vector<std::string> files;
  for (const auto& [name, bytes] : export_files(t)) files.push_back(name);
  for (const PlannedStep* s : side_steps(plan))
    EXPECT_NE(std::find(files.begin(), files.end(), s->name + ".npy"), files.end()) << s->name;
  EXPECT_EQ(files.size(), t.parameters.size() + t.records.size() + side_steps(plan).size() + 1);
  const nlohmann::json json = nlohmann::json::parse(trace_to_json(t));
  const nlohmann::json& steps = json.at("decode").at("steps");
  ASSERT_EQ(steps.size(), 3u);
  for (size_t i = 0; i < steps.size(); ++i) {
    std::vector<std::string> names;
    for (const nlohmann::json& r : steps[i].at("records")) {
      names.push_back(r.at("name"));
      EXPECT_EQ(r.at("pass"), "decode");
    }
    std::vector<std::string> planned;
    for (const PlannedStep* s : side_steps(plan))
      if (s->pass == Pass::Decode && s->position == steps[i].at("position"))
        planned.push_back(s->name);
    EXPECT_EQ(names, planned);
  }
  EXPECT_EQ(json.at("decode").at("prefill").size(), 2u);
}

TEST(PlanPasses, TheCodeViewPrintsTheDecodeLoopFromThePlan) {
  const Config c = decoding();
  const Plan plan = plan_for(c);
  const std::vector<CodeLine> code = reference_code(c);
  // Lines beside the forward pass that hold `text`.
  auto count_lines = [&](const std::string& text) {
    return std::count_if(code.begin(), code.end(), [&](const CodeLine& line) {
      return line.pass != Pass::Forward && line.text.find(text) != std::string::npos;
    });
  };
  EXPECT_EQ(count_lines("for t in range(P, T):"), 1);
  for (const PlannedStep* s : side_steps(plan)) {
    const Words words = narrate(plan, *s);
    // Each line once: the loop's body is written for any t, not once per decoded token.
    EXPECT_EQ(count_lines(words.code), 1) << words.code;
  }
  const auto loop = std::find_if(code.begin(), code.end(), [](const CodeLine& line) {
    return line.text.find("for t in range") != std::string::npos;
  });
  ASSERT_NE(loop, code.end());
  EXPECT_EQ(loop->pass, Pass::Decode);
  EXPECT_NE((loop + 1)->text.find("        x_t = x[:, t:t+1]"), std::string::npos)
      << (loop + 1)->text;
  const Plan mla = plan_for(latent());
  const Words absorbed = narrate(mla, mla.step("out_absorbed"));
  const std::vector<CodeLine> mla_code = reference_code(latent());
  EXPECT_TRUE(std::any_of(mla_code.begin(), mla_code.end(), [&](const CodeLine& line) {
    return line.pass == Pass::Absorbed && line.text.find(absorbed.code) != std::string::npos;
  }));
}

TEST(PlanPasses, ShapeOnlyPlansNoPassBesideTheForwardOne) {
  for (Config c : {decoding(), latent()}) {
    c.shape_only = true;
    EXPECT_TRUE(side_steps(plan_for(c)).empty());
    const Trace t = run(c);
    EXPECT_TRUE(t.side_records.empty());
    EXPECT_TRUE(t.decode.steps.empty());
  }
}

TEST(PlanPasses, TheAbsorbedFormReadsTheForwardPassesTensors) {
  const Plan plan = plan_for(latent());
  EXPECT_TRUE(plan.absorbed);
  EXPECT_EQ(plan.step("out_absorbed").inputs,
            (std::vector<std::string>{"q", "c_kv", "w_k", "w_v", "q_rope", "k_rope", "w_o"}));
  const Trace t = run(latent());
  const TensorRecord& absorbed = *t.find("out_absorbed");
  EXPECT_EQ(absorbed.pass, Pass::Absorbed);
  EXPECT_LT(t.absorbed.max_abs_difference, 1e-5);
  EXPECT_EQ(t.absorbed.max_abs_difference,
            max_abs_difference(absorbed.tensor, t.find("out")->tensor));
}

}  // namespace
}  // namespace attnlab
