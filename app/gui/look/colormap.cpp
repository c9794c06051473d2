#include "app/gui/look/colormap.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace attnlab::gui {

namespace {

// Anchor colours, evenly spaced; the table interpolates between them in sRGB.
// Sequential: viridis (perceptually uniform, readable in grey and by most colour-blind viewers) as
// matplotlib publishes it (lib/matplotlib/_cm_listed.py, _viridis_data, CC0) at t = k/32: its
// entries 0, 8, ..., 248 and 255; between them viridis is within 3/255 of a straight line.
// Diverging: ColorBrewer's 9-class RdBu, reversed so negative is blue.
const std::vector<Rgb8> kSequentialAnchors = {
    {68, 1, 84},    {71, 13, 96},   {72, 24, 106},  {72, 35, 116},  {71, 45, 123},  {69, 55, 129},
    {66, 64, 134},  {62, 73, 137},  {59, 82, 139},  {55, 91, 141},  {51, 99, 141},  {47, 107, 142},
    {44, 114, 142}, {41, 122, 142}, {38, 130, 142}, {35, 137, 142}, {33, 145, 140}, {31, 152, 139},
    {31, 160, 136}, {34, 167, 133}, {40, 174, 128}, {50, 182, 122}, {63, 188, 115}, {78, 195, 107},
    {94, 201, 98},  {112, 207, 87}, {132, 212, 75}, {152, 216, 62}, {173, 220, 48}, {194, 223, 35},
    {216, 226, 25}, {236, 229, 27}, {253, 231, 37}};
const std::vector<Rgb8> kDivergingAnchors = {{33, 102, 172},  {67, 147, 195},  {146, 197, 222},
                                             {209, 229, 240}, {247, 247, 247}, {253, 219, 199},
                                             {244, 165, 130}, {214, 96, 77},   {178, 24, 43}};

ColormapTable build_table(const std::vector<Rgb8>& anchors) {
  ColormapTable table{};
  const int segments = static_cast<int>(anchors.size()) - 1;
  for (int i = 0; i < kColormapEntries; ++i) {
    const float position = float(i) / float(kColormapEntries - 1) * float(segments);
    const int low = std::min(int(position), segments - 1);
    const float f = position - float(low);
    auto mix = [&](uint8_t a, uint8_t b) {
      return static_cast<uint8_t>(std::lround(float(a) + (float(b) - float(a)) * f));
    };
    table[i] = {mix(anchors[low].r, anchors[low + 1].r), mix(anchors[low].g, anchors[low + 1].g),
                mix(anchors[low].b, anchors[low + 1].b)};
  }
  return table;
}

}  // namespace

const ColormapTable& colormap_table(ColormapKind kind) {
  static const ColormapTable sequential = build_table(kSequentialAnchors);
  static const ColormapTable diverging = build_table(kDivergingAnchors);
  return kind == ColormapKind::Sequential ? sequential : diverging;
}

bool is_even_row(std::span<const float> row) {
  int visible = 0;
  float least = std::numeric_limits<float>::max(), largest = 0;
  for (const float v : row) {
    if (!std::isfinite(v)) continue;
    ++visible;
    least = std::min(least, v);
    largest = std::max(largest, v);
  }
  return visible >= 2 && largest > 0 && largest - least <= kEvenRowTolerance * largest;
}

RowColours row_colours(std::span<const float> visible) {
  RowColours colours;
  for (const float v : visible)
    if (std::isfinite(v)) colours.largest = std::max(colours.largest, v);
  colours.even = is_even_row(visible);
  return colours;
}

float RowColours::position(float weight) const {
  if (!std::isfinite(weight)) return weight;
  if (even) return kEvenPosition;
  return largest > 0 ? weight / largest : weight;
}

Rgbf colour_at(ColormapKind kind, float t) {
  if (t > kEvenAbove)
    return {kEvenRowColour.r / 255.0f, kEvenRowColour.g / 255.0f, kEvenRowColour.b / 255.0f};
  const ColormapTable& table = colormap_table(kind);
  if (!(t >= 0.0f)) t = 0.0f;  // also catches NaN
  t = std::min(t, 1.0f);
  const float position = t * float(kColormapEntries - 1);
  const int low = std::min(int(position), kColormapEntries - 2);
  const float f = position - float(low);
  auto mix = [&](uint8_t a, uint8_t b) { return (float(a) + (float(b) - float(a)) * f) / 255.0f; };
  return {mix(table[low].r, table[low + 1].r), mix(table[low].g, table[low + 1].g),
          mix(table[low].b, table[low + 1].b)};
}

uint32_t colour_at_packed(ColormapKind kind, float t) {
  const Rgbf c = colour_at(kind, t);
  auto byte = [](float v) { return uint32_t(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f)); };
  return byte(c.r) | (byte(c.g) << 8) | (byte(c.b) << 16) | (0xFFu << 24);
}

const char* colormap_name(ColormapKind kind) {
  return kind == ColormapKind::Sequential ? "viridis" : "diverging";
}

namespace {
constexpr const char* kScaleNames[kColourScaleCount] = {"per-map", "per-row", "log", "fixed"};

// Divides each finite value of a block by the block's largest finite value (when positive).
void stretch_block(std::span<float> block) {
  float largest = 0;
  for (float v : block)
    if (std::isfinite(v)) largest = std::max(largest, v);
  if (largest <= 0) return;
  for (float& v : block)
    if (std::isfinite(v)) v /= largest;
}
}  // namespace

const char* colour_scale_name(ColourScale scale) {
  return kScaleNames[int(scale)];
}

ColourScale next_colour_scale(ColourScale scale) {
  return ColourScale((int(scale) + 1) % kColourScaleCount);
}

bool parse_colour_scale(const std::string& text, ColourScale& scale) {
  for (int i = 0; i < kColourScaleCount; ++i) {
    if (text == kScaleNames[i]) {
      scale = ColourScale(i);
      return true;
    }
  }
  return false;
}

std::string colour_scale_names() {
  std::string names;
  for (const char* name : kScaleNames) {
    if (!names.empty()) names += ", ";
    names += name;
  }
  return names;
}

void weights_to_colour_positions(ColourScale scale, std::span<float> weights, int64_t maps,
                                 int64_t rows, int64_t cols) {
  const size_t map_size = size_t(rows * cols), row_size = size_t(cols);
  switch (scale) {
    case ColourScale::PerMap:
      for (int64_t m = 0; m < maps; ++m)
        stretch_block(weights.subspan(size_t(m) * map_size, map_size));
      break;
    case ColourScale::PerRow:
      for (int64_t r = 0; r < maps * rows; ++r) {
        const std::span<float> row = weights.subspan(size_t(r) * row_size, row_size);
        const RowColours colours = row_colours(row);
        for (float& v : row) v = colours.position(v);
      }
      break;
    case ColourScale::Log: {
      const float floor_log = std::log10(kLogFloor);  // -4: the first colour
      for (float& v : weights)
        if (std::isfinite(v))
          v = std::clamp((std::log10(std::max(v, kLogFloor)) - floor_log) / -floor_log, 0.0f, 1.0f);
      break;
    }
    case ColourScale::Fixed:
      break;
  }
}

}  // namespace attnlab::gui
