#include "app/gui/model/model_view_maps.hpp"

#include <algorithm>
#include <span>

#include "app/gui/look/colormap.hpp"

namespace attnlab::gui {

HeatmapSet model_view_maps(const PretrainedRun& run, bool causal) {
  HeatmapSet set;
  if (run.layers.empty()) return set;
  const Tensor& first = run.layers[0].weights;  // (1, h, T, T)
  const int64_t layers = int64_t(run.layers.size()), heads = first.size(1), T = first.size(2);
  const int64_t cells = std::clamp<int64_t>(T, 1, kModelViewCells);
  set.heads = layers * heads;
  set.rows = set.cols = cells;
  set.record = "weights";
  set.values.assign(size_t(set.heads * cells * cells), 0.0f);
  set.map_max.assign(size_t(set.heads), 0.0f);
  set.scale = ColourScale::PerRow;
  for (int64_t l = 0; l < layers; ++l) {
    const Tensor weights = run.layers[size_t(l)].weights.contiguous("model view");  // (1, h, T, T)
    for (int64_t h = 0; h < heads; ++h) {
      const float* map = weights.data() + h * T * T;  // (T, T)
      const int64_t index = l * heads + h;
      float* out = set.values.data() + index * cells * cells;  // (cells, cells)
      for (int64_t r = 0; r < cells; ++r) {
        const int64_t query = r * T / cells;  // the query this row samples
        const float* row = map + query * T;
        const int64_t seen = causal ? query + 1 : T;  // the keys it sees
        const RowColours colours = row_colours(std::span<const float>(row, size_t(seen)));
        set.map_max[size_t(index)] = std::max(set.map_max[size_t(index)], colours.largest);
        set.even_rows += colours.even;
        for (int64_t c = 0; c < cells; ++c) {
          const int64_t key = c * T / cells;
          out[r * cells + c] = key < seen ? colours.position(row[key]) : 0.0f;
        }
      }
    }
  }
  return set;
}

}  // namespace attnlab::gui
