// State transitions without frames: the stage walk, presets and their explicit tensors, and the
// worker thread (background runs, cancel, newer requests superseding older ones).
#include <gtest/gtest.h>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {
namespace {

AppState started_on(const std::string& preset) {
  AppState state;
  load_presets(state);
  EXPECT_TRUE(apply_preset(state, preset));
  state.session.worker->wait_idle();
  poll_trace(state);
  EXPECT_TRUE(state.session.trace) << state.session.run_error;
  return state;
}

TEST(PipelineSteps, Seed003WalksEveryStageAndSubstep) {
  AppState state = started_on("seed003");
  std::vector<std::string> walk;
  for (const PipelineStep& step : state.walk.steps)
    walk.push_back(
        std::string(stage_name(step.stage)) +
        (step.substep == Substep::None ? "" : std::string(":") + substep_name(step.substep)));
  const std::vector<std::string> expected = {"input",
                                             "project",
                                             "split",
                                             "transpose",
                                             "attend:QK^T",
                                             "attend:scale",
                                             "attend:mask",
                                             "attend:softmax",
                                             "attend:@V",
                                             "concat:transpose",
                                             "concat:contiguous",
                                             "concat:view",
                                             "output-project"};
  EXPECT_EQ(walk, expected);
}

TEST(PipelineSteps, DropoutAddsItsSubstepAndTheWalkKeepsItsPlace) {
  AppState state = started_on("seed003");
  ASSERT_TRUE(go_to_named_step(state, "attend:softmax"));
  Config config = state.session.config;
  config.dropout = 0.1;
  set_config(state, config);
  EXPECT_EQ(state.walk.steps.size(), 14u);
  EXPECT_NE(find_step(state.walk.steps, Stage::Attend, Substep::Dropout), -1);
  EXPECT_EQ(current_step(state)->substep, Substep::Softmax) << "a new trace keeps the current step";
}

TEST(PipelineSteps, NamedStepsAndUnknownOnes) {
  AppState state = started_on("seed003");
  EXPECT_TRUE(go_to_named_step(state, "concat"));
  EXPECT_EQ(current_step(state)->substep, Substep::TransposeBack);
  EXPECT_TRUE(go_to_named_step(state, "attend:@V"));
  EXPECT_EQ(current_step(state)->substep, Substep::AttendValues);
  EXPECT_FALSE(go_to_named_step(state, "attend:dropout"));
  EXPECT_FALSE(go_to_named_step(state, "nowhere"));
}

TEST(PipelineSteps, PlayLoopsBackToTheStart) {
  AppState state = started_on("seed003");
  go_to_step(state, int(state.walk.steps.size()) - 1);
  state.ui.steps_per_second = 1.0f;
  toggle_play(state);
  EXPECT_EQ(state.walk.step_index, 0) << "playing from the end starts over";
  go_to_step(state, int(state.walk.steps.size()) - 1);
  advance_clock(state, 1.01);
  EXPECT_EQ(state.walk.step_index, 0);
}

TEST(Presets, ExplicitTensorsAreUsedWhileTheyFit) {
  AppState state = started_on("seed002");
  const Tensor& x = state.session.trace->find("x")->tensor;
  const Tensor& given = state.session.preset_inputs.x;
  ASSERT_TRUE(given.has_values());
  EXPECT_FLOAT_EQ(x.at({0, 0, 0}), given.at({0, 0}));  // the notebook's X, not generated

  Config config = state.session.config;
  config.n_heads = 1;  // W_q still fits; but the sizes differ from the preset's
  config.d_model = 8;
  set_config(state, config);
  ASSERT_TRUE(state.session.trace);
  EXPECT_EQ(state.session.trace->config.d_model, 8);
  EXPECT_NE(state.status.find("generated"), std::string::npos) << state.status;
}

TEST(Worker, BigTracesComputeInTheBackgroundWhileTheOldOneStays) {
  AppState state = started_on("seed003");
  const std::shared_ptr<const Trace> before = state.session.trace;
  ASSERT_TRUE(apply_preset(state, "base"));  // B=32, T=128, d_model=512
  EXPECT_TRUE(state.session.computing);
  EXPECT_EQ(state.session.trace, before) << "the previous trace stays on screen meanwhile";
  state.session.worker->wait_idle();
  poll_trace(state);
  EXPECT_FALSE(state.session.computing);
  ASSERT_NE(state.session.trace, before);
  EXPECT_EQ(state.session.trace->config.batch, 32);
}

TEST(Worker, CancelKeepsThePreviousTrace) {
  AppState state = started_on("seed003");
  const std::shared_ptr<const Trace> before = state.session.trace;
  ASSERT_TRUE(apply_preset(state, "base"));
  cancel_computation(state);
  EXPECT_FALSE(state.session.computing);
  state.session.worker->wait_idle();
  poll_trace(state);
  EXPECT_EQ(state.session.trace, before);
  EXPECT_NE(state.status.find("cancelled"), std::string::npos);
}

TEST(Worker, NewerRequestsSupersedeOlderOnes) {
  AppState state = started_on("base");
  Config config = state.session.config;
  config.seed = 7;
  set_config(state, config);
  config.seed = 8;
  set_config(state, config);
  state.session.worker->wait_idle();
  poll_trace(state);
  ASSERT_TRUE(state.session.trace);
  EXPECT_EQ(state.session.trace->config.seed, 8u);
}

TEST(Worker, AnInvalidConfigStopsTheBackgroundRun) {
  AppState state = started_on("seed003");
  const std::shared_ptr<const Trace> before = state.session.trace;
  ASSERT_TRUE(apply_preset(state, "base"));
  Config config = state.session.config;
  config.n_heads = 7;  // 512 % 7 != 0
  set_config(state, config);
  EXPECT_FALSE(state.session.computing);
  state.session.worker->wait_idle();
  poll_trace(state);
  EXPECT_EQ(state.session.trace, before);
  EXPECT_FALSE(issue_for(state, "n_heads").empty());
}

}  // namespace
}  // namespace attnlab::gui

namespace attnlab::gui {
namespace {

std::vector<std::string> input_names(const AppState& state, Stage stage, Substep substep) {
  const int index = find_step(state.walk.steps, stage, substep);
  EXPECT_GE(index, 0) << stage_name(stage) << ":" << substep_name(substep);
  std::vector<std::string> names;
  if (index < 0) return names;
  for (const TensorRecord* r : step_inputs(*state.session.trace, state.walk.steps[size_t(index)]))
    names.push_back(r->name);
  return names;
}

TEST(PipelineSteps, ForgetTransposeWalkShowsTheSplitViewsAsInputs) {
  AppState state = started_on("seed003");
  set_mistake(state, Mistake::ForgetTranspose);
  EXPECT_EQ(input_names(state, Stage::Attend, Substep::Scores),
            (std::vector<std::string>{"q_split", "k_split"}));
  EXPECT_EQ(input_names(state, Stage::Attend, Substep::AttendValues),
            (std::vector<std::string>{"weights", "v_split"}));
}

TEST(PipelineSteps, AblationWalkShowsTheAblatedContextAsTheConcatInput) {
  AppState state = started_on("seed003");
  toggle_head_ablation(state, 1);
  EXPECT_EQ(input_names(state, Stage::Attend, Substep::Ablate),
            std::vector<std::string>{"context"});
  EXPECT_EQ(input_names(state, Stage::Concat, Substep::TransposeBack),
            std::vector<std::string>{"context_ablated"});
}

}  // namespace
}  // namespace attnlab::gui
