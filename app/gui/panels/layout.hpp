// Where the panels go, from the window size, the font size and the user's splits: controls down
// the left, the pipeline strip across the top, tensors in the middle, heads and info below. In
// presenter mode the controls fold into a bar across the top and the stage view and the heads
// share the rest side by side; the code panel is hidden.
#pragma once

#include <imgui.h>

#include <array>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

struct PanelLayout {
  std::array<ImVec4, kPanelCount> rects;  // x0, y0, x1, y1 per PanelId; empty = not shown
};

// `pipeline_height`: what the strip's content needed last frame (0: not known yet).
// `stage_alone`: the middle panel takes the heads panel's room too: in presenter mode the tabs
// that draw their own maps or none (Decode, KV cache; GQA's expand step), in the normal layout
// the Check tab (its maps are the student's exercise, not the run the heads show), whose panel
// then reaches the window's bottom with no heads and no code beside it.
// `stage_width`: the width presenter mode's stage view needs to draw its text whole
// (presenter_stage_width): the user's split widens to it, and where it would leave the heads
// less than kMinHeadsFraction of the window, the stage view takes the whole width.
// `bar_rows`: the rows presenter mode's bar takes (presenter_bar_rows; 0: no bar, the audience's
// picture).
PanelLayout compute_layout(ImVec2 display, float font_pixels, const UiSettings& ui,
                           float pipeline_height = 0, bool stage_alone = false,
                           float stage_width = 0, int bar_rows = 1);

// The heads' least share of the window beside the stage view: less would shrink a short
// sentence's cells under 24 px at font scale 2 (1280x720), so the stage view takes it all.
constexpr float kMinHeadsFraction = 0.5f;

// This frame's layout: the window, the font and the user's splits; in presenter mode, the width
// the current step's text needs (`stage_alone`: the tab shown takes the heads' room, as
// compute_layout's). Call inside a frame.
PanelLayout frame_layout(AppState& state, ImVec2 display, bool stage_alone);

// The pipeline strip's largest height in a window `display_h` pixels tall: it takes what its rows
// need up to this. The normal layout's panels under it scroll; presenter mode's maps do not, and
// get a little more (so a font scale of 2 on 768 rows draws the shapes smaller there).
float most_pipeline_strip_height(float display_h, bool presenter);
// Presenter mode's bar across the top: `rows` rows of fields.
float presenter_bar_height(float font, int rows = 1);

// The borders between panels a user can drag, and the split each one moves.
enum class Border { Controls, Tensors, Heads, Presenter };

// Drags the border under the mouse (a few pixels either side of it), changing ui.splits; shows
// the resize cursor on hover. Called once a frame after the panels are drawn.
void drag_borders(const PanelLayout& layout, UiSettings& ui);

// True when the panel is shown in this layout.
inline bool shown(const PanelLayout& layout, PanelId panel) {
  const ImVec4& r = layout.rects[size_t(panel)];
  return r.z > r.x && r.w > r.y;
}

}  // namespace attnlab::gui
