// The teaching toolkit in headless ImGui frames: a mistake runs buggy and correct with the core's
// report, ablation re-runs with the head off, memory hover links a logical cell to its storage
// cell, the code view's highlight follows the walk, tabs open by key and by name.
#include <algorithm>
#include <cmath>
#include <iterator>

#include "../mistake_landings.hpp"
#include "app/gui/panels/keyboard.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

class Toolkit : public HeadlessImGui {};

TEST_F(Toolkit, ChoosingAMistakeRunsBuggyAndCorrectWithAReport) {
  start_on("seed003");
  set_mistake(state, Mistake::MaskZero);
  frame();
  ASSERT_TRUE(state.session.trace && state.session.correct_trace);
  EXPECT_EQ(state.session.trace->config.mistake, Mistake::MaskZero);
  EXPECT_EQ(state.session.correct_trace->config.mistake, Mistake::None);
  ASSERT_TRUE(state.session.mistake_report.has_value());
  EXPECT_GT(state.session.mistake_report->max_future_weight, 0.0)
      << "mask-zero leaks onto future keys";
  EXPECT_GT(state.session.mistake_report->out_max_abs_error, 0.0);
  EXPECT_FALSE(state.session.mistake_report->symptom.empty());

  ASSERT_TRUE(open_tab(state, "mistakes"));
  frame();
  frame();
  EXPECT_EQ(state.tabs.tool, ToolTab::Mistakes);
  ASSERT_EQ(state.frame.mistake_placements.size(), 3u) << "correct, buggy and difference maps";
  const HeatmapSet& diff = current_mistake_maps(state)[2];
  EXPECT_GT(diff.value_max, 0.0f);

  set_mistake(state, Mistake::None);
  EXPECT_FALSE(state.session.correct_trace);
  EXPECT_FALSE(state.session.mistake_report.has_value());
}

TEST_F(Toolkit, MistakeKeysWalkThroughTheMistakes) {
  start_on("seed003");
  press(kKeyM);
  EXPECT_EQ(state.session.trace->config.mistake, all_mistakes().front().id);
  EXPECT_EQ(state.tabs.requested_tool.value_or(state.tabs.tool), ToolTab::Mistakes);
  ImGui::GetIO().KeyShift = true;
  press(kKeyM);
  ImGui::GetIO().KeyShift = false;
  EXPECT_EQ(state.session.trace->config.mistake, Mistake::None);
}

TEST_F(Toolkit, ViewWithoutContiguousFailsInTheConcatStage) {
  start_on("seed003");
  set_mistake(state, Mistake::ViewNoContiguous);
  frame();
  ASSERT_TRUE(state.session.trace->failure.failed);
  EXPECT_EQ(state.session.trace->failure.stage, Stage::Concat);
  ASSERT_TRUE(state.session.mistake_report.has_value());
  EXPECT_NE(state.session.mistake_report->failure.find("view"), std::string::npos);
}

TEST_F(Toolkit, ForgetTransposeGivesOneHeadsByHeadsMapPerToken) {
  start_on("seed003");
  set_mistake(state, Mistake::ForgetTranspose);
  frame();
  const HeatmapSet& set = current_heatmaps(state);
  EXPECT_TRUE(set.maps_are_tokens);
  EXPECT_EQ(set.heads, int64_t(state.session.trace->tokens.size()));
  EXPECT_EQ(set.rows, state.session.trace->config.n_heads);
  EXPECT_EQ(state.frame.heatmap_placements.size(), state.session.trace->tokens.size());
  EXPECT_TRUE(current_mistake_maps(state)[2].empty()) << "no T x T map to subtract";
}

// Cell (row, col) of map `head` of batch item 0 of a (B, A, R, C) or (B, R, C) record, read with
// the tensor's own at().
float record_cell(const Trace& trace, const char* record, int64_t head, int64_t row, int64_t col) {
  const Tensor& t = trace.find(record)->tensor;
  return t.dim() == 4 ? t.at({0, head, row, col}) : t.at({0, row, col});
}

TEST_F(Toolkit, EachMistakeIsComparedOnTheRecordItLandsIn) {
  using test_data::kMistakeLandings;
  ASSERT_EQ(std::size(kMistakeLandings), all_mistakes().size());
  start_on("seed003");
  state.mistakes.head = 1;
  for (const test_data::Landing& c : kMistakeLandings) {
    set_mistake(state, c.mistake);
    frame();
    const char* name = mistake_info(c.mistake).name;
    const std::array<HeatmapSet, 3>& maps = current_mistake_maps(state);
    const Tensor& correct = state.session.correct_trace->find(c.record)->tensor;
    ASSERT_EQ(maps[0].rows, correct.size(correct.dim() - 2)) << name;
    ASSERT_EQ(maps[0].cols, correct.size(correct.dim() - 1)) << name;
    for (int64_t i = 0; i < maps[0].rows; ++i)
      for (int64_t j = 0; j < maps[0].cols; ++j)
        ASSERT_EQ(maps[0].shown[size_t(i * maps[0].cols + j)],
                  record_cell(*state.session.correct_trace, c.record, 1, i, j))
            << name << " correct " << i << "," << j;
    // One colour scale: the same number is the same colour in all three maps.
    for (const HeatmapSet& map : maps) {
      if (map.empty()) continue;
      EXPECT_EQ(map.value_min, maps[0].value_min) << name;
      EXPECT_EQ(map.value_max, maps[0].value_max) << name;
    }
    if (state.session.trace->failure.failed) {
      EXPECT_TRUE(maps[1].empty()) << name << ": the buggy run never made it";
      continue;
    }
    const HeatmapSet& buggy = maps[1];
    if (buggy.maps_are_tokens) continue;  // forget-transpose: (h, h) maps, checked elsewhere
    for (int64_t i = 0; i < buggy.rows; ++i) {
      for (int64_t j = 0; j < buggy.cols; ++j) {
        const size_t at = size_t(i * buggy.cols + j);
        ASSERT_EQ(buggy.shown[at], record_cell(*state.session.trace, c.record, 1, i, j)) << name;
        EXPECT_FLOAT_EQ(maps[2].shown[at], std::abs(buggy.shown[at] - maps[0].shown[at])) << name;
      }
    }
  }
}

TEST_F(Toolkit, ConcatAndOutputDropoutShowADifferenceOnSeed003) {
  start_on("seed003");
  for (Mistake mistake : {Mistake::ConcatNoTranspose, Mistake::DropoutOnOutput}) {
    set_mistake(state, mistake);
    frame();
    const HeatmapSet& diff = current_mistake_maps(state)[2];
    ASSERT_FALSE(diff.empty()) << mistake_info(mistake).name;
    EXPECT_GT(*std::max_element(diff.shown.begin(), diff.shown.end()), 0.01f)
        << mistake_info(mistake).name << ": the difference map is all zero";
  }
}

TEST_F(Toolkit, SharedProjectionIsSymmetricOnTheScaledScoresDespiteTheCausalMask) {
  start_on("seed003");
  ASSERT_TRUE(state.session.config.mask.causal);
  set_mistake(state, Mistake::SharedQkProjection);
  frame();
  const HeatmapSet& buggy = current_mistake_maps(state)[1];
  ASSERT_EQ(buggy.rows, 11);
  ASSERT_EQ(buggy.cols, 11);
  EXPECT_EQ(buggy.masked_cells, 0) << "shown before the mask";
  double largest = 0;
  for (int64_t i = 0; i < 11; ++i) {
    for (int64_t j = 0; j < i; ++j) {
      // Two cells of one GEMM (q_i . q_j and q_j . q_i): equal to rounding.
      EXPECT_NEAR(buggy.shown[size_t(i * 11 + j)], buggy.shown[size_t(j * 11 + i)], 1e-5)
          << i << "," << j;
      largest = std::max(largest, double(std::abs(buggy.shown[size_t(i * 11 + j)])));
    }
  }
  EXPECT_GT(largest, 0.01) << "a symmetric map of zeros would prove nothing";
}

TEST_F(Toolkit, NoScaleIsTooSmallOnSeed003AndItsSuggestedConfigShowsIt) {
  start_on("seed003");
  set_mistake(state, Mistake::NoScale);
  ASSERT_TRUE(open_tab(state, "mistakes"));
  frame();
  ASSERT_TRUE(state.session.mistake_report.has_value());
  EXPECT_TRUE(state.session.mistake_report->too_small_to_see)
      << state.session.mistake_report->effect;
  const std::optional<ShowcaseConfig> there = config_where_it_shows(state.session.trace->config);
  ASSERT_TRUE(there.has_value());
  set_config(state, there->config);  // what the "Show it on ..." button does
  frame();
  EXPECT_EQ(state.session.trace->config.mistake, Mistake::NoScale);
  EXPECT_FALSE(state.session.mistake_report->too_small_to_see)
      << state.session.mistake_report->effect;
  const HeatmapSet& diff = current_mistake_maps(state)[2];
  float largest = 0;  // over every head, as the report measures it
  const Tensor& good = state.session.correct_trace->find("weights")->tensor;
  const Tensor& bad = state.session.trace->find("weights")->tensor;
  for (int64_t h = 0; h < good.size(1); ++h)
    for (int64_t i = 0; i < good.size(2); ++i)
      for (int64_t j = 0; j < good.size(3); ++j)
        largest = std::max(largest, std::abs(bad.at({0, h, i, j}) - good.at({0, h, i, j})));
  EXPECT_GT(largest, kVisibleChange);
  EXPECT_FALSE(diff.empty());
}

TEST_F(Toolkit, TogglingAHeadOffRunsAgainWithoutIt) {
  start_on("seed003");
  const std::shared_ptr<const Trace> before = state.session.trace;
  toggle_head_ablation(state, 1);
  ASSERT_NE(state.session.trace, before);
  ASSERT_EQ(state.session.trace->config.ablated_heads.size(), 2u);
  EXPECT_FALSE(state.session.trace->config.ablated_heads[0]);
  EXPECT_TRUE(state.session.trace->config.ablated_heads[1]);
  EXPECT_TRUE(state.session.trace->find("context_ablated"));
  ImGui::GetIO().KeyShift = true;
  press(kKey0 + 1);  // Shift+1: head 1 back on
  ImGui::GetIO().KeyShift = false;
  EXPECT_FALSE(state.session.trace->config.ablated_heads[1]);
}

TEST_F(Toolkit, HeadToolsMeasureImportanceAndOneVersusMany) {
  start_on("seed003");
  press(kKey1 + 3);  // key 4
  frame();
  EXPECT_EQ(state.tabs.tool, ToolTab::HeadTools);
  wait_for_measurements(state);
  ASSERT_TRUE(state.head_tools.importance.result().has_value())
      << state.head_tools.importance.error();
  EXPECT_EQ(state.head_tools.importance.result()->size(), 2u);
  ASSERT_TRUE(state.head_tools.head_counts.result().has_value())
      << state.head_tools.head_counts.error();
  EXPECT_EQ(state.head_tools.head_counts.result()->single.config.n_heads, 1);
  EXPECT_EQ(state.head_tools.head_counts.result()->single.counters.parameters(),
            state.head_tools.head_counts.result()->multi.counters.parameters());
  frame();
}

TEST_F(Toolkit, MemoryHoverLightsTheStorageCellOfALogicalCell) {
  start_on("seed003");
  ASSERT_TRUE(go_to_named_step(state, "transpose"));
  ASSERT_TRUE(open_tab(state, "memory"));
  state.memory.window_start = 8;  // q[0, 2, :]: token 2 of both heads
  frame();
  frame();
  ASSERT_EQ(state.tabs.tool, ToolTab::Memory);
  ASSERT_EQ(state.frame.memory_grids.size(), 2u);
  const MemoryGridPlacement grid = state.frame.memory_grids[1];  // q_heads (B, h, T, d_k)
  ASSERT_EQ(grid.record, "q_heads");
  // Row 13 of the h blocks of T rows = head 1, token 2; column 1.
  const auto row = std::find(grid.rows.begin(), grid.rows.end(), 13);
  const auto col = std::find(grid.cols.begin(), grid.cols.end(), 1);
  ASSERT_TRUE(row != grid.rows.end() && col != grid.cols.end());
  const ImVec2 at =
      memory_cell_min(grid, size_t(row - grid.rows.begin()), size_t(col - grid.cols.begin()));
  ImGui::GetIO().MousePos = ImVec2(at.x + grid.cell * 0.5f, at.y + grid.cell * 0.5f);
  frame();
  frame();
  const Tensor& q_heads = state.session.trace->find("q_heads")->tensor;
  EXPECT_EQ(state.memory.hover.storage_name, "q");
  EXPECT_EQ(state.memory.hover.storage, q_heads.storage_index({0, 1, 2, 1}));
  EXPECT_EQ(state.memory.hover.storage, 2 * 4 + 1 * 2 + 1) << "token 2, head 1, column 1 of q";
}

TEST_F(Toolkit, MemoryPictureFollowsTheStrides) {
  start_on("seed003");
  const Trace& trace = *state.session.trace;
  const TensorRecord& q_split = *trace.find("q_split");
  const TensorRecord& q_heads = *trace.find("q_heads");
  const LogicalGrid split_grid = logical_grid(q_split);
  const LogicalGrid heads_grid = logical_grid(q_heads);
  EXPECT_EQ(split_grid.rows, 11);
  EXPECT_EQ(split_grid.cols, 4);
  EXPECT_EQ(split_grid.run, 4) << "a token's h*d_k floats lie one after another";
  EXPECT_EQ(heads_grid.rows, 22);
  EXPECT_EQ(heads_grid.run, 2) << "after the transpose only d_k do";
  EXPECT_TRUE(heads_grid.group_rows);
  // Same storage strip, different logical order.
  const StorageWindow all = clamp_window(0, 44, 44);
  const std::vector<MemoryCell> split_strip = storage_cells(trace, q_split, all);
  const std::vector<MemoryCell> heads_strip = storage_cells(trace, q_heads, all);
  ASSERT_EQ(split_strip.size(), heads_strip.size());
  for (size_t i = 0; i < split_strip.size(); ++i)
    EXPECT_EQ(split_strip[i].head, heads_strip[i].head);
  const LogicalBlock heads = logical_block(q_heads, heads_grid, all);
  ASSERT_EQ(heads.rows.size(), 22u);
  ASSERT_EQ(heads.cols.size(), 2u);
  EXPECT_EQ(heads.cells[size_t(11 * 2)].storage, 2) << "head 1's first row starts at q[0, 2]";
  EXPECT_EQ(heads.cells[size_t(11 * 2)].head, 1);
  // Elements 2..5 of q: head 1 of token 0, head 0 of token 1; the rest of those rows is outside.
  const LogicalBlock part = logical_block(q_heads, heads_grid, clamp_window(2, 4, 44));
  EXPECT_EQ(part.rows, (std::vector<int64_t>{1, 11}));
  EXPECT_EQ(part.cols, (std::vector<int64_t>{0, 1}));
  for (const MemoryCell& cell : part.cells) EXPECT_TRUE(cell.in_window) << cell.storage;
  const LogicalBlock odd = logical_block(q_heads, heads_grid, clamp_window(3, 2, 44));
  EXPECT_EQ(odd.rows, (std::vector<int64_t>{1, 11}));
  ASSERT_EQ(odd.cells.size(), 4u);
  // Row-major (row 1, col 0), (1, 1), (11, 0), (11, 1): offsets 4, 5, 2, 3.
  const int64_t offsets[] = {4, 5, 2, 3};
  const bool inside[] = {true, false, false, true};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(odd.cells[i].storage, offsets[i]);
    EXPECT_EQ(odd.cells[i].in_window, inside[i]) << odd.cells[i].storage;
  }
}

TEST_F(Toolkit, CodeHighlightFollowsTheArrows) {
  start_on("seed003");
  ASSERT_TRUE(go_to_named_step(state, "attend:QK^T"));
  frame();
  ASSERT_EQ(state.tabs.info, InfoTab::Code);
  const int at_scores = state.code.highlight;
  ASSERT_GE(at_scores, 0);
  press(kGlfwRight);  // scale
  EXPECT_EQ(state.code.highlight, at_scores + 1);
  press(kGlfwRight);  // mask
  EXPECT_EQ(state.code.highlight, at_scores + 2);
  press(kGlfwLeft);
  press(kGlfwLeft);
  EXPECT_EQ(state.code.highlight, at_scores);
  press(kKeyC);
  EXPECT_EQ(state.tabs.info, InfoTab::Checks);
}

TEST_F(Toolkit, EveryTabDrawsForEveryMistake) {
  start_on("seed003");
  for (int tab = 0; tab < kToolTabCount; ++tab) {
    state.tabs.requested_tool = ToolTab(tab);
    for (const MistakeInfo& info : all_mistakes()) {
      set_mistake(state, info.id);
      for (int step = 0; step < int(state.walk.steps.size()); step += 3) {
        go_to_step(state, step);
        frame();
      }
    }
    frame();
    EXPECT_EQ(state.tabs.tool, ToolTab(tab));
  }
  wait_for_measurements(state);
}

}  // namespace
}  // namespace attnlab::gui
