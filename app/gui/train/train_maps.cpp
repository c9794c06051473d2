#include "app/gui/train/train_maps.hpp"

#include "app/gui/look/colormap.hpp"

namespace attnlab::gui {

std::vector<float> train_map_positions(std::span<const float> map, int64_t T, bool causal) {
  std::vector<float> positions(size_t(T * T), 0.0f);
  for (int64_t q = 0; q < T; ++q) {
    const int64_t seen = causal ? q + 1 : T;  // the keys query q sees
    const std::span<const float> row = map.subspan(size_t(q * T), size_t(seen));
    const RowColours colours = row_colours(row);
    for (int64_t k = 0; k < seen; ++k)
      positions[size_t(q * T + k)] = colours.position(row[size_t(k)]);
  }
  return positions;
}

}  // namespace attnlab::gui
