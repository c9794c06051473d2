// Which cells of a heatmap axis get a label. All of them when the labels fit; else every k-th
// (k a round number: 1, 2, 5, 10, 20, 50, ...) with its position in front ("150:the"), so a
// thinned axis never reads as a run of consecutive tokens.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace attnlab::gui {

struct AxisLabel {
  int64_t index = 0;
  std::string text;
};

// Every how many cells a label goes, for cells `cell` pixels apart and labels `label_size` tall.
int64_t label_stride(float cell, float label_size, int64_t count);

// The labels of an axis of `count` cells, named by `name(index)`.
std::vector<AxisLabel> axis_labels(int64_t count, float cell, float label_size,
                                   const std::function<std::string(int64_t)>& name);

}  // namespace attnlab::gui
