// The heads panel shows what the step computed (issue 21): at attend's QKᵀ, ÷√d_k and mask
// sub-steps the maps are that sub-step's record (scores, scaled, masked scores) on the diverging
// map around 0, whatever view was chosen; before attend they are drawn ahead, faded; the layout
// JSON (and the browser's state) names the record shown.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "app/gui/panels/layout_dump.hpp"
#include "app/gui/state/heatmap_data.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class HeadsSteps : public HeadlessImGui {};

TEST_F(HeadsSteps, TheScoreSubStepsShowTheirOwnRecordWhateverWasChosen) {
  start_on("seed003");
  state.ui.heatmap_view = HeatmapView::Weights;
  const Trace& trace = *state.session.trace;
  const struct {
    const char* step;
    const char* record;
  } expected[] = {{"attend:QK^T", "scores"},
                  {"attend:scale", "scaled"},
                  {"attend:mask", "masked"},
                  {"attend:softmax", "weights"},
                  {"concat", "weights"}};
  for (const auto& e : expected) {
    ASSERT_TRUE(go_to_named_step(state, e.step)) << e.step;
    frame();
    const HeatmapSet& set = current_heatmaps(state);
    EXPECT_EQ(set.record, e.record) << e.step;
    if (set.record == "weights") continue;
    // The colours come from the core's numbers: each cell is the record's value (masked keys at
    // -inf, hatched), on the diverging map symmetric around 0 at the largest |value|.
    const Tensor& values = trace.find(e.record)->tensor;  // (B, h, T, T)
    float largest = 0;
    for (int64_t h = 0; h < set.heads; ++h) {
      for (int64_t i = 0; i < set.rows; ++i) {
        for (int64_t j = 0; j < set.cols; ++j) {
          const float v = values.at({0, h, i, j});
          EXPECT_EQ(set.masked(h, i, j), std::isinf(v)) << e.step;
          if (std::isinf(v)) continue;
          EXPECT_EQ(set.at(h, i, j), v) << e.step << " " << h << "," << i << "," << j;
          largest = std::max(largest, std::abs(v));
        }
      }
    }
    EXPECT_EQ(set.colormap, ColormapKind::Diverging) << e.step;
    EXPECT_EQ(set.value_max, largest) << e.step;
    EXPECT_EQ(set.value_min, -largest) << e.step;
    EXPECT_EQ(legend_text(set).note, "signed: blue below 0, white 0, red above");
  }
  // Seed003 is causal: the mask sub-step hides the 55 keys after each query in each head.
  ASSERT_TRUE(go_to_named_step(state, "attend:mask"));
  EXPECT_EQ(current_heatmaps(state).masked_cells, 2 * 55);
  // Away from the score sub-steps the chosen view holds.
  state.ui.heatmap_view = HeatmapView::Scores;
  ASSERT_TRUE(go_to_named_step(state, "attend:softmax"));
  EXPECT_EQ(current_heatmaps(state).record, "scores");
}

TEST_F(HeadsSteps, BeforeAttendTheMapsAreAheadAndTheLayoutNamesTheRecordShown) {
  start_on("seed003");
  ASSERT_TRUE(go_to_named_step(state, "split"));
  frame();
  nlohmann::json layout = nlohmann::json::parse(layout_json(state, ImVec2(1600, 1000), {1, 1}));
  EXPECT_EQ(layout.at("maps_ahead"), true);
  EXPECT_EQ(layout.at("record"), "weights");
  EXPECT_TRUE(maps_ahead_of(Stage::Transpose));
  EXPECT_FALSE(maps_ahead_of(Stage::Attend));
  ASSERT_TRUE(go_to_named_step(state, "attend:scale"));
  frame();
  layout = nlohmann::json::parse(layout_json(state, ImVec2(1600, 1000), {1, 1}));
  EXPECT_EQ(layout.at("maps_ahead"), false);
  EXPECT_EQ(layout.at("record"), "scaled");
  EXPECT_EQ(layout.at("colormap"), "diverging");
}

}  // namespace
}  // namespace attnlab::gui
