// A sidecar for screenshots: where each heatmap was drawn and what it shows, so the pixel test can
// compare every cell's colour with the colour map applied to the core's value for that cell.
#pragma once

#include <imgui.h>

#include <string>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// {"window": [w, h], "framebuffer_scale": [sx, sy], "preset": ..., "config": {...},
//  "view": "weights", "batch": 0, "value_min": 0, "value_max": 1, "colormap": "viridis",
//  "rows": T, "cols": T, "heatmaps": [{"head": 0, "rect": [x0, y0, x1, y1]}, ...],
//  "frame": N, "step": {"index": 4, "stage": "attend", "label": "QKᵀ"}, "computing": false,
//  "presenter": false, "shapes": {"scores": [1, 2, 11, 11], ...},   (the current step's tensors)
//  "text_findings": ["cut \"...\" [x0,y0 x1,y1] in room [...] (window)", ...]}
std::string layout_json(const AppState& state, ImVec2 window, ImVec2 framebuffer_scale,
                        int frame = 0);

}  // namespace attnlab::gui
