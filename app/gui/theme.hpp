// Lecture-hall looks: DejaVu Sans rasterised at the final size (crisp when big), a light theme for
// projectors and a dark one, and a colour-blind-safe palette for heads.
#pragma once

#include <imgui.h>

#include "app/gui/ui_settings.hpp"

namespace attnlab::gui {

constexpr float kBaseFontPixels = 20.0f;

struct Fonts {
  ImFont* ui = nullptr;     // DejaVu Sans
  ImFont* mono = nullptr;   // DejaVu Sans Mono, for formulas and code
  bool from_files = false;  // false: the DejaVu files were missing, ImGui's built-in font is used
};

// Clears and refills io.Fonts at kBaseFontPixels * scale. The caller uploads the atlas again
// (the GL backend's font texture), outside NewFrame/Render.
Fonts load_fonts(float scale);

// Resets the style to the theme, with sizes scaled for the font scale.
void apply_theme(Theme theme, float scale);

// A colour per head, from Okabe & Ito's colour-blind-safe palette (cycled).
ImU32 head_colour(int head, float alpha = 1.0f);

// Text colour that reads on a background of the given packed colour (black or white).
ImU32 text_colour_on(ImU32 background);

// Colours that depend on the theme.
struct Palette {
  ImU32 text, text_dim, error, accent, grid, block_fill, block_border, masked_a, masked_b;
};
const Palette& palette(Theme theme);

}  // namespace attnlab::gui
