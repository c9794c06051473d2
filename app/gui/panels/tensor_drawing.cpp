#include "app/gui/panels/tensor_drawing.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "app/gui/look/colormap.hpp"

namespace attnlab::gui {

namespace {

// Blocks with more cells than this along an axis are drawn as tiles, each showing the value at
// its centre: a 512-wide tensor needs no 512 rectangles per row to show its texture.
constexpr int64_t kMaxTilesPerAxis = 48;

ImU32 with_alpha(ImU32 colour, float alpha) {
  const ImU32 a = ImU32(std::clamp(alpha, 0.0f, 1.0f) * float((colour >> IM_COL32_A_SHIFT) & 0xFF));
  return (colour & ~IM_COL32_A_MASK) | (a << IM_COL32_A_SHIFT);
}

// Reads cell (i, j) of part k of batch item b straight through the strides.
struct CellReader {
  const Scalar* data = nullptr;
  int64_t s_b = 0, s_part = 0, s_row = 0, s_col = 0;
  int64_t group = 1, s_group = 0;  // (B, n_kv, g, T, x): part k is K/V head k / g, copy k % g

  CellReader(const Tensor& t, const BlockGeometry& g) {
    if (!t.has_values()) return;
    data = t.data();
    const Shape& s = t.strides();
    s_b = s[0];
    if (t.dim() == 3) {  // (B, T, parts * part_cols)
      s_row = s[1];
      s_col = s[2];
      s_part = s[2] * g.part_cols;
    } else if (g.axis == PartAxis::Columns) {  // (B, T, h, x)
      s_row = s[1];
      s_part = s[2];
      s_col = s[3];
    } else if (t.dim() == 5) {  // (B, n_kv, g, T, x)
      group = g.group;
      s_part = s[1];
      s_group = s[2];
      s_row = s[3];
      s_col = s[4];
    } else {  // (B, h, T, x)
      s_part = s[1];
      s_row = s[2];
      s_col = s[3];
    }
  }
  float operator()(int64_t b, int64_t k, int64_t i, int64_t j) const {
    return data[b * s_b + (k / group) * s_part + (k % group) * s_group + i * s_row + j * s_col];
  }
};

ImU32 value_colour(float value, const DrawContext& context) {
  if (context.sequential) return colour_at_packed(ColormapKind::Sequential, value);
  return colour_at_packed(ColormapKind::Diverging, 0.5f + 0.5f * value / context.value_scale);
}

void format_value(float value, char* text, size_t size) {
  if (std::isinf(value)) {
    std::snprintf(text, size, value < 0 ? "-\u221E" : "\u221E");
  } else {
    std::snprintf(text, size, "%.2f", double(value));
    if (std::strcmp(text, "-0.00") == 0) std::snprintf(text, size, "0.00");
  }
}

void hatch(ImDrawList* list, ImVec2 a, ImVec2 b, const DrawContext& context, float alpha) {
  list->AddRectFilled(a, b, with_alpha(context.colours->masked_a, alpha));
  const float step = std::max(4.0f, (b.x - a.x) * 0.34f);
  list->PushClipRect(a, b, true);
  for (float x = a.x - (b.y - a.y); x < b.x; x += step)
    list->AddLine(ImVec2(x, b.y), ImVec2(x + (b.y - a.y), a.y),
                  with_alpha(context.colours->masked_b, alpha), 1.0f);
  list->PopClipRect();
}

// One part (a band or a slice) at `origin`: its cells, or tiles when there are too many.
void draw_part(ImDrawList* list, ImVec2 origin, const CellReader& read, int64_t batch, int64_t k,
               const BlockGeometry& g, CellSize cell, const BlockStyle& style,
               const DrawContext& context, bool front, ImVec2 hidden_by_front) {
  const int64_t rows = std::max<int64_t>(0, std::lround(style.reveal_rows * g.rows));
  const int64_t cols = std::max<int64_t>(0, std::lround(style.reveal_cols * g.part_cols));
  const ImVec2 full(origin.x + g.part_cols * cell.w, origin.y + g.rows * cell.h);
  const bool cells = rows > 0 && cols > 0 && read.data && front;
  // The plain fill shows where cells are not (yet) drawn; under a full grid it would be wasted
  // pixels, which a software rasteriser pays for.
  const ImU32 fill = with_alpha(context.colours->block_fill, style.alpha);
  if (hidden_by_front.x > 0 || hidden_by_front.y > 0) {
    // A slice behind another shows only its right and bottom edges: fill just those strips.
    list->AddRectFilled(ImVec2(full.x - hidden_by_front.x, origin.y), full, fill);
    list->AddRectFilled(ImVec2(origin.x, full.y - hidden_by_front.y), full, fill);
  } else if (!cells || rows < g.rows || cols < g.part_cols) {
    list->AddRectFilled(origin, full, fill);
  }
  if (cells) {
    const int64_t tile_rows = std::min(rows, kMaxTilesPerAxis);
    const int64_t tile_cols = std::min(cols, kMaxTilesPerAxis);
    const float tile_h = rows * cell.h / tile_rows, tile_w = cols * cell.w / tile_cols;
    const bool numbers = style.values && tile_rows == rows && tile_cols == cols &&
                         cell.w >= context.value_min_cell_width &&
                         cell.h >= context.value_font_size * 1.05f;
    const auto row_of = [&](int64_t ti) { return (ti * rows + rows / 2 / tile_rows) / tile_rows; };
    // Weights on the heads' maps' colour scale: the rows drawn, every column, as the maps stretch
    // them (per row, per map, log or fixed). (tile_rows, cols)
    std::vector<float> positions;
    if (context.sequential) {
      positions.resize(size_t(tile_rows * cols));
      for (int64_t ti = 0; ti < tile_rows; ++ti)
        for (int64_t j = 0; j < cols; ++j)
          positions[size_t(ti * cols + j)] = read(batch, k, row_of(ti), j);
      weights_to_colour_positions(context.weights_scale, positions, 1, tile_rows, cols);
    }
    for (int64_t ti = 0; ti < tile_rows; ++ti) {
      const int64_t i = row_of(ti);
      for (int64_t tj = 0; tj < tile_cols; ++tj) {
        const int64_t j = (tj * cols + cols / 2 / tile_cols) / tile_cols;
        const ImVec2 a(origin.x + tj * tile_w, origin.y + ti * tile_h);
        const ImVec2 b(a.x + tile_w, a.y + tile_h);
        const float value = read(batch, k, i, j);
        const float shade = context.sequential ? positions[size_t(ti * cols + j)] : value;
        const CellColours colours =
            faded_cell(value_colour(shade, context), style.alpha, context.colours->background);
        if (std::isinf(value) && value < 0) {
          hatch(list, a, b, context, style.alpha);
        } else {
          list->AddRectFilled(a, b, colours.fill);
        }
        if (!numbers) continue;
        char text[16];
        format_value(value, text, sizeof text);
        const ImVec2 size =
            ImGui::GetFont()->CalcTextSizeA(context.value_font_size, FLT_MAX, 0, text);
        // -inf sits on the hatch: the theme's text colour reads on it.
        const ImU32 ink = std::isinf(value) ? context.colours->text : colours.ink;
        list->AddText(ImGui::GetFont(), context.value_font_size,
                      ImVec2(a.x + (tile_w - size.x) * 0.5f, a.y + (tile_h - size.y) * 0.5f), ink,
                      text);
      }
    }
    if (numbers || std::min(cell.w, cell.h) >= 6) {  // grid lines only where cells are visible
      const ImU32 grid = with_alpha(context.colours->grid, style.alpha * 0.8f);
      for (int64_t i = 1; i < rows; ++i)
        list->AddLine(ImVec2(origin.x, origin.y + i * cell.h),
                      ImVec2(origin.x + cols * cell.w, origin.y + i * cell.h), grid);
      for (int64_t j = 1; j < cols; ++j)
        list->AddLine(ImVec2(origin.x + j * cell.w, origin.y),
                      ImVec2(origin.x + j * cell.w, origin.y + rows * cell.h), grid);
    }
  }
  const ImU32 border = g.parts > 1 && style.band_tint > 0
                           ? head_colour(int(k), style.alpha * style.band_tint)
                           : with_alpha(context.colours->block_border, style.alpha);
  const float thickness = g.parts > 1 && style.band_tint > 0 ? 1.0f + 2.0f * style.band_tint : 1.0f;
  list->AddRect(origin, full, border, 0, 0, thickness);
}

}  // namespace

CellColours faded_cell(ImU32 colour, float alpha, ImU32 background) {
  const ImVec4 over = ImGui::ColorConvertU32ToFloat4(colour);
  const ImVec4 under = ImGui::ColorConvertU32ToFloat4(background);
  const float a = std::clamp(alpha, 0.0f, 1.0f) * over.w;
  const ImU32 fill = ImGui::ColorConvertFloat4ToU32(ImVec4(under.x + (over.x - under.x) * a,
                                                           under.y + (over.y - under.y) * a,
                                                           under.z + (over.z - under.z) * a, 1));
  return {fill, text_colour_on(fill)};
}

BlockGeometry geometry_of(const TensorRecord& record, int64_t n_heads, bool bands) {
  const Shape& shape = record.tensor.shape();
  BlockGeometry g;
  if (shape.size() == 5) {  // (B, n_kv, g, T, d): a deck of n_kv * g slices
    g.axis = PartAxis::Leading;
    g.group = shape[2];
    g.parts = shape[1] * shape[2];
    g.rows = shape[3];
    g.part_cols = shape[4];
  } else if (shape.size() == 4) {
    const bool leading = find_axis(record.axes, AxisKind::Head) == 1;  // (B, h, T, d)
    g.axis = leading ? PartAxis::Leading : PartAxis::Columns;
    g.parts = leading ? shape[1] : shape[2];
    g.rows = leading ? shape[2] : shape[1];
    g.part_cols = shape[3];
  } else if (shape.size() == 3) {
    g.rows = shape[1];
    const bool split = bands && n_heads > 1 && shape[2] % n_heads == 0;
    g.parts = split ? n_heads : 1;
    g.part_cols = shape[2] / g.parts;
  } else if (shape.size() == 2) {  // parameters: (d_in, h*d_k)
    g.rows = shape[0];
    g.part_cols = shape[1];
  }
  return g;
}

ImVec2 deck_step(const BlockGeometry& g, CellSize cell) {
  const int64_t slices = std::min(g.parts, kMaxDeckSlices);
  if (slices <= 1) return ImVec2(0, 0);
  // Enough of each slice peeks out to count them, bounded so a deep deck stays compact.
  const float limit = 0.4f * std::max(g.part_cols * cell.w, g.rows * cell.h) / float(slices - 1);
  return ImVec2(std::clamp(limit, 2.0f, std::max(0.5f * cell.w, 2.0f)),
                std::clamp(limit, 2.0f, std::max(0.6f * cell.h, 2.0f)));
}

namespace {

// Parts drawn: all while side by side; a deck shows at most kMaxDeckSlices (GPT-3 has 96 heads).
int64_t drawn_parts(const BlockGeometry& g, const BlockStyle& style) {
  return style.deck > 0.5f ? std::min(g.parts, kMaxDeckSlices) : g.parts;
}

// Where part k sits: side by side (deck = 0) or stacked diagonally (deck = 1), or in between.
ImVec2 part_offset(const BlockGeometry& g, int64_t k, CellSize cell, const BlockStyle& style) {
  const ImVec2 side_by_side(k * (g.part_cols * cell.w + style.band_gap), 0);
  const ImVec2 step = deck_step(g, cell);
  const ImVec2 stacked(k * step.x, k * step.y);
  return ImVec2(side_by_side.x + (stacked.x - side_by_side.x) * style.deck,
                side_by_side.y + (stacked.y - side_by_side.y) * style.deck);
}

}  // namespace

ImVec2 block_extent(const BlockGeometry& g, CellSize cell, const BlockStyle& style) {
  const ImVec2 last = part_offset(g, drawn_parts(g, style) - 1, cell, style);
  return ImVec2(last.x + g.part_cols * cell.w, last.y + g.rows * cell.h);
}

void draw_block(ImDrawList* list, ImVec2 origin, const TensorRecord& record, int64_t batch,
                const BlockGeometry& g, CellSize cell, const BlockStyle& style,
                const DrawContext& context) {
  const CellReader read(record.tensor, g);
  batch = std::clamp<int64_t>(batch, 0, record.tensor.size(0) - 1);
  // Back to front, so part 0 ends on top of the deck; side by side the order does not matter.
  // Every part is drawn with values while they lie side by side, only the front one when stacked.
  for (int64_t k = drawn_parts(g, style) - 1; k >= 0; --k) {
    const ImVec2 offset = part_offset(g, k, cell, style);
    const bool front = style.deck < 0.5f || k == 0;
    // Settled in a deck, the slice in front covers all but a step-wide edge of this one.
    const ImVec2 edge = style.deck >= 1.0f && k > 0 ? deck_step(g, cell) : ImVec2(0, 0);
    draw_part(list, ImVec2(origin.x + offset.x, origin.y + offset.y), read, batch, k, g, cell,
              style, context, front, edge);
  }
  if (style.fresh > 0) {
    const ImVec2 size = block_extent(g, cell, style);
    const float pad = 3;
    list->AddRect(ImVec2(origin.x - pad, origin.y - pad),
                  ImVec2(origin.x + size.x + pad, origin.y + size.y + pad),
                  with_alpha(context.colours->accent, style.fresh), 0, 0, 4.0f);
  }
}

}  // namespace attnlab::gui
