#include "app/gui/look/fallback_fonts.hpp"

#include <fontconfig/fontconfig.h>

#include <algorithm>
#include <filesystem>
#include <memory>

namespace attnlab::gui {

namespace {

// A handful of fonts covers any sentence; more would only grow the atlas.
constexpr size_t kMaxFallbackFonts = 4;

// stb_truetype, inside ImGui, reads TrueType and OpenType outlines (and .ttc collections).
bool outline_font_file(const std::string& file) {
  const size_t dot = file.rfind('.');
  if (dot == std::string::npos) return false;
  std::string extension = file.substr(dot + 1);
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return extension == "ttf" || extension == "otf" || extension == "ttc";
}

}  // namespace

std::vector<FallbackFont> fallback_fonts_for(const std::vector<char32_t>& code_points,
                                             const std::string& skip_file) {
  std::vector<FallbackFont> fonts;
  if (code_points.empty() || !FcInit()) return fonts;
  const std::unique_ptr<FcCharSet, decltype(&FcCharSetDestroy)> wanted(FcCharSetCreate(),
                                                                       FcCharSetDestroy);
  for (const char32_t c : code_points) FcCharSetAddChar(wanted.get(), FcChar32(c));
  const std::unique_ptr<FcPattern, decltype(&FcPatternDestroy)> pattern(FcPatternCreate(),
                                                                        FcPatternDestroy);
  FcPatternAddCharSet(pattern.get(), FC_CHARSET, wanted.get());
  FcPatternAddBool(pattern.get(), FC_SCALABLE, FcTrue);
  FcConfigSubstitute(nullptr, pattern.get(), FcMatchPattern);
  FcDefaultSubstitute(pattern.get());
  FcResult result = FcResultNoMatch;
  const std::unique_ptr<FcFontSet, decltype(&FcFontSetDestroy)> sorted(
      FcFontSort(nullptr, pattern.get(), FcFalse, nullptr, &result), FcFontSetDestroy);
  if (!sorted) return fonts;

  std::vector<char32_t> missing = code_points;
  for (int i = 0; i < sorted->nfont && !missing.empty() && fonts.size() < kMaxFallbackFonts; ++i) {
    const FcPattern* font = sorted->fonts[i];
    FcChar8* file = nullptr;
    FcCharSet* charset = nullptr;
    FcBool colour = FcFalse;
    int index = 0;
    if (FcPatternGetString(font, FC_FILE, 0, &file) != FcResultMatch ||
        FcPatternGetCharSet(font, FC_CHARSET, 0, &charset) != FcResultMatch)
      continue;
    FcPatternGetBool(font, FC_COLOR, 0, &colour);
    FcPatternGetInteger(font, FC_INDEX, 0, &index);
    const std::string path = reinterpret_cast<const char*>(file);
    if (colour || !outline_font_file(path)) continue;
    const auto covered = [&](char32_t c) { return FcCharSetHasChar(charset, FcChar32(c)); };
    if (std::none_of(missing.begin(), missing.end(), covered)) continue;
    std::erase_if(missing, covered);
    if (path != skip_file) fonts.push_back({path, index});
  }
  return fonts;
}

// Every font file fontconfig knows, searched by name (its own config, freed after: nothing kept
// between calls).
std::string find_system_font(const std::string& file_name) {
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
    if (std::filesystem::path(text).filename() == file_name) found = text;
  }
  if (fonts) FcFontSetDestroy(fonts);
  FcObjectSetDestroy(file_only);
  FcPatternDestroy(any);
  FcConfigDestroy(config);
  return found;
}

}  // namespace attnlab::gui
