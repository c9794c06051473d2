// A small heatmap drawn as rectangles into the window's draw list (the Word order tab's tables and
// maps: at most a few hundred cells a side). Large grids are sampled so that no cell is narrower
// than a pixel.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <functional>
#include <string>

#include "app/gui/look/colormap.hpp"

namespace attnlab::gui {

struct ValueGrid {
  std::function<double(int64_t, int64_t)> value;  // (row, column)
  int64_t rows = 0, cols = 0;
  ColormapKind kind = ColormapKind::Sequential;
  double low = 0, high = 1;  // the colour scale's ends (diverging: -high .. high)
};

// Draws `grid` with its top-left at `at`, `width` x `height` pixels, with a thin border.
void draw_value_grid(ImDrawList* list, ImVec2 at, float width, float height, const ValueGrid& grid,
                     ImU32 border);

// One label per row at the left (align_right false) or right edge of a column `width` wide,
// centred on rows `cell` pixels tall from `top`; labels thinned so that none overlap.
void draw_row_labels(ImDrawList* list, ImVec2 at, float width, float cell, int64_t rows,
                     const std::function<std::string(int64_t)>& label, ImU32 colour,
                     bool align_right);

}  // namespace attnlab::gui
