// Controls offer only valid values (issue 29): the n_heads slider of the Controls panel stops only
// on head counts the width allows, so a drag from one end to the other never makes an invalid
// config; a typed invalid count is explained in red beside the slider.
#include <imgui_internal.h>

#include <algorithm>

#include "app/gui/panels/config_widgets.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class ValidControls : public HeadlessImGui {
 protected:
  void settle() {
    state.session.worker->wait_idle();
    poll_trace(state);
    frame();
  }
  // Sets d_model (heads linked: d_k = d_model / h) and one head, as the controls would.
  void start_with_width(int64_t d_model) {
    start_on("seed003");
    Config c = state.session.config;
    c.d_model = d_model;
    c.d_in = 0;
    c.d_k = c.d_v = 0;
    c.n_heads = 1;
    set_config(state, c);
    settle();
    ASSERT_TRUE(state.session.issues.empty()) << describe(state.session.issues);
  }
  // Drags the n_heads slider from `from` to `to` (x), a few pixels a frame; the n_heads seen.
  std::vector<int64_t> drag(float from, float to, float y) {
    ImGuiIO& io = ImGui::GetIO();
    std::vector<int64_t> seen;
    io.MousePos = ImVec2(from, y);
    frame();
    io.MouseDown[0] = true;
    const float step = from < to ? 3.0f : -3.0f;
    for (float x = from; (step > 0 ? x <= to : x >= to); x += step) {
      io.MousePos = ImVec2(x, y);
      settle();
      const Config& c = state.session.config;
      EXPECT_TRUE(validate(c).empty())
          << "d_model " << c.d_model << ", n_heads " << c.n_heads << ": " << describe(validate(c));
      if (seen.empty() || seen.back() != c.n_heads) seen.push_back(c.n_heads);
    }
    io.MouseDown[0] = false;
    frame();
    return seen;
  }
};

TEST_F(ValidControls, DraggingNHeadsEndToEndOnlyEverGivesValidConfigs) {
  for (const int64_t d_model : {8, 12, 64, 768}) {
    SCOPED_TRACE("d_model " + std::to_string(d_model));
    start_with_width(d_model);
    const PlacedItem slider = item("Number of heads h");
    ASSERT_GT(slider.max.x, slider.min.x);
    const float y = (slider.min.y + slider.max.y) / 2;
    // The item's rectangle ends with its label, right of the slider's frame.
    const float frame_right =
        slider.max.x - ImGui::CalcTextSize("n_heads").x - ImGui::GetStyle().ItemInnerSpacing.x;
    const float left_end = slider.min.x + 2, right_end = frame_right - 2;
    const std::vector<int64_t> right = drag(left_end, right_end, y);
    // The counts the slider offers are the divisors of d_model up to its 64, each in turn.
    std::vector<int64_t> divisors;
    for (int64_t h = 1; h <= std::min<int64_t>(d_model, 64); ++h)
      if (d_model % h == 0) divisors.push_back(h);
    EXPECT_EQ(right, divisors);
    const std::vector<int64_t> left = drag(right_end, left_end, y);
    ASSERT_FALSE(left.empty());
    EXPECT_EQ(left.back(), 1);
  }
}

TEST_F(ValidControls, ATypedInvalidCountIsExplainedInRedUnderTheSliderWithTheTooltipAbove) {
  start_with_width(12);
  const PlacedItem slider = item("Number of heads h");
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = ImVec2((slider.min.x + slider.max.x) / 2, (slider.min.y + slider.max.y) / 2);
  frame();
  io.KeyCtrl = true;
  io.MouseDown[0] = true;
  frame();
  io.MouseDown[0] = false;
  io.KeyCtrl = false;
  for (int i = 0; i < 3; ++i) frame();  // the number box takes the keyboard
  ASSERT_EQ(state.session.config.n_heads, 1) << "Ctrl+click types; it does not move the slider";
  ASSERT_NE(state.controls.typing_slider, 0u);
  ASSERT_TRUE(io.WantTextInput) << "the number box has the keyboard";
  io.KeyCtrl = true;  // select all, then type 5
  io.KeysDown['A'] = true;
  frame();
  io.KeysDown['A'] = false;
  io.KeyCtrl = false;
  io.AddInputCharacter('5');
  frame();
  EXPECT_EQ(state.session.config.n_heads, 1) << "applied on Enter, not while typing";
  press(kGlfwEnter);
  frame();
  EXPECT_EQ(state.session.config.n_heads, 5);
  const std::string message = issue_for(state, "n_heads");
  EXPECT_NE(message.find("not divisible by n_heads=5"), std::string::npos) << message;
  const auto& explained = state.frame.explained;
  EXPECT_NE(std::find(explained.begin(), explained.end(), "n_heads"), explained.end())
      << "the explanation is drawn with the control";
  // Hovered, the slider's tooltip stays above it, clear of the explanation under it.
  for (int i = 0; i < 40; ++i) frame();  // the hover delay
  const ImGuiWindow* tip = ImGui::FindWindowByName("##Tooltip_00");
  ASSERT_NE(tip, nullptr);
  ASSERT_TRUE(tip->Active);
  const PlacedItem now = item("Number of heads h");
  EXPECT_LE(tip->Pos.y + tip->Size.y, now.min.y + 1);
}

}  // namespace
}  // namespace attnlab::gui
