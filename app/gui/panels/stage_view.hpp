// The stage view (the Tensors tab: panel_tensors.cpp) as the layout sees it: how wide presenter
// mode's stage column must be so that the current step's text (the code line, shapes, strides)
// is drawn whole and its tensors' cells stay readable.
#pragma once

#include <imgui.h>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// The smallest width of a stage panel `panel.y` high that draws the current step whole; `panel.x`
// (the window's width) when none up to it does; 0 without a step. Where the heads beside it need
// `heads_width` (heads_width_for_least_maps; 0: nothing asked) and the stage is whole in what that
// leaves, its specks listed, it takes that, no more and no less. Call inside a frame (it measures
// text with the current font).
float presenter_stage_width(const AppState& state, ImVec2 panel, float heads_width = 0);

}  // namespace attnlab::gui
