// The pipeline strip's shapes (issue 29): normal and presenter, at font scales up to 1.5, at
// 1024x768, 1280x720 and 1920x1080, each stage box's shape is drawn at the body text's size (not
// shrunk to a dozen pixels as before); at every size and scale, normal and presenter, its lines fit
// its box and the box fits the strip (a shape that needs more room than the strip's largest height
// is drawn smaller, never cut).
#include <algorithm>

#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

using PipelineStrip = HeadlessImGui;

TEST_F(PipelineStrip, ShapesStayAtLeastTheBodyTextsHeightAndInsideTheirBoxes) {
  for (const char* preset : {"seed003", "base"}) {
    start_on(preset);
    for (const float scale : {1.0f, 1.5f, 2.0f}) {
      use_font_scale(scale);
      const float body = ImGui::GetIO().Fonts->Fonts[0]->FontSize;
      for (const ImVec2 display : {ImVec2(1024, 768), ImVec2(1280, 720), ImVec2(1920, 1080)}) {
        for (const bool presenter : {false, true}) {
          SCOPED_TRACE(std::string(preset) + " font " + std::to_string(scale) + " " +
                       std::to_string(int(display.x)) + "x" + std::to_string(int(display.y)) +
                       (presenter ? " presenter" : " normal"));
          ImGui::GetIO().DisplaySize = display;
          state.ui.presenter = presenter;
          frame();
          frame();  // the strip's height follows what it drew last frame
          const std::vector<StageBoxLine>& lines = state.frame.stage_box_lines;
          ASSERT_GE(lines.size(), size_t(kStageCount));
          const ImVec4 strip = state.frame.panel_rects[int(PanelId::Pipeline)];
          for (const StageBoxLine& line : lines) {
            if (scale <= 1.5f) {
              EXPECT_GE(line.size, body) << line.text;
            }
            EXPECT_LE(line.max.x, line.box_max.x + 0.5f) << line.text << " sticks out of its box";
            EXPECT_LE(line.max.y, line.box_max.y + 0.5f) << line.text << " below its box";
            EXPECT_LE(line.box_max.y, strip.w + 0.5f) << "the box is cut by the strip's bottom";
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace attnlab::gui
