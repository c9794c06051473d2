#include "app/gui/positions/value_grid.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "app/gui/look/wrap.hpp"

namespace attnlab::gui {

void draw_value_grid(ImDrawList* list, ImVec2 at, float width, float height, const ValueGrid& grid,
                     ImU32 border) {
  if (grid.rows <= 0 || grid.cols <= 0 || width < 1 || height < 1) return;
  // Sampled: at most one drawn cell per pixel.
  const int64_t row_step = std::max<int64_t>(1, int64_t(std::ceil(double(grid.rows) / height)));
  const int64_t col_step = std::max<int64_t>(1, int64_t(std::ceil(double(grid.cols) / width)));
  const float cell_h = height / float(grid.rows), cell_w = width / float(grid.cols);
  const double span = grid.high - grid.low;
  for (int64_t r = 0; r < grid.rows; r += row_step)
    for (int64_t c = 0; c < grid.cols; c += col_step) {
      const double v = grid.value(r, c);
      float t = 0.5f;
      if (std::isfinite(v))
        t = grid.kind == ColormapKind::Diverging
                ? float(0.5 + 0.5 * v / std::max(std::abs(grid.high), 1e-12))
                : float((v - grid.low) / (span > 0 ? span : 1.0));
      const ImVec2 a(at.x + float(c) * cell_w, at.y + float(r) * cell_h);
      const ImVec2 b(at.x + float(std::min(c + col_step, grid.cols)) * cell_w,
                     at.y + float(std::min(r + row_step, grid.rows)) * cell_h);
      list->AddRectFilled(a, b, std::isfinite(v) ? colour_at_packed(grid.kind, t) : border);
    }
  list->AddRect(at, ImVec2(at.x + width, at.y + height), border);
}

void draw_row_labels(ImDrawList* list, ImVec2 at, float width, float cell, int64_t rows,
                     const std::function<std::string(int64_t)>& label, ImU32 colour,
                     bool align_right) {
  const float text_h = ImGui::GetTextLineHeight();
  const int64_t step = std::max<int64_t>(1, int64_t(std::ceil(text_h / std::max(cell, 1e-3f))));
  const float size = ImGui::GetFontSize();
  for (int64_t r = 0; r < rows; r += step) {
    const std::string text = label(r);
    const float text_w = std::min(ImGui::CalcTextSize(text.c_str()).x, width);
    const float x = align_right ? at.x + width - text_w : at.x;
    const float y = at.y + (float(r) + 0.5f) * cell - text_h * 0.5f;
    draw_cut_text(ImVec2(x, y), width, size, colour, text.c_str());
  }
}

}  // namespace attnlab::gui
