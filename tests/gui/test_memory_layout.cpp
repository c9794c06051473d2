// The memory layout tab at real sizes (issue 9): a window of the storage with readable cells,
// whose logical block holds exactly the window's elements (checked against offsets computed from
// hand-derived strides), scrolled by wheel, drag, keys and the minimap, out to the storage's end.
// The layout maths (window size, minimap) against hand-worked numbers.
#include <set>

#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

// [SECTION] the layout maths, by hand

TEST(MemoryLayout, WindowFitsTheSpaceOrIsTheWholeStorage) {
  LogicalGrid heads;  // base's q_heads (B, h, T, d_k) = (32, 8, 128, 64): runs of d_k = 64
  heads.kind = LogicalGrid::Kind::HeadBlocks;
  heads.dims = 4;
  heads.batch = 32;
  heads.rows = 8 * 128;
  heads.cols = heads.inner = heads.run = 64;
  heads.tokens = heads.group = 128;
  heads.group_rows = true;
  MemoryFit fit{600, 540, 100, 20, 6};
  // Any window of 2..65 lies in at most 2 runs: 2 rows, one jump between column intervals, no
  // head groups among the columns. 26 columns: 26 * 20 + 6 = 526 <= 540 px; one strip row and 2
  // block rows: 20 + 2 * 20 + 6 = 66 <= 100 px.
  EXPECT_EQ(strip_per_row(fit), 30);
  EXPECT_EQ(block_rows_bound(heads, 20), 2);
  EXPECT_EQ(block_rows_bound(heads, 65), 2);
  EXPECT_EQ(block_rows_bound(heads, 66), 3);
  EXPECT_EQ(block_cols_bound(heads, 100), 64);
  EXPECT_EQ(block_col_gaps_bound(heads, 26), 1);
  EXPECT_EQ(memory_window_size(heads, 32 * 128 * 512, fit), 26);
  // 60 px: only a window that cannot cross a run (1 element, 20 + 20 = 40 px) fits.
  fit.height = 60;
  EXPECT_EQ(memory_window_size(heads, 32 * 128 * 512, fit), 1);

  LogicalGrid split = heads;  // base's q_split (B, T, h, d_k): 512 columns in groups of 64
  split.kind = LogicalGrid::Kind::Tokens;
  split.rows = split.tokens = 128;
  split.cols = split.run = 512;
  split.group = split.inner = 64;
  split.group_rows = false;
  // 100 columns in at most 2 runs: 1 jump, at most 100 / 64 + 2 groups starting among them.
  EXPECT_EQ(block_col_gaps_bound(split, 100), 4);
  EXPECT_EQ(block_col_gaps_bound(split, 3), 2) << "never more than columns - 1";

  LogicalGrid small = heads;  // seed003's q_heads (1, 2, 11, 2): 44 floats
  small.batch = 1;
  small.rows = 22;
  small.cols = small.inner = small.run = 2;
  small.tokens = small.group = 11;
  fit.height = 1000;  // 2 strip rows (40) + 22 rows with 21 gaps (566)
  EXPECT_EQ(memory_window_size(small, 44, fit), 44);
  fit.height = 20 + 5 * 20 + 4 * 6;  // one strip row, 5 block rows: windows crossing at most 4 runs
  EXPECT_EQ(memory_window_size(small, 44, fit), 9);
}

TEST(MemoryLayout, WindowsStayInsideTheStorage) {
  EXPECT_EQ(clamp_window(-5, 10, 100).start, 0);
  EXPECT_EQ(clamp_window(95, 10, 100).start, 90);
  EXPECT_EQ(clamp_window(0, 500, 100).size, 100);
  EXPECT_EQ(scroll_window(clamp_window(85, 10, 100), 10).end(), 100);
  EXPECT_EQ(scroll_window(clamp_window(5, 10, 100), -10).start, 0);
}

TEST(MemoryLayout, MinimapMarksTheWindowAndJumpsToAClick) {
  const StorageWindow window = clamp_window(50, 10, 100);
  const MinimapMarker marker = minimap_marker(window, 10, 200, 4);
  EXPECT_FLOAT_EQ(marker.x0, 110);
  EXPECT_FLOAT_EQ(marker.x1, 130);
  // A window of 20 in 2^21 floats is far under a pixel: 4 px, kept inside the bar at its end.
  const StorageWindow last = clamp_window(1 << 21, 20, 1 << 21);
  const MinimapMarker tiny = minimap_marker(last, 10, 200, 4);
  EXPECT_FLOAT_EQ(tiny.x1, 210);
  EXPECT_FLOAT_EQ(tiny.x0, 206);
  // The marker (20 px) slides over 180 px as the start goes 0 -> 90.
  EXPECT_EQ(minimap_jump(window, 10, 200, 4, 209).end(), 100) << "the last window";
  EXPECT_EQ(minimap_jump(window, 10, 200, 4, 11).start, 0);
  EXPECT_EQ(minimap_jump(window, 10, 200, 4, 60).start, 20) << "marker [50, 70): 40/180 of 90";
  const StorageWindow back = minimap_jump(last, 10, 200, 4, 110);
  EXPECT_NEAR(double(back.start), double((1 << 21) - 20) * 98 / 196, 1) << "the middle";
}

// [SECTION] the tab at real sizes

struct Sizes {
  const char* preset;
  int64_t B, T, h, d_k;
};

class MemoryTab : public HeadlessImGui {
 protected:
  void open_memory(const char* stage) {
    ASSERT_TRUE(go_to_named_step(state, stage));
    ASSERT_TRUE(open_tab(state, "memory"));
    frame();
    frame();
    ASSERT_EQ(state.frame.memory_strips.size(), 2u) << stage;
    ASSERT_EQ(state.frame.memory_grids.size(), 2u) << stage;
  }
  const MemoryStripPlacement& strip(const std::string& record) {
    for (const MemoryStripPlacement& s : state.frame.memory_strips)
      if (s.record == record) return s;
    ADD_FAILURE() << "no strip for " << record;
    return state.frame.memory_strips.front();
  }
  void move_mouse_to(ImVec2 at) {
    ImGui::GetIO().MousePos = at;
    frame();
  }
};

// Storage offset of the grid cell (row key, column) of q, q_split or q_heads, from strides derived
// by hand for a contiguous (B, T, h*d_k) storage; the record's own strides must equal them.
int64_t hand_offset(const Sizes& z, const TensorRecord& record, int64_t row_key, int64_t col) {
  const int64_t D = z.h * z.d_k;
  std::vector<int64_t> index, strides;
  if (record.name == "q") {  // (B, T, h*d_k)
    index = {row_key / z.T, row_key % z.T, col};
    strides = {z.T * D, D, 1};
  } else if (record.name == "q_split") {  // (B, T, h, d_k)
    index = {row_key / z.T, row_key % z.T, col / z.d_k, col % z.d_k};
    strides = {z.T * D, D, z.d_k, 1};
  } else {  // q_heads (B, h, T, d_k): h blocks of T rows
    index = {row_key / (z.h * z.T), row_key % (z.h * z.T) / z.T, row_key % z.T, col};
    strides = {z.T * D, z.d_k, D, 1};
  }
  EXPECT_EQ(record.tensor.strides(), Shape(strides.begin(), strides.end())) << record.name;
  int64_t offset = 0;
  for (size_t i = 0; i < index.size(); ++i) offset += index[i] * strides[i];
  return offset;
}

TEST_F(MemoryTab, RealSizesDrawAReadableWindowWhoseBlockHoldsExactlyItsElements) {
  for (const Sizes& z : {Sizes{"base", 32, 128, 8, 64}, Sizes{"bert-base", 1, 512, 12, 64}}) {
    start_on(z.preset);
    for (const char* stage : {"split", "transpose"}) {
      open_memory(stage);
      const ImVec4 panel = state.frame.panel_rects[int(PanelId::Tensors)];
      for (const MemoryGridPlacement& grid : state.frame.memory_grids) {
        const std::string where = std::string(z.preset) + " " + stage + " " + grid.record;
        const MemoryStripPlacement& s = strip(grid.record);
        EXPECT_GT(s.cells, 0) << where;
        EXPECT_EQ(s.cells, s.window.size) << where;
        EXPECT_GE(s.cell, kMinMemoryCellPx) << where;
        EXPECT_GE(grid.cell, kMinMemoryCellPx) << where;
        EXPECT_EQ(s.window.total, z.B * z.T * z.h * z.d_k) << where;
        EXPECT_GE(s.window.size, 8) << where << ": a window worth scrolling";
        // The block is on screen, inside the panel.
        ASSERT_FALSE(grid.rows.empty() || grid.cols.empty()) << where;
        EXPECT_LE(grid.min.x + grid.size().x, panel.z) << where;
        EXPECT_LE(grid.min.y + grid.size().y, panel.w) << where;
        // Its cells whose offsets fall in the window are the window's elements, each once.
        const TensorRecord& record = *state.session.trace->find(grid.record);
        std::set<int64_t> inside;
        for (int64_t row_key : grid.rows) {
          for (int64_t col : grid.cols) {
            const int64_t offset = hand_offset(z, record, row_key, col);
            if (s.window.contains(offset)) {
              EXPECT_TRUE(inside.insert(offset).second) << where;
            }
          }
        }
        EXPECT_EQ(int64_t(inside.size()), s.window.size) << where;
        // And the block has no row or column without one of them.
        for (int64_t row_key : grid.rows) {
          bool any = false;
          for (int64_t col : grid.cols)
            any = any || s.window.contains(hand_offset(z, record, row_key, col));
          EXPECT_TRUE(any) << where << " row " << row_key;
        }
      }
    }
  }
}

TEST_F(MemoryTab, WheelDragKeysAndMinimapMoveTheWindowToTheEnd) {
  start_on("base");
  open_memory("transpose");
  const MemoryStripPlacement before = strip("q_heads");
  const int64_t size = before.window.size;
  // It opens across the first head boundary (d_k = 64), where the two views part ways.
  const int64_t first = before.window.start;
  ASSERT_LT(first, 64);
  ASSERT_GT(first + size, 64);
  // The wheel over the strip: one window per notch, and the minimap marker follows.
  move_mouse_to(ImVec2(before.min.x + before.cell * 1.5f, before.min.y + before.cell * 0.5f));
  ImGui::GetIO().MouseWheel = -1;
  frame();
  ImGui::GetIO().MouseWheel = 0;
  frame();
  EXPECT_EQ(strip("q_heads").window.start, first + size);
  EXPECT_EQ(strip("q_split").window.start, first + size) << "one window for both views of q";
  // Dragging the strip 3 cells to the left shows 3 elements further on (and focuses the panel).
  ImGuiIO& io = ImGui::GetIO();
  io.MouseDown[0] = true;
  frame();
  move_mouse_to(ImVec2(io.MousePos.x - before.cell * 3 - 1, io.MousePos.y));
  frame();
  io.MouseDown[0] = false;
  frame();
  EXPECT_EQ(strip("q_heads").window.start, first + size + 3);
  // ↓ / ↑ with the panel focused.
  press(kGlfwDown);
  EXPECT_EQ(strip("q_heads").window.start, first + 2 * size + 3);
  press(kGlfwUp);
  EXPECT_EQ(strip("q_heads").window.start, first + size + 3);
  // A click in the middle of the minimap: the window moves there and the marker under the mouse.
  const auto click_minimap = [&](float fraction) {
    const MemoryStripPlacement now = strip("q_heads");
    const float x = now.bar_min.x + fraction * (now.bar_max.x - now.bar_min.x);
    move_mouse_to(ImVec2(x, 0.5f * (now.bar_min.y + now.bar_max.y)));
    io.MouseDown[0] = true;
    frame();
    io.MouseDown[0] = false;
    frame();
    return x;
  };
  const float middle = click_minimap(0.5f);
  const MemoryStripPlacement centre = strip("q_heads");
  EXPECT_NEAR(double(centre.window.start), double(centre.window.total - size) / 2,
              double(centre.window.total) / (centre.bar_max.x - centre.bar_min.x));
  EXPECT_NEAR(0.5f * (centre.marker.x0 + centre.marker.x1), middle, 1.0f);
  EXPECT_GT(centre.marker.x0, before.marker.x0 + 100);
  // A click at its right end: the window ends where the storage does.
  click_minimap(0.999f);
  const MemoryStripPlacement end = strip("q_heads");
  EXPECT_EQ(end.window.end(), end.window.total);
  EXPECT_FLOAT_EQ(end.marker.x1, end.bar_max.x);
  EXPECT_EQ(end.cells, size);
  // The last element of q is the last of batch item 31, token 127, head 7, column 63.
  const MemoryGridPlacement& grid = state.frame.memory_grids[1];
  ASSERT_EQ(grid.record, "q_heads");
  EXPECT_EQ(grid.rows.back(), 32 * 8 * 128 - 1);
  EXPECT_EQ(grid.cols.back(), 63);
}

}  // namespace
}  // namespace attnlab::gui

namespace attnlab::gui {
namespace {

// Grouped K/V heads: k_grouped (B, n_kv, g, T, d) reads k's storage through a stride of 0 on g,
// so every storage element of the window shows in g rows of the logical block, one per copy.
TEST(MemoryLayout, TheExpandViewShowsEachStorageElementOncePerCopy) {
  Config c;
  c.seq_len = 5;
  c.d_model = 16;
  c.n_heads = 8;
  c.n_kv_heads = 2;  // g = 4, d_k = 2
  const Trace trace = run(c);
  const TensorRecord& grouped = *trace.find("k_grouped");
  const LogicalGrid grid = logical_grid(grouped);
  EXPECT_EQ(grid.dims, 5);
  EXPECT_EQ(grid.copies, 4);
  EXPECT_EQ(grid.rows, 2 * 4 * 5);
  EXPECT_EQ(grid.cols, 2);
  // k is (B, T, n_kv * d_k) = (1, 5, 4): storage 0..1 is token 0 of K/V head 0.
  const StorageWindow window = clamp_window(0, 2, 20);
  const LogicalBlock block = logical_block(grouped, grid, window);
  ASSERT_EQ(block.rows.size(), 4u) << "K/V head 0's token 0, once for each of its 4 query heads";
  for (size_t copy = 0; copy < 4; ++copy) {
    EXPECT_EQ(block.rows[copy], int64_t(copy) * 5);  // row (kv 0, copy, t 0)
    EXPECT_EQ(block_row_label(grid, block.rows[copy]), "kv0\u00B7" + std::to_string(copy) + " t0");
  }
  for (const MemoryCell& cell : block.cells) {
    EXPECT_TRUE(cell.in_window);
    EXPECT_LT(cell.storage, 2);
  }
}

}  // namespace
}  // namespace attnlab::gui
