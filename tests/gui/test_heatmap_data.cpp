// The heatmaps read the trace's own numbers, hide masked keys explicitly, and use the colour maps'
// documented ranges; the colour map tables are the ones the shader samples.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "app/gui/look/colormap.hpp"
#include "app/gui/state/heatmap_data.hpp"
#include "app/gui/state/ui_settings.hpp"
#include "core/model/preset.hpp"
#include "core/trace/mha.hpp"
#include "published_colormaps.hpp"

namespace attnlab::gui {
namespace {

Trace seed003() {
  return run(find_preset("seed003").config);
}

TEST(Heatmaps, WeightsAreTheTracesWithCausalCellsHidden) {
  const Trace trace = seed003();
  const HeatmapSet set = build_heatmaps(trace, HeatmapView::Weights, 0, ColourScale::Fixed);
  const Tensor& weights = trace.find("weights")->tensor;
  ASSERT_EQ(set.heads, 2);
  ASSERT_EQ(set.rows, 11);
  ASSERT_EQ(set.cols, 11);
  double max_diff = 0;
  for (int64_t h = 0; h < set.heads; ++h) {
    for (int64_t i = 0; i < set.rows; ++i) {
      for (int64_t j = 0; j < set.cols; ++j) {
        EXPECT_EQ(set.masked(h, i, j), j > i) << h << "," << i << "," << j;
        if (!set.masked(h, i, j))
          max_diff =
              std::max(max_diff, double(std::abs(set.at(h, i, j) - weights.at({0, h, i, j}))));
      }
    }
  }
  std::printf("max |heatmap - trace weight| = %g\n", max_diff);
  EXPECT_EQ(max_diff, 0.0);
  EXPECT_EQ(set.masked_cells, 2 * 11 * 10 / 2);
  EXPECT_EQ(set.colormap, ColormapKind::Sequential);
  EXPECT_EQ(set.value_min, 0.0f);
  EXPECT_EQ(set.value_max, 1.0f);
}

// The colour a cell gets (the shader maps value_min .. value_max linearly onto the table).
uint32_t cell_colour(const HeatmapSet& set, int64_t h, int64_t i, int64_t j) {
  return colour_at_packed(set.colormap,
                          (set.at(h, i, j) - set.value_min) / (set.value_max - set.value_min));
}
// A function, not a global: the colour tables are built from other globals.
uint32_t top_colour() {
  return colour_at_packed(ColormapKind::Sequential, 1.0f);
}

// The trace's weight of one cell of sequence 0.
float weight(const Trace& trace, int64_t h, int64_t i, int64_t j) {
  return trace.find("weights")->tensor.at({0, h, i, j});
}

// Base-like random weights at T = 128 sit near 1/T: fixed 0 .. 1 shows them as one dark colour,
// the per-map default stretches each head's map so its largest weight gets the top colour.
TEST(ColourScales, PerMapSpansTheColoursAtT128WhereFixedDoesNot) {
  Config config = find_preset("base").config;
  config.batch = 1;  // sequence 0 is all the maps show
  const Trace trace = run(config);
  ASSERT_EQ(trace.config.seq_len, 128);
  EXPECT_EQ(UiSettings().colour_scale, ColourScale::PerRow) << "the default";
  const HeatmapSet fixed = build_heatmaps(trace, HeatmapView::Weights, 0, ColourScale::Fixed);
  const HeatmapSet per_map = build_heatmaps(trace, HeatmapView::Weights, 0, ColourScale::PerMap);
  ASSERT_EQ(per_map.heads, trace.config.n_heads);
  for (int64_t h = 0; h < per_map.heads; ++h) {
    // The map's largest weight, found here from the trace itself.
    float largest = 0;
    int64_t at_i = 0, at_j = 0;
    for (int64_t i = 0; i < 128; ++i)
      for (int64_t j = 0; j < 128; ++j)
        if (weight(trace, h, i, j) > largest) {
          largest = weight(trace, h, i, j);
          at_i = i;
          at_j = j;
        }
    std::printf("head %lld: largest weight %.4f (1/T = %.4f)\n", (long long)h, double(largest),
                1.0 / 128);
    EXPECT_LT(largest, 0.5f) << "random weights are near uniform";
    EXPECT_EQ(cell_colour(per_map, h, at_i, at_j), top_colour()) << "head " << h;
    EXPECT_NE(cell_colour(fixed, h, at_i, at_j), top_colour()) << "head " << h;
    EXPECT_FLOAT_EQ(per_map.map_max[size_t(h)], largest);
    // Every cell: its weight over the map's largest, and hover still gets the real weight.
    for (int64_t i = 0; i < 128; i += 7)
      for (int64_t j = 0; j < 128; j += 5) {
        EXPECT_FLOAT_EQ(per_map.at(h, i, j), weight(trace, h, i, j) / largest);
        EXPECT_EQ(per_map.shown[size_t((h * 128 + i) * 128 + j)], weight(trace, h, i, j));
      }
  }
}

TEST(ColourScales, PerRowGivesEveryRowsLargestWeightTheTopColour) {
  for (const char* preset : {"seed003", "base"}) {
    Config config = find_preset(preset).config;
    config.batch = 1;
    const Trace trace = run(config);
    const HeatmapSet set = build_heatmaps(trace, HeatmapView::Weights, 0, ColourScale::PerRow);
    int64_t rows_checked = 0;
    for (int64_t h = 0; h < set.heads; ++h) {
      for (int64_t i = 0; i < set.rows; ++i) {
        int64_t top = 0;
        for (int64_t j = 1; j < set.cols; ++j)
          if (weight(trace, h, i, j) > weight(trace, h, i, top)) top = j;
        EXPECT_EQ(cell_colour(set, h, i, top), top_colour()) << preset << " " << h << "," << i;
        for (int64_t j = 0; j < set.cols; ++j) {
          if (set.masked(h, i, j)) continue;
          EXPECT_FLOAT_EQ(set.at(h, i, j), weight(trace, h, i, j) / weight(trace, h, i, top));
        }
        ++rows_checked;
      }
    }
    EXPECT_EQ(rows_checked, set.heads * set.rows);
    EXPECT_EQ(legend_text(set).note, "per row: each row 0 \u2026 its max");
  }
}

TEST(ColourScales, LogIsMonotoneAndPutsDecadesEvenly) {
  // Hand-derived: (log10 w + 4) / 4, clamped; masked (-inf) stays masked.
  std::vector<float> w = {1e-6f, 0.0f, 1e-4f, 1e-3f, 1e-2f, 1.0f, kMaskedValue};
  weights_to_colour_positions(ColourScale::Log, w, 1, 1, int64_t(w.size()));
  const std::vector<float> want = {0, 0, 0, 0.25f, 0.5f, 1};
  for (size_t k = 0; k + 1 < w.size(); ++k) EXPECT_NEAR(w[k], want[k], 1e-6) << k;
  EXPECT_EQ(w.back(), kMaskedValue);

  Config config = find_preset("base").config;
  config.batch = 1;
  const Trace trace = run(config);
  const HeatmapSet set = build_heatmaps(trace, HeatmapView::Weights, 0, ColourScale::Log);
  // Sorted by real weight, the colour positions never go down.
  std::vector<size_t> order(set.values.size());
  for (size_t k = 0; k < order.size(); ++k) order[k] = k;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return set.shown[a] < set.shown[b]; });
  int64_t inversions = 0;
  for (size_t k = 1; k < order.size(); ++k)
    inversions += set.values[order[k]] < set.values[order[k - 1]];
  EXPECT_EQ(inversions, 0);
  EXPECT_GT(set.values[order.back()], set.values[order.front()]) << "not one flat colour";
  EXPECT_EQ(legend_text(set).note, "log scale 0.0001 \u2026 1");
}

TEST(ColourScales, PerRowAndPerMapLeaveMaskedCellsAndAllZeroRowsAlone) {
  std::vector<float> w = {0.0f, 0.0f, 0.0f, 0.25f, 0.5f, kMaskedValue};  // (1, 2, 3)
  std::vector<float> rows = w, map = w;
  weights_to_colour_positions(ColourScale::PerRow, rows, 1, 2, 3);
  weights_to_colour_positions(ColourScale::PerMap, map, 1, 2, 3);
  const std::vector<float> want = {0, 0, 0, 0.5f, 1, kMaskedValue};
  EXPECT_EQ(rows, want);
  EXPECT_EQ(map, want);
}

// Issue 38: per row, a flat row was stretched to the row's max, solid yellow, which reads as "full
// weight everywhere". A row whose visible weights are all equal is spread evenly: drawn in a
// neutral colour that is not the map's top one, and the legend says what it means.
TEST(ColourScales, AnEvenRowIsDrawnNeutralNotAtTheTopColour) {
  const float even = 1.0f / 3;
  std::vector<float> w = {even, even,         even,          // even: three keys
                          0.5f, 0.5f,         kMaskedValue,  // even: the two visible keys
                          1.0f, kMaskedValue, kMaskedValue,  // one key: full weight, not even
                          0.2f, 0.3f,         0.5f};         // uneven
  weights_to_colour_positions(ColourScale::PerRow, w, 1, 4, 3);
  EXPECT_EQ(w[0], kEvenPosition);
  EXPECT_EQ(w[2], kEvenPosition);
  EXPECT_EQ(w[3], kEvenPosition);
  EXPECT_EQ(w[5], kMaskedValue);
  EXPECT_EQ(w[6], 1.0f);
  EXPECT_FLOAT_EQ(w[11], 1.0f);
  EXPECT_FLOAT_EQ(w[9], 0.4f);
  // Within the tolerance, even; past it, not.
  EXPECT_TRUE(is_even_row(std::vector<float>{0.25f, 0.25f * (1 + 0.5f * kEvenRowTolerance)}));
  EXPECT_FALSE(is_even_row(std::vector<float>{0.25f, 0.25f * (1 + 2 * kEvenRowTolerance)}));
  // Its colour is neither end of the map, and a grey (no hue a weight could have).
  const Rgbf grey = colour_at(ColormapKind::Sequential, kEvenPosition);
  const Rgbf top = colour_at(ColormapKind::Sequential, 1.0f);
  const Rgbf bottom = colour_at(ColormapKind::Sequential, 0.0f);
  const auto distance = [](Rgbf a, Rgbf b) {
    return std::max({std::abs(a.r - b.r), std::abs(a.g - b.g), std::abs(a.b - b.b)});
  };
  EXPECT_GT(distance(grey, top), 0.3f);
  EXPECT_GT(distance(grey, bottom), 0.3f);
  EXPECT_EQ(grey.r, grey.g);
  EXPECT_EQ(grey.g, grey.b);
  EXPECT_NE(colour_at_packed(ColormapKind::Sequential, kEvenPosition),
            colour_at_packed(ColormapKind::Sequential, 1.0f));
  // Other scales stretch as before.
  std::vector<float> map = {even, even, even};
  weights_to_colour_positions(ColourScale::PerMap, map, 1, 1, 3);
  EXPECT_EQ(map, std::vector<float>(3, 1.0f));
}

// The crafted preset's head 3 is uniform: every one of its rows is even, and the legend names the
// grey ("even row: spread evenly (1/n each)"); the other scales have no such entry.
TEST(ColourScales, TheCraftedUniformHeadsRowsAreEvenAndTheLegendSaysSo) {
  const Preset crafted = find_preset("crafted");
  const Trace trace = run(crafted.config, crafted.inputs);
  const HeatmapSet per_row = build_heatmaps(trace, HeatmapView::Weights, 0, ColourScale::PerRow);
  ASSERT_EQ(per_row.heads, 4);
  for (int64_t q = 0; q < per_row.rows; ++q)
    for (int64_t k = 0; k < per_row.cols; ++k) EXPECT_TRUE(per_row.even(3, q, k)) << q << "," << k;
  EXPECT_GE(per_row.even_rows, per_row.rows);
  EXPECT_FALSE(per_row.even(2, 1, 1)) << "the same-word head is not even";
  EXPECT_EQ(legend_text(per_row).even, "even row: spread evenly (1/n each)");
  EXPECT_EQ(single_map(per_row, 3).even_rows, per_row.rows);
  const HeatmapSet per_map = build_heatmaps(trace, HeatmapView::Weights, 0, ColourScale::PerMap);
  EXPECT_EQ(per_map.even_rows, 0);
  EXPECT_TRUE(legend_text(per_map).even.empty());
}

TEST(ColourScales, TheLegendSaysTheRealRange) {
  Config config = find_preset("base").config;  // no mask: each head has its own largest weight
  config.batch = 1;
  const Trace trace = run(config);
  const HeatmapSet per_map = build_heatmaps(trace, HeatmapView::Weights, 0, ColourScale::PerMap);
  const HeatmapSet head1 = single_map(per_map, 1);
  char largest[32];
  std::snprintf(largest, sizeof largest, "%.3g", double(head1.map_max[0]));
  EXPECT_EQ(legend_text(head1).note, std::string("colours stretched per map: 0 \u2026 ") + largest);
  EXPECT_EQ(legend_text(head1).high, largest);
  // Eight heads, eight largest weights: the note gives their range.
  const auto [least, most] = std::minmax_element(per_map.map_max.begin(), per_map.map_max.end());
  char range[64];
  std::snprintf(range, sizeof range, "its max (%.3g \u2026 %.3g)", double(*least), double(*most));
  EXPECT_EQ(legend_text(per_map).note, std::string("colours stretched per map: 0 \u2026 ") + range);
  const HeatmapSet fixed = build_heatmaps(trace, HeatmapView::Weights, 0, ColourScale::Fixed);
  EXPECT_EQ(legend_text(fixed).note, "fixed 0 \u2026 1");
}

TEST(ColourScales, ScoresKeepTheirSymmetricScaleWhateverTheChoice) {
  const Trace trace = seed003();
  const HeatmapSet fixed = build_heatmaps(trace, HeatmapView::Scaled, 0, ColourScale::Fixed);
  const HeatmapSet log = build_heatmaps(trace, HeatmapView::Scaled, 0, ColourScale::Log);
  EXPECT_EQ(log.values, fixed.values);
  EXPECT_EQ(log.value_min, -log.value_max);
  EXPECT_EQ(log.values[1], trace.find("scaled")->tensor.at({0, 0, 0, 1}));
  // The legend says the scale is signed, whatever the weights' scale, and shows its range.
  EXPECT_EQ(legend_text(log).note, "signed: blue below 0, white 0, red above");
  char high[32];
  std::snprintf(high, sizeof high, "+%.3g", double(log.value_max));
  EXPECT_EQ(legend_text(log).high, high);
}

TEST(Heatmaps, ScoresUseTheDivergingMapAroundZero) {
  const Trace trace = seed003();
  const HeatmapSet raw = build_heatmaps(trace, HeatmapView::Scores, 0, ColourScale::Fixed);
  EXPECT_EQ(raw.colormap, ColormapKind::Diverging);
  EXPECT_EQ(raw.value_min, -raw.value_max);
  EXPECT_EQ(raw.masked_cells, 0) << "raw scores come before the mask";
  const HeatmapSet masked = build_heatmaps(trace, HeatmapView::Masked, 0, ColourScale::Fixed);
  EXPECT_EQ(masked.masked_cells, 2 * 11 * 10 / 2);
}

// The app's maps against the published ones (published_colormaps.hpp: matplotlib's viridis,
// ColorBrewer's RdBu), at 1001 points: within 1/255 (the app's 256-entry table rounds to bytes:
// 0.5/255).
TEST(Colormaps, AreThePublishedViridisAndRdBu) {
  double worst_sequential = 0, worst_diverging = 0;
  for (int i = 0; i <= 1000; ++i) {
    const double t = double(i) / 1000;
    const auto distance = [](const Rgbf& c, const testing::Rgb255& want) {
      return std::max({std::abs(c.r * 255 - want.r), std::abs(c.g * 255 - want.g),
                       std::abs(c.b * 255 - want.b)});
    };
    worst_sequential = std::max(worst_sequential,
                                distance(colour_at(ColormapKind::Sequential, float(t)),
                                         testing::published_colour(testing::kPublishedViridis, t)));
    worst_diverging = std::max(
        worst_diverging, distance(colour_at(ColormapKind::Diverging, float(t)),
                                  testing::published_colour(testing::kPublishedRdBuReversed, t)));
  }
  std::printf("max |app - published| in 0..255: viridis %.3f, RdBu %.3f\n", worst_sequential,
              worst_diverging);
  EXPECT_LE(worst_sequential, 1.0);
  EXPECT_LE(worst_diverging, 1.0);
  // The published ends, as hex: viridis(0) = #440154, viridis(1) = #fde725 (ImGui packs ABGR).
  EXPECT_EQ(colour_at_packed(ColormapKind::Sequential, 0.0f), 0xFF540144u);
  EXPECT_EQ(colour_at_packed(ColormapKind::Sequential, 1.0f), 0xFF25E7FDu);
  EXPECT_EQ(colour_at_packed(ColormapKind::Sequential, -3.0f),
            colour_at_packed(ColormapKind::Sequential, 0.0f))
      << "clamped";
}

TEST(Colormaps, SequentialGetsBrighterAllTheWay) {
  float previous = -1;
  for (int i = 0; i <= 32; ++i) {
    const Rgbf c = colour_at(ColormapKind::Sequential, float(i) / 32);
    const float luminance = 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b;
    EXPECT_GT(luminance, previous) << "a monotone map reads in grey and for colour-blind viewers";
    previous = luminance;
  }
}

}  // namespace
}  // namespace attnlab::gui
