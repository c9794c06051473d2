// Text that fits its room: wrapping at spaces only, cutting with an ellipsis, and placing an item
// beside the last one only when it fits. Wrapping at spaces only: ImGui's own wrapping also breaks
// after '.', so "1.33333" became "1." and "33333" on two lines; numbers, paths and code stay whole
// here.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>
#include <vector>

namespace attnlab::gui {

// The lines `text` wraps into at `width`, breaking at spaces and at '\n' only; a word wider than
// the width (a folder's name in a narrow panel) is broken after a '-', '_', '/' or ',', else
// between two characters, rather than run past the room. `measure` gives a string's width.
std::vector<std::string> wrap_at_spaces(const std::string& text, float width,
                                        const std::function<float(const std::string&)>& measure);

// A line of code's units: split at the spaces outside brackets, so "k.transpose(-2, -1)" stays
// whole; a unit wider than `width` (when width > 0) is split between a chain's calls (the next
// unit starts with '.'), then at its own spaces.
std::vector<std::string> code_units(const std::string& code, float width,
                                    const std::function<float(const std::string&)>& measure);

// `code` wrapped at `width` between its units (never inside a call's brackets while it fits; a
// unit wider than the room is broken as wrap_at_spaces breaks a word).
std::vector<std::string> wrap_code(const std::string& code, float width,
                                   const std::function<float(const std::string&)>& measure);

// ImGui::TextWrapped, wrapping at spaces only (the current font, the region's width).
void text_wrapped(const std::string& text);
// The same, printf-style.
void text_wrapped_format(const char* format, ...) IM_FMTARGS(1);

// ImGui::Button with its label wrapped at spaces to the region's width (a taller button rather
// than a label cut at its edge); the button's ID is the whole label's.
bool wrapped_button(const char* label);

// `text` cut with an ellipsis to `width` pixels of the current font (whole when it fits): for
// what ImGui would clip at a frame's edge, such as a combo's preview.
std::string cut_to_width(const std::string& text, float width);

// A hint for the next text field, cut with an ellipsis to the field's width: ImGui clips a hint
// at the field's edge, and a hint does not scroll as typed text does.
std::string field_hint(const char* hint);

// One line of `text` at `size` pixels from `at`, cut with an ellipsis where it would pass `width`
// less kCutTextShort (a region's clip may be at its edge) (ImGui's own ellipsis, at that size).
constexpr float kCutTextShort = 2;
void draw_cut_text(ImVec2 at, float width, float size, ImU32 colour, const char* text);

// `text` at `size` pixels, wrapped at spaces to the region's width, from the cursor (which moves
// below it); returns the lines as drawn.
std::vector<std::string> large_text(const std::string& text, float size, ImU32 colour);

// Pixels left on the current line after the last item and `spacing`, to the window's right edge.
float room_beside_last_item(float spacing);

// Puts the next item `spacing` after the last one, on the same line, when `width` fits there and
// returns true; otherwise leaves the cursor on a new line and returns false.
bool same_line_if_fits(float width, float spacing);

}  // namespace attnlab::gui
