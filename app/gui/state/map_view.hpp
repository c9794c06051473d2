// The visible part of a zoomed (T, T) map in focus mode: a square window of `span` cells whose
// top-left cell is (first_row, first_col), in fractional cells. Zoom keeps the cell under the
// cursor still; pan moves by cells; both keep the window inside the map and at least
// kMinVisibleCells (or T) cells wide.
#pragma once

#include <cstdint>

namespace attnlab::gui {

constexpr double kMinVisibleCells = 8;

struct MapView {
  double first_row = 0, first_col = 0;
  double span = 0;  // visible cells per side; 0 = the whole map
};

// The view with `span` inside [min(8, count), count] and the window inside the map.
MapView clamp_view(MapView view, int64_t count);

// Magnifies by `factor` (> 1 zooms in) about the point (at_row, at_col), in cells.
MapView zoom_about(MapView view, int64_t count, double factor, double at_row, double at_col);

// Moves the window by (rows, cols) cells.
MapView pan_view(MapView view, int64_t count, double rows, double cols);

}  // namespace attnlab::gui
