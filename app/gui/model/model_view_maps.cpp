#include "app/gui/model/model_view_maps.hpp"

#include <algorithm>

namespace attnlab::gui {

HeatmapSet model_view_maps(const PretrainedRun& run) {
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
  for (int64_t l = 0; l < layers; ++l) {
    const Tensor weights = run.layers[size_t(l)].weights.contiguous("model view");  // (1, h, T, T)
    for (int64_t h = 0; h < heads; ++h) {
      const float* map = weights.data() + h * T * T;  // (T, T)
      const int64_t index = l * heads + h;
      float* out = set.values.data() + index * cells * cells;  // (cells, cells)
      for (int64_t r = 0; r < cells; ++r) {
        const float* row = map + (r * T / cells) * T;  // the query this row samples
        const float row_max = std::max(1e-12f, *std::max_element(row, row + T));
        set.map_max[size_t(index)] = std::max(set.map_max[size_t(index)], row_max);
        for (int64_t c = 0; c < cells; ++c) out[r * cells + c] = row[c * T / cells] / row_max;
      }
    }
  }
  return set;
}

}  // namespace attnlab::gui
