// Head focus and zoom in the heads panel (issue 11): a click opens one head large, the wheel
// zooms about the cursor, a drag pans, V puts a second head beside it, Escape returns to the
// grid; hover at a zoom names the cell the core computed; the grid picks the largest maps.
#include <gtest/gtest.h>

#include <cmath>

#include "app/gui/panels/heads_grid.hpp"
#include "app/gui/panels/keyboard.hpp"
#include "app/gui/state/map_view.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

float side(const HeatmapPlacement& p) {
  return p.max.x - p.min.x;
}
// ImGui floors the mouse position to whole pixels: tests place it on whole pixels too.
ImVec2 pixel(float x, float y) {
  return ImVec2(std::floor(x), std::floor(y));
}
ImVec2 centre(const HeatmapPlacement& p) {
  return pixel((p.min.x + p.max.x) * 0.5f, (p.min.y + p.max.y) * 0.5f);
}

class HeadFocusTest : public HeadlessImGui {
 protected:
  void click_at(ImVec2 at) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    frame();
    io.MouseDown[0] = true;
    frame();
    io.MouseDown[0] = false;
    frame();
  }
  void wheel_at(ImVec2 at, float notches) {
    ImGuiIO& io = ImGui::GetIO();
    io.MousePos = at;
    io.MouseWheel = notches;
    frame();
    io.MouseWheel = 0;
    frame();
  }
  // Opens seed003's head `head` by clicking its map in the grid.
  void focus_by_click(int head) {
    start_on("seed003");
    click_at(centre(state.frame.heatmap_placements.at(size_t(head))));
  }
};

TEST(MapView, ZoomKeepsThePointUnderTheCursorAndClamps) {
  // T = 100, whole map; zoom 2x about (row 30, col 80): span 50, the point keeps its fraction
  // of the window (30/100 and 80/100): first_row = 30 - 0.3 * 50 = 15, first_col = 80 - 40 = 40.
  const MapView v = zoom_about({}, 100, 2.0, 30, 80);
  EXPECT_DOUBLE_EQ(v.span, 50);
  EXPECT_DOUBLE_EQ(v.first_row, 15);
  EXPECT_DOUBLE_EQ(v.first_col, 40);
  const MapView deepest = zoom_about(v, 100, 1000.0, 30, 80);
  EXPECT_DOUBLE_EQ(deepest.span, kMinVisibleCells);
  const MapView out = zoom_about(v, 100, 0.001, 30, 80);
  EXPECT_DOUBLE_EQ(out.span, 100);
  EXPECT_DOUBLE_EQ(out.first_row, 0);
  EXPECT_DOUBLE_EQ(out.first_col, 0);
  const MapView panned = pan_view(v, 100, -100, 7);  // rows clamp at 0; cols move by 7
  EXPECT_DOUBLE_EQ(panned.first_row, 0);
  EXPECT_DOUBLE_EQ(panned.first_col, 47);
  EXPECT_DOUBLE_EQ(pan_view(v, 100, 0, 1000).first_col, 50);  // T - span
}

TEST(HeadsGrid, ChoosesTheColumnsThatMakeTheLargestMaps) {
  // Labels 30 px left and on top; the last key label 10 px past the right edge.
  const LabelMargins labels{30, 30, 10};
  EXPECT_EQ(fit_grid(2, ImVec2(1000, 400), labels, 20, 10).columns, 2);  // wide: side by side
  EXPECT_EQ(fit_grid(2, ImVec2(400, 1000), labels, 20, 10).columns, 1);  // tall: stacked
  const Grid square = fit_grid(16, ImVec2(800, 800), labels, 20, 10);
  EXPECT_EQ(square.columns, 4);
  EXPECT_EQ(square.rows, 4);
  // 4 columns: (800 - 10 - 30 - 3 * 10) / 4 = 182.5 by width, (800 - 30 - 80 - 30) / 4 = 165.
  EXPECT_FLOAT_EQ(square.map, 165);
}

TEST_F(HeadFocusTest, ClickingAHeadOpensItFillingThePanel) {
  start_on("base");  // 8 heads
  const float grid_side = side(state.frame.heatmap_placements.at(5));
  click_at(centre(state.frame.heatmap_placements.at(5)));
  frame();
  EXPECT_EQ(state.heads.focus.head, 5);
  ASSERT_EQ(state.frame.heatmap_placements.size(), 1u);
  const HeatmapPlacement& p = state.frame.heatmap_placements[0];
  EXPECT_EQ(p.head, 5);
  const ImVec4 panel = state.frame.panel_rects[int(PanelId::Heads)];
  // It reaches the panel's edge in the direction that limits it (labels take the other sides).
  const float margin = std::min(panel.z - p.max.x, panel.w - p.max.y);
  EXPECT_GE(margin, 0.0f);
  EXPECT_LT(margin, 2 * ImGui::GetFontSize())
      << "panel " << panel.z - panel.x << " x " << panel.w - panel.y;
  EXPECT_GT(side(p), grid_side * 2);
  EXPECT_FLOAT_EQ(side(p), p.max.y - p.min.y);  // square
}

TEST_F(HeadFocusTest, WheelZoomsAboutTheCursorAndClamps) {
  focus_by_click(0);
  const HeatmapPlacement whole = state.frame.heatmap_placements.at(0);
  const float cell = side(whole) / 11.0f;
  // Over cell (row 7, col 2): zoomed in, the same cell stays under the cursor.
  const ImVec2 at = pixel(whole.min.x + 2.5f * cell, whole.min.y + 7.5f * cell);
  wheel_at(at, 1);
  const MapView v = state.heads.focus.view;
  EXPECT_LT(v.span, 11.0);
  const double row = (at.y - whole.min.y) / cell, col = (at.x - whole.min.x) / cell;
  EXPECT_NEAR(v.first_row + (at.y - whole.min.y) / side(whole) * v.span, row, 1e-3);
  EXPECT_NEAR(v.first_col + (at.x - whole.min.x) / side(whole) * v.span, col, 1e-3);
  EXPECT_EQ(state.frame.hover.query, 7);
  EXPECT_EQ(state.frame.hover.key, 2);
  const HeatmapPlacement& p = state.frame.heatmap_placements.at(0);
  EXPECT_NEAR(p.uv_min.x, v.first_col / 11.0, 1e-5);
  EXPECT_NEAR(p.uv_max.y, (v.first_row + v.span) / 11.0, 1e-5);
  wheel_at(at, 20);
  EXPECT_DOUBLE_EQ(state.heads.focus.view.span, kMinVisibleCells);
  wheel_at(at, -40);
  EXPECT_DOUBLE_EQ(state.heads.focus.view.span, 11.0);
  EXPECT_DOUBLE_EQ(state.heads.focus.view.first_row, 0.0);
}

TEST_F(HeadFocusTest, DragPansTheZoomedMap) {
  focus_by_click(0);
  const HeatmapPlacement p = state.frame.heatmap_placements.at(0);
  wheel_at(centre(p), 20);  // 8 x 8 cells visible
  const MapView before = state.heads.focus.view;
  const float cell = side(state.frame.heatmap_placements.at(0)) / float(before.span);
  const ImVec2 moved = pixel(centre(p).x - cell, centre(p).y + cell * 0.5f);
  const double cols = (centre(p).x - moved.x) / cell, rows = (moved.y - centre(p).y) / cell;
  ImGuiIO& io = ImGui::GetIO();
  io.MousePos = centre(p);
  io.MouseDown[0] = true;
  frame();
  io.MousePos = moved;
  frame();
  io.MouseDown[0] = false;
  frame();
  const MapView after = state.heads.focus.view;
  // Dragging the map left by a cell shows the columns one further right; down, the rows above.
  EXPECT_NEAR(after.first_col, std::min(before.first_col + cols, 3.0), 1e-3);
  EXPECT_NEAR(after.first_row, std::max(before.first_row - rows, 0.0), 1e-3);
  EXPECT_GT(after.first_col, before.first_col + 0.5);
  EXPECT_EQ(state.heads.focus.head, 0) << "a drag in focus mode does not leave it";
}

TEST_F(HeadFocusTest, EscapeReturnsToTheGrid) {
  focus_by_click(1);
  ASSERT_EQ(state.heads.focus.head, 1);
  press(kGlfwEscape);
  EXPECT_EQ(state.heads.focus.head, -1);
  EXPECT_EQ(state.frame.heatmap_placements.size(), 2u);
}

TEST_F(HeadFocusTest, CompareShowsTwoHeadsOfEqualSizeWithTheSameView) {
  focus_by_click(0);
  wheel_at(centre(state.frame.heatmap_placements.at(0)), 3);
  press(kKeyV);
  ASSERT_EQ(state.frame.heatmap_placements.size(), 2u);
  const HeatmapPlacement& a = state.frame.heatmap_placements[0];
  const HeatmapPlacement& b = state.frame.heatmap_placements[1];
  EXPECT_EQ(a.head, 0);
  EXPECT_EQ(b.head, 1);
  EXPECT_FLOAT_EQ(side(a), side(b));
  EXPECT_FLOAT_EQ(a.uv_min.x, b.uv_min.x);
  EXPECT_FLOAT_EQ(a.uv_max.y, b.uv_max.y);
  EXPECT_TRUE(a.max.x <= b.min.x || a.max.y <= b.min.y) << "side by side, not overlapping";
}

TEST_F(HeadFocusTest, HoverAtAZoomNamesTheCellTheCoreComputed) {
  focus_by_click(1);
  state.heads.focus.view = {3, 2, 8};  // rows 3..10, columns 2..9
  frame();
  const HeatmapPlacement p = state.frame.heatmap_placements.at(0);
  const float cell = side(p) / 8.0f;
  ImGui::GetIO().MousePos = pixel(p.min.x + 1.5f * cell, p.min.y + 4.5f * cell);
  frame();
  frame();
  EXPECT_EQ(state.frame.hover.head, 1);
  EXPECT_EQ(state.frame.hover.query, 7);  // 3 + 4
  EXPECT_EQ(state.frame.hover.key, 3);    // 2 + 1
  const Tensor& weights = state.session.trace->find("weights")->tensor;
  const HeatmapSet& set = state.heads.heatmaps.value();
  EXPECT_GT(weights.at({0, 1, 7, 3}), 0.0f);  // seed003 is causal: key 3 <= query 7 is seen
  EXPECT_FLOAT_EQ(set.real_at(1, state.frame.hover.query, state.frame.hover.key),
                  weights.at({0, 1, 7, 3}));
}

}  // namespace
}  // namespace attnlab::gui
