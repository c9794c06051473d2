// A colour scale that draws a preset in one flat colour says so in the legend, with the fix
// (issue 21): base's 128 random tokens have weights near 1/128, all one dark colour on the fixed
// 0 .. 1 scale.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "app/gui/look/colormap.hpp"
#include "app/gui/state/heatmap_data.hpp"
#include "core/model/preset.hpp"
#include "core/trace/mha.hpp"

namespace attnlab::gui {
namespace {

// The largest and smallest weight of sequence 0, from the core's record.
std::pair<float, float> weight_range(const Trace& trace) {
  const Tensor& weights = trace.find("weights")->tensor;  // (B, h, T, T)
  float least = 1, most = 0;
  for (int64_t h = 0; h < weights.size(1); ++h)
    for (int64_t i = 0; i < weights.size(2); ++i)
      for (int64_t j = 0; j < weights.size(3); ++j) {
        least = std::min(least, weights.at({0, h, i, j}));
        most = std::max(most, weights.at({0, h, i, j}));
      }
  return {least, most};
}

TEST(FlatColours, FixedScaleOnBaseSaysAllWeightsLookAlikeAndHowToFixIt) {
  const Trace trace = run(find_preset("base").config);
  const auto [least, most] = weight_range(trace);
  std::printf("base's weights: %g .. %g\n", double(least), double(most));
  // On 0 .. 1 these are colour positions least .. most, closer than kFlatSpread.
  ASSERT_LT(most - least, kFlatSpread);
  const HeatmapSet fixed = build_heatmaps(trace, HeatmapView::Weights, 0, ColourScale::Fixed);
  EXPECT_TRUE(fixed.flat);
  char expected[160];
  std::snprintf(expected, sizeof expected,
                "fixed 0 \u2026 1: all weights \u2264 %.3g look alike: press S for per-map",
                double(most));
  EXPECT_EQ(legend_text(fixed).warning, expected);
  // The scale S moves to stretches each map: no longer flat.
  EXPECT_EQ(next_colour_scale(ColourScale::Fixed), ColourScale::PerMap);
  for (const ColourScale scale : {ColourScale::PerMap, ColourScale::PerRow, ColourScale::Log}) {
    const HeatmapSet set = build_heatmaps(trace, HeatmapView::Weights, 0, scale);
    EXPECT_FALSE(set.flat) << colour_scale_name(scale);
    EXPECT_EQ(legend_text(set).warning, "") << colour_scale_name(scale);
  }
}

TEST(FlatColours, WeightsThatSpanTheScaleOrScoresAreNotFlat) {
  // Seed003 is causal: its first query's only weight is 1, others are small: the fixed scale
  // spans 0 .. 1.
  const Trace trace = run(find_preset("seed003").config);
  const HeatmapSet fixed = build_heatmaps(trace, HeatmapView::Weights, 0, ColourScale::Fixed);
  EXPECT_FALSE(fixed.flat);
  EXPECT_EQ(legend_text(fixed).warning, "");
  // Signed scores are drawn symmetric around 0 at their largest |value|: never flat.
  const HeatmapSet scores = build_heatmaps(trace, HeatmapView::Scaled, 0, ColourScale::Fixed);
  EXPECT_FALSE(scores.flat);
}

TEST(FlatColours, WeightsSpanningATenthOfTheScaleAreNotFlat) {
  // Seed 002's 3 tokens have weights 0.25 .. 0.39: 0.14 of the fixed scale, colours that differ.
  const Trace trace = run(find_preset("seed002").config);
  const auto [least, most] = weight_range(trace);
  std::printf("seed002's weights: %g .. %g\n", double(least), double(most));
  ASSERT_GE(most - least, kFlatSpread);
  const HeatmapSet fixed = build_heatmaps(trace, HeatmapView::Weights, 0, ColourScale::Fixed);
  EXPECT_FALSE(fixed.flat);
  EXPECT_EQ(legend_text(fixed).warning, "");
}

}  // namespace
}  // namespace attnlab::gui
