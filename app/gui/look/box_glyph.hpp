// The glyph a character no font has is drawn as: an empty box the size of a capital letter, so a
// missing character shows where it is (ImGui's own fallback would be "?", which reads as text).
#pragma once

#include <imgui.h>

namespace attnlab::gui {

// Before the atlas is built: a rectangle in `font` for `box` (a code point no text uses), made
// the font's fallback glyph. Returns the atlas' custom rectangle.
int reserve_box_glyph(ImFont* font, float pixels, ImWchar box);

// After io.Fonts->Build(), before the texture is taken: draws the box's outline into the atlas
// and sets it on `font`'s baseline.
void draw_box_glyph(ImFont* font, float pixels, ImWchar box, int rect);

}  // namespace attnlab::gui
