#include "app/gui/panels/heads_grid.hpp"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

Grid fit_grid(int maps, ImVec2 room, float label_w, float top_h, float title_h, float gap) {
  Grid best;
  room.x -= title_h * 0.5f;  // the last key label is centred on the last column: half sticks out
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

}  // namespace attnlab::gui
