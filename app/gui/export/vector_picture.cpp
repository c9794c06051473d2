#include "app/gui/export/vector_picture.hpp"

#include <algorithm>
#include <cmath>

#include "app/gui/look/colormap.hpp"
#include "app/gui/state/app_state.hpp"
#include "app/gui/state/heatmap_data.hpp"

namespace attnlab::gui {

namespace {

constexpr double kFont = 14;        // px: the labels' size
constexpr double kCharWidth = 0.6;  // of the font size: a label's width, estimated
constexpr double kMargin = 20;
constexpr uint32_t kMaskedFill = 0xd9d9d9;

uint32_t rgb(Rgbf colour) {
  const auto byte = [](float v) { return uint32_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255)); };
  return byte(colour.r) << 16 | byte(colour.g) << 8 | byte(colour.b);
}

double text_width(const std::string& text, double size) {
  size_t characters = 0;
  for (const char c : text) characters += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return double(characters) * size * kCharWidth;
}

// The colour position (0 .. 1) of a cell's value: weights hold theirs, scores are spread over
// the set's range.
double position(const HeatmapSet& set, float value) {
  const double span = double(set.value_max) - double(set.value_min);
  return span > 0 ? (double(value) - set.value_min) / span : 0.5;
}

// The picture as it is built: its items and the extent they reach.
struct Builder {
  VectorPicture picture;
  double width = 0, height = 0;
  void text(double x, double y, const std::string& words, double size,
            TextAnchor anchor = TextAnchor::Start, const std::string& kind = "",
            double rotation = 0) {
    picture.items.push_back(VectorText{x, y, words, size, anchor, rotation, kind});
    width = std::max(width, x + (anchor == TextAnchor::Start ? text_width(words, size) : 0));
    height = std::max(height, y + size * 0.3);
  }
  VectorRect& rect(double x, double y, double w, double h, uint32_t fill) {
    VectorRect r;
    r.x = x, r.y = y, r.w = w, r.h = h, r.fill = fill;
    width = std::max(width, x + w);
    height = std::max(height, y + h);
    picture.items.push_back(r);
    return std::get<VectorRect>(picture.items.back());
  }
  void open(const std::string& id, std::vector<std::pair<std::string, std::string>> data = {}) {
    picture.items.push_back(VectorGroup{true, id, std::move(data)});
  }
  void close() { picture.items.push_back(VectorGroup{false, "", {}}); }
};

// The stages as boxes, each with its output shape, left to right; returns the y below them.
double shape_journey(Builder& out, const Trace& trace, double y) {
  out.open("shape-journey");
  double x = kMargin;
  for (int i = 0; i < kStageCount; ++i) {
    const Stage stage = Stage(i);
    const TensorRecord* record = query_record(trace, stage);
    const std::string shape = record ? shape_to_string(record->tensor.shape()) : "";
    const std::string name = stage_name(stage);
    const double w = std::max(text_width(name, kFont), text_width(shape, kFont)) + 16;
    out.rect(x, y, w, kFont * 3.2, 0xcfe0f5).corner = 4;
    out.text(x + 8, y + kFont * 1.3, name, kFont);
    out.text(x + 8, y + kFont * 2.7, shape, kFont, TextAnchor::Start, "shape");
    x += w;
    if (i + 1 < kStageCount) {
      out.text(x + 12, y + kFont * 2, "\u2192", kFont, TextAnchor::Middle);
      x += 24;
    }
  }
  out.close();
  return y + kFont * 3.2 + kMargin;
}

// One head's map at (x, y) with cells of `cell` px: its tokens as text on both axes.
void head_map(Builder& out, const Trace& trace, const HeatmapSet& set, int64_t head, double x,
              double y, double cell, const std::string& id) {
  const bool tokens = !set.maps_are_tokens;
  const std::vector<std::string>& keys = !trace.tokens_kv.empty() ? trace.tokens_kv : trace.tokens;
  out.open(id, {{"data-head", std::to_string(head)}});
  for (int64_t q = 0; q < set.rows; ++q) {
    const std::string label =
        tokens && q < int64_t(trace.tokens.size()) ? trace.tokens[size_t(q)] : std::to_string(q);
    out.text(x - 6, y + (double(q) + 0.5) * cell + kFont * 0.35, label, kFont * 0.85,
             TextAnchor::End, "query");
  }
  for (int64_t k = 0; k < set.cols; ++k) {
    const std::string label =
        tokens && k < int64_t(keys.size()) ? keys[size_t(k)] : std::to_string(k);
    out.text(x + (double(k) + 0.5) * cell + kFont * 0.3, y - 6, label, kFont * 0.85,
             TextAnchor::Start, "key", -90);
  }
  for (int64_t q = 0; q < set.rows; ++q)
    for (int64_t k = 0; k < set.cols; ++k) {
      const bool masked = set.masked(head, q, k), even = !masked && set.even(head, q, k);
      const double t = masked ? 0 : std::clamp(position(set, set.at(head, q, k)), 0.0, 1.0);
      const uint32_t fill = masked ? kMaskedFill
                            : even ? rgb(colour_at(set.colormap, kEvenPosition))
                                   : rgb(colour_at(set.colormap, float(t)));
      VectorRect& r = out.rect(x + double(k) * cell, y + double(q) * cell, cell, cell, fill);
      r.cell = true, r.query = q, r.key = k, r.masked = masked, r.position = t;
      r.value = masked ? 0 : double(set.real_at(head, q, k));
    }
  VectorRect border;  // the map's outline (inside the cells: the extent stays)
  border.x = x, border.y = y, border.w = cell * double(set.cols),
  border.h = cell * double(set.rows);
  border.filled = false, border.outlined = true, border.stroke = 0x555555;
  out.picture.items.push_back(border);
  out.close();
}

// The widest token label, in px at the labels' size.
double widest_label(const Trace& trace) {
  double widest = text_width("00", kFont * 0.85);
  for (const std::string& token : trace.tokens)
    widest = std::max(widest, text_width(token, kFont * 0.85));
  for (const std::string& token : trace.tokens_kv)
    widest = std::max(widest, text_width(token, kFont * 0.85));
  return widest + 8;
}

// The colour bar: 64 steps of the colour map with the values at its ends.
double colour_bar(Builder& out, const HeatmapSet& set, double x, double y) {
  const LegendText legend = legend_text(set);
  out.open("colour-bar", {{"data-colormap", colormap_name(set.colormap)}});
  out.text(x, y + kFont, legend.low, kFont);
  const double bar_x = x + text_width(legend.low, kFont) + 8, bar_w = 256;
  for (int i = 0; i < 64; ++i)
    out.rect(bar_x + bar_w * i / 64.0, y + 2, bar_w / 64.0 + 0.3, kFont,
             rgb(colour_at(set.colormap, (float(i) + 0.5f) / 64.0f)));
  out.text(bar_x + bar_w + 8, y + kFont, legend.high, kFont);
  if (!legend.note.empty())
    out.text(bar_x + bar_w + 16 + text_width(legend.high, kFont), y + kFont, legend.note,
             kFont * 0.85);
  double below = y + kFont * 2 + 8;
  if (!legend.even.empty()) {  // the even rows' grey, named on a line of its own
    out.rect(x, below, kFont * 1.6, kFont, rgb(colour_at(set.colormap, kEvenPosition)));
    out.text(x + kFont * 1.6 + 8, below + kFont * 0.85, legend.even, kFont * 0.85);
    below += kFont + 8;
  }
  out.close();
  return below;
}

}  // namespace

VectorPicture heads_picture(AppState& state) {
  Builder out;
  const std::shared_ptr<const Trace> trace = state.session.trace;
  if (!trace) return {};
  double y = shape_journey(out, *trace, kMargin);
  const HeatmapSet& set = current_heatmaps(state);
  if (!set.empty()) {
    out.text(kMargin, y + kFont, heatmap_view_title(set.view), kFont * 1.2);
    y = colour_bar(out, set, kMargin + 360, y) + 4;
    const double label = widest_label(*trace);
    const double cell = std::clamp(320.0 / double(set.side()), 3.0, 28.0);
    const double map = cell * double(set.side());
    const int columns = int(std::clamp<int64_t>(set.heads, 1, 4));
    out.open("heads", {{"data-view", heatmap_view_name(set.view)}});
    for (int64_t h = 0; h < set.heads; ++h) {
      const double x = kMargin + label + double(h % columns) * (map + label + kMargin);
      const double top = y + kFont * 1.6 + label + double(h / columns) * (map + label + kFont * 3);
      out.text(x, top - label - kFont * 0.4, "head " + std::to_string(h), kFont, TextAnchor::Start,
               "head-title");
      head_map(out, *trace, set, h, x, top, cell, "head-" + std::to_string(h));
    }
    out.close();
    y = out.height + kMargin;
    const int focused = state.heads.focus.head;
    if (focused >= 0 && focused < set.heads) {  // the focused head, large
      const double big = std::clamp(640.0 / double(set.side()), 4.0, 48.0);
      out.text(kMargin, y + kFont * 1.2, "head " + std::to_string(focused), kFont * 1.4);
      const double top = colour_bar(out, set, kMargin + 160, y) + label + 8;
      out.open("focused");
      head_map(out, *trace, set, focused, kMargin + label, top, big,
               "focused-head-" + std::to_string(focused));
      out.close();
    }
  }
  out.picture.width = std::ceil(out.width + kMargin);
  out.picture.height = std::ceil(out.height + kMargin);
  return std::move(out.picture);
}

std::vector<const VectorRect*> picture_cells(const VectorPicture& picture) {
  std::vector<const VectorRect*> cells;
  for (const VectorItem& item : picture.items)
    if (const auto* rect = std::get_if<VectorRect>(&item); rect && rect->cell)
      cells.push_back(rect);
  return cells;
}

}  // namespace attnlab::gui
