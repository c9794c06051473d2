// The numbers behind the heatmaps: one (T, T) map per head (or one map of any recorded tensor) for
// one sequence of the batch, read from the trace (never recomputed), plus the range and colour map
// to draw them with.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "app/gui/look/colormap.hpp"
#include "core/trace/trace.hpp"

namespace attnlab::gui {

enum class HeatmapView { Weights, Scores, Scaled, Masked };
constexpr int kHeatmapViewCount = 4;
const char* heatmap_view_name(HeatmapView view);   // "weights", "scores", "scaled", "masked"
const char* heatmap_view_title(HeatmapView view);  // "weights  softmax(S)", ...
bool parse_heatmap_view(const std::string& text, HeatmapView& view);

// What the heads panel shows at a step of the walk: at attend's QK\u1D40, \u00F7\u221Ad_k and mask
// sub-steps the map that sub-step recorded (scores, scaled or masked scores), whatever was chosen;
// at every other step the `chosen` view.
HeatmapView view_at_step(const Trace& trace, HeatmapView chosen, Stage stage, Substep substep);

// Before attend the maps do not exist yet: the panel draws them faded, with this note.
bool maps_ahead_of(Stage stage);
constexpr const char* kMapsAheadNote = "computed at attend: shown ahead, faded";

// Stored in `values` for a cell the masks hide. The shader hatches every value below
// kMaskedBelow (passed to it as the uniform MaskedBelow): no finite score comes near it.
constexpr float kMaskedValue = -std::numeric_limits<float>::infinity();
constexpr float kMaskedBelow = -1.0e30f;

struct HeatmapSet {
  HeatmapView view = HeatmapView::Weights;
  std::string record;  // the trace record drawn ("scaled" when the masked view has no mask)
  int64_t batch_index = 0;
  int64_t heads = 0;  // maps (one per token when maps_are_tokens)
  int64_t rows = 0;   // queries
  int64_t cols = 0;   // keys
  // The forget-transpose mistake's (B, T, h, h) maps: one h x h map per token, heads attending to
  // heads; rows and columns are heads, not tokens.
  bool maps_are_tokens = false;
  std::string row_axis = "T", col_axis = "T";  // what rows and columns index: "T", "h*d_v", "h"
  // (heads, rows, cols) row-major; kMaskedValue where masked. Weights hold their colour position
  // 0 .. 1 under `scale` (weights_to_colour_positions), scores the score itself.
  std::vector<float> values;
  std::vector<float> shown;  // same layout: the real value hover and cells print (0 if masked)
  float value_min = 0;       // the first colour of the map
  float value_max = 1;       // the last colour
  ColourScale scale = ColourScale::Fixed;  // how weights became `values`
  std::vector<float> map_max;              // (heads): each map's largest real weight
  // Weights whose colour positions all lie within kFlatSpread of each other: the scale draws
  // every visible cell in (nearly) one colour. `flat_max` is then the largest visible weight.
  bool flat = false;
  float flat_max = 0;
  ColormapKind colormap = ColormapKind::Sequential;
  int64_t masked_cells = 0;
  int64_t even_rows = 0;  // rows drawn as spread evenly (kEvenPosition, per-row colours only)

  float at(int64_t head, int64_t query, int64_t key) const {
    return values[size_t((head * rows + query) * cols + key)];
  }
  // The real value of that cell (the weight or score), whatever the colour scale; 0 if masked.
  float real_at(int64_t head, int64_t query, int64_t key) const {
    return shown[size_t((head * rows + query) * cols + key)];
  }
  bool masked(int64_t head, int64_t query, int64_t key) const {
    return at(head, query, key) < kMaskedBelow;
  }
  // An even row's cell (colormap.hpp: is_even_row), drawn in kEvenRowColour.
  bool even(int64_t head, int64_t query, int64_t key) const {
    return at(head, query, key) > kEvenAbove;
  }
  bool empty() const { return heads == 0; }
  // Cells along a map's longer side: cross-attention's maps are T_q x T_k, drawn with square
  // cells in a square placement of this many.
  int64_t side() const { return std::max(rows, cols); }
};

// Weights use the sequential map through `scale`; signed scores use the diverging map, symmetric
// around 0 (whatever the scale). Empty when the trace has no values.
// Reads (B, h, T, T) records, and the (B, T, h, h) ones of forget-transpose (maps_are_tokens).
HeatmapSet build_heatmaps(const Trace& trace, HeatmapView view, int64_t batch_index,
                          ColourScale scale);

// Colour positions closer than this (of the colour map's 0 .. 1) look like one colour.
constexpr float kFlatSpread = 0.1f;

// What the legend prints: the real values at its two ends ("0", "0.031"; signed scores "-2.1",
// "+2.1") and a one-line note on the scale in use ("colours stretched per map: 0 … 0.031").
// `warning`, shown whatever room the header has, says when the scale makes the maps one flat
// colour and how to fix it ("fixed 0 … 1: all weights ≤ 0.048 look alike: press S for per-map").
// `even` names the even rows' colour (kEvenRowLegend) when the maps have any.
struct LegendText {
  std::string low, high, note;
  std::string warning = {};
  std::string even = {};
};
LegendText legend_text(const HeatmapSet& set);

// The maps of any recorded (B, A, R, C) tensor (one per index of A) or (B, R, C) tensor (one map,
// e.g. the (T, h*d_v) concat): "weights" as build_heatmaps draws them, any other record on the
// diverging map around 0. Empty when the record is missing or has no values.
HeatmapSet record_heatmaps(const Trace& trace, const std::string& record, int64_t batch_index);

// One map of the set (same range, colour map and scale), for side-by-side comparisons.
HeatmapSet single_map(const HeatmapSet& set, int64_t map);

// |buggy - correct| per cell of two same-sized single maps, from the values hover shows (a masked
// weight counts as 0, so weight leaking onto masked keys shows up). Sequential, 0 .. largest
// difference. Empty when the sizes differ.
HeatmapSet difference_map(const HeatmapSet& correct, const HeatmapSet& buggy);

// Gives the (non-empty) maps one colour scale covering all of them, diverging and symmetric around
// 0 if any of them is diverging: the same colour is the same number in each.
void share_colour_scale(std::span<HeatmapSet> maps);

}  // namespace attnlab::gui
