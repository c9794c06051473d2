#include "app/gui/panels/measured_table.hpp"

#include <imgui_internal.h>  // the current window's font scale

#include <algorithm>
#include <cmath>

#include "app/gui/panels/fitted_type.hpp"

namespace attnlab::gui {

MeasuredColumns measure_columns(const std::vector<std::string>& headers,
                                const std::vector<std::vector<std::string>>& cells,
                                const std::vector<float>& extra) {
  size_t count = headers.size();
  for (const auto& row : cells) count = std::max(count, row.size());
  MeasuredColumns columns{headers, std::vector<float>(count, 0)};
  const auto widen = [&](size_t c, const std::string& text) {
    columns.widths[c] = std::max(columns.widths[c], ImGui::CalcTextSize(text.c_str()).x);
  };
  for (size_t c = 0; c < headers.size(); ++c) widen(c, headers[c]);
  for (const auto& row : cells)
    for (size_t c = 0; c < row.size(); ++c) widen(c, row[c]);
  for (size_t c = 0; c < count; ++c) {
    if (c < extra.size()) columns.widths[c] += extra[c];
    // ImGui floors a column's width: a whole pixel up keeps the widest text whole.
    columns.widths[c] = std::ceil(columns.widths[c]);
  }
  return columns;
}

float measured_table_width(const MeasuredColumns& columns, ImGuiTableFlags flags) {
  // As ImGui's BeginTable spaces columns (imgui_tables.cpp, "Padding and Spacing"): each column
  // its width, its cell padding each side and the spacing before and after it (the last one's
  // "after" included: a column ends there), the table's outer padding each side.
  const float pad = ImGui::GetStyle().CellPadding.x, border = 1;  // TABLE_BORDER_SIZE
  const bool inner_v = (flags & ImGuiTableFlags_BordersInnerV) != 0;
  const bool outer_v = (flags & ImGuiTableFlags_BordersOuterV) != 0;
  const bool outer_pad = (flags & ImGuiTableFlags_NoPadOuterX) ? false
                         : (flags & ImGuiTableFlags_PadOuterX) ? true
                                                               : outer_v;
  const float before = inner_v ? border : pad, after = inner_v ? 0 : pad;
  const float cell_pad = inner_v ? pad : 0;
  const float outer = (outer_v ? border : 0) + (outer_pad ? pad : 0) - cell_pad;
  const float n = float(columns.widths.size());
  float width = 2 * outer + before * std::max(0.0f, n - 1) + after * n + 2 * cell_pad * n;
  for (const float w : columns.widths) width += w;
  return std::ceil(width);
}

float measured_table_height(const MeasuredColumns& columns, int rows, bool scrolls) {
  // As ImGui lays rows out: each its text and the cell padding above and below, on whole pixels
  // (a row's top is floored); the header row as tall as its tallest header.
  const ImGuiStyle& style = ImGui::GetStyle();
  const float line = ImGui::GetTextLineHeight();
  const float row = std::floor(line + 2 * style.CellPadding.y);
  float header = 0;
  if (!columns.headers.empty()) {
    float tallest = line;
    for (const std::string& text : columns.headers)
      tallest = std::max(tallest, ImGui::CalcTextSize(text.c_str()).y);
    header = std::floor(tallest + 2 * style.CellPadding.y);
  }
  // The outer borders, and a pixel for the rounding of a row's height.
  return header + row * float(rows) + (scrolls ? style.ScrollbarSize : 0) + 3;
}

bool begin_measured_table(const char* id, const MeasuredColumns& columns, int rows,
                          ImGuiTableFlags flags) {
  const float width = measured_table_width(columns, flags);
  // The right outer border (a pixel) and the whole pixels rounded up may pass the room: a table
  // its region's fitted type has grown to fill exactly does not scroll for them.
  const bool scrolls = width > ImGui::GetContentRegionAvail().x + 2;
  // Not scrolling: as tall as its rows (ImGui's own height; a given one draws the columns' borders
  // on past the last row). Scrolling sideways, the inner window needs its height given.
  const ImVec2 size(scrolls ? 0 : width, scrolls ? measured_table_height(columns, rows, true) : 0);
  flags |= ImGuiTableFlags_SizingFixedFit | (scrolls ? ImGuiTableFlags_ScrollX : 0);
  if (!ImGui::BeginTable(id, int(columns.widths.size()), flags, size)) return false;
  for (size_t c = 0; c < columns.widths.size(); ++c)
    ImGui::TableSetupColumn(c < columns.headers.size() ? columns.headers[c].c_str() : "",
                            ImGuiTableColumnFlags_WidthFixed, columns.widths[c]);
  if (!columns.headers.empty()) ImGui::TableHeadersRow();
  return true;
}

float at_least_type(const std::function<float()>& measure) {
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  const float was = window->FontWindowScale;
  ImGui::SetWindowFontScale(was * least_fitted_font_scale(ImGui::GetFontSize()));
  const float value = measure();
  ImGui::SetWindowFontScale(was);
  return value;
}

}  // namespace attnlab::gui
