// The memory layout tab: for split, transpose and concat, the tensor before and after the step,
// each as its flat storage (a strip of cells coloured by head, shaded by token) beside its logical
// grid, with strides and offset. A view reads the same strip (transpose changes only the strides);
// contiguous() writes a new one. Hovering a logical cell lights its storage cell, and back.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/gui/panels.hpp"
#include "app/gui/theme.hpp"

namespace attnlab::gui {

namespace {

// [SECTION] which tensors a step shows

struct Pair {
  std::string before, after;
};

// The records before and after the current step, or false when it has no memory picture.
bool step_pair(const AppState& state, const PipelineStep& step, Pair& pair) {
  const std::string x(1, state.memory_tensor);
  if (step.stage == Stage::Split) {
    pair = {x, x + "_split"};
  } else if (step.stage == Stage::Transpose) {
    pair = {x + "_split", x + "_heads"};
  } else if (step.stage == Stage::Concat && step.substep == "transpose") {
    pair = {"context", "context_t"};
  } else if (step.stage == Stage::Concat && step.substep == "contiguous") {
    pair = {"context_t", "context_contiguous"};
  } else if (step.stage == Stage::Concat && step.substep == "view") {
    pair = {state.trace->find("context_contiguous") ? "context_contiguous" : "context", "concat"};
  } else {
    return false;
  }
  return state.trace->find(pair.before) && state.trace->find(pair.after);
}

// [SECTION] drawing

// Head colour, lighter for later tokens, so both head bands and token order read in the strip.
ImU32 cell_colour(const MemoryCell& cell, int64_t tokens) {
  const float shade = tokens > 1 ? float(cell.token) / float(tokens - 1) : 0.0f;
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(head_colour(int(cell.head)));
  const float mix = 0.55f * shade;  // towards white
  return ImGui::ColorConvertFloat4ToU32(
      ImVec4(c.x + (1 - c.x) * mix, c.y + (1 - c.y) * mix, c.z + (1 - c.z) * mix, 1));
}

struct Metrics {
  float cell = 0, gap = 0;
};

void outline_hovered(ImDrawList* list, ImVec2 a, float cell, ImU32 colour) {
  list->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + cell + 1, a.y + cell + 1), colour, 0, 0,
                3.0f);
}

// The storage strip: cells in storage order, wrapped into rows of `per_row`.
// Outlines follow last frame's hover (state.memory_hover); this frame's goes into `next`.
void draw_strip(AppState& state, MemoryHover& next, const TensorRecord& record,
                const MemoryPicture& picture, const Metrics& m, int64_t per_row, int64_t tokens) {
  ImDrawList* list = ImGui::GetWindowDrawList();
  const Palette& colours = palette(state.ui.theme);
  const ImVec2 start = ImGui::GetCursorScreenPos();
  const std::string& storage = record.tensor.storage()->name;
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  const int64_t count = int64_t(picture.storage.size());
  for (int64_t i = 0; i < count; ++i) {
    const ImVec2 a(start.x + float(i % per_row) * m.cell, start.y + float(i / per_row) * m.cell);
    const ImVec2 b(a.x + m.cell - 1, a.y + m.cell - 1);
    list->AddRectFilled(a, b, cell_colour(picture.storage[size_t(i)], tokens));
    if (ImGui::IsWindowHovered() && mouse.x >= a.x && mouse.y >= a.y && mouse.x < b.x &&
        mouse.y < b.y)
      next = {storage, i};
  }
  for (int64_t i = 0; i < count; ++i) {
    if (state.memory_hover.storage_name != storage || state.memory_hover.storage != i) continue;
    outline_hovered(
        list, ImVec2(start.x + float(i % per_row) * m.cell, start.y + float(i / per_row) * m.cell),
        m.cell, colours.error);
  }
  const int64_t rows = (count + per_row - 1) / per_row;
  ImGui::Dummy(ImVec2(float(std::min(count, per_row)) * m.cell, float(rows) * m.cell));
}

// The logical grid of one batch item; records where it was drawn.
void draw_grid(AppState& state, MemoryHover& next, const TensorRecord& record,
               const MemoryPicture& picture, const Metrics& m, int64_t tokens) {
  ImDrawList* list = ImGui::GetWindowDrawList();
  const Palette& colours = palette(state.ui.theme);
  MemoryGridPlacement grid{record.name,
                           ImGui::GetCursorScreenPos(),
                           m.cell,
                           m.gap,
                           int64_t(picture.cells.size()) / std::max<int64_t>(1, picture.cols),
                           picture.cols,
                           picture.group,
                           picture.group_rows};
  const std::string& storage = record.tensor.storage()->name;
  for (int64_t r = 0; r < grid.rows; ++r) {
    for (int64_t c = 0; c < grid.cols; ++c) {
      const MemoryCell& cell = picture.cells[size_t(r * grid.cols + c)];
      const ImVec2 a = memory_cell_min(grid, r, c);
      list->AddRectFilled(a, ImVec2(a.x + m.cell - 1, a.y + m.cell - 1), cell_colour(cell, tokens));
      if (state.memory_hover.storage_name == storage && state.memory_hover.storage == cell.storage)
        outline_hovered(list, a, m.cell, colours.error);
    }
  }
  int64_t row = 0, col = 0;
  if (ImGui::IsWindowHovered() && memory_cell_at(grid, ImGui::GetIO().MousePos, row, col)) {
    const MemoryCell& cell = picture.cells[size_t(row * grid.cols + col)];
    next = {storage, cell.storage};
    ImGui::SetTooltip("logical cell: row %lld, column %lld\nstorage index %lld (head %lld)",
                      (long long)row, (long long)col, (long long)cell.storage,
                      (long long)cell.head);
  }
  const ImVec2 end = memory_cell_min(grid, grid.rows - 1, grid.cols - 1);
  ImGui::Dummy(ImVec2(end.x + m.cell - grid.min.x, end.y + m.cell - grid.min.y));
  state.memory_grids.push_back(grid);
}

// One tensor: name and layout, its storage strip, its logical grid.
void draw_tensor(AppState& state, MemoryHover& next, const TensorRecord& record,
                 bool same_storage_as_before, float width) {
  const Trace& trace = *state.trace;
  const Palette& colours = palette(state.ui.theme);
  const Tensor& t = record.tensor;
  const MemoryPicture picture = memory_picture(trace, record, state.batch_shown);
  const int64_t tokens = int64_t(trace.tokens.size());
  ImGui::PushStyleColor(ImGuiCol_Text, colours.accent);
  ImGui::Text("%s %s = %s", record.name.c_str(), record.axes.c_str(),
              shape_to_string(t.shape()).c_str());
  ImGui::PopStyleColor();
  ImGui::Text("strides %s \u00B7 offset %lld \u00B7 %s", shape_to_string(t.strides()).c_str(),
              (long long)t.offset(), t.is_contiguous() ? "contiguous" : "not contiguous");
  if (picture.cells.empty()) {
    ImGui::TextWrapped("No memory picture for this shape.");
    return;
  }
  // Cells as large as fit the width (grid columns with gaps, the strip) and the height left under
  // the three text lines (strip rows, grid rows with gaps).
  const float font = ImGui::GetFontSize();
  const int64_t group = std::max<int64_t>(1, picture.group);
  const int64_t grid_rows = int64_t(picture.cells.size()) / std::max<int64_t>(1, picture.cols);
  const float column_gaps = picture.group_rows ? 0.0f : float(picture.cols / group);
  const float row_gaps = picture.group_rows ? float(grid_rows / group) : 0.0f;
  const float height = ImGui::GetContentRegionAvail().y -
                       3 * ImGui::GetTextLineHeightWithSpacing() -
                       ImGui::GetStyle().ItemSpacing.y * 2;
  float cell =
      std::floor(std::min(font * 1.3f, width / (float(picture.cols) + 0.4f * column_gaps)));
  int64_t per_row = 1;
  for (; cell > 4; cell -= 1) {
    per_row = std::max<int64_t>(1, int64_t(width / cell));
    const int64_t strip_rows = (int64_t(picture.storage.size()) + per_row - 1) / per_row;
    if (float(strip_rows + grid_rows) * cell + row_gaps * cell * 0.4f <= height) break;
  }
  const Metrics m{cell, std::round(cell * 0.4f)};
  const std::string storage_line =
      std::string("storage \"") + t.storage()->name +
      "\": " + std::to_string(picture.storage_cells) + " floats" +
      (same_storage_as_before ? " \u2014 the same storage as before: no copy"
                              : (record.is_view ? "" : " \u2014 new storage (a copy)"));
  ImGui::TextUnformatted(storage_line.c_str());
  draw_strip(state, next, record, picture, m, per_row, tokens);
  ImGui::Text(
      "logical %s of sequence b = %lld:", picture.group_rows ? "h blocks of T rows" : "T rows",
      (long long)std::clamp<int64_t>(state.batch_shown, 0, t.size(0) - 1));
  draw_grid(state, next, record, picture, m, tokens);
  if (picture.cut)
    ImGui::TextWrapped("Only the first %lld cells are drawn: lower T or d_model for all of them.",
                       (long long)kMaxMemoryCells);
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
  if (step->stage == Stage::Split || step->stage == Stage::Transpose) {
    for (const char which : {'q', 'k', 'v'}) {
      const std::string label(1, which);
      if (ImGui::RadioButton(label.c_str(), state.memory_tensor == which))
        state.memory_tensor = which;
      tooltip("Which projection's layout to show.");
      ImGui::SameLine();
    }
    ImGui::NewLine();
  }
  const TensorRecord& before = *state.trace->find(pair.before);
  const TensorRecord& after = *state.trace->find(pair.after);
  const bool shared = after.tensor.shares_storage_with(before.tensor);
  MemoryHover next;
  const float column_w = std::floor(ImGui::GetContentRegionAvail().x * 0.5f - ImGui::GetFontSize());
  ImGui::BeginChild("memory_before", ImVec2(column_w, 0), false, ImGuiWindowFlags_NoBackground);
  draw_tensor(state, next, before, false, column_w - ImGui::GetFontSize());
  ImGui::EndChild();
  ImGui::SameLine(0, ImGui::GetFontSize() * 2);
  ImGui::BeginChild("memory_after", ImVec2(0, 0), false, ImGuiWindowFlags_NoBackground);
  draw_tensor(state, next, after, shared, column_w - ImGui::GetFontSize());
  ImGui::EndChild();
  state.memory_hover = next;
}

}  // namespace attnlab::gui
