// Glyphs for the characters a text field holds as stand-ins (kFirstStandIn + i for
// TypedInput::stand_ins[i]: emoji and the other characters past ImGui's 16-bit code points). Each
// is drawn monochrome from an installed outline font that has it (found through fontconfig:
// Symbola for emoji), so the sentence field shows the emoji instead of "?".
#pragma once

#include <imgui.h>

#include <vector>

namespace attnlab::gui {

// One stand-in's glyph, reserved in the atlas and waiting to be drawn into it.
struct StandInGlyph {
  char32_t c = 0;        // the character it stands for
  ImWchar stand_in = 0;  // kFirstStandIn + i
  int rect = -1;         // the atlas' custom rectangle
  int font_file = -1;    // into StandInGlyphs::files
  int face = 0;          // the face within that file (a .ttc collection)
  float y0 = 0;          // the bitmap's top, from the baseline (up is negative)
};

struct StandInGlyphs {
  std::vector<std::vector<unsigned char>> files;  // the font files read
  std::vector<StandInGlyph> glyphs;
};

// Before the atlas is built: a rectangle in `font` at `pixels` for each stand-in an installed font
// has (the others stay "?").
StandInGlyphs reserve_stand_in_glyphs(ImFont* font, float pixels,
                                      const std::vector<char32_t>& stand_ins);

// After io.Fonts->Build(), before the texture is taken: draws them into the atlas and sets them
// on `font`'s baseline.
void draw_stand_in_glyphs(ImFont* font, float pixels, const StandInGlyphs& reserved);

}  // namespace attnlab::gui
