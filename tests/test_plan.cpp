// One plan per run: the trace's records are the plan's, with typed sub-steps, axes and inputs;
// the memory estimate is the sum of the plan's step sizes, and it equals the bytes a run really
// allocates for every mistake, ablation and mask; the code view prints the plan's own words.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/teaching/code_view.hpp"
#include "core/trace/mha.hpp"
#include "core/teaching/mistakes.hpp"
#include "core/trace/narration.hpp"
#include "core/trace/plan.hpp"
#include "core/model/preset.hpp"

namespace attnlab {
namespace {

int64_t real_bytes(const Trace& t) {
  int64_t bytes = t.counters.bytes;
  for (const TensorRecord& p : t.parameters) bytes += p.bytes;
  return bytes;
}

Config preset(const std::string& name) {
  std::vector<std::string> errors;
  for (const Preset& p : load_all_presets(&errors))
    if (p.name == name) return p.config;
  ADD_FAILURE() << "no preset " << name;
  return {};
}

std::vector<Mistake> every_mistake() {
  std::vector<Mistake> out = {Mistake::None};
  for (const MistakeInfo& info : all_mistakes()) out.push_back(info.id);
  return out;
}

TEST(Plan, EstimateEqualsTheRealBytesForEveryMistakeAblationAndMask) {
  for (const char* name : {"seed003", "cat", "tiny"}) {
    for (Mistake mistake : every_mistake()) {
      for (int variant = 0; variant < 4; ++variant) {
        Config c = preset(name);
        c.mistake = mistake;
        if (variant & 1) c.ablated_heads = {false, true};  // head 1 off
        if (variant & 2) {
          c.mask.causal = !c.mask.causal;
          c.dropout = 0.2;
        }
        const Trace t = run(c);
        EXPECT_EQ(trace_bytes_needed(c), real_bytes(t))
            << name << " " << (mistake == Mistake::None ? "none" : mistake_info(mistake).name)
            << " variant " << variant;
      }
    }
  }
}

TEST(Plan, EveryRecordNamesInputsMadeBeforeIt) {
  for (Mistake mistake : every_mistake()) {
    Config c = preset("seed003");
    c.mistake = mistake;
    c.ablated_heads = {true, false};
    const Trace t = run(c);
    std::vector<std::string> known;
    for (const TensorRecord& p : t.parameters) known.push_back(p.name);
    for (const TensorRecord& r : t.records) {
      for (const std::string& input : r.inputs)
        EXPECT_NE(std::find(known.begin(), known.end(), input), known.end())
            << r.name << " reads " << input << " before it exists";
      EXPECT_EQ(r.axes.size(), r.tensor.shape().size()) << r.name;
      for (size_t i = 0; i < r.axes.size(); ++i) EXPECT_EQ(r.axes[i].size, r.tensor.shape()[i]);
      known.push_back(r.name);
    }
  }
}

TEST(Plan, ForgetTransposeReadsTheSplitViewsAndKeepsHeadsInAxisTwo) {
  Config c = preset("seed003");
  c.mistake = Mistake::ForgetTranspose;
  const Trace t = run(c);
  EXPECT_EQ(t.find("q_heads"), nullptr);
  EXPECT_EQ(t.find("scores")->inputs, (std::vector<std::string>{"q_split", "k_split"}));
  EXPECT_EQ(t.find("context")->inputs, (std::vector<std::string>{"weights", "v_split"}));
  EXPECT_EQ(t.find("scores")->axes_text(), "(B, T, h, h)");
  EXPECT_EQ(find_axis(t.find("scores")->axes, AxisKind::Token), 1);
  EXPECT_EQ(run(preset("seed003")).find("scores")->axes_text(), "(B, h, T, T)");
}

TEST(Plan, AblationFeedsTheConcatTranspose) {
  Config c = preset("seed003");
  c.ablated_heads = {false, true};
  const Trace t = run(c);
  const TensorRecord* ablated = t.find("context_ablated");
  ASSERT_NE(ablated, nullptr);
  EXPECT_EQ(ablated->substep, Substep::Ablate);
  EXPECT_EQ(ablated->inputs, std::vector<std::string>{"context"});
  EXPECT_EQ(t.find("context_t")->inputs, std::vector<std::string>{"context_ablated"});
  EXPECT_EQ(t.find("q")->axes_text(), "(B, T, h*d_k)");
  EXPECT_EQ(t.find("q")->axes.back().heads, 2);
}

TEST(Plan, TheCodeViewMarksExactlyThePlansChangedStepsInTheirOwnWords) {
  for (const MistakeInfo& info : all_mistakes()) {
    Config c = preset("seed003");  // causal: every mask mistake has something to change
    c.mistake = info.id;
    const Plan plan = plan_for(c);
    std::vector<std::string> changed_code;
    for (const PlannedStep& s : plan.steps)
      if (s.changed) changed_code.push_back(narrate(plan, s).code);
    ASSERT_FALSE(changed_code.empty()) << info.name;
    std::vector<std::string> marked;
    for (const CodeLine& line : reference_code(c))
      if (line.changed) marked.push_back(line.text);
    ASSERT_EQ(marked.size(), changed_code.size()) << info.name;
    for (size_t i = 0; i < marked.size(); ++i)
      EXPECT_NE(marked[i].find(changed_code[i]), std::string::npos)
          << info.name << ": " << marked[i] << " vs " << changed_code[i];
  }
}

TEST(Plan, TraceLinesAndCodeLinesAreSpelledAlike) {
  const Trace t = run(preset("seed003"));
  const std::vector<CodeLine> code = reference_code(t.config);
  for (const TensorRecord& r : t.records) {
    if (r.stage == Stage::Input) continue;
    const std::string statement = r.pytorch.substr(0, r.pytorch.find("  #"));
    const bool listed = std::any_of(code.begin(), code.end(), [&](const CodeLine& l) {
      return l.text.find(statement) != std::string::npos;
    });
    EXPECT_TRUE(listed || r.substep == Substep::Mask) << r.name << ": " << statement;
  }
}

}  // namespace
}  // namespace attnlab
