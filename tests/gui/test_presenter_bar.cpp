// Presenter mode's bar (issue 21): n_heads steps through the head counts the width allows, with
// − / + beside the slider, so a short drag never jumps from 2 to 8 and never lands on 3.
#include "app/gui/panels/config_widgets.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

TEST(ValidHeadCounts, AreTheDivisorsOfTheWidthThatTheKvHeadsDivide) {
  Config c;
  c.d_model = 12;
  c.d_in = 12;
  EXPECT_EQ(valid_head_counts(c, 16), (std::vector<int64_t>{1, 2, 3, 4, 6, 12}));
  c.n_kv_heads = 2;  // grouped: the K/V heads must divide h
  EXPECT_EQ(valid_head_counts(c, 16), (std::vector<int64_t>{2, 4, 6, 12}));
  c = Config{};
  c.d_model = 8;
  c.d_in = 8;
  EXPECT_EQ(valid_head_counts(c, 16), (std::vector<int64_t>{1, 2, 4, 8}));
}

class PresenterBar : public HeadlessImGui {
 protected:
  void click(const std::string& tip) {
    const PlacedItem at = item(tip);
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = ImVec2((at.min.x + at.max.x) / 2, (at.min.y + at.max.y) / 2);
    frame();
    io.MouseDown[0] = true;
    frame();
    io.MouseDown[0] = false;
    frame();
  }
  void settle() {
    state.session.worker->wait_idle();
    poll_trace(state);
    frame();
  }
};

TEST_F(PresenterBar, PlusAndMinusStepThroughTheValidHeadCounts) {
  start_on("seed003");  // d_model 4, 2 heads
  state.ui.presenter = true;
  frame();
  ASSERT_EQ(state.session.config.d_model, 4);
  ASSERT_EQ(state.session.config.n_heads, 2);
  click("More heads");
  settle();
  EXPECT_EQ(state.session.config.n_heads, 4);
  EXPECT_TRUE(state.session.run_error.empty()) << state.session.run_error;
  click("More heads");  // 4 is the last: the button is disabled
  settle();
  EXPECT_EQ(state.session.config.n_heads, 4);
  click("Fewer heads");
  settle();
  click("Fewer heads");
  settle();
  EXPECT_EQ(state.session.config.n_heads, 1);
  click("More heads");
  settle();
  EXPECT_EQ(state.session.config.n_heads, 2);
}

TEST_F(PresenterBar, ADragOfAFewPixelsMovesOneValidCountAndNeverLandsOnAnInvalidOne) {
  start_on("base");  // d_model 512: 1, 2, 4, 8, 16, 32, 64, 128 heads
  state.ui.presenter = true;
  frame();
  const PlacedItem slider = item("Number of heads h");
  ImGuiIO& io = ImGui::GetIO();
  const float y = (slider.min.y + slider.max.y) / 2;
  // Drag from the left end rightwards, a few pixels a frame: every count on the way is valid,
  // and each is reached in turn (no jump from 2 to 8).
  io.MousePos = ImVec2(slider.min.x + 2, y);
  frame();
  io.MouseDown[0] = true;
  frame();
  std::vector<int64_t> seen;
  for (float x = slider.min.x + 2; x <= slider.max.x; x += 4) {
    io.MousePos = ImVec2(x, y);
    frame();
    const int64_t h = state.session.config.n_heads;
    if (seen.empty() || seen.back() != h) seen.push_back(h);
  }
  io.MouseDown[0] = false;
  frame();
  const std::vector<int64_t> valid = valid_head_counts(state.session.config);
  ASSERT_FALSE(seen.empty());
  for (size_t i = 0; i < seen.size(); ++i) {
    const auto at = std::find(valid.begin(), valid.end(), seen[i]);
    ASSERT_NE(at, valid.end()) << "the drag landed on h = " << seen[i];
    if (i > 0) {
      EXPECT_EQ(*(at - 1), seen[i - 1]) << "jumped over a valid count";
    }
  }
  EXPECT_EQ(seen.back(), valid.back());
}

}  // namespace
}  // namespace attnlab::gui
