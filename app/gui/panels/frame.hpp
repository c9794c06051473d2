// One frame of the app between ImGui::NewFrame() and ImGui::Render(): clock, background results,
// shortcuts, layout and every panel, then the changes the panels asked for (state.requests). The
// same function runs in the window and in headless tests.
#pragma once

#include "app/gui/panels/heatmap_drawer.hpp"
#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// `drawer` may be null (no renderer: heatmaps are outlined, not filled).
void draw_frame(AppState& state, HeatmapDrawer* drawer);

// What a window's panels measured when last drawn (the layout gives them that room next frame):
// each window keeps its own.
struct MeasuredLayout {
  PipelineStrip pipeline;  // what the strip's content took
  float heads_header = 0;  // HeadsPanel::full_header_h
};

// The audience's picture of the same state, for a second window (the projector's): presenter
// mode's layout without its bar, the lesson's band without the presenter's part, the pointer. No
// clock, keys or requests: the lecturer's window (draw_frame) runs those. `measured` is the
// audience window's own.
void draw_audience_frame(AppState& state, HeatmapDrawer* drawer, MeasuredLayout& measured);

}  // namespace attnlab::gui
