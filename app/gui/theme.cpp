#include "app/gui/theme.hpp"

#include <cmath>
#include <filesystem>
#include <string>

#include "app/gui/font_files.hpp"

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

ImFont* add_font(const char* file, float pixels) {
  const std::string path = find_font_file(file);
  if (path.empty()) return nullptr;
  ImFontConfig config;
  config.OversampleH = 2;
  config.OversampleV = 1;
  return ImGui::GetIO().Fonts->AddFontFromFileTTF(path.c_str(), pixels, &config, kGlyphRanges);
}

ImU32 rgb(int r, int g, int b, int a = 255) {
  return IM_COL32(r, g, b, a);
}

}  // namespace

Fonts load_fonts(float scale) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  const float pixels = std::round(kBaseFontPixels * scale);
  Fonts fonts;
  fonts.ui = add_font("DejaVuSans.ttf", pixels);
  fonts.mono = add_font("DejaVuSansMono.ttf", pixels);
  fonts.from_files = fonts.ui != nullptr;
  if (!fonts.ui) {
    ImFontConfig config;
    config.SizePixels = pixels;
    fonts.ui = io.Fonts->AddFontDefault(&config);
  }
  if (!fonts.mono) fonts.mono = fonts.ui;
  io.FontDefault = fonts.ui;
  io.Fonts->Build();
  return fonts;
}

void apply_theme(Theme theme, float scale) {
  ImGuiStyle style;
  if (theme == Theme::Light) {
    ImGui::StyleColorsLight(&style);
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0.98f, 0.98f, 0.97f, 1.0f);
    style.Colors[ImGuiCol_Text] = ImVec4(0.05f, 0.05f, 0.08f, 1.0f);
    style.Colors[ImGuiCol_Border] = ImVec4(0.55f, 0.55f, 0.6f, 0.6f);
    style.Colors[ImGuiCol_FrameBg] = ImVec4(0.88f, 0.89f, 0.92f, 1.0f);
  } else {
    ImGui::StyleColorsDark(&style);
    style.Colors[ImGuiCol_WindowBg] = ImVec4(0.10f, 0.10f, 0.12f, 1.0f);
  }
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
  // Okabe & Ito (2008): distinguishable with the common colour-vision deficiencies.
  static const ImVec4 kColours[] = {
      {0.90f, 0.62f, 0.00f, 1}, {0.34f, 0.71f, 0.91f, 1}, {0.00f, 0.62f, 0.45f, 1},
      {0.80f, 0.47f, 0.65f, 1}, {0.00f, 0.45f, 0.70f, 1}, {0.84f, 0.37f, 0.00f, 1},
      {0.94f, 0.89f, 0.26f, 1}, {0.45f, 0.45f, 0.45f, 1},
  };
  ImVec4 c = kColours[head % IM_ARRAYSIZE(kColours)];
  c.w = alpha;
  return ImGui::ColorConvertFloat4ToU32(c);
}

ImU32 text_colour_on(ImU32 background) {
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(background);
  const float luminance = 0.2126f * c.x + 0.7152f * c.y + 0.0722f * c.z;
  return luminance > 0.5f ? IM_COL32(0, 0, 0, 255) : IM_COL32(255, 255, 255, 255);
}

const Palette& palette(Theme theme) {
  static const Palette light = {rgb(15, 15, 20), rgb(90, 90, 100),   rgb(200, 20, 20),
                                rgb(0, 90, 180), rgb(160, 160, 170), rgb(235, 236, 240),
                                rgb(60, 60, 70), rgb(190, 190, 190), rgb(140, 140, 140)};
  static const Palette dark = {rgb(235, 235, 240), rgb(160, 160, 170), rgb(255, 90, 90),
                               rgb(100, 170, 255), rgb(90, 90, 100),   rgb(45, 46, 52),
                               rgb(200, 200, 210), rgb(110, 110, 110), rgb(70, 70, 70)};
  return theme == Theme::Light ? light : dark;
}

}  // namespace attnlab::gui
