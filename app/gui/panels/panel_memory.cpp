// The memory layout tab: for split, transpose and concat, the tensor before and after the step,
// each as a window of its flat storage (a strip of cells coloured by head, shaded by token, with
// a minimap of the whole storage) above the block of its logical grid that holds those elements,
// with strides and offset. One window start serves both tensors: a view reads the same strip
// (transpose changes only the strides, so the block changes), contiguous() writes a new one.
// Hovering a logical cell lights its storage cell, and back. The window scrolls with the wheel
// or a drag on the strip, the slider, a click on the minimap, and ↑/↓ when the panel has focus.
#include <imgui.h>
#include <imgui_internal.h>  // SetItemUsingMouseWheel

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"

namespace attnlab::gui {

namespace {

// [SECTION] which tensors a step shows

struct Pair {
  std::string before, after;
};

// The records before and after the current step, or false when it has no memory picture: the
// step's record (q, k or v as chosen at split and transpose) and the record it was made from.
bool step_pair(const AppState& state, const PipelineStep& step, Pair& pair) {
  const Trace& trace = *state.session.trace;
  const char x = state.memory.tensor;
  const TensorRecord* after = nullptr;
  if (step.stage == Stage::Split) {
    after = trace.find(Op::Split, x);
  } else if (step.stage == Stage::Transpose && step.substep == Substep::Expand) {
    // Grouped K/V heads read g times through a stride of 0; q is not expanded, so with q
    // chosen the step shows k's expand (MLA's: the rotary key's).
    const char kv = x == 'q' ? 'k' : x;
    after = trace.find(Op::ExpandHeads, kv);
    if (!after) after = trace.find(Op::ExpandHeads, 'r');
    if (!after) after = trace.find(Op::Transpose, kv);
  } else if (step.stage == Stage::Transpose) {
    after = trace.find(Op::Transpose, x);
  } else if (step.stage == Stage::Concat) {
    const std::vector<const TensorRecord*> records = step_records(trace, step);
    if (records.empty()) return false;
    after = records.front();
  } else {
    return false;
  }
  if (!after || after->inputs.empty()) return false;
  pair.after = after->name;
  pair.before = after->inputs.front();  // the record (or parameter) it was made from
  return trace.find(pair.before) != nullptr;
}

// [SECTION] sizes

// Windows smaller than this are worth smaller cells (down to kMinMemoryCellPx).
constexpr int64_t kFewCells = 8;

// One tensor's picture: its text, its grid and the space it may take.
struct Picture {
  const TensorRecord* record = nullptr;
  std::string title, details;  // name and shape; strides, contiguity and storage
  LogicalGrid grid;
  MemoryFit fit;
  float label_width = 0;  // the block's row labels
  bool compact = false;   // one line each for title and details, cut at the column's edge
};

Picture describe(const TensorRecord& record, bool same_storage_as_before) {
  const Tensor& t = record.tensor;
  Picture picture;
  picture.record = &record;
  picture.title = record.name + " " + record.axes_text() + " = " + shape_to_string(t.shape());
  picture.details = "strides " + shape_to_string(t.strides()) + " \u00B7 offset " +
                    std::to_string(t.offset()) + " \u00B7 " +
                    (t.is_contiguous() ? "contiguous" : "not contiguous") + " \u00B7 storage \"" +
                    t.storage()->name + "\"" +
                    (same_storage_as_before                  ? ", the same: no copy"
                     : record.is_view                        ? ""
                     : record.substep == Substep::Contiguous ? ", new: a copy"
                                                             : ", new storage");
  picture.grid = logical_grid(record);
  return picture;
}

// Row labels are as tall as a cell at most, so they never overlap.
float label_font_size(float cell) {
  return std::min(ImGui::GetFontSize(), cell);
}
ImVec2 label_size(float cell, const std::string& text) {
  return ImGui::GetFont()->CalcTextSizeA(label_font_size(cell), FLT_MAX, 0, text.c_str());
}

// The space under the picture's text in a column `width` wide and `height` high.
void fit_picture(Picture& picture, float width, float height, float cell, bool compact) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const auto lines = [&](const std::string& text) {
    return compact ? ImGui::GetTextLineHeight()
                   : ImGui::CalcTextSize(text.c_str(), nullptr, false, width).y;
  };
  const float text_height = lines(picture.title) + lines(picture.details) + 2 * style.ItemSpacing.y;
  picture.compact = compact;
  const float minimap = std::max(8.0f, std::round(ImGui::GetFontSize() * 0.45f));
  picture.fit.cell = cell;
  picture.fit.gap = std::round(cell * 0.25f);
  if (picture.grid.kind != LogicalGrid::Kind::None) {
    const std::string longest = block_row_label(picture.grid, picture.grid.row_keys() - 1);
    picture.label_width = label_size(cell, longest).x + ImGui::GetFontSize() * 0.5f;
  }
  picture.fit.width = width;
  picture.fit.block_width = width - picture.label_width;
  picture.fit.height = height - text_height - minimap - 3 * style.ItemSpacing.y;
}

// One window size for both pictures: cells as large as the font and the text wrapped, else
// smaller cells (never under kMinMemoryCellPx), else the text cut to a line each, as long as that
// leaves room for a few cells; else a few cells anyway, and the columns scroll.
int64_t fit_window(Picture (&pictures)[2], float width, float height) {
  const auto fitted = [&](float cell, bool compact, float room) {
    int64_t size = std::numeric_limits<int64_t>::max();
    for (Picture& picture : pictures) {
      fit_picture(picture, width, room, cell, compact);
      size = std::min(
          size,
          memory_window_size(picture.grid, picture.record->tensor.storage()->numel, picture.fit));
    }
    return size;
  };
  const float font_cell = std::max(kMinMemoryCellPx, std::round(ImGui::GetFontSize()));
  for (const auto& [cell, compact] :
       {std::pair{font_cell, false}, std::pair{kMinMemoryCellPx, false},
        std::pair{kMinMemoryCellPx, true}}) {
    const int64_t size = fitted(cell, compact, height);
    if (size >= kFewCells) return size;
  }
  return std::min(kFewCells, fitted(kMinMemoryCellPx, true, std::numeric_limits<float>::max()));
}

// [SECTION] drawing

// Head colour, lighter for later tokens, so both head bands and token order read in the strip;
// faint for cells outside the storage window.
ImU32 cell_colour(const MemoryCell& cell, int64_t tokens) {
  const float shade = tokens > 1 ? float(cell.token) / float(tokens - 1) : 0.0f;
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(head_colour(int(cell.head)));
  const float mix = 0.55f * shade;  // towards white
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.x + (1 - c.x) * mix, c.y + (1 - c.y) * mix,
                                               c.z + (1 - c.z) * mix, cell.in_window ? 1 : 0.2f));
}

void outline_hovered(ImDrawList* list, ImVec2 a, float cell, ImU32 colour) {
  list->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + cell + 1, a.y + cell + 1), colour, 0, 0,
                3.0f);
}

bool hovers(const MemoryHover& hover, const std::string& storage, int64_t index) {
  return hover.storage_name == storage && hover.storage == index;
}

// The storage strip: the window's cells in storage order, wrapped into rows of `per_row`.
// Wheel and drag move the window. Outlines follow last frame's hover (state.memory.hover); this
// frame's goes into `next`.
void draw_strip(AppState& state, MemoryHover& next, MemoryStripPlacement& strip,
                const TensorRecord& record, int64_t tokens) {
  ImDrawList* list = ImGui::GetWindowDrawList();
  const std::string& storage = record.tensor.storage()->name;
  const std::vector<MemoryCell> cells = storage_cells(*state.session.trace, record, strip.window);
  strip.min = ImGui::GetCursorScreenPos();
  strip.cells = int64_t(cells.size());
  const int64_t rows = (strip.cells + strip.per_row - 1) / strip.per_row;
  ImGui::InvisibleButton("strip", ImVec2(float(std::min(strip.cells, strip.per_row)) * strip.cell,
                                         float(std::max<int64_t>(1, rows)) * strip.cell));
  ImGui::SetItemUsingMouseWheel();  // the wheel moves the window, not the column, over the strip
  const bool hovered = ImGui::IsItemHovered();
  const float wheel = ImGui::GetIO().MouseWheel;
  if (hovered && wheel != 0)  // a window per notch; up goes back
    state.memory.window_start += (wheel > 0 ? -1 : 1) * strip.window.size;
  if (ImGui::IsItemActive() && ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {
    const int64_t moved = int64_t(ImGui::GetMouseDragDelta(ImGuiMouseButton_Left).x / strip.cell);
    if (moved != 0) {
      state.memory.window_start -= moved;  // the cells follow the mouse
      ImGui::ResetMouseDragDelta(ImGuiMouseButton_Left);
    }
  }
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  for (int64_t i = 0; i < strip.cells; ++i) {
    const ImVec2 a(strip.min.x + float(i % strip.per_row) * strip.cell,
                   strip.min.y + float(i / strip.per_row) * strip.cell);
    const ImVec2 b(a.x + strip.cell - 1, a.y + strip.cell - 1);
    const MemoryCell& cell = cells[size_t(i)];
    list->AddRectFilled(a, b, cell_colour(cell, tokens));
    if (hovers(state.memory.hover, storage, cell.storage))
      outline_hovered(list, a, strip.cell, palette(state.ui.theme).error);
    if (hovered && mouse.x >= a.x && mouse.y >= a.y && mouse.x < b.x && mouse.y < b.y) {
      next = {storage, cell.storage};
      ImGui::SetTooltip(
          "storage index %lld (head %lld, token %lld)\nwheel or drag: move the window",
          (long long)cell.storage, (long long)cell.head, (long long)cell.token);
    }
  }
}

// The minimap under the strip: the whole storage, the window marked; a click or drag jumps.
constexpr float kMarkerPx = 4;  // the narrowest marker
void draw_minimap(AppState& state, MemoryStripPlacement& strip, const LogicalGrid& grid,
                  float width) {
  ImDrawList* list = ImGui::GetWindowDrawList();
  const Palette& colours = palette(state.ui.theme);
  const float height = std::max(8.0f, std::round(ImGui::GetFontSize() * 0.45f));
  strip.bar_min = ImGui::GetCursorScreenPos();
  strip.bar_max = ImVec2(strip.bar_min.x + width, strip.bar_min.y + height);
  ImGui::InvisibleButton("minimap", ImVec2(width, height));
  if (ImGui::IsItemActive()) {
    state.memory.window_start =
        minimap_jump(strip.window, strip.bar_min.x, width, kMarkerPx, ImGui::GetIO().MousePos.x)
            .start;
  }
  tooltip("The whole storage; the marker is the window drawn above. Click or drag to move it.");
  list->AddRectFilled(strip.bar_min, strip.bar_max, ImGui::GetColorU32(ImGuiCol_FrameBg));
  // Ticks where batch items start, while they are far enough apart to tell.
  const int64_t per_item = strip.window.total / std::max<int64_t>(1, grid.batch);
  if (grid.batch > 1 && width / float(grid.batch) >= 4) {
    for (int64_t b = 1; b < grid.batch; ++b) {
      const float x = strip.bar_min.x + width * float(b * per_item) / float(strip.window.total);
      list->AddLine(ImVec2(x, strip.bar_min.y), ImVec2(x, strip.bar_max.y), colours.grid);
    }
  }
  strip.marker = minimap_marker(strip.window, strip.bar_min.x, width, kMarkerPx);
  list->AddRectFilled(ImVec2(strip.marker.x0, strip.bar_min.y - 2),
                      ImVec2(strip.marker.x1, strip.bar_max.y + 2), colours.accent);
}

// The block of the logical grid holding the window's elements, with a label on every row.
void draw_block(AppState& state, MemoryHover& next, const Picture& picture,
                const StorageWindow& window, int64_t tokens) {
  ImDrawList* list = ImGui::GetWindowDrawList();
  const Palette& colours = palette(state.ui.theme);
  const TensorRecord& record = *picture.record;
  const LogicalBlock block = logical_block(record, picture.grid, window);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 min(origin.x + picture.label_width, origin.y);
  const MemoryGridPlacement grid =
      place_block(record.name, picture.grid, block, min, picture.fit.cell, picture.fit.gap);
  const std::string& storage = record.tensor.storage()->name;
  const float label_font = label_font_size(picture.fit.cell);
  const float text_dy = 0.5f * (picture.fit.cell - label_font);
  for (size_t i = 0; i < grid.rows.size(); ++i) {
    const float y = min.y + grid.row_y[i];
    list->AddText(ImGui::GetFont(), label_font, ImVec2(origin.x, y + text_dy), colours.text_dim,
                  block_row_label(picture.grid, grid.rows[i]).c_str());
    for (size_t j = 0; j < grid.cols.size(); ++j) {
      const MemoryCell& cell = block.cells[i * grid.cols.size() + j];
      const ImVec2 a = memory_cell_min(grid, i, j);
      list->AddRectFilled(a, ImVec2(a.x + grid.cell - 1, a.y + grid.cell - 1),
                          cell_colour(cell, tokens));
      if (hovers(state.memory.hover, storage, cell.storage))
        outline_hovered(list, a, grid.cell, colours.error);
    }
  }
  size_t i = 0, j = 0;
  if (ImGui::IsWindowHovered() && memory_cell_at(grid, ImGui::GetIO().MousePos, i, j)) {
    const MemoryCell& cell = block.cells[i * grid.cols.size() + j];
    next = {storage, cell.storage};
    const std::vector<int64_t> index = grid_index(picture.grid, grid.rows[i], grid.cols[j]);
    ImGui::SetTooltip("%s%s\nstorage index %lld (head %lld)%s", record.name.c_str(),
                      shape_to_string(index).c_str(), (long long)cell.storage, (long long)cell.head,
                      cell.in_window ? "" : ", outside the window");
  }
  const ImVec2 size = grid.size();
  ImGui::Dummy(ImVec2(picture.label_width + size.x, size.y));
  state.frame.memory_grids.push_back(grid);
}

// One tensor: name and layout, its storage window and minimap, its logical block.
void draw_tensor(AppState& state, MemoryHover& next, const Picture& picture, int64_t window_size) {
  const Trace& trace = *state.session.trace;
  const TensorRecord& record = *picture.record;
  const int64_t tokens = int64_t(trace.tokens.size());
  const Palette& colours = palette(state.ui.theme);
  // Wrapped; compact: one line each, cut with an ellipsis at the column's edge.
  const auto line = [&](const std::string& text, ImU32 ink) {
    if (!picture.compact) {
      ImGui::PushStyleColor(ImGuiCol_Text, ink);
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextUnformatted(text.c_str());
      ImGui::PopTextWrapPos();
      ImGui::PopStyleColor();
      return;
    }
    const float width = ImGui::GetContentRegionAvail().x;
    draw_cut_text(ImGui::GetCursorScreenPos(), width, ImGui::GetFontSize(), ink, text.c_str());
    ImGui::Dummy(ImVec2(width, ImGui::GetTextLineHeight()));
  };
  line(picture.title, colours.accent);
  const bool title_hovered = ImGui::IsItemHovered();
  line(picture.details, colours.text);
  if (picture.compact && (title_hovered || ImGui::IsItemHovered()))
    ImGui::SetTooltip("%s\n%s", picture.title.c_str(), picture.details.c_str());
  if (picture.grid.kind == LogicalGrid::Kind::None) {
    ImGui::TextWrapped("No memory picture for this shape.");
    return;
  }
  MemoryStripPlacement strip;
  strip.record = record.name;
  strip.window =
      clamp_window(state.memory.window_start, window_size, record.tensor.storage()->numel);
  strip.cell = picture.fit.cell;
  strip.per_row = strip_per_row(picture.fit);
  ImGui::PushID(record.name.c_str());
  draw_strip(state, next, strip, record, tokens);
  draw_minimap(state, strip, picture.grid, picture.fit.width);
  ImGui::PopID();
  draw_block(state, next, picture, strip.window, tokens);
  state.frame.memory_strips.push_back(strip);
}

// The shared window's slider, and ↑/↓ while the panel has focus.
void draw_window_controls(AppState& state, int64_t window_size, int64_t total) {
  const StorageWindow window = clamp_window(state.memory.window_start, window_size, total);
  if (ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows)) {
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_DownArrow)))
      state.memory.window_start = scroll_window(window, window.size).start;
    if (ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_UpArrow)))
      state.memory.window_start = scroll_window(window, -window.size).start;
  }
  if (window.size >= total) {
    ImGui::TextUnformatted("the whole storage is drawn");
    return;
  }
  int64_t start = window.start;
  const int64_t first = 0, last = total - window.size;
  ImGui::SetNextItemWidth(std::max(ImGui::GetFontSize() * 8, ImGui::GetContentRegionAvail().x));
  const std::string format = "window of " + std::to_string(window.size) + " floats from %lld";
  if (ImGui::SliderScalar("##memory_window", ImGuiDataType_S64, &start, &first, &last,
                          format.c_str())) {
    state.memory.window_start = start;
  }
  tooltip(
      "The first storage element drawn. Also: the wheel or a drag on a strip, a click on a "
      "minimap, \u2191/\u2193 with this panel focused.");
}

}  // namespace

void draw_memory_tab(AppState& state) {
  const PipelineStep* step = current_step(state);
  Pair pair;
  if (!step || !step_pair(state, *step, pair)) {
    ImGui::TextWrapped(
        "The memory picture belongs to the split, transpose and concat steps (\u2190/\u2192 to get "
        "there): split and transpose are views of the same storage, contiguous() copies it.");
    if (ImGui::Button("go to split")) go_to_stage(state, Stage::Split);
    tooltip("Jump to the split stage.");
    ImGui::SameLine();
    if (ImGui::Button("go to transpose")) go_to_stage(state, Stage::Transpose);
    tooltip("Jump to the transpose stage.");
    return;
  }
  const TensorRecord& before = *state.session.trace->find(pair.before);
  const TensorRecord& after = *state.session.trace->find(pair.after);
  const bool shared = after.tensor.shares_storage_with(before.tensor);
  // Two columns under the controls line.
  const float font = ImGui::GetFontSize();
  const float column_w = std::floor(ImGui::GetContentRegionAvail().x * 0.5f - font);
  const float column_h = ImGui::GetContentRegionAvail().y - ImGui::GetFrameHeightWithSpacing();
  Picture pictures[2] = {describe(before, false), describe(after, shared)};
  const int64_t window_size = fit_window(pictures, column_w - font, column_h);
  const int64_t total = after.tensor.storage()->numel;
  // First look: a window across the first head boundary, where the split and the transposed
  // views part ways (the rows of one token's storage run into the next head).
  if (state.memory.window_start < 0) {
    const int64_t head_width = state.memory.tensor == 'v'
                                   ? state.session.trace->config.head_dim_v()
                                   : state.session.trace->config.head_dim_k();
    state.memory.window_start = std::max<int64_t>(0, head_width - window_size / 2);
  }

  if (step->stage == Stage::Split || step->stage == Stage::Transpose) {
    for (const char which : {'q', 'k', 'v'}) {
      const std::string label(1, which);
      if (ImGui::RadioButton(label.c_str(), state.memory.tensor == which))
        state.memory.tensor = which;
      tooltip("Which projection's layout to show.");
      ImGui::SameLine();
    }
  }
  draw_window_controls(state, window_size, total);

  MemoryHover next;
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoBackground;
  ImGui::BeginChild("memory_before", ImVec2(column_w, 0), false, flags);
  draw_tensor(state, next, pictures[0], window_size);
  ImGui::EndChild();
  ImGui::SameLine(0, font * 2);
  ImGui::BeginChild("memory_after", ImVec2(0, 0), false, flags);
  draw_tensor(state, next, pictures[1], window_size);
  ImGui::EndChild();
  state.memory.window_start = clamp_window(state.memory.window_start, window_size, total).start;
  state.memory.hover = next;
}

}  // namespace attnlab::gui
