#include "app/gui/heatmap_data.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/masks.hpp"

namespace attnlab::gui {

namespace {

struct ViewInfo {
  const char* name;
  const char* title;
  const char* record;  // the trace record it reads
};
constexpr ViewInfo kViews[kHeatmapViewCount] = {
    {"weights", "weights A = softmax(S)", "weights"},
    {"scores", "raw scores Q K\u1D40", "scores"},
    {"scaled", "scaled S = Q K\u1D40 / \u221Ad_k", "scaled"},
    {"masked", "masked scores", "masked"},
};

}  // namespace

const char* heatmap_view_name(HeatmapView view) {
  return kViews[int(view)].name;
}

const char* heatmap_view_title(HeatmapView view) {
  return kViews[int(view)].title;
}

bool parse_heatmap_view(const std::string& text, HeatmapView& view) {
  for (int i = 0; i < kHeatmapViewCount; ++i) {
    if (text == kViews[i].name) {
      view = HeatmapView(i);
      return true;
    }
  }
  return false;
}

HeatmapSet build_heatmaps(const Trace& trace, HeatmapView view, int64_t batch_index,
                          bool stretch_weights) {
  HeatmapSet set;
  const TensorRecord* record = trace.find(kViews[int(view)].record);
  if (!record && view == HeatmapView::Masked) record = trace.find("scaled");  // no mask recorded
  if (!record || !record->tensor.has_values()) return set;

  const Tensor& maps = record->tensor;  // (B, h, T, T)
  const int64_t B = maps.size(0);
  set.view = view;
  set.batch_index = std::clamp<int64_t>(batch_index, 0, B - 1);
  set.heads = maps.size(1);
  set.rows = maps.size(2);
  set.cols = maps.size(3);
  const size_t count = size_t(set.heads * set.rows * set.cols);
  set.values.resize(count);
  set.shown.resize(count);

  // Weights hide masked keys explicitly: their weight is 0, which must not look like a small one.
  const bool weights = view == HeatmapView::Weights;
  const std::vector<uint8_t> visible =
      weights ? visibility(trace.config.mask, B, set.rows) : std::vector<uint8_t>();

  // Walk the strides directly: at() per cell would allocate an index vector each time.
  const Scalar* base = maps.data();
  const Shape& stride = maps.strides();
  float largest = 0;
  size_t at = 0;
  for (int64_t h = 0; h < set.heads; ++h) {
    for (int64_t i = 0; i < set.rows; ++i) {
      for (int64_t j = 0; j < set.cols; ++j, ++at) {
        const float value =
            base[set.batch_index * stride[0] + h * stride[1] + i * stride[2] + j * stride[3]];
        set.shown[at] = value;
        const bool hidden = weights
                                ? !visible[size_t((set.batch_index * set.rows + i) * set.cols + j)]
                                : std::isinf(value) && value < 0;
        set.values[at] = hidden ? kMaskedValue : value;
        if (hidden) {
          ++set.masked_cells;
        } else if (std::isfinite(value)) {
          largest = std::max(largest, weights ? value : std::abs(value));
        }
      }
    }
  }
  if (weights) {
    set.colormap = ColormapKind::Sequential;
    set.value_min = 0;
    set.value_max = stretch_weights && largest > 0 ? largest : 1.0f;
  } else {
    set.colormap = ColormapKind::Diverging;
    const float bound = largest > 0 ? largest : 1.0f;
    set.value_min = -bound;
    set.value_max = bound;
  }
  return set;
}

}  // namespace attnlab::gui
