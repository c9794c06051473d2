// Presenter mode's tabs (issue 21): Mistakes, Counters (the model table) and Train take the whole
// width as Decode and KV cache do, and the Mistakes tab heads it with the mistake's name and its
// one-line symptom, large.
#include "core/teaching/mistakes.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class PresenterTabs : public HeadlessImGui {
 protected:
  void open(ToolTab tab) {
    state.tabs.requested_tool = tab;
    frame();
    frame();
  }
  float width_of(PanelId panel) const {
    const ImVec4& r = state.frame.panel_rects[int(panel)];
    return r.z - r.x;
  }
};

TEST_F(PresenterTabs, MistakesCountersAndTrainTakeTheWholeWidth) {
  start_on("seed003");
  state.ui.presenter = true;
  const float window = ImGui::GetIO().DisplaySize.x;
  for (ToolTab tab : {ToolTab::Mistakes, ToolTab::Counters, ToolTab::Train}) {
    open(tab);
    EXPECT_EQ(state.tabs.tool, tab);
    EXPECT_FLOAT_EQ(width_of(PanelId::Tensors), window) << int(tab);
    EXPECT_FLOAT_EQ(width_of(PanelId::Heads), 0) << int(tab);
  }
  open(ToolTab::Tensors);  // the stage view shares the width with the heads again
  EXPECT_LT(width_of(PanelId::Tensors), window);
}

TEST_F(PresenterTabs, TheMistakeIsNamedWithItsSymptomLarge) {
  start_on("seed003");
  state.ui.presenter = true;
  set_mistake(state, Mistake::NoScale);
  state.session.worker->wait_idle();
  poll_trace(state);
  open(ToolTab::Mistakes);
  const MistakeInfo& info = mistake_info(Mistake::NoScale);
  std::string drawn;
  for (const std::string& line : state.frame.mistake_headline) drawn += line + " ";
  EXPECT_NE(drawn.find(info.name), std::string::npos) << drawn;
  EXPECT_NE(drawn.find(info.symptom), std::string::npos) << drawn;
  state.ui.presenter = false;  // the full layout names it in the picker, as before
  frame();
  EXPECT_TRUE(state.frame.mistake_headline.empty());
}

}  // namespace
}  // namespace attnlab::gui
