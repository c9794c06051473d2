// Colour-blind-safe colour maps as 256-entry tables. The GPU samples the same table (uploaded as a
// 256x1 texture, linear filtering), so colour_at() predicts the shader's output for the pixel test.
#pragma once

#include <array>
#include <cstdint>

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

// Colour of t in [0, 1] (clamped), interpolated linearly between neighbouring table entries as
// the GPU's linear texture filter does.
struct Rgbf {
  float r, g, b;  // 0..1
};
Rgbf colour_at(ColormapKind kind, float t);

// Same colour as ImGui's packed ABGR colour (alpha 255).
uint32_t colour_at_packed(ColormapKind kind, float t);

// "viridis" / "diverging"
const char* colormap_name(ColormapKind kind);

}  // namespace attnlab::gui
