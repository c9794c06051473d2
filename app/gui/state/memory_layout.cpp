#include "app/gui/state/memory_layout.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attnlab::gui {

namespace {

// Which head and token a logical index of a record belongs to, from its axis names.
struct AxisRoles {
  int token_axis = -1;
  int head_axis = -1;         // an "h" axis
  int packed_head_axis = -1;  // an "h*d_k" axis: head = index / (size / h)
  int64_t packed_width = 1;   // size / h of that axis

  explicit AxisRoles(const TensorRecord& record) {
    const Shape& shape = record.tensor.shape();
    token_axis = find_axis(record.axes, AxisKind::Token);
    head_axis = find_axis(record.axes, AxisKind::Head);
    for (int i = 0; i < int(record.axes.size()) && i < int(shape.size()); ++i) {
      const Axis& axis = record.axes[size_t(i)];
      if (axis.kind == AxisKind::Feature && axis.heads > 1) {
        packed_head_axis = i;
        packed_width = std::max<int64_t>(1, shape[size_t(i)] / axis.heads);
      }
    }
  }
  MemoryCell cell(const std::vector<int64_t>& index, int64_t storage) const {
    MemoryCell c;
    c.storage = storage;
    if (token_axis >= 0) c.token = index[size_t(token_axis)];
    if (head_axis >= 0) c.head = index[size_t(head_axis)];
    if (head_axis < 0 && packed_head_axis >= 0)
      c.head = index[size_t(packed_head_axis)] / packed_width;
    return c;
  }
};

// The logical index a view reads storage element `storage` at, or false when it reads none
// there. Peels the axes off from the largest stride down, which inverts every view whose strides
// do not overlap (views, transposes).
bool logical_index_of(const Tensor& t, int64_t storage, std::vector<int64_t>& index) {
  const Shape& shape = t.shape();
  const Shape& strides = t.strides();
  std::vector<size_t> order(shape.size());
  std::iota(order.begin(), order.end(), size_t(0));
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return strides[a] > strides[b]; });
  index.assign(shape.size(), 0);
  int64_t rest = storage - t.offset();
  if (rest < 0) return false;
  for (size_t axis : order) {
    if (strides[axis] <= 0 || shape[axis] <= 1) continue;
    index[axis] = std::min(rest / strides[axis], shape[axis] - 1);
    rest -= index[axis] * strides[axis];
  }
  return rest == 0;
}

// The grid cell (row key, column) of a logical index; the inverse of grid_index().
std::pair<int64_t, int64_t> grid_cell_of(const LogicalGrid& grid,
                                         const std::vector<int64_t>& index) {
  const int64_t b = index[0];
  if (grid.dims == 3) return {b * grid.rows + index[1], index[2]};
  if (grid.kind == LogicalGrid::Kind::Tokens)
    return {b * grid.rows + index[1], index[2] * grid.inner + index[3]};
  if (grid.dims == 5)
    return {b * grid.rows + (index[1] * grid.copies + index[2]) * grid.tokens + index[3], index[4]};
  return {b * grid.rows + index[1] * grid.tokens + index[2], index[3]};  // HeadBlocks
}

// Every logical index that reads the same storage as `index`: itself, and along each axis of
// stride 0 (an expand) every position of it.
std::vector<std::vector<int64_t>> same_storage(const Tensor& t, const std::vector<int64_t>& index) {
  std::vector<std::vector<int64_t>> all{index};
  for (size_t axis = 0; axis < index.size(); ++axis) {
    if (t.strides()[axis] != 0 || t.shape()[axis] <= 1) continue;
    std::vector<std::vector<int64_t>> more;
    for (const std::vector<int64_t>& at : all) {
      for (int64_t i = 0; i < t.shape()[axis]; ++i) {
        more.push_back(at);
        more.back()[axis] = i;
      }
    }
    all = std::move(more);
  }
  return all;
}

}  // namespace

// [SECTION] the logical grid

LogicalGrid logical_grid(const TensorRecord& record) {
  LogicalGrid grid;
  const Tensor& t = record.tensor;
  if (t.dim() < 3 || t.dim() > 5 || !t.storage()) return grid;
  const Shape& s = t.shape();
  const Shape& strides = t.strides();
  grid.dims = t.dim();
  grid.batch = s[0];
  const bool token_first = t.dim() == 3 || find_axis(record.axes, AxisKind::Token) == 1;
  grid.kind = token_first ? LogicalGrid::Kind::Tokens : LogicalGrid::Kind::HeadBlocks;
  if (t.dim() == 3) {
    grid.rows = grid.tokens = s[1];
    grid.cols = grid.inner = s[2];
    const int64_t heads = record.axes.size() > 2 ? record.axes[2].heads : 1;
    grid.group = heads > 1 ? std::max<int64_t>(1, s[2] / heads) : s[2];
  } else if (t.dim() == 5) {  // (B, n_kv, g, T, d)
    grid.copies = s[2];
    grid.tokens = s[3];
    grid.rows = s[1] * s[2] * s[3];
    grid.cols = grid.inner = s[4];
    grid.group = s[3];
    grid.group_rows = true;
  } else if (token_first) {
    grid.rows = grid.tokens = s[1];
    grid.cols = s[2] * s[3];
    grid.group = grid.inner = s[3];
  } else {
    grid.tokens = s[2];
    grid.rows = s[1] * s[2];
    grid.cols = grid.inner = s[3];
    grid.group = s[2];
    grid.group_rows = true;
  }
  grid.group = std::max<int64_t>(1, grid.group);
  // The run: the trailing column axes that lie one after another in storage.
  const int64_t first_col_axis = grid.dims == 5                               ? 4
                                 : grid.kind == LogicalGrid::Kind::HeadBlocks ? 3
                                                                              : 2;
  int64_t axis = t.dim() - 1;
  for (; axis >= first_col_axis && strides[size_t(axis)] == grid.run; --axis)
    grid.run *= s[size_t(axis)];
  // Runs start at multiples of the run only when every outer stride and the offset are multiples.
  bool aligned = t.offset() % grid.run == 0;
  for (int64_t outer = 0; outer <= axis; ++outer)
    aligned = aligned && strides[size_t(outer)] % grid.run == 0;
  if (!aligned) grid.run = 1;
  return grid;
}

std::vector<int64_t> grid_index(const LogicalGrid& grid, int64_t row_key, int64_t col) {
  const int64_t b = row_key / grid.rows, row = row_key % grid.rows;
  if (grid.dims == 3) return {b, row, col};
  if (grid.kind == LogicalGrid::Kind::Tokens) return {b, row, col / grid.inner, col % grid.inner};
  if (grid.dims == 5) {
    const int64_t block = row / grid.tokens;
    return {b, block / grid.copies, block % grid.copies, row % grid.tokens, col};
  }
  return {b, row / grid.tokens, row % grid.tokens, col};  // HeadBlocks
}

std::string block_row_label(const LogicalGrid& grid, int64_t row_key) {
  const int64_t b = row_key / grid.rows, row = row_key % grid.rows;
  std::string label;
  if (grid.batch > 1) label.append("b").append(std::to_string(b)).append(" ");
  if (grid.dims == 5) {  // K/V head kv, read for its query head kv * g + copy
    const int64_t block = row / grid.tokens;
    label.append("kv").append(std::to_string(block / grid.copies)).append("\u00B7");
    label.append(std::to_string(block % grid.copies)).append(" ");
  } else if (grid.kind == LogicalGrid::Kind::HeadBlocks) {
    label.append("h").append(std::to_string(row / grid.tokens)).append(" ");
  }
  return label.append("t").append(std::to_string(row % grid.tokens));
}

// [SECTION] the storage window

StorageWindow clamp_window(int64_t start, int64_t size, int64_t total) {
  StorageWindow window;
  window.total = std::max<int64_t>(0, total);
  window.size = std::clamp<int64_t>(size, std::min<int64_t>(1, window.total), window.total);
  window.start = std::clamp<int64_t>(start, 0, window.total - window.size);
  return window;
}

StorageWindow scroll_window(const StorageWindow& window, int64_t delta) {
  return clamp_window(window.start + delta, window.size, window.total);
}

int64_t strip_per_row(const MemoryFit& fit) {
  return std::max<int64_t>(1, int64_t(fit.width / fit.cell));
}

namespace {

// Runs a window of `size` touches: it crosses at most ceil((size - 1) / run) run boundaries.
int64_t runs_bound(const LogicalGrid& grid, int64_t size) {
  const int64_t run = std::max<int64_t>(1, grid.run);
  return (std::max<int64_t>(0, size - 1) + run - 1) / run + 1;
}

}  // namespace

int64_t block_rows_bound(const LogicalGrid& grid, int64_t size) {
  return std::min(grid.row_keys(), runs_bound(grid, size));
}

int64_t block_cols_bound(const LogicalGrid& grid, int64_t size) {
  return std::min(grid.cols, size);
}

int64_t block_col_gaps_bound(const LogicalGrid& grid, int64_t size) {
  // Each run is one interval of columns: the jumps between intervals, and the head groups that
  // start inside them.
  const int64_t cols = block_cols_bound(grid, size), runs = runs_bound(grid, size);
  const int64_t groups = grid.group_rows ? 0 : cols / std::max<int64_t>(1, grid.group) + runs;
  return std::max<int64_t>(0, std::min(cols - 1, runs - 1 + groups));
}

int64_t memory_window_size(const LogicalGrid& grid, int64_t total, const MemoryFit& fit) {
  const int64_t per_row = strip_per_row(fit);
  const auto fits = [&](int64_t size) {
    const int64_t strip_rows = (size + per_row - 1) / per_row;
    const int64_t rows = block_rows_bound(grid, size);
    const float width = float(block_cols_bound(grid, size)) * fit.cell +
                        float(block_col_gaps_bound(grid, size)) * fit.gap;
    const float height = float(strip_rows + rows) * fit.cell + float(rows - 1) * fit.gap;
    return width <= fit.block_width && height <= fit.height;
  };
  // Both grow with the size: the largest that fits, by bisection.
  int64_t lo = 1, hi = std::max<int64_t>(1, total);
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid))
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

std::vector<MemoryCell> storage_cells(const Trace& trace, const TensorRecord& record,
                                      const StorageWindow& window) {
  const TensorRecord* owner = record.is_view ? trace.find(record.storage_owner) : &record;
  if (!owner || !owner->tensor.is_contiguous() || owner->tensor.offset() != 0) owner = &record;
  const AxisRoles roles(*owner);
  const Shape& shape = owner->tensor.shape();
  std::vector<MemoryCell> cells;
  for (int64_t i = window.start; i < window.end(); ++i)
    cells.push_back(roles.cell(unravel_index(i, shape), i));
  return cells;
}

// [SECTION] the logical block of a window

LogicalBlock logical_block(const TensorRecord& record, const LogicalGrid& grid,
                           const StorageWindow& window) {
  LogicalBlock block;
  if (grid.kind == LogicalGrid::Kind::None) return block;
  const Tensor& t = record.tensor;
  std::vector<int64_t> index;
  for (int64_t storage = window.start; storage < window.end(); ++storage) {
    if (!logical_index_of(t, storage, index)) continue;  // an element this view does not read
    for (const std::vector<int64_t>& copy : same_storage(t, index)) {
      const auto [row_key, col] = grid_cell_of(grid, copy);
      block.rows.push_back(row_key);
      block.cols.push_back(col);
    }
  }
  for (std::vector<int64_t>* keys : {&block.rows, &block.cols}) {
    std::sort(keys->begin(), keys->end());
    keys->erase(std::unique(keys->begin(), keys->end()), keys->end());
  }
  const AxisRoles roles(record);
  for (int64_t row_key : block.rows) {
    for (int64_t col : block.cols) {
      const std::vector<int64_t> cell_index = grid_index(grid, row_key, col);
      MemoryCell cell = roles.cell(cell_index, t.storage_index(cell_index));
      cell.in_window = window.contains(cell.storage);
      block.cells.push_back(cell);
    }
  }
  return block;
}

// [SECTION] placing the block

ImVec2 MemoryGridPlacement::size() const {
  if (row_y.empty() || col_x.empty()) return ImVec2(0, 0);
  return ImVec2(col_x.back() + cell, row_y.back() + cell);
}

MemoryGridPlacement place_block(const std::string& record, const LogicalGrid& grid,
                                const LogicalBlock& block, ImVec2 min, float cell, float gap) {
  MemoryGridPlacement placement{record, min, cell, block.rows, block.cols, {}, {}};
  // Offsets along one axis: a cell each, and a gap before an index that starts a group or does
  // not follow the previous one.
  const auto offsets = [&](const std::vector<int64_t>& keys, auto starts_group) {
    std::vector<float> at;
    float position = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (i > 0) position += cell + (keys[i] != keys[i - 1] + 1 || starts_group(keys[i]) ? gap : 0);
      at.push_back(position);
    }
    return at;
  };
  placement.row_y = offsets(block.rows, [&](int64_t key) {
    const int64_t row = key % grid.rows;
    return row == 0 || (grid.group_rows && row % grid.group == 0);
  });
  placement.col_x =
      offsets(block.cols, [&](int64_t col) { return !grid.group_rows && col % grid.group == 0; });
  return placement;
}

ImVec2 memory_cell_min(const MemoryGridPlacement& grid, size_t i, size_t j) {
  return ImVec2(grid.min.x + grid.col_x[j], grid.min.y + grid.row_y[i]);
}

bool memory_cell_at(const MemoryGridPlacement& grid, ImVec2 point, size_t& i, size_t& j) {
  const auto find = [&](const std::vector<float>& starts, float origin, float p, size_t& at) {
    for (size_t k = 0; k < starts.size(); ++k) {
      if (p >= origin + starts[k] && p < origin + starts[k] + grid.cell) {
        at = k;
        return true;
      }
    }
    return false;
  };
  return find(grid.row_y, grid.min.y, point.y, i) && find(grid.col_x, grid.min.x, point.x, j);
}

// [SECTION] the minimap

namespace {

// The marker's width: the window's share of the bar, at least min_width.
float marker_width(const StorageWindow& window, float width, float min_width) {
  const double share = double(window.size) / double(std::max<int64_t>(1, window.total));
  return std::min(width, std::max(min_width, float(double(width) * share)));
}

}  // namespace

MinimapMarker minimap_marker(const StorageWindow& window, float x, float width, float min_width) {
  // The marker slides over width - its own width as the start goes from 0 to total - size.
  const float w = marker_width(window, width, min_width);
  const int64_t last_start = window.total - window.size;
  const float x0 =
      last_start > 0 ? x + float(double(width - w) * double(window.start) / double(last_start)) : x;
  return MinimapMarker{x0, x0 + w};
}

StorageWindow minimap_jump(const StorageWindow& window, float x, float width, float min_width,
                           float click_x) {
  // The inverse of minimap_marker: the marker's centre goes to the click.
  const float w = marker_width(window, width, min_width);
  const double fraction =
      std::clamp(double(click_x - x - 0.5f * w) / double(std::max(1.0f, width - w)), 0.0, 1.0);
  const int64_t start = std::llround(fraction * double(window.total - window.size));
  return clamp_window(start, window.size, window.total);
}

}  // namespace attnlab::gui
