// The memory picture of one strided tensor (the theory seed's "Memory layout"): a window of W
// consecutive elements of its flat storage, drawn as a strip of cells, and the block of its
// logical grid that holds exactly those elements. Each cell knows where it lives in the storage
// (Tensor::storage_index) and which head and token it belongs to, so views that share a storage
// colour it alike and hover can link a logical cell to its storage cell. Pure layout maths: the
// panel (panel_memory.cpp) only draws what these functions place.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/trace/trace.hpp"

namespace attnlab::gui {

// The smallest cell drawn, in pixels: smaller ones cannot be read from the back of a room.
constexpr float kMinMemoryCellPx = 20;

struct MemoryCell {
  int64_t storage = -1;   // index into the tensor's storage
  int64_t head = 0;       // colour
  int64_t token = 0;      // shade
  bool in_window = true;  // its storage index is inside the storage window
};

// How a 3-D or 4-D record is drawn as one 2-D grid per batch item:
//   (B, T, x)      Tokens:     T rows, x columns (grouped per head when x is "h*d")
//   (B, T, h, d)   Tokens:     T rows, h*d columns grouped per head
//   (B, h, T, d)   HeadBlocks: h blocks of T rows (row = head * T + t), d columns
//   (B, n_kv, g, T, d) HeadBlocks: n_kv * g blocks of T rows (row = (kv * g + copy) * T + t);
//                  grouped K/V heads expanded by a stride of 0, so g blocks share their cells
struct LogicalGrid {
  enum class Kind { None, Tokens, HeadBlocks } kind = Kind::None;
  int64_t dims = 0;    // 3, 4 or 5
  int64_t copies = 1;  // 5-D: g, the blocks each K/V head is read as
  int64_t batch = 0, rows = 0, cols = 0;
  int64_t tokens = 0;       // T
  int64_t group = 1;        // columns (or rows) per head group
  bool group_rows = false;  // true: the gaps are between rows
  int64_t inner = 1;        // 4-D: d, the last axis
  int64_t run = 1;          // storage elements that lie in one grid row, consecutive cells
  int64_t row_keys() const { return batch * rows; }  // row key = b * rows + row
};
// The grid of a record; Kind::None for other ranks or a record without storage.
LogicalGrid logical_grid(const TensorRecord& record);
// The logical tensor index of grid cell (row key, column).
std::vector<int64_t> grid_index(const LogicalGrid& grid, int64_t row_key, int64_t col);

// W consecutive storage elements [start, start + size) of a storage of `total`.
struct StorageWindow {
  int64_t start = 0, size = 0, total = 0;
  int64_t end() const { return start + size; }
  bool contains(int64_t storage) const { return storage >= start && storage < end(); }
};
// A window of `size` (at most total, at least 1) starting as near `start` as fits.
StorageWindow clamp_window(int64_t start, int64_t size, int64_t total);
// The window moved by `delta` elements, kept inside the storage.
StorageWindow scroll_window(const StorageWindow& window, int64_t delta);

// The space one tensor's picture may take, in pixels.
struct MemoryFit {
  float width = 0;        // the strip's width
  float block_width = 0;  // the logical block's (the width minus its row labels)
  float height = 0;       // strip and block together
  float cell = kMinMemoryCellPx, gap = 4;
};
// Storage cells per strip row.
int64_t strip_per_row(const MemoryFit& fit);
// Bounds on the logical block of any window of `size`, wherever it sits. A run (grid.run
// consecutive storage elements in one grid row) is one interval of columns in one row.
int64_t block_rows_bound(const LogicalGrid& grid, int64_t size);
int64_t block_cols_bound(const LogicalGrid& grid, int64_t size);
int64_t block_col_gaps_bound(const LogicalGrid& grid, int64_t size);
// The largest window whose strip and logical block fit `fit` wherever the window sits (from
// those bounds): the whole storage when it fits, else a part of it, at least 1 element.
int64_t memory_window_size(const LogicalGrid& grid, int64_t total, const MemoryFit& fit);

// The storage window's elements in storage order, coloured through the record that allocated
// the storage (contiguous), so every view of one storage colours a cell alike.
std::vector<MemoryCell> storage_cells(const Trace& trace, const TensorRecord& record,
                                      const StorageWindow& window);

// The block of the logical grid that holds the window's elements: every grid row (of any batch
// item) and every column holding one of them. Its other cells are drawn too, out of the window.
struct LogicalBlock {
  std::vector<int64_t> rows;      // row keys (b * grid.rows + row), ascending
  std::vector<int64_t> cols;      // grid columns, ascending
  std::vector<MemoryCell> cells;  // rows.size() x cols.size(), row-major
};
LogicalBlock logical_block(const TensorRecord& record, const LogicalGrid& grid,
                           const StorageWindow& window);
// "t 5", "h 1 · t 5", with "b 3 · " in front when the batch has more than one item.
std::string block_row_label(const LogicalGrid& grid, int64_t row_key);

// Where a logical block was drawn (screen pixels), for hover and tests.
struct MemoryGridPlacement {
  std::string record;
  ImVec2 min;
  float cell = 0;
  std::vector<int64_t> rows, cols;  // the block's row keys and grid columns
  std::vector<float> row_y, col_x;  // each one's offset from min (gaps where indices jump)
  ImVec2 size() const;
};
// Gaps between head groups, batch items and indices that are not consecutive.
MemoryGridPlacement place_block(const std::string& record, const LogicalGrid& grid,
                                const LogicalBlock& block, ImVec2 min, float cell, float gap);
// Top-left corner of block cell (i, j).
ImVec2 memory_cell_min(const MemoryGridPlacement& grid, size_t i, size_t j);
// The block cell under a point, or false.
bool memory_cell_at(const MemoryGridPlacement& grid, ImVec2 point, size_t& i, size_t& j);

// The minimap: a bar standing for the whole storage, with a marker where the window sits.
struct MinimapMarker {
  float x0 = 0, x1 = 0;
};

// Where a storage strip and its minimap were drawn (screen pixels), for tests.
struct MemoryStripPlacement {
  std::string record;
  StorageWindow window;
  ImVec2 min;               // the strip's first cell
  float cell = 0;           // cell pitch
  int64_t per_row = 0;      // cells per strip row
  int64_t cells = 0;        // cells drawn
  ImVec2 bar_min, bar_max;  // the minimap bar
  MinimapMarker marker;
};
// The marker over a bar [x, x + width): the window's share of the bar, at least min_width wide,
// from the bar's left end at the first window to its right end at the last.
MinimapMarker minimap_marker(const StorageWindow& window, float x, float width, float min_width);
// The window whose marker is centred on `click_x` (the first or last near the bar's ends).
StorageWindow minimap_jump(const StorageWindow& window, float x, float width, float min_width,
                           float click_x);

struct MemoryHover {
  std::string storage_name;  // whose storage the hovered cell is in ("" = none)
  int64_t storage = -1;
};

}  // namespace attnlab::gui
