// One function per panel, each a function of the app state; each lives in its own file.
#pragma once

#include <imgui.h>

#include "app/gui/app_state.hpp"
#include "app/gui/heatmap_drawer.hpp"

namespace attnlab::gui {

void draw_controls_panel(AppState& state);
void draw_pipeline_panel(AppState& state);
void draw_tensors_panel(AppState& state);
void draw_heads_panel(AppState& state, HeatmapDrawer* drawer);
void draw_info_panel(AppState& state);

// [SECTION] shared helpers
// Begins a fixed panel window at its layout rectangle; records the rectangle for PNG export.
bool begin_panel(AppState& state, PanelId panel, const char* title, ImGuiWindowFlags extra = 0);
// One-sentence tooltip for the last item (also when reached by keyboard).
void tooltip(const char* text);
// Red, wrapped text under a control when the config has an issue for `field`.
void issue_text(const AppState& state, const char* field);

}  // namespace attnlab::gui
