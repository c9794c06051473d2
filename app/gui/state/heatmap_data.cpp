#include "app/gui/state/heatmap_data.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <tuple>
#include <utility>

#include "core/model/masks.hpp"

namespace attnlab::gui {

namespace {

struct ViewInfo {
  const char* name;
  const char* title;
  Op op;  // the step whose record it reads (the weights view: Trace::weights())
};
constexpr ViewInfo kViews[kHeatmapViewCount] = {
    {"weights", "weights A = softmax(S)", Op::Softmax},
    {"scores", "raw scores Q K\u1D40", Op::Scores},
    {"scaled", "scaled S = Q K\u1D40 / \u221Ad_k", Op::Scale},
    {"masked", "masked scores", Op::Mask},
};

}  // namespace

const char* heatmap_view_name(HeatmapView view) {
  return kViews[int(view)].name;
}

const char* heatmap_view_title(HeatmapView view) {
  return kViews[int(view)].title;
}

HeatmapView view_at_step(const Trace& trace, HeatmapView chosen, Stage stage, Substep substep) {
  if (stage != Stage::Attend ||
      (substep != Substep::Scores && substep != Substep::Scale && substep != Substep::Mask))
    return chosen;
  for (const TensorRecord& record : trace.records) {
    if (record.stage != stage || record.substep != substep) continue;
    for (const HeatmapView view : {HeatmapView::Scores, HeatmapView::Scaled, HeatmapView::Masked})
      if (record.op == kViews[int(view)].op) return view;
  }
  return chosen;
}

bool maps_ahead_of(Stage stage) {
  return stage < Stage::Attend;
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

namespace {

int64_t count_even_rows(const HeatmapSet& set) {
  int64_t even = 0;
  for (int64_t r = 0; r < set.heads * set.rows; ++r) {
    const auto row = set.values.begin() + r * set.cols;
    even += std::any_of(row, row + set.cols, [](float v) { return v > kEvenAbove; });
  }
  return even;
}

// The maps of a (B, A, R, C) record, one per index of A, or the one map of a (B, R, C) record.
// `weights`: sequential colour positions under `scale`, with masked keys hidden; otherwise
// diverging, symmetric around 0.
HeatmapSet maps_of(const Trace& trace, const TensorRecord& record, HeatmapView view, bool weights,
                   int64_t batch_index, ColourScale scale) {
  HeatmapSet set;
  const Tensor& maps = record.tensor;
  const bool per_head = maps.dim() == 4;
  if (!maps.has_values() || (!per_head && maps.dim() != 3)) return set;
  const int64_t B = maps.size(0);
  // Forget-transpose: the maps are (h, h), one per token.
  set.maps_are_tokens = per_head && find_axis(record.axes, AxisKind::Token) == 1;
  if (record.axes.size() >= 2) {
    set.row_axis = record.axes[record.axes.size() - 2].symbol;
    set.col_axis = record.axes.back().symbol;
  }
  set.view = view;
  set.record = record.name;
  set.batch_index = std::clamp<int64_t>(batch_index, 0, B - 1);
  set.heads = per_head ? maps.size(1) : 1;
  set.rows = maps.size(per_head ? 2 : 1);
  set.cols = maps.size(per_head ? 3 : 2);
  const size_t count = size_t(set.heads * set.rows * set.cols);
  set.values.resize(count);
  set.shown.resize(count);

  // Weights hide masked keys explicitly: their weight is 0, which must not look like a small one.
  // (The masks are over (T, T): heads attending to heads have nothing to hide.)
  const bool hide_masked = weights && !set.maps_are_tokens;
  const std::vector<uint8_t> visible =
      hide_masked ? visibility(trace.config.mask, B, set.rows, set.cols) : std::vector<uint8_t>();

  // Walk the strides directly: at() per cell would allocate an index vector each time.
  const Scalar* base = maps.data();
  const Shape& s = maps.strides();
  const int64_t head_stride = per_head ? s[1] : 0, row_stride = s[per_head ? 2 : 1],
                col_stride = s[per_head ? 3 : 2];
  float largest = 0;
  size_t at = 0;
  for (int64_t h = 0; h < set.heads; ++h) {
    for (int64_t i = 0; i < set.rows; ++i) {
      for (int64_t j = 0; j < set.cols; ++j, ++at) {
        const float value =
            base[set.batch_index * s[0] + h * head_stride + i * row_stride + j * col_stride];
        set.shown[at] = value;
        // A masked key with weight is a leak (the mask-zero mistake): shown, not hatched.
        const bool hidden =
            hide_masked
                ? !visible[size_t((set.batch_index * set.rows + i) * set.cols + j)] && value == 0
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
    set.scale = scale;
    set.value_min = 0;
    set.value_max = 1;
    const size_t map_size = size_t(set.rows * set.cols);
    for (int64_t h = 0; h < set.heads; ++h) {
      float map_largest = 0;
      for (size_t k = size_t(h) * map_size; k < size_t(h + 1) * map_size; ++k)
        if (std::isfinite(set.values[k])) map_largest = std::max(map_largest, set.values[k]);
      set.map_max.push_back(map_largest);
    }
    weights_to_colour_positions(scale, set.values, set.heads, set.rows, set.cols);
    set.even_rows = count_even_rows(set);
    // The spread of the visible cells' colours (masked ones are hatched, not coloured), and of
    // their weights: the scale is to blame only when the weights differ (uniform attention is
    // one colour under any scale).
    float low = 1, high = 0, least = 1, most = 0;
    for (size_t k = 0; k < set.values.size(); ++k) {
      if (!std::isfinite(set.values[k])) continue;
      low = std::min(low, set.values[k]);
      high = std::max(high, set.values[k]);
      least = std::min(least, set.shown[k]);
      most = std::max(most, set.shown[k]);
    }
    set.flat = high >= low && high - low < kFlatSpread && most - least > kFlatSpread * most;
    if (set.flat) set.flat_max = *std::max_element(set.map_max.begin(), set.map_max.end());
  } else {
    set.colormap = ColormapKind::Diverging;
    const float bound = largest > 0 ? largest : 1.0f;
    set.value_min = -bound;
    set.value_max = bound;
  }
  return set;
}

}  // namespace

HeatmapSet build_heatmaps(const Trace& trace, HeatmapView view, int64_t batch_index,
                          ColourScale scale) {
  const TensorRecord* record =
      view == HeatmapView::Weights ? trace.weights() : trace.find(kViews[int(view)].op);
  if (!record && view == HeatmapView::Masked) record = trace.find(Op::Scale);  // no mask recorded
  if (!record) return {};
  return maps_of(trace, *record, view, view == HeatmapView::Weights, batch_index, scale);
}

HeatmapSet record_heatmaps(const Trace& trace, const std::string& record, int64_t batch_index) {
  const TensorRecord* found = trace.find(record);
  if (!found) return {};
  const bool weights = found == trace.weights();
  return maps_of(trace, *found, weights ? HeatmapView::Weights : HeatmapView::Scores, weights,
                 batch_index, ColourScale::Fixed);
}

namespace {
std::string number(float value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", double(value));
  return text;
}
}  // namespace

namespace {
// The legend's ends and its note on the scale.
LegendText scale_text(const HeatmapSet& set) {
  if (set.colormap == ColormapKind::Diverging)  // signed, white at 0 in the middle
    return {number(set.value_min), std::string(1, '+').append(number(set.value_max)),
            "signed: blue below 0, white 0, red above"};
  if (set.map_max.empty()) return {number(set.value_min), number(set.value_max), ""};
  const auto [least, most] = std::minmax_element(set.map_max.begin(), set.map_max.end());
  switch (set.scale) {
    case ColourScale::PerMap: {
      const std::string range =
          *least == *most ? number(*most)
                          : "its max (" + number(*least) + " \u2026 " + number(*most) + ")";
      return {"0", *least == *most ? number(*most) : "max",
              "colours stretched per map: 0 \u2026 " + range};
    }
    case ColourScale::PerRow:
      return {"0", "row max", "per row: each row 0 \u2026 its max"};
    case ColourScale::Log:
      return {number(kLogFloor), "1", "log scale " + number(kLogFloor) + " \u2026 1"};
    case ColourScale::Fixed:
      break;
  }
  return {"0", "1", "fixed 0 \u2026 1"};
}
}  // namespace

LegendText legend_text(const HeatmapSet& set) {
  LegendText text = scale_text(set);
  if (set.even_rows > 0) text.even = kEvenRowLegend;
  if (set.flat) {
    text.warning.append(text.note).append(": all weights \u2264 ").append(number(set.flat_max));
    text.warning.append(" look alike: press S for ")
        .append(colour_scale_name(next_colour_scale(set.scale)));
  }
  return text;
}

HeatmapSet single_map(const HeatmapSet& set, int64_t map) {
  HeatmapSet one = set;
  one.heads = 1;
  const size_t size = size_t(set.rows * set.cols);
  const size_t first = size_t(std::clamp<int64_t>(map, 0, set.heads - 1)) * size;
  one.values.assign(set.values.begin() + first, set.values.begin() + first + size);
  one.shown.assign(set.shown.begin() + first, set.shown.begin() + first + size);
  if (!set.map_max.empty()) one.map_max = {set.map_max[first / size]};
  one.masked_cells =
      std::count_if(one.values.begin(), one.values.end(), [](float v) { return v < -1.0e30f; });
  one.even_rows = count_even_rows(one);
  return one;
}

HeatmapSet difference_map(const HeatmapSet& correct, const HeatmapSet& buggy) {
  HeatmapSet diff;
  if (correct.empty() || buggy.empty() || correct.rows != buggy.rows || correct.cols != buggy.cols)
    return diff;
  diff.view = buggy.view;
  diff.batch_index = buggy.batch_index;
  diff.heads = 1;
  diff.rows = buggy.rows;
  diff.cols = buggy.cols;
  diff.row_axis = buggy.row_axis;
  diff.col_axis = buggy.col_axis;
  diff.colormap = ColormapKind::Sequential;
  diff.values.resize(size_t(diff.rows * diff.cols));
  float largest = 0;
  for (size_t i = 0; i < diff.values.size(); ++i) {
    const float d = std::abs(buggy.shown[i] - correct.shown[i]);
    diff.values[i] = std::isfinite(d) ? d : 0.0f;
    largest = std::max(largest, diff.values[i]);
  }
  diff.shown = diff.values;
  diff.value_min = 0;
  diff.value_max = largest > 0 ? largest : 1.0f;
  return diff;
}

void share_colour_scale(std::span<HeatmapSet> maps) {
  float low = 0, high = 0;
  bool diverging = false;
  for (const HeatmapSet& set : maps) {
    if (set.empty()) continue;
    low = std::min(low, set.value_min);
    high = std::max(high, set.value_max);
    diverging = diverging || set.colormap == ColormapKind::Diverging;
  }
  if (diverging) {
    high = std::max(high, -low);
    low = -high;
  }
  for (HeatmapSet& set : maps) {
    if (set.empty()) continue;
    set.value_min = low;
    set.value_max = high;
    set.colormap = diverging ? ColormapKind::Diverging : ColormapKind::Sequential;
  }
}

}  // namespace attnlab::gui
