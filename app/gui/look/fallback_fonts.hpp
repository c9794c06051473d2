// Fonts for characters DejaVu lacks (Chinese, Japanese, ...), found through fontconfig. Only
// monochrome outline fonts: ImGui 1.86 cannot draw colour glyphs (emoji fonts).
#pragma once

#include <string>
#include <vector>

namespace attnlab::gui {

struct FallbackFont {
  std::string file;
  int index = 0;  // face within a .ttc collection
};

// The fewest installed fonts, best match first, that together cover as many of the code points as
// the system can; none when fontconfig finds no font for them. `skip_file` (the main font) is
// counted as covering what it has but not returned.
std::vector<FallbackFont> fallback_fonts_for(const std::vector<char32_t>& code_points,
                                             const std::string& skip_file);

// The full path of the installed font file named `file_name` that fontconfig knows; "" when none.
std::string find_system_font(const std::string& file_name);

}  // namespace attnlab::gui
