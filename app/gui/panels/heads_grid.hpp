// The grid of heatmaps in the heads panel: how many columns make the maps largest in the room
// the panel has (2 heads side by side in a wide panel, 16 heads 4 x 4 in a square one).
#pragma once

#include <imgui.h>

namespace attnlab::gui {

struct Grid {
  int columns = 1, rows = 1;
  float map = 0;               // side of one map in pixels
  float left = 0, top = 0;     // room for query labels (first column) and key labels (first row)
  float title_h = 0, gap = 0;  // head title line above each map; space between maps
};

// The column count (and map side) that gives `maps` maps the largest side in `room`, with
// `label_w` for labels left and `top_h` for those on top, a title line of `title_h` above each map
// and `gap` between.
Grid fit_grid(int maps, ImVec2 room, float label_w, float top_h, float title_h, float gap);

}  // namespace attnlab::gui
