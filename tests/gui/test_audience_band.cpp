// Issue 38: the audience's band (its window, a slide) has no one to scroll it. At its least type
// a caption and question taller than a fifth of the window make the band taller (up to
// kAudienceBandMostFraction), never a scrollbar; the presenter's band stays under a fifth.
#include <imgui_internal.h>  // the band window's scrollbar

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

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
  // The lesson's `scene`, asked or answered, drawn until the band's type is fitted.
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

// A scene with a caption of three lines and a question of two, answered, at 1024x768, font 1.5:
// more than a fifth even at the least type. (Written here: the built-in lessons' bands fit a
// fifth.)
TEST_F(AudienceBand, ASlidesBandGrowsToItsTextInsteadOfScrolling) {
  use_font_scale(1.5f);
  load_presets(state);
  ImGui::GetIO().DisplaySize = ImVec2(1024, 768);
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "attnlab_band";
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "long-band.md").string();
  const std::string sentence = "Every head reads the same tokens through its own projections, ";
  std::ofstream(file) << "# Long\n\n## A long band\n```attnlab\n--preset seed003\n```\nCaption: "
                      << sentence << sentence << sentence << sentence << sentence
                      << "so each one can look for something else.\n\nQuestion: " << sentence
                      << sentence << "which of these is the head count here?\n"
                      << "A) one\nB) two\nC) four\nAnswer: B\n";
  ASSERT_EQ(open_lesson(state, file, ""), "");
  state.ui.presenter = true;
  state.lesson.slide = true;
  for (const bool revealed : {false, true}) {
    show(0, revealed);
    const ImGuiWindow& window = band_window();
    EXPECT_FALSE(window.ScrollbarY) << (revealed ? "answered" : "asked");
    EXPECT_LE(window.ContentSize.y + 2 * window.WindowPadding.y, window.Size.y + 0.5f);
    EXPECT_LE(band(), std::floor(768 * kAudienceBandMostFraction));
    EXPECT_GT(band(), std::floor(768 * kBandMostFraction)) << "the test shows nothing";
  }
  // The lecturer's one window: the same scene's band stays under a fifth (it scrolls at the
  // least type; the lecturer can).
  state.lesson.slide = false;
  show(0, true);
  EXPECT_LE(band(), std::floor(768 * kBandMostFraction));
}

}  // namespace
}  // namespace attnlab::gui
