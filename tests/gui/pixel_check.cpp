// Checks a screenshot of the heads panel against the numbers: for every heatmap cell, the pixel at
// the cell's centre (above the printed number, in cells big enough to print one) must be the
// published colour map (viridis for weights, RdBu for scores: published_colormaps.hpp) at the
// core's value for that cell, in the record the layout says the maps show
// (weights, or the scores of attend's QK^T, scale and mask sub-steps); masked cells must be the
// grey hatching. Prints the largest colour difference, like llm.c's check_tensor.
//   gui_pixel_check SHOT.png LAYOUT.json [--expect-heads N] [--expect-record NAME] [--tolerance T]
#include <stb_image.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "core/model/config_json.hpp"
#include "core/model/masks.hpp"
#include "core/model/preset.hpp"
#include "core/trace/mha.hpp"
#include "published_colormaps.hpp"

using namespace attnlab;
using nlohmann::json;

namespace {

struct Image {
  int width = 0, height = 0;
  unsigned char* pixels = nullptr;  // RGB
  ~Image() { stbi_image_free(pixels); }
  const unsigned char* at(int x, int y) const { return pixels + (size_t(y) * width + x) * 3; }
};

int fail(const std::string& message) {
  std::fprintf(stderr, "gui_pixel_check: %s\n", message.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3)
    return fail(
        "usage: gui_pixel_check SHOT.png LAYOUT.json [--expect-heads N] [--expect-even-rows N]");
  int expect_heads = -1;
  std::string expect_record;     // the trace record the maps must show ("scaled" at attend:scale)
  double tolerance = 6;          // of 255: the GPU's 8-bit filtering and rounding
  int64_t expect_even_rows = 0;  // at least this many rows drawn as spread evenly
  for (int i = 3; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--expect-heads") expect_heads = std::stoi(argv[i + 1]);
    if (flag == "--expect-record") expect_record = argv[i + 1];
    if (flag == "--tolerance") tolerance = std::stod(argv[i + 1]);
    if (flag == "--expect-even-rows") expect_even_rows = std::stoll(argv[i + 1]);
  }

  Image image;
  image.pixels = stbi_load(argv[1], &image.width, &image.height, nullptr, 3);
  if (!image.pixels) return fail(std::string("cannot read ") + argv[1]);
  std::ifstream layout_file(argv[2]);
  if (!layout_file) return fail(std::string("cannot read ") + argv[2]);
  const json layout = json::parse(layout_file);

  // The same trace the app drew, from the core.
  std::vector<std::string> warnings;
  const Config config = config_from_json(layout.at("config"), argv[2], {}, warnings);
  Inputs inputs;
  const std::string preset_name = layout.value("preset", "");
  if (!preset_name.empty()) {
    const Preset preset = find_preset(preset_name);
    if (preset.config == config) inputs = preset.inputs;
  }
  const Trace trace = run(config, inputs);
  const std::string record = layout.value("record", "");
  std::printf("the maps show: %s (step %s)\n", record.c_str(),
              layout.contains("step") ? layout["step"].value("label", "").c_str() : "?");
  if (record.empty()) return fail("the layout names no record (the tensor the maps show)");
  if (!expect_record.empty() && record != expect_record)
    return fail("the maps show \"" + record + "\", expected \"" + expect_record + "\"");
  const TensorRecord* shown = trace.find(record);
  if (!shown) return fail("the core's trace has no record \"" + record + "\"");
  const bool weights = record == "weights";
  const Tensor& values = shown->tensor;  // (B, h, T, T)
  const int64_t b = layout.at("batch"), T = values.size(2);
  const std::vector<uint8_t> visible = visibility(config.mask, config.batch, T);

  const json& maps = layout.at("heatmaps");
  std::printf("heatmaps drawn: %zu (n_heads = %lld)\n", maps.size(), (long long)config.n_heads);
  if (int64_t(maps.size()) != config.n_heads) return fail("one heatmap per head expected");
  if (expect_heads >= 0 && int(maps.size()) != expect_heads)
    return fail("expected " + std::to_string(expect_heads) + " heatmaps");
  if (layout.at("rows") != T || layout.at("cols") != T) return fail("layout rows/cols != T");

  // The colour each cell must have, worked out here from the trace and the published colour maps
  // (published_colormaps.hpp), not by the app's own colour functions: weights on viridis through
  // the colour scale the layout names, as docs/app.md defines the scales; scores on RdBu,
  // symmetric around 0 at the largest |score| of the sequence's maps.
  const std::string colormap = layout.at("colormap");
  if (colormap != (weights ? "viridis" : "diverging"))
    return fail("the maps of \"" + record + "\" are drawn on \"" + colormap + "\"");
  const int64_t H = values.size(1);
  std::vector<double> positions(size_t(H * T * T));  // (h, T, T): where on the map, 0 .. 1
  // Per row, a row whose visible weights are all equal (within 1e-3 of its largest, two or more of
  // them: spread evenly, 1/n each) is drawn in a neutral grey, not the map's top colour (issue
  // 38); its cells are marked here by a position of -1.
  constexpr double kEvenRow = -1;
  const testing::Rgb255 even_grey{150, 150, 150};
  int64_t even_cells = 0;
  const auto cell = [&](int64_t h, int64_t i, int64_t j) {
    return double(values.at({b, h, i, j}));
  };
  double lo = 0, hi = 1;
  if (weights) {
    const std::string scale = layout.value("colour_scale", "");
    std::printf("colour scale: %s\n", scale.c_str());
    const auto largest_of = [&](int64_t h, int64_t i0, int64_t i1) {  // rows i0 .. i1 - 1
      double largest = 0;
      for (int64_t i = i0; i < i1; ++i)
        for (int64_t j = 0; j < T; ++j) largest = std::max(largest, cell(h, i, j));
      return largest > 0 ? largest : 1.0;
    };
    for (int64_t h = 0; h < H; ++h) {
      const double map_largest = largest_of(h, 0, T);
      for (int64_t i = 0; i < T; ++i) {
        const double row_largest = largest_of(h, i, i + 1);
        double row_least = row_largest;
        int64_t row_visible = 0;
        for (int64_t j = 0; j < T; ++j)
          if (visible[size_t((b * T + i) * T + j)]) {
            row_least = std::min(row_least, cell(h, i, j));
            ++row_visible;
          }
        const bool even_row =
            scale == "per-row" && row_visible >= 2 && row_largest - row_least <= 1e-3 * row_largest;
        for (int64_t j = 0; j < T; ++j) {
          const double w = cell(h, i, j);
          double t = 0;
          if (scale == "fixed")
            t = w;  // 0 .. 1
          else if (scale == "per-map")
            t = w / map_largest;  // 0 .. the map's largest weight
          else if (scale == "per-row")
            t = w / row_largest;  // 0 .. the row's largest weight
          else if (scale == "log")
            t = (std::log10(std::max(w, 1e-4)) + 4) / 4;  // 1e-4 .. 1
          else
            return fail("layout has no known colour_scale: \"" + scale + "\"");
          positions[size_t((h * T + i) * T + j)] = even_row ? kEvenRow : t;
        }
      }
    }
  } else {
    double largest = 0;
    for (int64_t h = 0; h < H; ++h)
      for (int64_t i = 0; i < T; ++i)
        for (int64_t j = 0; j < T; ++j)
          if (std::isfinite(cell(h, i, j))) largest = std::max(largest, std::abs(cell(h, i, j)));
    hi = largest > 0 ? largest : 1.0;
    lo = -hi;
    for (int64_t h = 0, k = 0; h < H; ++h)
      for (int64_t i = 0; i < T; ++i)
        for (int64_t j = 0; j < T; ++j, ++k)
          positions[size_t(k)] = (cell(h, i, j) - lo) / (hi - lo);
  }
  const double layout_lo = layout.at("value_min"), layout_hi = layout.at("value_max");
  if (std::abs(layout_lo - lo) > 1e-6 * hi || std::abs(layout_hi - hi) > 1e-6 * hi)
    return fail("the colour range is " + std::to_string(layout_lo) + " .. " +
                std::to_string(layout_hi) + ", the numbers' is " + std::to_string(lo) + " .. " +
                std::to_string(hi));
  const double sx = layout.at("framebuffer_scale")[0], sy = layout.at("framebuffer_scale")[1];
  double worst = 0;
  std::string worst_cell;
  int64_t checked = 0, masked_checked = 0, bad = 0;
  for (const json& map : maps) {
    const int64_t head = map.at("head");
    const json& r = map.at("rect");
    const double x0 = r[0], y0 = r[1], x1 = r[2], y1 = r[3];
    const double cell_w = (x1 - x0) / double(T), cell_h = (y1 - y0) / double(T);
    if (std::min(cell_w * sx, cell_h * sy) < 3)
      return fail("cells under 3 pixels cannot be sampled: use a bigger window or fewer heads");
    // Big cells print their number in the middle: sample above it.
    const double sample_y = cell_h >= 24 ? 0.2 : 0.5;
    for (int64_t i = 0; i < T; ++i) {
      for (int64_t j = 0; j < T; ++j) {
        const int px = int((x0 + (double(j) + 0.5) * cell_w) * sx);
        const int py = int((y0 + (double(i) + sample_y) * cell_h) * sy);
        if (px < 0 || py < 0 || px >= image.width || py >= image.height)
          return fail("heatmap outside the screenshot");
        const unsigned char* p = image.at(px, py);
        const bool masked_weight = weights && !visible[size_t((b * T + i) * T + j)];
        const float v = values.at({b, head, i, j});
        if (masked_weight || (std::isinf(v) && v < 0)) {
          // Hatched grey: no colour, and not the colour map's first colour.
          const int spread = std::max({p[0], p[1], p[2]}) - std::min({p[0], p[1], p[2]});
          ++masked_checked;
          if (spread > 6) {
            ++bad;
            std::printf("masked cell head %lld (%lld, %lld) is not grey: %d %d %d\n",
                        (long long)head, (long long)i, (long long)j, p[0], p[1], p[2]);
          }
          continue;
        }
        const double position = positions[size_t((head * T + i) * T + j)];
        even_cells += position == kEvenRow;
        const testing::Rgb255 want =
            position == kEvenRow ? even_grey
            : weights            ? testing::published_colour(testing::kPublishedViridis, position)
                      : testing::published_colour(testing::kPublishedRdBuReversed, position);
        const double diff =
            std::max({std::abs(p[0] - want.r), std::abs(p[1] - want.g), std::abs(p[2] - want.b)});
        ++checked;
        if (diff > worst) {
          worst = diff;
          std::ostringstream where;
          where << "head " << head << " query " << i << " key " << j << " value " << v << " pixel ("
                << int(p[0]) << ", " << int(p[1]) << ", " << int(p[2]) << ") want (" << want.r
                << ", " << want.g << ", " << want.b << ")";
          worst_cell = where.str();
        }
        if (diff > tolerance) ++bad;
      }
    }
  }
  std::printf(
      "cells checked: %lld coloured (%lld in even rows), %lld masked; max colour diff %.2f/255 "
      "(tolerance %.1f)%s%s\n",
      (long long)checked, (long long)even_cells, (long long)masked_checked, worst, tolerance,
      worst_cell.empty() ? "" : " at ", worst_cell.c_str());
  if (bad > 0) return fail(std::to_string(bad) + " cells differ from the colour map");
  if (even_cells < expect_even_rows * 2)
    return fail(std::to_string(even_cells) + " cells in even rows, expected at least " +
                std::to_string(expect_even_rows) + " rows of them");
  std::printf("OK\n");
  return 0;
}
