#include "app/gui/look/theme.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "app/gui/look/box_glyph.hpp"
#include "app/gui/look/fallback_fonts.hpp"
#include "app/gui/look/font_files.hpp"
#include "app/gui/look/stand_in_glyphs.hpp"
#include "app/gui/look/token_text.hpp"

namespace attnlab::gui {

namespace {

// The interface's own characters: Latin, Greek, arrows, maths, the superscripts of "QKᵀ", the
// lesson band's ✓ and ✗, and U+FFFD (what a byte of text that is not UTF-8 reads as). The texts
// the app is given (sentences, lessons) add their own characters, one by one.
const ImWchar kGlyphRanges[] = {
    0x0020, 0x00FF,  // Basic Latin + Latin-1 (×, ÷, ·)
    0x0370, 0x03FF,  // Greek
    0x1D40, 0x1D40,  // ᵀ
    0x2010, 0x2027,  // dashes, bullets, ellipsis
    0x2070, 0x209F,  // superscripts and subscripts
    0x2190, 0x21FF,  // arrows
    0x2200, 0x22FF,  // mathematical operators (√, ∞, ≤)
    0x25A0, 0x25FF,  // geometric shapes (▶, ■)
    0x2713, 0x2713,  // ✓
    0x2717, 0x2717,  // ✗
    0xFFFD, 0xFFFD,  // the replacement character
    0,
};

// A text of thousands of distinct characters would need a huge atlas; past this many the rest
// are drawn as boxes (tokens as their code points).
constexpr size_t kMaxTextGlyphs = 2048;

bool in_ranges(char32_t c, const ImWchar* ranges) {
  for (const ImWchar* r = ranges; r[0] != 0; r += 2)
    if (c >= r[0] && c <= r[1]) return true;
  return false;
}

// The characters of `text` past ASCII that an atlas can hold (ImWchar is 16 bits), sorted and
// unique: each gets its glyph, from DejaVu or a fallback font, whether or not the interface's
// ranges hold it already.
std::vector<char32_t> text_code_points(const std::string& text) {
  std::vector<char32_t> points = code_points(text);
  std::erase_if(points, [](char32_t c) { return c < 0x80 || c > IM_UNICODE_CODEPOINT_MAX; });
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

// Glyph ranges of single characters, as ImGui takes them (kept by the atlas until it is cleared).
void build_ranges(const std::vector<char32_t>& points, const ImWchar* base,
                  ImVector<ImWchar>& ranges) {
  ImFontGlyphRangesBuilder builder;
  if (base) builder.AddRanges(base);
  for (const char32_t c : points) builder.AddChar(static_cast<ImWchar>(c));
  ranges.clear();
  builder.BuildRanges(&ranges);
}

// Names each character no font has on stderr, once a run (the audience's window builds its own
// atlas from the same text).
void report_missing(const std::vector<char32_t>& missing) {
  static std::set<char32_t> reported;
  for (const char32_t c : missing) {
    if (!reported.insert(c).second) continue;
    std::string utf8;
    append_utf8(utf8, c);
    std::fprintf(stderr,
                 "attnlab: no installed font has U+%04X (%s): it is drawn as a box; install a "
                 "font that has it (fc-list ':charset=%04x' lists those that do)\n",
                 unsigned(c), utf8.c_str(), unsigned(c));
  }
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
  std::vector<char32_t> extra = text_code_points(text);
  if (extra.size() > kMaxTextGlyphs) extra.resize(kMaxTextGlyphs);
  // The atlas keeps a pointer to its ranges until it is cleared: they live until the next call.
  // The fallback fonts give only the text's characters DejaVu lacks, not whole blocks.
  static ImVector<ImWchar> ranges, fallback_ranges;
  build_ranges(extra, kGlyphRanges, ranges);
  build_ranges(extra, nullptr, fallback_ranges);

  Fonts fonts;
  const std::string ui_path = font_path("DejaVuSans.ttf");
  fonts.ui = add_font(ui_path, pixels, ranges.Data);
  if (fonts.ui && !extra.empty()) {
    for (const FallbackFont& fallback : fallback_fonts_for(extra, ui_path))
      add_font(fallback.file, pixels, fallback_ranges.Data, fallback.index, true);
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
  const int ui_box = reserve_box_glyph(fonts.ui, pixels, kBoxChar);
  const int mono_box =
      fonts.mono != fonts.ui ? reserve_box_glyph(fonts.mono, pixels, kBoxChar) : -1;
  io.Fonts->Build();
  draw_stand_in_glyphs(fonts.ui, pixels, emoji);
  draw_box_glyph(fonts.ui, pixels, kBoxChar, ui_box);
  draw_box_glyph(fonts.mono, pixels, kBoxChar, mono_box);
  for (const char32_t c : extra)
    if (!fonts.ui->FindGlyphNoFallback(static_cast<ImWchar>(c))) fonts.missing.push_back(c);
  if (fonts.from_files) report_missing(fonts.missing);
  return fonts;
}

bool needs_new_glyphs(const std::string& text, const std::string& atlas_text) {
  const std::vector<char32_t> asked = text_code_points(atlas_text);
  for (const char32_t c : text_code_points(text))
    if (!in_ranges(c, kGlyphRanges) && !std::binary_search(asked.begin(), asked.end(), c))
      return true;
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
