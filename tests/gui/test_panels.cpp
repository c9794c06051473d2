// Panel logic in headless ImGui frames: keys step and play, heatmaps follow n_heads, hover finds
// the cell, invalid settings keep the last valid trace.
#include <algorithm>

#include "app/gui/panels/keyboard.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class Panels : public HeadlessImGui {};

TEST_F(Panels, ArrowsStepThroughStagesAndSubsteps) {
  start_on("seed003");
  ASSERT_EQ(state.walk.step_index, 0);
  press(kGlfwRight);
  EXPECT_EQ(current_step(state)->stage, Stage::Project);
  for (int i = 0; i < 3; ++i) press(kGlfwRight);
  EXPECT_EQ(current_step(state)->stage, Stage::Attend);
  EXPECT_EQ(current_step(state)->substep, Substep::Scores);
  press(kGlfwRight);
  EXPECT_EQ(current_step(state)->substep, Substep::Scale);
  press(kGlfwLeft);
  press(kGlfwLeft);
  EXPECT_EQ(current_step(state)->stage, Stage::Transpose);
  press(kGlfwEnd);
  EXPECT_EQ(state.walk.step_index, int(state.walk.steps.size()) - 1);
  press(kGlfwRight);  // stays on the last step
  EXPECT_EQ(state.walk.step_index, int(state.walk.steps.size()) - 1);
  press(kGlfwHome);
  EXPECT_EQ(state.walk.step_index, 0);
}

TEST_F(Panels, SpacePlaysAndPausesTheWalk) {
  start_on("seed003");
  state.ui.steps_per_second = 2.0f;
  press(kGlfwSpace);
  ASSERT_TRUE(state.walk.playing);
  const int before = state.walk.step_index;
  for (int i = 0; i < 60; ++i) frame();  // one second at 60 fps: two steps
  EXPECT_EQ(state.walk.step_index, before + 2);
  press(kGlfwSpace);
  EXPECT_FALSE(state.walk.playing);
  const int paused_at = state.walk.step_index;
  for (int i = 0; i < 60; ++i) frame();
  EXPECT_EQ(state.walk.step_index, paused_at);
}

TEST_F(Panels, EscapeCancelsABackgroundRunAndKeepsTheTrace) {
  start_on("seed003");
  const std::shared_ptr<const Trace> before = state.session.trace;
  ASSERT_TRUE(apply_preset(state, "base"));
  ASSERT_TRUE(state.session.computing);
  frame();  // the window keeps drawing the old trace meanwhile
  EXPECT_EQ(state.frame.heatmap_placements.size(), 2u);
  press(kGlfwEscape);
  EXPECT_FALSE(state.session.computing);
  state.session.worker->wait_idle();
  frame();
  EXPECT_EQ(state.session.trace, before);
}

TEST_F(Panels, CtrlSAsksForAWindowPngAndF11ForFullscreen) {
  start_on("seed003");
  ImGui::GetIO().KeyCtrl = true;
  press(kKeyS);
  ImGui::GetIO().KeyCtrl = false;
  ASSERT_TRUE(state.window.export_request.has_value());
  EXPECT_FALSE(state.window.export_request->panel.has_value());
  EXPECT_EQ(state.ui.colour_scale, UiSettings().colour_scale) << "Ctrl+S saves, it does not cycle";
  press(kKeyF11);
  EXPECT_TRUE(state.window.toggle_fullscreen);
}

TEST_F(Panels, SCyclesTheWeightColourScaleAndTheMapsFollow) {
  start_on("seed003");
  ASSERT_EQ(state.ui.colour_scale, ColourScale::PerRow) << "the default";
  const std::vector<ColourScale> order = {ColourScale::Log, ColourScale::Fixed, ColourScale::PerMap,
                                          ColourScale::PerRow};
  for (ColourScale want : order) {
    press(kKeyS);
    EXPECT_EQ(state.ui.colour_scale, want);
    EXPECT_EQ(current_heatmaps(state).scale, want) << colour_scale_name(want);
  }
}

TEST_F(Panels, AFailedExportIsExplainedBesideTheSaveButtons) {
  start_on("seed003");
  state.window.export_message =
      "cannot write 'x.png': No space left on device; free some disk space";
  state.window.export_failed = true;
  frame();
  EXPECT_NE(std::find(state.frame.explained.begin(), state.frame.explained.end(), "export"),
            state.frame.explained.end());
  state.window.export_failed = false;  // a later success is shown plainly
  state.window.export_message = "Saved x.png";
  frame();
  EXPECT_EQ(std::find(state.frame.explained.begin(), state.frame.explained.end(), "export"),
            state.frame.explained.end());
}

TEST_F(Panels, SteppingAnimatesThenSettles) {
  start_on("seed003");
  state.ui.animation_seconds = 0.5f;
  press(kGlfwRight);
  const float early = transition_progress(state);
  EXPECT_GT(early, 0.0f);
  EXPECT_LT(early, 1.0f);
  for (int i = 0; i < 40; ++i) frame();
  EXPECT_EQ(transition_progress(state), 1.0f);
}

TEST_F(Panels, OneHeatmapPerHeadFollowsTheHeadsSetting) {
  start_on("seed003");
  EXPECT_EQ(state.frame.heatmap_placements.size(), 2u);
  Config config = state.session.config;
  config.d_model = 8;
  config.n_heads = 4;
  set_config(state, config);
  frame();
  ASSERT_EQ(state.frame.heatmap_placements.size(), 4u);
  // Side by side, same size, no overlap.
  for (size_t i = 1; i < 4; ++i) {
    const HeatmapPlacement& a = state.frame.heatmap_placements[i - 1];
    const HeatmapPlacement& b = state.frame.heatmap_placements[i];
    EXPECT_FLOAT_EQ(b.max.x - b.min.x, a.max.x - a.min.x);
    EXPECT_TRUE(b.min.x >= a.max.x || b.min.y >= a.max.y);
  }
}

TEST_F(Panels, InvalidSettingExplainsAndKeepsTheLastValidTrace) {
  start_on("seed003");
  const std::shared_ptr<const Trace> valid = state.session.trace;
  Config config = state.session.config;
  config.d_model = 10;
  config.n_heads = 4;
  set_config(state, config);
  frame();
  EXPECT_EQ(state.session.trace, valid);
  const std::string message = issue_for(state, "n_heads");
  EXPECT_NE(message.find("not divisible"), std::string::npos) << message;
  EXPECT_NE(message.find("choose n_heads in {1, 2, 5, 10}"), std::string::npos) << message;
  EXPECT_EQ(state.frame.heatmap_placements.size(), 2u) << "the old maps stay on screen";

  config.n_heads = 5;
  set_config(state, config);
  frame();
  EXPECT_TRUE(state.session.issues.empty());
  EXPECT_EQ(state.session.trace->config.n_heads, 5);
  EXPECT_EQ(state.frame.heatmap_placements.size(), 5u);
}

TEST_F(Panels, HoverNamesTheCellUnderTheMouse) {
  start_on("seed003");
  const HeatmapPlacement head1 = state.frame.heatmap_placements.at(1);
  const float cell = (head1.max.x - head1.min.x) / 11.0f;
  ImGui::GetIO().MousePos = ImVec2(head1.min.x + 1.5f * cell, head1.min.y + 3.5f * cell);
  frame();
  frame();
  EXPECT_EQ(state.frame.hover.head, 1);
  EXPECT_EQ(state.frame.hover.query, 3);
  EXPECT_EQ(state.frame.hover.key, 1);
  ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
  frame();
  EXPECT_EQ(state.frame.hover.head, -1);
}

TEST_F(Panels, EveryPanelGetsItsRectangle) {
  start_on("seed003");
  for (const ImVec4& r : state.frame.panel_rects) {
    EXPECT_GT(r.z - r.x, 100.0f);
    EXPECT_GT(r.w - r.y, 50.0f);
    EXPECT_LE(r.z, 1600.0f);
    EXPECT_LE(r.w, 1000.0f);
  }
}

TEST_F(Panels, EveryStepOfEveryPresetDrawsWithoutTrouble) {
  load_presets(state);
  for (const char* name : {"seed002", "seed003", "cat", "tiny"}) {
    ASSERT_TRUE(apply_preset(state, name));
    state.session.worker->wait_idle();
    poll_trace(state);
    for (size_t i = 0; i < state.walk.steps.size(); ++i) {
      go_to_step(state, int(i));
      frame();
      frame();
    }
    EXPECT_EQ(state.frame.heatmap_placements.size(), size_t(state.session.trace->config.n_heads))
        << name;
  }
}

}  // namespace
}  // namespace attnlab::gui
