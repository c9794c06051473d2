// Finding a font file by its name ("DejaVuSans.ttf") on this machine, wherever it is installed.
#pragma once

#include <string>

namespace attnlab::gui {

// The full path of the font file named `file_name`: the fonts fontconfig knows first, then the
// usual folders (/usr/share/fonts/truetype/dejavu, /usr/share/fonts/dejavu, /usr/local/share/fonts,
// ~/.local/share/fonts, ~/.fonts). "" when there is no file of exactly that name.
std::string find_font_file(const std::string& file_name);

}  // namespace attnlab::gui
