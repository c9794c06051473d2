// Lecture-hall looks: DejaVu Sans rasterised at the final size (crisp when big), with a fallback
// font merged in for the sentence's other scripts, a light theme for projectors and a dark one,
// and a colour-blind-safe palette for heads.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "app/gui/state/ui_settings.hpp"

namespace attnlab::gui {

constexpr float kBaseFontPixels = 20.0f;

// What a character no font has is drawn as (ImGui's fallback glyph): an empty box, not "?".
// U+FFFE is no character, so no text means it.
constexpr ImWchar kBoxChar = 0xFFFE;

struct Fonts {
  ImFont* ui = nullptr;     // DejaVu Sans
  ImFont* mono = nullptr;   // DejaVu Sans Mono, for formulas and code
  bool from_files = false;  // false: the DejaVu files were missing, ImGui's built-in font is used
  // The characters of `text` that no installed font has (drawn as the box), or that are past
  // ImGui's 16-bit code points (drawn as U+FFFD); sorted.
  std::vector<char32_t> missing;
};

// Clears and refills io.Fonts at kBaseFontPixels * scale, with glyphs for the interface's own
// characters (formulas, arrows, Greek, ✓) and for every character of `text` (the sentences, the
// lesson: atlas_text.hpp) that DejaVu or an installed fallback font has (Hangul:
// fonts-unfonts-core), and for each text field stand-in (TypedInput::stand_ins: emoji, drawn
// monochrome from fonts-symbola). The characters no font has are drawn as a box and named once on
// stderr. The caller uploads the atlas again (the GL backend's font texture), outside
// NewFrame/Render.
Fonts load_fonts(float scale, const std::string& text = "",
                 const std::vector<char32_t>& stand_ins = {});

// Whether `text` has characters that an atlas built for `atlas_text` was not asked to hold.
bool needs_new_glyphs(const std::string& text, const std::string& atlas_text);

// Resets the style to the theme, with sizes scaled for the font scale.
void apply_theme(Theme theme, float scale);

// Heads that get distinct colours; later heads cycle through them (their numbers tell them apart).
constexpr int kDistinctHeadColours = 16;
// A colour per head: Okabe & Ito's colour-blind-safe eight, then eight of Paul Tol's.
ImU32 head_colour(int head, float alpha = 1.0f);

// WCAG 2 contrast ratio of two opaque colours, 1 (same) to 21 (black on white).
float contrast_ratio(ImU32 a, ImU32 b);
// Black or white, whichever contrasts more with the opaque background (at least 4.58:1).
ImU32 text_colour_on(ImU32 background);

// Colours that depend on the theme.
struct Palette {
  ImU32 background;  // of the windows
  ImU32 text, text_dim, error, accent, grid, block_fill, block_border, masked_a, masked_b;
};
const Palette& palette(Theme theme);

}  // namespace attnlab::gui
