// Issue 38: the audience's band (its window, a slide) has no one to scroll it. At its least type
// a caption and question taller than a fifth of the window make the band taller (up to
// kAudienceBandMostFraction), never a scrollbar; the presenter's band stays under a fifth.
#include <imgui_internal.h>  // the band window's scrollbar

#include <cmath>

#include "app/gui/lessons/lesson_panels.hpp"
#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/panels/layout.hpp"
#include "app/lessons/lesson_files.hpp"
#include "headless_imgui.hpp"
#include "settle_scene.hpp"

namespace attnlab::gui {
namespace {

class AudienceBand : public HeadlessImGui {
 protected:
  // beyond-one-head's `scene`, asked or answered, drawn until the band's type is fitted.
  void show(int scene, bool revealed) {
    show_scene(state, scene);
    state.lesson.revealed = revealed;
    if (settle_scene(
            state, [&] { frame(); }, 40))
      return;
    ADD_FAILURE() << "scene " << scene + 1 << " still fitting";
  }
  float band() const { return ImGui::GetIO().DisplaySize.y - state.frame.layout_height; }
  const ImGuiWindow& band_window() const {
    const ImGuiWindow* window = ImGui::FindWindowByName("Lesson###lesson");
    EXPECT_NE(window, nullptr);
    return *window;
  }
};

// "The T x T wall" (a caption of two lines and a question) and "MHA, GQA, MQA side by side"
// answered (three choices and the answer) at 1024x768, font 1.5: more than a fifth even at the
// least type.
TEST_F(AudienceBand, ASlidesBandGrowsToItsTextInsteadOfScrolling) {
  use_font_scale(1.5f);
  load_presets(state);
  ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
  ASSERT_EQ(open_lesson(state, "beyond-one-head", ""), "");
  state.ui.presenter = true;
  state.lesson.slide = true;
  bool grew = false;
  for (const auto& [scene, revealed] : {std::pair{16, false}, std::pair{5, true}}) {
    show(scene, revealed);
    const ImGuiWindow& window = band_window();
    EXPECT_FALSE(window.ScrollbarY) << "scene " << scene + 1;
    EXPECT_LE(window.ContentSize.y + 2 * window.WindowPadding.y, window.Size.y + 0.5f)
        << "scene " << scene + 1;
    EXPECT_LE(band(), std::floor(768 * kAudienceBandMostFraction));
    grew = grew || band() > std::floor(768 * kBandMostFraction);
  }
  EXPECT_TRUE(grew) << "neither band needed more than a fifth: the test shows nothing";
  // The lecturer's one window: the same scene's band stays under a fifth (it scrolls at the
  // least type; the lecturer can).
  state.lesson.slide = false;
  show(5, true);
  EXPECT_LE(band(), std::floor(768 * kBandMostFraction));
}

}  // namespace
}  // namespace attnlab::gui
