#include "app/gui/look/token_text.hpp"

#include <cstdio>

namespace attnlab::gui {

namespace {

constexpr char32_t kReplacement = 0xFFFD;

// Length of the UTF-8 sequence that starts with `lead`, or 0 when it starts none.
int sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

}  // namespace

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out += char(c);
  } else if (c < 0x800) {
    out += char(0xC0 | (c >> 6));
    out += char(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += char(0xE0 | (c >> 12));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  } else {
    out += char(0xF0 | (c >> 18));
    out += char(0x80 | ((c >> 12) & 0x3F));
    out += char(0x80 | ((c >> 6) & 0x3F));
    out += char(0x80 | (c & 0x3F));
  }
}

std::vector<char32_t> code_points(std::string_view text) {
  std::vector<char32_t> points;
  for (size_t i = 0; i < text.size();) {
    const auto lead = static_cast<unsigned char>(text[i]);
    const int length = sequence_length(lead);
    char32_t c = length == 1 ? lead : lead & (0x7F >> length);
    bool valid = length > 0 && i + size_t(length) <= text.size();
    for (int k = 1; valid && k < length; ++k) {
      const auto next = static_cast<unsigned char>(text[i + size_t(k)]);
      valid = (next & 0xC0) == 0x80;
      c = (c << 6) | (next & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are not characters.
    static constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
    valid = valid && c >= kSmallest[length] && c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF);
    points.push_back(valid ? c : kReplacement);
    i += valid ? size_t(length) : 1;
  }
  return points;
}

std::string display_text(std::string_view token, const ImFont& font) {
  std::string text;
  for (const char32_t c : code_points(token)) {
    // ImWchar is 16 bits in Debian's ImGui: code points past U+FFFF (emoji) cannot be in the atlas.
    const bool drawable = c <= IM_UNICODE_CODEPOINT_MAX &&
                          font.FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr;
    if (drawable) {
      append_utf8(text, c);
    } else {
      char name[16];
      std::snprintf(name, sizeof name, "U+%04X", unsigned(c));
      text += name;
    }
  }
  return text;
}

}  // namespace attnlab::gui
