// A sidecar for screenshots: where each heatmap was drawn and what it shows, so the pixel test can
// compare every cell's colour with the colour map applied to the core's value for that cell.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "app/gui/panels/heads_grid.hpp"  // least_map_side
#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// {"window": [w, h], "framebuffer_scale": [sx, sy], "preset": ..., "config": {...},
//  "view": "weights", "batch": 0, "value_min": 0, "value_max": 1, "colormap": "viridis",
//  "rows": T, "cols": T, "heatmaps": [{"head": 0, "rect": [x0, y0, x1, y1]}, ...],
//  "frame": N, "step": {"index": 4, "stage": "attend", "label": "QKᵀ"}, "computing": false, "measuring": false,
//  "presenter": false, "shapes": {"scores": [1, 2, 11, 11], ...},   (the current step's tensors)
//  "content_findings": ["table ... rows ...", "map of head 1 ..."],
//  "text_findings": ["cut \"...\" [x0,y0 x1,y1] in room [...] (window)", ...]}

// What the last frame drew cut or too small in `picture` (x0, y0, x1, y1: the window less a
// lesson's band): each table whose rows or columns are not wholly inside what its window shows
// and the picture, each scroll region (a child window) whose content is larger than it (what it
// hides is never drawn, so no text of it is found cut), each heatmap not wholly inside the
// picture or smaller than least_map_side(). One line each: `table "first column" (window): rows
// 120..610 shown 120..560`, `scrolls "window": 57 px of 357 hidden below`. Call after
// ImGui::Render(); the text itself is checked by text_findings().
std::vector<std::string> content_findings(const AppState& state, ImVec4 picture);

std::string layout_json(const AppState& state, ImVec2 window, ImVec2 framebuffer_scale,
                        int frame = 0);

}  // namespace attnlab::gui
