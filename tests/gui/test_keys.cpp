// The lecture keys whatever has focus (issue 21): a clicked control or presenter mode's bar keeps
// no key, digits pick tabs wherever the mouse is, a tap shorter than a frame counts once, and a
// text field being typed in keeps its keys.
#include "app/gui/panels/keyboard.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class Keys : public HeadlessImGui {
 protected:
  void click_at(ImVec2 at) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    frame();
    io.MouseDown[0] = true;
    frame();
    io.MouseDown[0] = false;
    frame();
  }
  // As the window's key callback and ImGui's backend see a key go down, then up a frame later.
  void press_as_window(int key, bool shift = false) {
    state.typed.window_queues_keys = true;
    note_key_press(state.typed, {key, shift, false, false});
    press(key);
  }
  // What the window's key callback queues, without ImGui seeing the key down.
  void queue(int key, bool repeat = false) {
    state.typed.window_queues_keys = true;
    note_key_press(state.typed, {key, false, false, false, repeat});
  }
  int step() const { return state.walk.step_index; }
};

ImVec2 centre(const ImVec2& min, const ImVec2& max) {
  return ImVec2((min.x + max.x) / 2, (min.y + max.y) / 2);
}

TEST_F(Keys, AClickedControlKeepsNoKey) {
  start_on("seed003");
  const PlacedItem box = item("Print each number inside its cell");
  ASSERT_GT(box.visible_max.y, box.max.y) << "the checkbox is scrolled out of view";
  const bool values_shown = state.ui.show_values;
  click_at(centre(box.min, box.max));
  ASSERT_NE(state.ui.show_values, values_shown) << "the click missed the checkbox";
  press(kGlfwRight);
  EXPECT_EQ(step(), 1);
  press(kGlfwRight);
  EXPECT_EQ(step(), 2);
  press(kGlfwLeft);
  EXPECT_EQ(step(), 1);
  press(kGlfwSpace);  // plays the walk; does not press the checkbox clicked last
  EXPECT_TRUE(state.walk.playing);
  EXPECT_NE(state.ui.show_values, values_shown);
  press(kGlfwSpace);
  EXPECT_FALSE(state.walk.playing);
  press(kGlfwEnd);
  EXPECT_EQ(step(), int(state.walk.steps.size()) - 1);
  press(kGlfwHome);
  EXPECT_EQ(step(), 0);
  press(kKey1 + 1);  // 2: Mistakes
  frame();
  EXPECT_EQ(state.tabs.tool, ToolTab::Mistakes);
}

TEST_F(Keys, PresenterModeKeepsTheKeysAndPTwiceLeavesIt) {
  start_on("seed003");
  press(kKeyP);
  ASSERT_TRUE(state.ui.presenter);
  frame();
  press(kGlfwRight);
  EXPECT_EQ(step(), 1);
  press(kKeyP);
  EXPECT_FALSE(state.ui.presenter);
  press(kKeyP);
  EXPECT_TRUE(state.ui.presenter);
  // A click on the bar's h slider does not keep the keys either.
  const PlacedItem heads = item("Number of heads h");
  click_at(centre(heads.min, heads.max));
  press(kGlfwRight);
  EXPECT_EQ(step(), 2);
  press(kKeyP);
  EXPECT_FALSE(state.ui.presenter);
}

TEST_F(Keys, DigitsPickTabsWithTheMouseOverTheHeads) {
  start_on("base");  // eight heads: digits 1-8 could name heads
  state.session.worker->wait_idle();
  poll_trace(state);
  frame();
  ASSERT_EQ(state.frame.heatmap_placements.size(), 8u);
  const HeatmapPlacement& map = state.frame.heatmap_placements.at(0);
  ImGui::GetIO().MousePos = centre(map.min, map.max);
  frame();
  press(kKey1 + 7);  // 8
  frame();
  EXPECT_EQ(state.tabs.tool, ToolTab::Decode);
  press(kKey1 + 8);  // 9
  frame();
  EXPECT_EQ(state.tabs.tool, ToolTab::KVCache);
  press(kKey1 + 4);  // 5
  frame();
  EXPECT_EQ(state.tabs.tool, ToolTab::Paths);
  EXPECT_EQ(state.heads.focus.head, -1) << "a digit opened a head";
}

TEST_F(Keys, ShiftDigitSwitchesTheHeadOfThatNumber) {
  start_on("seed003");
  ImGui::GetIO().KeyShift = true;
  press(kKey0 + 1);  // Shift+1: head 1
  ImGui::GetIO().KeyShift = false;
  ASSERT_EQ(state.session.config.ablated_heads.size(), 2u);
  EXPECT_FALSE(state.session.config.ablated_heads[0]);
  EXPECT_TRUE(state.session.config.ablated_heads[1]);
  press_as_window(kKey0, true);  // Shift+0 from the window: head 0
  EXPECT_TRUE(state.session.config.ablated_heads[0]);
}

TEST_F(Keys, ATapShorterThanAFrameStepsOnce) {
  start_on("seed003");
  // Down and up between two frames: io.KeysDown never shows it, the window's queue does.
  queue(kGlfwRight);
  frame();
  EXPECT_EQ(step(), 1);
  frame();
  EXPECT_EQ(step(), 1);
  // Two taps between two frames: two steps.
  queue(kGlfwPageDown);
  queue(kGlfwPageDown);
  frame();
  EXPECT_EQ(step(), 3);
  // P tapped twice: presenter mode on and off again.
  queue(kKeyP);
  queue(kKeyP);
  frame();
  EXPECT_FALSE(state.ui.presenter);
  // X11 reports taps of one key closer than 20 ms as a press and repeats: each is a step (as the
  // system's repeats of a held arrow are), while a repeated P toggles nothing more.
  queue(kGlfwRight);
  queue(kGlfwRight, true);
  queue(kGlfwRight, true);
  queue(kKeyP);
  queue(kKeyP, true);
  frame();
  EXPECT_EQ(step(), 6);
  EXPECT_TRUE(state.ui.presenter);
}

TEST_F(Keys, AKeyBothQueuedAndSeenDownCountsOnceAndRepeatsWhenHeld) {
  start_on("seed003");
  ASSERT_GE(state.walk.steps.size(), 12u);
  press_as_window(kGlfwRight);
  EXPECT_EQ(step(), 1);
  press_as_window(kGlfwLeft);
  EXPECT_EQ(step(), 0);
  // Held with a window: its press, then the system's repeats (one every 3 frames here), each a
  // step, and nothing more from ImGui's own repeat of the key it sees down.
  ImGuiIO& io = ImGui::GetIO();
  queue(kGlfwRight);
  io.KeysDown[kGlfwRight] = true;
  for (int i = 0; i < 30; ++i) {
    if (i % 3 == 2) queue(kGlfwRight, true);
    frame();
  }
  io.KeysDown[kGlfwRight] = false;
  frame();
  EXPECT_EQ(step(), 11);
}

TEST_F(Keys, HeldWithoutAWindowImGuiRepeatsTheStep) {
  start_on("seed003");
  ASSERT_GE(state.walk.steps.size(), 7u);
  // Held for 30 frames of 1/60 s (0.48 s): the press, then ImGui's repeats after 0.275 s every
  // 0.05 s (at 0.275, 0.325, 0.375, 0.425 and 0.475 s): six steps.
  ImGuiIO& io = ImGui::GetIO();
  ASSERT_FLOAT_EQ(io.KeyRepeatDelay, 0.275f);
  ASSERT_FLOAT_EQ(io.KeyRepeatRate, 0.05f);
  io.KeysDown[kGlfwRight] = true;
  for (int i = 0; i < 30; ++i) frame();
  io.KeysDown[kGlfwRight] = false;
  frame();
  EXPECT_EQ(step(), 6);
}

TEST_F(Keys, ATextFieldBeingTypedInKeepsItsKeys) {
  start_on("seed003");
  const std::string before = state.session.config.sentence;
  const PlacedItem field = item("The tokens of the input");
  click_at(ImVec2(field.min.x + 40, centre(field.min, field.max).y));
  ASSERT_TRUE(ImGui::GetIO().WantTextInput);
  press(kGlfwEnd);  // the caret to the end of the text, not the walk to its end
  EXPECT_EQ(step(), 0);
  ImGuiIO& io = ImGui::GetIO();
  for (const char c : std::string(" p")) io.AddInputCharacter(unsigned(c));
  press_as_window(kKeyP);
  frame();
  EXPECT_FALSE(state.ui.presenter);
  press_as_window(kGlfwRight);
  press_as_window(kGlfwSpace);
  EXPECT_EQ(step(), 0);
  EXPECT_FALSE(state.walk.playing);
  EXPECT_EQ(state.session.config.sentence, before + " p");
  press(kGlfwEnter);  // typing ends: the keys are the lecture's again
  press_as_window(kGlfwRight);
  EXPECT_EQ(step(), 1);
}

}  // namespace
}  // namespace attnlab::gui
