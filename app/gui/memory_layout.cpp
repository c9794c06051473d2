#include "app/gui/memory_layout.hpp"

#include <algorithm>
#include <cmath>

namespace attnlab::gui {

namespace {

// "(B, T, h, d_k)" -> {"B", "T", "h", "d_k"}
std::vector<std::string> axis_names(const std::string& axes) {
  std::vector<std::string> names;
  std::string current;
  for (char c : axes) {
    if (c == '(' || c == ' ') continue;
    if (c == ',' || c == ')') {
      names.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  return names;
}

// Which head and token a logical index of a record belongs to, from its axis names.
struct AxisRoles {
  int token_axis = -1;
  int head_axis = -1;         // an "h" axis
  int packed_head_axis = -1;  // an "h*d_k" axis: head = index / (size / h)
  int64_t packed_width = 1;   // size / h of that axis

  AxisRoles(const TensorRecord& record, int64_t n_heads) {
    const std::vector<std::string> names = axis_names(record.axes);
    const Shape& shape = record.tensor.shape();
    for (int i = 0; i < int(names.size()) && i < int(shape.size()); ++i) {
      if (names[size_t(i)] == "T" && token_axis < 0) token_axis = i;
      if (names[size_t(i)] == "h" && head_axis < 0) head_axis = i;
      if (names[size_t(i)].rfind("h*", 0) == 0) {
        packed_head_axis = i;
        packed_width = std::max<int64_t>(1, shape[size_t(i)] / std::max<int64_t>(1, n_heads));
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

// Row-major position -> index of a contiguous shape.
std::vector<int64_t> unravel(int64_t position, const Shape& shape) {
  std::vector<int64_t> index(shape.size());
  for (size_t i = shape.size(); i-- > 0;) {
    index[i] = position % shape[i];
    position /= shape[i];
  }
  return index;
}

}  // namespace

MemoryPicture memory_picture(const Trace& trace, const TensorRecord& record, int64_t batch) {
  MemoryPicture picture;
  const Tensor& t = record.tensor;
  if (t.dim() < 3 || t.dim() > 4 || !t.storage()) return picture;
  const int64_t h = trace.config.n_heads;
  const Shape& s = t.shape();
  const int64_t b = std::clamp<int64_t>(batch, 0, s[0] - 1);
  const std::vector<std::string> names = axis_names(record.axes);

  // [SECTION] the logical grid of batch item b
  const bool token_first = t.dim() == 3 || (names.size() > 1 && names[1] == "T");
  if (t.dim() == 3) {
    picture.rows = s[1];
    picture.cols = s[2];
    const bool packed = names.size() > 2 && names[2].rfind("h*", 0) == 0;
    picture.group = packed ? std::max<int64_t>(1, s[2] / std::max<int64_t>(1, h)) : s[2];
  } else if (token_first) {
    picture.rows = s[1];
    picture.cols = s[2] * s[3];
    picture.group = s[3];
  } else {
    picture.rows = s[1] * s[2];
    picture.cols = s[3];
    picture.group = s[2];
    picture.group_rows = true;
  }
  const AxisRoles roles(record, h);
  const int64_t shown_rows = std::min(
      picture.rows, std::max<int64_t>(1, kMaxMemoryCells / std::max<int64_t>(1, picture.cols)));
  picture.cut = shown_rows < picture.rows;
  for (int64_t r = 0; r < shown_rows; ++r) {
    for (int64_t c = 0; c < picture.cols; ++c) {
      std::vector<int64_t> index;
      if (t.dim() == 3) {
        index = {b, r, c};
      } else if (token_first) {
        index = {b, r, c / s[3], c % s[3]};
      } else {
        index = {b, r / s[2], r % s[2], c};
      }
      picture.cells.push_back(roles.cell(index, t.storage_index(index)));
    }
  }

  // [SECTION] the storage strip, read through the record that allocated it
  picture.storage_cells = t.storage()->numel;
  const TensorRecord* owner = record.is_view ? trace.find(record.storage_owner) : &record;
  if (!owner || !owner->tensor.is_contiguous() || owner->tensor.offset() != 0) owner = &record;
  const AxisRoles owner_roles(*owner, h);
  const int64_t shown_storage = std::min(picture.storage_cells, kMaxMemoryCells);
  picture.cut = picture.cut || shown_storage < picture.storage_cells;
  const Shape& owner_shape = owner->tensor.shape();
  for (int64_t i = 0; i < shown_storage; ++i)
    picture.storage.push_back(owner_roles.cell(unravel(i, owner_shape), i));
  return picture;
}

ImVec2 memory_cell_min(const MemoryGridPlacement& grid, int64_t row, int64_t col) {
  const int64_t group = std::max<int64_t>(1, grid.group);
  const float x_gaps = grid.group_rows ? 0.0f : float(col / group) * grid.gap;
  const float y_gaps = grid.group_rows ? float(row / group) * grid.gap : 0.0f;
  return ImVec2(grid.min.x + float(col) * grid.cell + x_gaps,
                grid.min.y + float(row) * grid.cell + y_gaps);
}

bool memory_cell_at(const MemoryGridPlacement& grid, ImVec2 point, int64_t& row, int64_t& col) {
  for (int64_t r = 0; r < grid.rows; ++r) {
    for (int64_t c = 0; c < grid.cols; ++c) {
      const ImVec2 a = memory_cell_min(grid, r, c);
      if (point.x >= a.x && point.y >= a.y && point.x < a.x + grid.cell &&
          point.y < a.y + grid.cell) {
        row = r;
        col = c;
        return true;
      }
    }
  }
  return false;
}

}  // namespace attnlab::gui
