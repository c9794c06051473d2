#include "app/gui/panels/heads_grid.hpp"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

float least_map_side(int maps) {
  if (maps <= 2) return 240;
  return maps <= 8 ? 100 : 60;
}

Grid fit_grid(int maps, ImVec2 room, const LabelMargins& labels, float title_h, float gap) {
  Grid best;
  const float label_w = labels.left, top_h = labels.top;
  room.x -= labels.right;
  for (int columns = 1; columns <= maps; ++columns) {
    const int rows = (maps + columns - 1) / columns;
    const float by_width = (room.x - label_w - gap * float(columns - 1)) / float(columns);
    const float by_height =
        (room.y - top_h - float(rows) * title_h - gap * float(rows - 1)) / float(rows);
    const float map = std::floor(std::min(by_width, by_height));
    if (map > best.map) best = {columns, rows, map, label_w, top_h, title_h, gap};
  }
  return best;
}

Grid fit_grid_labelled(int maps, ImVec2 room, const LabelRoom& labels, const LabelMargins& widest,
                       float title_h, float gap) {
  constexpr int kRounds = 4;
  LabelMargins assumed;
  for (int round = 0; round < kRounds; ++round) {
    const Grid grid = fit_grid(maps, room, assumed, title_h, gap);
    const LabelMargins needed = labels(grid.map);
    if (needed.left <= assumed.left && needed.top <= assumed.top && needed.right <= assumed.right)
      return grid;
    assumed = {std::max(assumed.left, needed.left), std::max(assumed.top, needed.top),
               std::max(assumed.right, needed.right)};
  }
  return fit_grid(maps, room, widest, title_h, gap);
}

HeadsLayout fit_heads_layout(int maps, ImVec2 room, float header_h, float header_w,
                             const LabelRoom& labels, const LabelMargins& widest, float title_h,
                             float gap) {
  const Grid above =
      fit_grid_labelled(maps, ImVec2(room.x, room.y - header_h), labels, widest, title_h, gap);
  const Grid beside =
      fit_grid_labelled(maps, ImVec2(room.x - header_w, room.y), labels, widest, title_h, gap);
  if (beside.map > above.map) return {beside, true, header_w};
  return {above, false, 0};
}

}  // namespace attnlab::gui
