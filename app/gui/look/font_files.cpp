#include "app/gui/look/font_files.hpp"

#include <cstdlib>
#include <filesystem>
#include <vector>

#include "app/gui/look/fallback_fonts.hpp"

namespace attnlab::gui {

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> usual_font_dirs() {
  std::vector<fs::path> dirs = {"/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu",
                                "/usr/local/share/fonts"};
  if (const char* home = std::getenv("HOME"); home && *home) {
    dirs.push_back(fs::path(home) / ".local/share/fonts");
    dirs.push_back(fs::path(home) / ".fonts");
  }
  return dirs;
}

}  // namespace

std::string find_font_file(const std::string& file_name) {
  if (std::string path = find_system_font(file_name); !path.empty()) return path;
  for (const fs::path& dir : usual_font_dirs()) {
    std::error_code ec;
    if (fs::is_regular_file(dir / file_name, ec)) return (dir / file_name).string();
  }
  return "";
}

}  // namespace attnlab::gui
