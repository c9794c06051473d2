// The memory picture of one strided tensor (the theory seed's "Memory layout"): its flat storage
// as a strip of cells and its logical elements as a grid, each cell knowing where it lives in the
// storage (Tensor::storage_index) and which head and token it belongs to, so views that share a
// storage colour it the same way and hover can link a logical cell to its storage cell.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/trace.hpp"

namespace attnlab::gui {

// Pictures larger than this are cut (a sampled view with a notice).
constexpr int64_t kMaxMemoryCells = 512;

struct MemoryCell {
  int64_t storage = -1;  // index into the tensor's storage
  int64_t head = 0;      // colour
  int64_t token = 0;     // shade
};

// The logical grid of one batch item:
//   (B, T, x) and (B, T, h, d)   T rows; columns grouped per head (a gap every `group` columns)
//   (B, h, T, d)                 h blocks of T rows (a gap every `group` rows), d columns
struct MemoryPicture {
  int64_t rows = 0, cols = 0;
  int64_t group = 0;                // columns (or rows) per head group
  bool group_rows = false;          // true: the gaps are between rows
  std::vector<MemoryCell> cells;    // rows x cols, row-major; cut at kMaxMemoryCells
  std::vector<MemoryCell> storage;  // every storage cell [0, numel) up to kMaxMemoryCells
  int64_t storage_cells = 0;        // the storage's full size
  bool cut = false;                 // some cells are not shown
};

// For a 3-D or 4-D record of the trace (values are not needed: layout only); an empty picture
// otherwise. Storage cells are read through the record that allocated the storage (contiguous),
// so every view of one storage colours a cell alike.
MemoryPicture memory_picture(const Trace& trace, const TensorRecord& record, int64_t batch);

// Where a logical grid was drawn (screen pixels), for hover and tests.
struct MemoryGridPlacement {
  std::string record;
  ImVec2 min;
  float cell = 0, gap = 0;
  int64_t rows = 0, cols = 0, group = 0;
  bool group_rows = false;
};
// Top-left corner of cell (row, col).
ImVec2 memory_cell_min(const MemoryGridPlacement& grid, int64_t row, int64_t col);
// The cell under a point, or false.
bool memory_cell_at(const MemoryGridPlacement& grid, ImVec2 point, int64_t& row, int64_t& col);

struct MemoryHover {
  std::string storage_name;  // whose storage the hovered cell is in ("" = none)
  int64_t storage = -1;
};

}  // namespace attnlab::gui
