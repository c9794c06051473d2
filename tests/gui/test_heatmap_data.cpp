// The heatmaps read the trace's own numbers, hide masked keys explicitly, and use the colour maps'
// documented ranges; the colour map tables are the ones the shader samples.
#include <gtest/gtest.h>

#include <cmath>

#include "app/gui/look/colormap.hpp"
#include "app/gui/state/heatmap_data.hpp"
#include "core/trace/mha.hpp"
#include "core/model/preset.hpp"

namespace attnlab::gui {
namespace {

Trace seed003() {
  return run(find_preset("seed003").config);
}

TEST(Heatmaps, WeightsAreTheTracesWithCausalCellsHidden) {
  const Trace trace = seed003();
  const HeatmapSet set = build_heatmaps(trace, HeatmapView::Weights, 0, false);
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

TEST(Heatmaps, StretchMapsTheLargestWeightToTheLastColour) {
  Config config = find_preset("cat").config;  // no mask: no weight reaches 1
  const Trace trace = run(config);
  const HeatmapSet set = build_heatmaps(trace, HeatmapView::Weights, 0, true);
  EXPECT_LT(set.value_max, 1.0f);
  EXPECT_GT(set.value_max, 1.0f / 6.0f);
  EXPECT_EQ(set.masked_cells, 0);
}

TEST(Heatmaps, ScoresUseTheDivergingMapAroundZero) {
  const Trace trace = seed003();
  const HeatmapSet raw = build_heatmaps(trace, HeatmapView::Scores, 0, false);
  EXPECT_EQ(raw.colormap, ColormapKind::Diverging);
  EXPECT_EQ(raw.value_min, -raw.value_max);
  EXPECT_EQ(raw.masked_cells, 0) << "raw scores come before the mask";
  const HeatmapSet masked = build_heatmaps(trace, HeatmapView::Masked, 0, false);
  EXPECT_EQ(masked.masked_cells, 2 * 11 * 10 / 2);
}

TEST(Colormaps, EndsAndMiddleAreTheAnchors) {
  const Rgbf first = colour_at(ColormapKind::Sequential, 0.0f);
  EXPECT_NEAR(first.r * 255, 68, 0.5);
  EXPECT_NEAR(first.b * 255, 84, 0.5);
  const Rgbf last = colour_at(ColormapKind::Sequential, 1.0f);
  EXPECT_NEAR(last.g * 255, 231, 0.5);
  const Rgbf middle = colour_at(ColormapKind::Diverging, 0.5f);
  EXPECT_GT(middle.r, 0.95f);
  EXPECT_GT(middle.b, 0.95f);
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
