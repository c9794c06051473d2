#include "app/gui/export/vector_export.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "app/gui/look/colormap.hpp"
#include "app/gui/state/heatmap_data.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab::gui {

namespace {

constexpr double kFont = 14;        // px: the labels' size
constexpr double kCharWidth = 0.6;  // of the font size: a label's width, estimated
constexpr double kMargin = 20;
const char* const kMaskedFill = "#d9d9d9";

std::string escaped(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

std::string hex(Rgbf colour) {
  char text[8];
  const auto byte = [](float v) { return int(std::lround(std::clamp(v, 0.0f, 1.0f) * 255)); };
  std::snprintf(text, sizeof text, "#%02x%02x%02x", byte(colour.r), byte(colour.g), byte(colour.b));
  return text;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", value);
  return text;
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

struct Svg {
  std::ostringstream body;
  double width = 0, height = 0;
  void text(double x, double y, const std::string& words, double size, const char* anchor = "start",
            const std::string& extra = "") {
    body << "<text x=\"" << number(x) << "\" y=\"" << number(y) << "\" font-size=\"" << number(size)
         << "\" text-anchor=\"" << anchor << "\"" << extra << ">" << escaped(words) << "</text>\n";
    width = std::max(width, x + (std::string(anchor) == "start" ? text_width(words, size) : 0));
    height = std::max(height, y + size * 0.3);
  }
  void rect(double x, double y, double w, double h, const std::string& fill,
            const std::string& extra = "") {
    body << "<rect x=\"" << number(x) << "\" y=\"" << number(y) << "\" width=\"" << number(w)
         << "\" height=\"" << number(h) << "\" fill=\"" << fill << "\"" << extra << "/>\n";
    width = std::max(width, x + w);
    height = std::max(height, y + h);
  }
};

// The stages as boxes, each with its output shape, left to right; returns the y below them.
double shape_journey(Svg& svg, const Trace& trace, double y) {
  svg.body << "<g id=\"shape-journey\">\n";
  double x = kMargin;
  for (int i = 0; i < kStageCount; ++i) {
    const Stage stage = Stage(i);
    const TensorRecord* record = query_record(trace, stage);
    const std::string shape = record ? shape_to_string(record->tensor.shape()) : "";
    const std::string name = stage_name(stage);
    const double w = std::max(text_width(name, kFont), text_width(shape, kFont)) + 16;
    svg.rect(x, y, w, kFont * 3.2, "#cfe0f5", " rx=\"4\"");
    svg.text(x + 8, y + kFont * 1.3, name, kFont);
    svg.text(x + 8, y + kFont * 2.7, shape, kFont, "start", " class=\"shape\"");
    x += w;
    if (i + 1 < kStageCount) {
      svg.text(x + 12, y + kFont * 2, "\u2192", kFont, "middle");
      x += 24;
    }
  }
  svg.body << "</g>\n";
  return y + kFont * 3.2 + kMargin;
}

// One head's map at (x, y) with cells of `cell` px: its tokens as text on both axes.
void head_map(Svg& svg, const Trace& trace, const HeatmapSet& set, int64_t head, double x, double y,
              double cell, const std::string& id) {
  const bool tokens = !set.maps_are_tokens;
  const std::vector<std::string>& keys = !trace.tokens_kv.empty() ? trace.tokens_kv : trace.tokens;
  svg.body << "<g id=\"" << id << "\" data-head=\"" << head << "\">\n";
  for (int64_t q = 0; q < set.rows; ++q) {
    const std::string label =
        tokens && q < int64_t(trace.tokens.size()) ? trace.tokens[size_t(q)] : std::to_string(q);
    svg.text(x - 6, y + (double(q) + 0.5) * cell + kFont * 0.35, label, kFont * 0.85, "end",
             " class=\"query\"");
  }
  for (int64_t k = 0; k < set.cols; ++k) {
    const std::string label =
        tokens && k < int64_t(keys.size()) ? keys[size_t(k)] : std::to_string(k);
    const double kx = x + (double(k) + 0.5) * cell + kFont * 0.3, ky = y - 6;
    svg.text(kx, ky, label, kFont * 0.85, "start",
             " class=\"key\" transform=\"rotate(-90 " + number(kx) + " " + number(ky) + ")\"");
  }
  for (int64_t q = 0; q < set.rows; ++q)
    for (int64_t k = 0; k < set.cols; ++k) {
      const bool masked = set.masked(head, q, k);
      const float value = set.at(head, q, k);
      const double t = masked ? 0 : std::clamp(position(set, value), 0.0, 1.0);
      svg.rect(x + double(k) * cell, y + double(q) * cell, cell, cell,
               masked ? kMaskedFill : hex(colour_at(set.colormap, float(t))),
               " class=\"cell\" data-query=\"" + std::to_string(q) + "\" data-key=\"" +
                   std::to_string(k) + "\" data-value=\"" +
                   (masked ? std::string("masked") : number(set.real_at(head, q, k))) +
                   "\" data-position=\"" + number(t) + "\"");
    }
  svg.body << "<rect x=\"" << number(x) << "\" y=\"" << number(y) << "\" width=\""
           << number(cell * double(set.cols)) << "\" height=\"" << number(cell * double(set.rows))
           << "\" fill=\"none\" stroke=\"#555\"/>\n</g>\n";
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
double colour_bar(Svg& svg, const HeatmapSet& set, double x, double y) {
  const LegendText legend = legend_text(set);
  svg.body << "<g id=\"colour-bar\" data-colormap=\"" << colormap_name(set.colormap) << "\">\n";
  svg.text(x, y + kFont, legend.low, kFont);
  const double bar_x = x + text_width(legend.low, kFont) + 8, bar_w = 256;
  for (int i = 0; i < 64; ++i)
    svg.rect(bar_x + bar_w * i / 64.0, y + 2, bar_w / 64.0 + 0.3, kFont,
             hex(colour_at(set.colormap, (float(i) + 0.5f) / 64.0f)));
  svg.text(bar_x + bar_w + 8, y + kFont, legend.high, kFont);
  if (!legend.note.empty())
    svg.text(bar_x + bar_w + 16 + text_width(legend.high, kFont), y + kFont, legend.note,
             kFont * 0.85);
  svg.body << "</g>\n";
  return y + kFont * 2 + 8;
}

}  // namespace

std::string heads_svg(AppState& state) {
  Svg svg;
  const std::shared_ptr<const Trace> trace = state.session.trace;
  if (!trace) return "";
  double y = shape_journey(svg, *trace, kMargin);
  const HeatmapSet& set = current_heatmaps(state);
  if (!set.empty()) {
    svg.text(kMargin, y + kFont, heatmap_view_title(set.view), kFont * 1.2);
    y = colour_bar(svg, set, kMargin + 360, y) + 4;
    const double label = widest_label(*trace);
    const double cell = std::clamp(320.0 / double(set.side()), 3.0, 28.0);
    const double map = cell * double(set.side());
    const int columns = int(std::clamp<int64_t>(set.heads, 1, 4));
    svg.body << "<g id=\"heads\" data-view=\"" << heatmap_view_name(set.view) << "\">\n";
    for (int64_t h = 0; h < set.heads; ++h) {
      const double x = kMargin + label + double(h % columns) * (map + label + kMargin);
      const double top = y + kFont * 1.6 + label + double(h / columns) * (map + label + kFont * 3);
      svg.text(x, top - label - kFont * 0.4, "head " + std::to_string(h), kFont, "start",
               " class=\"head-title\"");
      head_map(svg, *trace, set, h, x, top, cell, "head-" + std::to_string(h));
    }
    svg.body << "</g>\n";
    y = svg.height + kMargin;
    const int focused = state.heads.focus.head;
    if (focused >= 0 && focused < set.heads) {  // the focused head, large
      const double big = std::clamp(640.0 / double(set.side()), 4.0, 48.0);
      svg.text(kMargin, y + kFont * 1.2, "head " + std::to_string(focused), kFont * 1.4);
      const double top = colour_bar(svg, set, kMargin + 160, y) + label + 8;
      svg.body << "<g id=\"focused\">\n";
      head_map(svg, *trace, set, focused, kMargin + label, top, big,
               "focused-head-" + std::to_string(focused));
      svg.body << "</g>\n";
    }
  }
  std::ostringstream out;
  const double w = std::ceil(svg.width + kMargin), h = std::ceil(svg.height + kMargin);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << number(w) << "\" height=\""
      << number(h) << "\" viewBox=\"0 0 " << number(w) << " " << number(h)
      << "\" font-family=\"DejaVu Sans, Verdana, sans-serif\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
      << svg.body.str() << "</svg>\n";
  return out.str();
}

std::string export_svg(AppState& state, const std::string& path) {
  const std::string svg = heads_svg(state);
  if (svg.empty()) return "there is no trace to draw yet: wait for it to be computed";
  try {
    write_file_atomically(path, svg);
  } catch (const std::exception& error) {
    return error.what();
  }
  return "";
}

}  // namespace attnlab::gui
