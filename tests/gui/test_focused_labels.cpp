// Issue 38: a focused map, or two compared side by side, has a label on every token's row (the
// caption of notebook's "Two heads, two readings?" says "look at row 'woman' in each"), in one
// window with the lesson's band, at the lecture hall's sizes and font scale 1.5, asked and
// answered, and in an 800x600 window, whose maps (165-190 px) had their labels thinned ("0:The",
// "2:that": every other row unnamed) before the labels took the size the cells leave them.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "app/gui/lessons/lesson_panels.hpp"
#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/look/drawn_text.hpp"
#include "app/gui/panels/fitted_type.hpp"
#include "headless_imgui.hpp"
#include "settle_scene.hpp"

namespace attnlab::gui {
namespace {

class FocusedLabels : public HeadlessImGui {
 protected:
  // The scene computed and shown, and the band's type fitted (as the band's test settles).
  void settle() {
    settle_scene(
        state, [&] { frame(); }, 30);
  }
};

// The texts the heads panel drew left of the leftmost map, centred on one of its rows: one per
// row named, in row order (their text).
std::vector<std::string> row_labels(const FrameOutput& frame) {
  const std::vector<HeatmapPlacement>& maps = frame.heatmap_placements;
  if (maps.empty()) return {};
  const HeatmapPlacement& left = *std::min_element(
      maps.begin(), maps.end(),
      [](const HeatmapPlacement& a, const HeatmapPlacement& b) { return a.min.x < b.min.x; });
  std::vector<DrawnText> found;
  for (const DrawnText& text : drawn_texts()) {
    const float middle = 0.5f * (text.rect.y + text.rect.w);
    if (text.window.find("###heads") == std::string::npos || text.rect.z > left.min.x + 0.5f ||
        middle < left.min.y || middle > left.max.y || text.rect.x < left.min.x - 400)
      continue;
    found.push_back(text);
  }
  std::sort(found.begin(), found.end(),
            [](const DrawnText& a, const DrawnText& b) { return a.rect.y < b.rect.y; });
  std::vector<std::string> labels;
  for (const DrawnText& text : found) labels.push_back(text.text);
  return labels;
}

TEST_F(FocusedLabels, AFocusedOrComparedMapNamesEveryRowInEveryLessonSceneThatShowsOne) {
  use_font_scale(1.5f);
  load_presets(state);
  state.ui.presenter = true;
  // ten-minutes 4 ("One head must average") and 14 ("First-token head"): one head focused;
  // notebook 12 ("Two heads, two readings?"): head 0 focused, head 1 beside it.
  const std::vector<std::pair<std::string, std::vector<int>>> scenes = {{"ten-minutes", {4, 14}},
                                                                        {"notebook", {12}}};
  int checked = 0;
  for (const auto& [lesson, numbers] : scenes) {
    ASSERT_EQ(open_lesson(state, lesson, ""), "") << lesson;
    for (const ImVec2 size : {ImVec2(1024, 768), ImVec2(1280, 720), ImVec2(800, 600)}) {
      ImGui::GetIO().DisplaySize = size;
      for (const int number : numbers) {
        show_scene(state, number - 1);
        for (const bool revealed : {false, true}) {
          state.lesson.revealed = revealed;
          settle();
          const std::string where = lesson + " scene " + std::to_string(number) +
                                    (revealed ? " answered" : " asked") + " at " +
                                    std::to_string(int(size.x)) + "x" + std::to_string(int(size.y));
          ASSERT_GE(state.heads.focus.head, 0) << where << ": no head focused";
          const HeatmapSet& set = state.heads.heatmaps.value();
          const std::vector<std::string> labels = row_labels(state.frame);
          EXPECT_EQ(int64_t(labels.size()), set.rows) << where << ": a row without its label";
          for (const std::string& label : labels)
            EXPECT_EQ(label.find(':'), std::string::npos)
                << where << ": a thinned label \"" << label << "\"";
          ++checked;
        }
      }
    }
  }
  EXPECT_EQ(checked, 18);
}

}  // namespace
}  // namespace attnlab::gui
