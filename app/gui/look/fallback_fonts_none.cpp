// Where there are no system fonts to ask (the browser page): no fallback fonts; characters DejaVu
// lacks are drawn as their U+ codes (token_text.hpp).
#include "app/gui/look/fallback_fonts.hpp"

namespace attnlab::gui {

std::vector<FallbackFont> fallback_fonts_for(const std::vector<char32_t>&, const std::string&) {
  return {};
}

std::string find_system_font(const std::string&) {
  return "";
}

}  // namespace attnlab::gui
