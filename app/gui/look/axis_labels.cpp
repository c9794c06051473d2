#include "app/gui/look/axis_labels.hpp"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

int64_t label_stride(float cell, float label_size, int64_t count) {
  const auto needed = int64_t(std::ceil(label_size * 1.05f / std::max(cell, 0.01f)));
  if (needed <= 1) return 1;
  // The smallest round step at least `needed`: positions then read 0, 50, 100, ...
  int64_t stride = 1;
  for (int64_t decade = 1;; decade *= 10) {
    for (const int64_t step : {decade, 2 * decade, 5 * decade}) {
      stride = step;
      if (step >= needed) return std::clamp<int64_t>(stride, 1, std::max<int64_t>(1, count));
    }
  }
}

std::vector<AxisLabel> axis_labels(int64_t count, float cell, float label_size,
                                   const std::function<std::string(int64_t)>& name) {
  const int64_t stride = label_stride(cell, label_size, count);
  std::vector<AxisLabel> labels;
  for (int64_t i = 0; i < count; i += stride)
    labels.push_back({i, stride == 1 ? name(i) : std::to_string(i) + ":" + name(i)});
  return labels;
}

}  // namespace attnlab::gui
