// Draws one tensor record as a block of cells whose sides follow its dimensions:
//   (B, T, d)          a T x d matrix (of the batch item shown)
//   (B, T, h, d_k)     T rows of h coloured bands side by side (the view made by split)
//   (B, h, T, x)       a deck of h stacked T x x slices (after transpose; the attention maps)
//   (B, n_kv, g, T, x) the same deck of n_kv * g slices (grouped K/V heads expanded: the g
//                      slices of a group read the same memory through a stride of 0)
// Style parameters interpolate between those pictures, which is how stages animate.
#pragma once

#include <imgui.h>

#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/look/colormap.hpp"
#include "app/gui/look/theme.hpp"
#include "core/trace/trace.hpp"

namespace attnlab::gui {

enum class PartAxis {
  Columns,  // parts split the last axis: (B, T, h, x) or (B, T, h*x)
  Leading,  // parts lead: (B, h, T, x)
};

struct BlockGeometry {
  int64_t rows = 0;       // T
  int64_t parts = 1;      // h bands or slices; 1 for a plain matrix
  int64_t part_cols = 0;  // columns per part
  PartAxis axis = PartAxis::Columns;
  int64_t group = 1;  // (B, n_kv, g, T, x): parts come in runs of g, one per K/V head
};

// From the record's shape and axes. `bands` marks (B, T, h*x) tensors as h bands.
BlockGeometry geometry_of(const TensorRecord& record, int64_t n_heads, bool bands);

struct BlockStyle {
  float deck = 0;         // 0: parts side by side; 1: stacked (transpose animates between)
  float band_gap = 0;     // pixels between side-by-side parts
  float band_tint = 0;    // 0..1: how strongly head colours outline the parts
  float reveal_rows = 1;  // fraction of rows drawn, top first
  float reveal_cols = 1;  // fraction of columns drawn, left first
  float alpha = 1;        // inputs of a step are drawn faded
  float fresh = 0;        // 0..1: outline of storage just allocated by a copy
  bool values = true;     // print the numbers when the cells are big enough
};

struct CellSize {
  float w = 0, h = 0;
};

struct DrawContext {
  const Palette* colours = nullptr;
  float value_font_size = 14;
  float value_scale = 1;    // largest |value| of the tensor: the colour map's end
  bool sequential = false;  // weights in 0..1: viridis; else the diverging map
  // How weights become viridis positions: the heads' maps' scale (UiSettings::colour_scale).
  ColourScale weights_scale = ColourScale::Fixed;
  float value_min_cell_width = 0;  // below this no numbers are printed
};

// A cell of a tensor drawn faded (alpha < 1), as opaque colours: its colour laid over the window
// background, and the ink of its number chosen against that (WCAG's 4.5:1 holds when faded too).
struct CellColours {
  ImU32 fill = 0, ink = 0;
};
CellColours faded_cell(ImU32 colour, float alpha, ImU32 background);

// A deck shows at most this many slices; the caption gives the full count.
constexpr int64_t kMaxDeckSlices = 12;

// Pixel offset between stacked slices for this cell size.
ImVec2 deck_step(const BlockGeometry& geometry, CellSize cell);
// Size of the drawn block (without captions).
ImVec2 block_extent(const BlockGeometry& geometry, CellSize cell, const BlockStyle& style);
void draw_block(ImDrawList* list, ImVec2 origin, const TensorRecord& record, int64_t batch,
                const BlockGeometry& geometry, CellSize cell, const BlockStyle& style,
                const DrawContext& context);

}  // namespace attnlab::gui
