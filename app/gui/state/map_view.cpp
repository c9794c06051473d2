#include "app/gui/state/map_view.hpp"

#include <algorithm>

namespace attnlab::gui {

MapView clamp_view(MapView view, int64_t count) {
  const double whole = double(std::max<int64_t>(count, 1));
  const double span = view.span <= 0 ? whole : view.span;
  view.span = std::clamp(span, std::min(kMinVisibleCells, whole), whole);
  view.first_row = std::clamp(view.first_row, 0.0, whole - view.span);
  view.first_col = std::clamp(view.first_col, 0.0, whole - view.span);
  return view;
}

MapView zoom_about(MapView view, int64_t count, double factor, double at_row, double at_col) {
  const MapView before = clamp_view(view, count);
  MapView after = before;
  after.span = before.span / factor;
  after = clamp_view(after, count);
  const double shrink = after.span / before.span;
  after.first_row = at_row - (at_row - before.first_row) * shrink;
  after.first_col = at_col - (at_col - before.first_col) * shrink;
  return clamp_view(after, count);
}

MapView pan_view(MapView view, int64_t count, double rows, double cols) {
  view = clamp_view(view, count);
  view.first_row += rows;
  view.first_col += cols;
  return clamp_view(view, count);
}

}  // namespace attnlab::gui
