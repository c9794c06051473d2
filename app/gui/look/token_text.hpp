// Tokens as the font can draw them: a character the font atlas lacks would be drawn as "?" by
// ImGui, so it is written as its code point instead ("U+732B").
#pragma once

#include <imgui.h>

#include <string>
#include <string_view>
#include <vector>

namespace attnlab::gui {

// The code points of UTF-8 text; a byte that starts no valid sequence gives U+FFFD.
std::vector<char32_t> code_points(std::string_view text);
// Appends the code point as UTF-8.
void append_utf8(std::string& out, char32_t c);

// Characters the font has as they are, the others as "U+XXXX".
std::string display_text(std::string_view token, const ImFont& font);

}  // namespace attnlab::gui
