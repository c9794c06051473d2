// Issue 29's layout check: every text the app draws, read back from the draw lists, is whole and
// apart from the others. Every tab, and on the Tensors tab every stage and sub-step, normal and
// presenter, at 1024x768, 1280x720 and 1920x1080, font 1, 1.5 and 2, on seed003, base and a tiny
// real model; a failure names the view, the text and its rectangle.

#include "app/gui/look/drawn_text.hpp"
#include "app/gui/model/model_state.hpp"
#include "app/gui/state/pipeline_steps.hpp"
#include "app/gui/state/redraw.hpp"
#include "headless_imgui.hpp"
#include "tiny_checkpoints.hpp"

namespace attnlab::gui {
namespace {

struct Size {
  float w, h;
};
constexpr Size kSizes[] = {{1024, 768}, {1280, 720}, {1920, 1080}};

class TextFit : public HeadlessImGui {
 protected:
  // Every view of the current state at the current font scale, both modes, every size: the
  // findings, each prefixed with where it was seen.
  void check_views(const std::string& what) {
    const std::vector<PipelineStep> steps = pipeline_steps(*state.session.trace);
    for (const bool presenter : {false, true}) {
      state.ui.presenter = presenter;
      for (const Size& size : kSizes) {
        ImGui::GetIO().DisplaySize = ImVec2(size.w, size.h);
        const std::string where = what + " " + std::to_string(int(size.w)) + "x" +
                                  std::to_string(int(size.h)) + " font " + scale_ +
                                  (presenter ? " presenter" : " normal");
        state.tabs.requested_tool = ToolTab::Tensors;
        for (int s = 0; s < int(steps.size()); ++s) {
          go_to_step(state, s);
          look(where + " tensors step " + steps[size_t(s)].label);
        }
        ASSERT_TRUE(go_to_named_step(state, "attend"));
        for (int t = 1; t < kToolTabCount; ++t) {
          state.tabs.requested_tool = ToolTab(t);
          look(where + " tab " + tool_tab_name(ToolTab(t)));
        }
        state.tabs.requested_tool = ToolTab::Tensors;
      }
    }
  }
  void look(const std::string& where) {
    frame();
    // The view's measurements (head importance, timings) done: every view is checked with its
    // results in, whatever the machine's speed.
    wait_for_measurements(state);
    frame();
    frame();  // a table first shown in a new child window is fitted on its third frame
    // Fitted regions and the band done fitting their type, as a still waits for them.
    for (int more = 0; more < kMostFittingFrames && layout_fitting(state); ++more) frame();
    // A region whose content outgrows it shows its scrollbar a frame after it learns its content's
    // size, one frame later in a region nested in a new one: the layout settled, at most two
    // frames on (only a view with findings pays them).
    std::vector<std::string> found = text_findings(drawn_texts(), state.frame.text_fields);
    for (int more = 0; more < 2 && !found.empty(); ++more) {
      frame();
      found = text_findings(drawn_texts(), state.frame.text_fields);
    }
    int here = 0;  // each view's first two findings: the list shows every view that fails
    for (const std::string& finding : found) {
      ++findings_;
      if (++here <= 2 && ++reported_ <= 150) ADD_FAILURE() << where << ": " << finding;
    }
  }
  void at_font_scale(float scale) {
    use_font_scale(scale);
    char s[16];
    std::snprintf(s, sizeof s, "%g", scale);
    scale_ = s;
  }
  int findings_ = 0, reported_ = 0;
  std::string scale_ = "1";
};

TEST_F(TextFit, NoTextIsCutOrOverlapsAnotherInAnyView) {
  for (const float scale : {1.0f, 1.5f, 2.0f}) {
    at_font_scale(scale);
    for (const char* preset : {"seed003", "base"}) {
      start_on(preset);
      check_views(preset);
    }
    start_on("seed003");
    start_model_load(state, attnlab::fixtures::tiny_checkpoint("gpt2-f32-tied"));
    wait_for_model(state);
    state.session.worker->wait_idle();
    poll_trace(state);
    ASSERT_TRUE(state.model.session) << state.model.error;
    check_views("real model");
  }
  EXPECT_EQ(findings_, 0) << "texts cut or overlapping (each view's first two listed)";
}

// The check itself: a text drawn wider than its room is found cut, two texts drawn on one spot
// are found overlapping, a text drawn twice a pixel apart (a shadow) and a whole text are not.
TEST_F(TextFit, TheCheckFindsACutTextAndTwoTextsOnOneSpot) {
  const auto findings_of = [&](auto&& draw) {
    probe_frame(ImVec2(200, 200), draw);
    return text_findings(drawn_texts());
  };
  const auto whole = findings_of([] { ImGui::TextUnformatted("whole words"); });
  EXPECT_TRUE(whole.empty()) << whole.front();
  const auto cut = findings_of(
      [] { ImGui::TextUnformatted("a sentence far too long for a window two hundred wide"); });
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_EQ(cut[0].rfind("cut \"a sentence far", 0), 0u) << cut[0];
  EXPECT_NE(cut[0].find("(probe)"), std::string::npos) << cut[0];
  const auto on_one_spot = findings_of([] {
    ImDrawList* list = ImGui::GetWindowDrawList();
    list->AddText(ImVec2(40, 40), IM_COL32_WHITE, "first");
    list->AddText(ImVec2(44, 42), IM_COL32_WHITE, "second");
  });
  ASSERT_EQ(on_one_spot.size(), 1u);
  EXPECT_EQ(on_one_spot[0].rfind("overlap \"first\"", 0), 0u) << on_one_spot[0];
  const auto shadow = findings_of([] {
    ImDrawList* list = ImGui::GetWindowDrawList();
    list->AddText(ImVec2(41, 41), IM_COL32_BLACK, "label");
    list->AddText(ImVec2(40, 40), IM_COL32_WHITE, "label");
  });
  EXPECT_TRUE(shadow.empty()) << shadow.front();
  // The labels of a tab bar too narrow for its tabs scroll with it (ImGui lays the bar out on a
  // tab's first frame, so twice): they are not cut, a text under the bar still is.
  const auto tabs_and_text = [] {
    if (ImGui::BeginTabBar("bar", ImGuiTabBarFlags_FittingPolicyScroll)) {
      for (const char* label : {"first tab", "second tab", "third tab", "fourth tab"})
        if (ImGui::BeginTabItem(label)) ImGui::EndTabItem();
      ImGui::EndTabBar();
    }
    ImGui::TextUnformatted("a sentence far too long for a window two hundred wide");
  };
  findings_of(tabs_and_text);
  const auto tabs = findings_of(tabs_and_text);
  ASSERT_EQ(tabs.size(), 1u) << tabs.front();
  EXPECT_EQ(tabs[0].rfind("cut \"a sentence far", 0), 0u) << tabs[0];
}

}  // namespace
}  // namespace attnlab::gui
