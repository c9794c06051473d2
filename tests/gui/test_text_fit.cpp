// Issue 29's layout check, checked itself: every text the app draws, read back from the draw
// lists, is found cut when it runs past its room and overlapping when it touches another.
// (`attnlab --dump-layout` lists what it finds in any view.)
#include "app/gui/look/drawn_text.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class TextFit : public HeadlessImGui {};

// The check itself: a text drawn wider than its room is found cut, two texts drawn on one spot
// are found overlapping, a text drawn twice a pixel apart (a shadow) and a whole text are not.
TEST_F(TextFit, TheCheckFindsACutTextAndTwoTextsOnOneSpot) {
  const auto findings_of = [&](auto&& draw) {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(10, 10));
    ImGui::SetNextWindowSize(ImVec2(200, 200));
    ImGui::Begin("probe", nullptr, ImGuiWindowFlags_NoScrollbar);
    draw();
    ImGui::End();
    ImGui::Render();
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
}

}  // namespace
}  // namespace attnlab::gui
