#include "app/gui/look/font_files.hpp"

#include <fontconfig/fontconfig.h>

#include <cstdlib>
#include <filesystem>
#include <vector>

namespace attnlab::gui {

namespace fs = std::filesystem;

namespace {

// Every font file fontconfig knows, searched for one named `file_name` (its own config, freed
// after: nothing kept between calls).
std::string find_with_fontconfig(const std::string& file_name) {
  FcConfig* config = FcInitLoadConfigAndFonts();
  if (!config) return "";
  FcPattern* any = FcPatternCreate();
  FcObjectSet* file_only = FcObjectSetBuild(FC_FILE, nullptr);
  FcFontSet* fonts = FcFontList(config, any, file_only);
  std::string found;
  for (int i = 0; fonts && i < fonts->nfont && found.empty(); ++i) {
    FcChar8* path = nullptr;
    if (FcPatternGetString(fonts->fonts[i], FC_FILE, 0, &path) != FcResultMatch) continue;
    const std::string text = reinterpret_cast<const char*>(path);
    if (fs::path(text).filename() == file_name) found = text;
  }
  if (fonts) FcFontSetDestroy(fonts);
  FcObjectSetDestroy(file_only);
  FcPatternDestroy(any);
  FcConfigDestroy(config);
  return found;
}

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
  if (std::string path = find_with_fontconfig(file_name); !path.empty()) return path;
  for (const fs::path& dir : usual_font_dirs()) {
    std::error_code ec;
    if (fs::is_regular_file(dir / file_name, ec)) return (dir / file_name).string();
  }
  return "";
}

}  // namespace attnlab::gui
