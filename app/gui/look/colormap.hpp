// Colour-blind-safe colour maps as 256-entry tables. The GPU samples the same table (uploaded as a
// 256x1 texture, linear filtering), so colour_at() predicts the shader's output for the pixel test.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <span>
#include <string>

namespace attnlab::gui {

enum class ColormapKind {
  Sequential,  // viridis-like, dark purple -> yellow: attention weights (0 .. max)
  Diverging,   // blue - white - red: signed scores, 0 in the middle
};

constexpr int kColormapEntries = 256;

struct Rgb8 {
  uint8_t r, g, b;
};

using ColormapTable = std::array<Rgb8, kColormapEntries>;

const ColormapTable& colormap_table(ColormapKind kind);

// An even row: a query whose visible weights are all equal (within kEvenRowTolerance of its
// largest; at least two of them), attention spread evenly, 1/n each. Per-row colours would
// stretch it to the row's largest weight, the map's last colour (solid yellow), which reads as
// "full weight everywhere"; its cells hold the colour position kEvenPosition instead and are drawn
// in kEvenRowColour, a neutral grey no colour map has, by the shader (EvenAbove, EvenColor), by
// colour_at() and by every export. Decided here only (is_even_row).
constexpr float kEvenRowTolerance = 1e-3f;
constexpr float kEvenPosition = std::numeric_limits<float>::infinity();
constexpr float kEvenAbove = 1.0e30f;  // a colour position above it is an even row's
constexpr Rgb8 kEvenRowColour = {150, 150, 150};
constexpr const char* kEvenRowLegend = "even row: spread evenly (1/n each)";
bool is_even_row(std::span<const float> row);  // non-finite cells (masked) are not counted

// One query's row under per-row colours, the one rule every per-row map uses (the heads panel,
// the Model tab's maps, the Train tab's, the decode tab's): `visible` is its weights over the
// keys it sees (a causal row's first i + 1, when its hidden keys hold 0 rather than a non-finite
// value); a weight's colour position is weight / the row's largest, or kEvenPosition for every
// visible weight of an even row.
struct RowColours {
  float largest = 0;
  bool even = false;
  float position(float weight) const;  // non-finite (masked) weights are left as they are
};
RowColours row_colours(std::span<const float> visible);

// Colour of t in [0, 1] (clamped), interpolated linearly between neighbouring table entries as
// the GPU's linear texture filter does; kEvenRowColour for a position above kEvenAbove.
struct Rgbf {
  float r, g, b;  // 0..1
};
Rgbf colour_at(ColormapKind kind, float t);

// Same colour as ImGui's packed ABGR colour (alpha 255).
uint32_t colour_at_packed(ColormapKind kind, float t);

// "viridis" / "diverging"
const char* colormap_name(ColormapKind kind);

// How attention weights become colours. Random weights at T = 128 are all near 1/T: a fixed 0 .. 1
// scale shows one flat colour, so the default stretches each map to 0 .. its largest weight.
enum class ColourScale {
  PerMap,  // each map 0 .. its largest weight
  PerRow,  // each row (query) 0 .. its largest weight
  Log,     // log10 of the weight, kLogFloor .. 1
  Fixed,   // 0 .. 1
};
constexpr int kColourScaleCount = 4;
constexpr float kLogFloor = 1e-4f;  // weights below it get the first colour of the log scale
const char* colour_scale_name(ColourScale scale);  // "per-map", "per-row", "log", "fixed"
// The scale after `scale` in the cycle the S key steps through (per-map, per-row, log, fixed).
ColourScale next_colour_scale(ColourScale scale);
bool parse_colour_scale(const std::string& text, ColourScale& scale);
std::string colour_scale_names();  // "per-map, per-row, log, fixed"

// Replaces (maps, rows, cols) row-major weights by their colour positions in 0 .. 1 under `scale`
// (the position colour_at() takes). Non-finite values (masked cells) are left as they are. Under
// PerRow an even row's cells become kEvenPosition. The
// heads panel and the pixel test both call this, so the test predicts what the app draws.
void weights_to_colour_positions(ColourScale scale, std::span<float> weights, int64_t maps,
                                 int64_t rows, int64_t cols);

}  // namespace attnlab::gui
