// The Flash tab in headless frames: key F opens it (as does its tab), its sweep is recorded on the
// background thread for the tab's tiles and head, the stepping keys step through the tiles while
// it is open (the stages' walk stays), a config the tiled path refuses is explained in red, and in
// presenter mode it takes the whole width at 1280x720 with its controls inside the panel.
#include "app/gui/flash/flash_panels.hpp"
#include "app/gui/panels/keyboard.hpp"
#include "app/gui/panels/layout.hpp"
#include "app/gui/panels/panels.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class FlashTabTest : public HeadlessImGui {
 protected:
  // Opens the tab on seed 003 (T = 11, causal) and waits for its sweep.
  void open_flash() {
    start_on("seed003");
    press(kKeyF);
    ASSERT_EQ(state.tabs.tool, ToolTab::Flash);
    settle();
  }
  void settle() {
    frame();
    wait_for_measurements(state);
    frame();
  }
  const FlashSweep& sweep() {
    const auto& lesson = state.flash.lesson.result();
    EXPECT_TRUE(lesson && lesson->sweep) << state.flash.lesson.error();
    return *lesson->sweep;
  }
};

TEST_F(FlashTabTest, KeyFOpensTheTabAndItsSweepCoversEveryTile) {
  open_flash();
  // Default tiles: about four blocks a side, ceil(11 / 4) = 3 rows and keys per tile.
  EXPECT_EQ(state.flash.tiles, (TileSizes{3, 3}));
  const FlashSweep& s = sweep();
  EXPECT_EQ(s.steps.size(), 4u * 4u);
  int skipped = 0;
  for (const SweepStep& step : s.steps) skipped += step.kind == TileKind::Skipped ? 1 : 0;
  EXPECT_EQ(skipped, 4 * 3 / 2) << "causal: the blocks above the diagonal";
  EXPECT_TRUE(is_tab_name("flash"));
}

TEST_F(FlashTabTest, TheSteppingKeysStepThroughTheTilesNotTheStages) {
  open_flash();
  const int walk_before = state.walk.step_index;
  EXPECT_EQ(state.flash.step, 0);
  press(kGlfwRight);
  press(kGlfwRight);
  EXPECT_EQ(state.flash.step, 2);
  press(kGlfwLeft);
  EXPECT_EQ(state.flash.step, 1);
  press(kGlfwEnd);
  EXPECT_EQ(state.flash.step, 15);
  press(kGlfwRight);
  EXPECT_EQ(state.flash.step, 15) << "clamped at the last tile";
  press(kGlfwHome);
  EXPECT_EQ(state.flash.step, 0);
  EXPECT_EQ(state.walk.step_index, walk_before);
  // Another tab: the keys walk the stages again.
  press(kKey1);
  press(kGlfwRight);
  EXPECT_EQ(state.walk.step_index, walk_before + 1);
  EXPECT_EQ(state.flash.step, 0);
}

TEST_F(FlashTabTest, NewTileSizesOrAnotherHeadRecordTheSweepAgain) {
  open_flash();
  state.flash.tiles = {2, 5};
  state.flash.head = 1;
  settle();
  const FlashSweep& s = sweep();
  EXPECT_EQ(s.tiles, (TileSizes{2, 5}));
  EXPECT_EQ(s.head, 1);
  EXPECT_EQ(s.steps.size(), 6u * 3u);  // ceil(11 / 2) query blocks x ceil(11 / 5) key blocks
}

TEST_F(FlashTabTest, AConfigTheTiledPathRefusesIsExplainedNotSwept) {
  open_flash();
  Config c = state.session.config;
  c.dropout = 0.2;
  set_config(state, c);
  state.session.worker->wait_idle();
  poll_trace(state);
  settle();
  EXPECT_FALSE(state.flash.lesson.result().has_value());
  EXPECT_NE(state.flash.lesson.error().find("without dropout"), std::string::npos)
      << state.flash.lesson.error();
}

TEST_F(FlashTabTest, AboveTheSweepsLengthOnlyTheCountersAndTheKeysWalkTheStages) {
  open_flash();
  Config c = state.session.config;
  c.seq_len = kMaxSweepTokens + 44;  // 300 tokens, causal
  set_config(state, c);
  state.session.worker->wait_idle();
  poll_trace(state);
  settle();
  const auto& lesson = state.flash.lesson.result();
  ASSERT_TRUE(lesson.has_value()) << state.flash.lesson.error();
  EXPECT_FALSE(lesson->sweep.has_value());
  // The tab keeps its 3 x 3 tiles: 100 blocks a side; causal computes n (n + 1) / 2 per head.
  EXPECT_EQ(state.flash.tiles, (TileSizes{3, 3}));
  const int64_t n = 100;
  EXPECT_EQ(lesson->counters.tiles_computed, 2 * n * (n + 1) / 2);
  const int walk_before = state.walk.step_index;
  press(kGlfwRight);
  EXPECT_EQ(state.walk.step_index, walk_before + 1) << "no sweep to step through";
}

TEST_F(FlashTabTest, PresenterModeShowsItFullWidthWithItsControlsInside) {
  ImGui::GetIO().DisplaySize = ImVec2(1280, 720);
  use_font_scale(1.5f);
  state.ui.presenter = true;
  open_flash();
  EXPECT_TRUE(presenter_tab_full_width(ToolTab::Flash));
  const ImVec4 panel = state.frame.panel_rects[int(PanelId::Tensors)];
  EXPECT_FALSE(shown(frame_layout(state, ImVec2(1280, 720), true), PanelId::Heads));
  for (const char* tip : {"Br:", "Bc:", "The head whose sweep", "The tile shown"}) {
    const PlacedItem i = item(tip);
    EXPECT_GE(i.min.x, panel.x) << tip;
    EXPECT_LE(i.max.x, panel.z) << tip;
    EXPECT_LE(i.max.y, panel.w) << tip;
  }
}

}  // namespace
}  // namespace attnlab::gui
