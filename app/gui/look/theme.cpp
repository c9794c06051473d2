#include "app/gui/look/theme.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "app/gui/look/fallback_fonts.hpp"
#include "app/gui/look/font_files.hpp"
#include "app/gui/look/stand_in_glyphs.hpp"
#include "app/gui/look/token_text.hpp"

namespace attnlab::gui {

namespace {

// Latin, Greek, arrows, maths and the superscripts of "QKᵀ": what formulas and labels use.
const ImWchar kGlyphRanges[] = {
    0x0020, 0x00FF,  // Basic Latin + Latin-1 (×, ÷, ·)
    0x0370, 0x03FF,  // Greek
    0x1D40, 0x1D40,  // ᵀ
    0x2010, 0x2027,  // dashes, bullets, ellipsis
    0x2070, 0x209F,  // superscripts and subscripts
    0x2190, 0x21FF,  // arrows
    0x2200, 0x22FF,  // mathematical operators (√, ∞, ≤)
    0x25A0, 0x25FF,  // geometric shapes (▶, ■)
    0,
};

// A sentence of thousands of distinct characters would need a huge atlas; past this many the
// rest are written as code points.
constexpr size_t kMaxSentenceGlyphs = 2048;

bool in_base_ranges(char32_t c) {
  for (const ImWchar* r = kGlyphRanges; r[0] != 0; r += 2)
    if (c >= r[0] && c <= r[1]) return true;
  return false;
}

// The characters of `text` beyond the base ranges that an atlas can hold (ImWchar is 16 bits),
// sorted and unique.
std::vector<char32_t> sentence_code_points(const std::string& text) {
  std::vector<char32_t> points = code_points(text);
  std::erase_if(points,
                [](char32_t c) { return in_base_ranges(c) || c > IM_UNICODE_CODEPOINT_MAX; });
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

// The font file's path, or "" when it is not installed.
std::string font_path(const char* file) {
  return find_font_file(file);
}

ImFont* add_font(const std::string& path, float pixels, const ImWchar* ranges, int index = 0,
                 bool merge = false) {
  if (path.empty() || !std::filesystem::exists(path)) return nullptr;
  ImFontConfig config;
  config.OversampleH = 2;
  config.OversampleV = 1;
  config.FontNo = index;
  config.MergeMode = merge;  // into the font added last: only glyphs it lacks are taken
  return ImGui::GetIO().Fonts->AddFontFromFileTTF(path.c_str(), pixels, &config, ranges);
}

ImU32 rgb(int r, int g, int b, int a = 255) {
  return IM_COL32(r, g, b, a);
}

}  // namespace

Fonts load_fonts(float scale, const std::string& text, const std::vector<char32_t>& stand_ins) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const float pixels = std::round(kBaseFontPixels * scale);
  std::vector<char32_t> extra = sentence_code_points(text);
  if (extra.size() > kMaxSentenceGlyphs) extra.resize(kMaxSentenceGlyphs);
  // The atlas keeps a pointer to its ranges until it is cleared: they live until the next call.
  static ImVector<ImWchar> ranges;
  ImFontGlyphRangesBuilder builder;
  builder.AddRanges(kGlyphRanges);
  for (const char32_t c : extra) builder.AddChar(static_cast<ImWchar>(c));
  ranges.clear();
  builder.BuildRanges(&ranges);

  Fonts fonts;
  const std::string ui_path = font_path("DejaVuSans.ttf");
  fonts.ui = add_font(ui_path, pixels, ranges.Data);
  if (fonts.ui) {
    for (const FallbackFont& fallback : fallback_fonts_for(extra, ui_path))
      add_font(fallback.file, pixels, ranges.Data, fallback.index, true);
  }
  fonts.mono = add_font(font_path("DejaVuSansMono.ttf"), pixels, kGlyphRanges);
  fonts.from_files = fonts.ui != nullptr;
  if (!fonts.ui) {
    ImFontConfig config;
    config.SizePixels = pixels;
    fonts.ui = io.Fonts->AddFontDefault(&config);
  }
  if (!fonts.mono) fonts.mono = fonts.ui;
  io.FontDefault = fonts.ui;
  const StandInGlyphs emoji =
      fonts.from_files ? reserve_stand_in_glyphs(fonts.ui, pixels, stand_ins) : StandInGlyphs{};
  io.Fonts->Build();
  draw_stand_in_glyphs(fonts.ui, pixels, emoji);
  return fonts;
}

bool needs_new_glyphs(const std::string& text, const std::string& atlas_text) {
  const std::vector<char32_t> asked = sentence_code_points(atlas_text);
  for (const char32_t c : sentence_code_points(text))
    if (!std::binary_search(asked.begin(), asked.end(), c)) return true;
  return false;
}

void apply_theme(Theme theme, float scale) {
  ImGuiStyle style;
  if (theme == Theme::Light) {
    ImGui::StyleColorsLight(&style);
    style.Colors[ImGuiCol_Text] = ImVec4(0.05f, 0.05f, 0.08f, 1.0f);
    style.Colors[ImGuiCol_Border] = ImVec4(0.55f, 0.55f, 0.6f, 0.6f);
    style.Colors[ImGuiCol_FrameBg] = ImVec4(0.88f, 0.89f, 0.92f, 1.0f);
  } else {
    ImGui::StyleColorsDark(&style);
  }
  style.Colors[ImGuiCol_WindowBg] = ImGui::ColorConvertU32ToFloat4(palette(theme).background);
  style.WindowRounding = 4.0f;
  style.FrameRounding = 3.0f;
  style.GrabRounding = 3.0f;
  style.WindowBorderSize = 1.0f;
  style.FrameBorderSize = theme == Theme::Light ? 1.0f : 0.0f;
  style.ItemSpacing = ImVec2(8, 6);
  style.ScaleAllSizes(scale);
  ImGui::GetStyle() = style;
}

ImU32 head_colour(int head, float alpha) {
  // Okabe & Ito (2008), distinguishable with the common colour-vision deficiencies, then the
  // colours of Paul Tol's muted, bright and light schemes that lie farthest from them and from
  // each other (CIELAB distance at least 26 between any two of the sixteen) and from both
  // themes' backgrounds.
  static const ImU32 kColours[kDistinctHeadColours] = {
      rgb(230, 158, 0), rgb(87, 181, 232),  rgb(0, 158, 115),  rgb(204, 120, 166),
      rgb(0, 115, 178), rgb(214, 94, 0),    rgb(240, 227, 66), rgb(115, 115, 115),
      rgb(51, 34, 136), rgb(249, 123, 114), rgb(207, 28, 144), rgb(153, 153, 51),
      rgb(34, 85, 34),  rgb(136, 34, 85),   rgb(231, 63, 116), rgb(238, 221, 136),
  };
  const ImU32 c = kColours[std::abs(head) % kDistinctHeadColours];
  return (c & ~IM_COL32_A_MASK) |
         (ImU32(std::clamp(alpha, 0.0f, 1.0f) * 255.0f + 0.5f) << IM_COL32_A_SHIFT);
}

namespace {

// WCAG 2 relative luminance of an sRGB colour.
float relative_luminance(ImU32 colour) {
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(colour);
  auto linear = [](float v) {
    return v <= 0.04045f ? v / 12.92f : std::pow((v + 0.055f) / 1.055f, 2.4f);
  };
  return 0.2126f * linear(c.x) + 0.7152f * linear(c.y) + 0.0722f * linear(c.z);
}

}  // namespace

float contrast_ratio(ImU32 a, ImU32 b) {
  const float la = relative_luminance(a), lb = relative_luminance(b);
  return (std::max(la, lb) + 0.05f) / (std::min(la, lb) + 0.05f);
}

ImU32 text_colour_on(ImU32 background) {
  const ImU32 black = IM_COL32(0, 0, 0, 255), white = IM_COL32(255, 255, 255, 255);
  return contrast_ratio(black, background) >= contrast_ratio(white, background) ? black : white;
}

const Palette& palette(Theme theme) {
  static const Palette light = {rgb(250, 250, 247), rgb(15, 15, 20), rgb(90, 90, 100),
                                rgb(200, 20, 20),   rgb(0, 90, 180), rgb(160, 160, 170),
                                rgb(235, 236, 240), rgb(60, 60, 70), rgb(190, 190, 190),
                                rgb(140, 140, 140)};
  static const Palette dark = {rgb(26, 26, 31),  rgb(235, 235, 240), rgb(160, 160, 170),
                               rgb(255, 90, 90), rgb(100, 170, 255), rgb(90, 90, 100),
                               rgb(45, 46, 52),  rgb(200, 200, 210), rgb(110, 110, 110),
                               rgb(70, 70, 70)};
  return theme == Theme::Light ? light : dark;
}

}  // namespace attnlab::gui
