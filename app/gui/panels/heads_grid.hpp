// The grid of heatmaps in the heads panel: how many columns make the maps largest in the room
// the panel has (2 heads side by side in a wide panel, 8 heads 4 x 2 in a 920 x 470 one), how
// much room their labels take at that size, and whether the header (the view's name, the colour
// legend, the focus bar) goes above the maps or in a column beside them.
#pragma once

#include <imgui.h>

#include <functional>

namespace attnlab::gui {

// The least side a heatmap may have when `maps` are shown (issue 38): 240 px for one or two, so a
// ten-token map's cells are 24 px, its rows' labels readable beside them; with more maps the
// picture is a grid of heads compared at a glance, their patterns not their numbers: 100 px up to
// eight (a ten-token map's cells 10 px), 60 px beyond (twelve or more heads on one screen).
float least_map_side(int maps);

// The room labels take beside maps of one side: left of the first column (the query labels),
// above the first row (the key labels), and past the last column's right edge, where the last key
// label, turned upright and centred on its column, is taller than the column is wide.
struct LabelMargins {
  float left = 0, top = 0, right = 0;
};

struct Grid {
  int columns = 1, rows = 1;
  float map = 0;               // side of one map in pixels
  float left = 0, top = 0;     // room for query labels (first column) and key labels (first row)
  float title_h = 0, gap = 0;  // head title line above each map; space between maps
};

// The column count (and map side) that gives `maps` maps the largest side in `room`, with `labels`
// room for the labels, a title line of `title_h` above each map and `gap` between.
Grid fit_grid(int maps, ImVec2 room, const LabelMargins& labels, float title_h, float gap);

// The room the labels need beside maps of side `map`. Thinned labels of small maps ("0:The",
// "50:on") are shorter than the longest token, so the room depends on the size it makes room for.
using LabelRoom = std::function<LabelMargins(float map)>;

// fit_grid with the label room the chosen maps need: starts from no labels and widens the room to
// what the labels of the resulting maps take until they fit (the room only grows, so it ends);
// after a few rounds it takes `widest`, the room that fits any labels.
Grid fit_grid_labelled(int maps, ImVec2 room, const LabelRoom& labels, const LabelMargins& widest,
                       float title_h, float gap);

// Where the header goes. `header` is its height above the maps (x unused) and its width in a
// column beside them: beside when that makes the maps larger, which a wide panel whose maps are
// bound by its height gains from.
struct HeadsLayout {
  Grid grid;
  bool header_beside = false;
  float header_w = 0;  // the column's width when beside
};
HeadsLayout fit_heads_layout(int maps, ImVec2 room, float header_h, float header_w,
                             const LabelRoom& labels, const LabelMargins& widest, float title_h,
                             float gap);

}  // namespace attnlab::gui
