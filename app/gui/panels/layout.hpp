// Where the panels go, from the window size and the font size: controls down the left, the
// pipeline strip across the top, tensors in the middle, heads and info below.
#pragma once

#include <imgui.h>

#include <array>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

struct PanelLayout {
  std::array<ImVec4, kPanelCount> rects;  // x0, y0, x1, y1 per PanelId
};

PanelLayout compute_layout(ImVec2 display, float font_pixels);

}  // namespace attnlab::gui
