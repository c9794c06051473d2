// Issue 9, text and labels: an empty sentence is explained beside its box, characters the font
// lacks read as code points (never "?"), thinned heatmap axes carry positions, 16 heads get 16
// distinct colours, and the numbers in faded tensors keep a 4.5:1 contrast.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

#include "app/gui/look/axis_labels.hpp"
#include "app/gui/look/colormap.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/look/token_text.hpp"
#include "app/gui/panels/tensor_drawing.hpp"
#include "app/gui/panels/text_field.hpp"
#include "core/model/tokenizer.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {
namespace {

bool explained(const AppState& state, const std::string& field) {
  return std::find(state.frame.explained.begin(), state.frame.explained.end(), field) !=
         state.frame.explained.end();
}

// [SECTION] the sentence box

using TextAndLabels = HeadlessImGui;

TEST_F(TextAndLabels, ABlankSentenceIsExplainedBesideItsBox) {
  start_on("seed003");
  EXPECT_FALSE(explained(state, "sentence")) << "seed 003 has its own sentence";
  Config config = state.session.config;
  config.sentence = "   ";
  set_config(state, config);
  frame();
  EXPECT_TRUE(explained(state, "sentence")) << "a sentence of only spaces";
  // Empty, the box's own hint says the sample text is used: no extra line under every preset
  // that has no sentence of its own.
  config.sentence = "";
  set_config(state, config);
  frame();
  EXPECT_FALSE(explained(state, "sentence"));
}

TEST_F(TextAndLabels, NewCharactersInTheSentenceAskForANewAtlas) {
  EXPECT_TRUE(needs_new_glyphs("我 爱 猫", ""));
  EXPECT_TRUE(needs_new_glyphs("猫 狗", "猫"));
  EXPECT_FALSE(needs_new_glyphs("猫", "猫 狗"));
  EXPECT_FALSE(needs_new_glyphs("café au lait", ""));  // Latin-1 is always in the atlas
}

// [SECTION] characters the font lacks

TEST(TokenText, CodePointsOfUtf8) {
  EXPECT_EQ(code_points("a\u732B"), (std::vector<char32_t>{U'a', 0x732B}));
  EXPECT_EQ(code_points("\xF0\x9F\x90\xB1"), (std::vector<char32_t>{0x1F431}));  // 🐱
  EXPECT_EQ(code_points("caf\xE9!"), (std::vector<char32_t>{U'c', U'a', U'f', 0xFFFD, U'!'}));
  EXPECT_EQ(code_points("\xC0\xAF"), (std::vector<char32_t>{0xFFFD, 0xFFFD}));  // overlong '/'
}

TEST_F(TextAndLabels, CharactersTheFontLacksReadAsCodePoints) {
  // The fixture's atlas holds DejaVu for the formulas only: no Chinese.
  const ImFont& font = *ImGui::GetIO().Fonts->Fonts[0];
  EXPECT_EQ(display_text("\u732B", font), "U+732B");
  EXPECT_EQ(display_text("a\u732Bb", font), "aU+732Bb");
  EXPECT_EQ(display_text("\xF0\x9F\x90\xB1", font), "U+1F431");  // past ImGui's 16-bit glyphs
  EXPECT_EQ(display_text("café", font), "café");
}

TEST_F(TextAndLabels, AFallbackFontDrawsChineseAsIs) {
  load_fonts(1.0f, "我 爱 猫 \xF0\x9F\x90\xB1 hello");
  const ImFont& font = *ImGui::GetIO().Fonts->Fonts[0];
  if (!font.FindGlyphNoFallback(0x732B))
    GTEST_SKIP() << "no installed font has U+732B (install fonts-droid-fallback)";
  EXPECT_EQ(display_text("\u732B", font), "\u732B");
  EXPECT_EQ(display_text("\u6211", font), "\u6211");
  EXPECT_EQ(display_text("\xF0\x9F\x90\xB1", font), "U+1F431");
  EXPECT_EQ(display_text("hello", font), "hello");
  EXPECT_EQ(display_text("\u72D7", font), "U+72D7") << "only the sentence's characters are added";
}

// Korean (fonts-unfonts-core) and an emoji past U+FFFF (fonts-symbola, drawn monochrome from the
// field's stand-in) in the sentence field: every character it shows has a glyph, none is "?".
TEST_F(TextAndLabels, TheSentenceFieldDrawsKoreanAndAnEmojiAsIs) {
  start_on("seed003");
  Config config = state.session.config;
  config.sentence = "\uACE0\uC591\uC774 \xF0\x9F\x98\x80 cat";  // 고양이 😀 cat
  set_config(state, config);
  frame();  // the field shows the emoji as a stand-in, and asks for its glyph
  ASSERT_EQ(state.typed.stand_ins, (std::vector<char32_t>{0x1F600}));
  EXPECT_TRUE(state.window.fonts_dirty);
  // As the window rebuilds the atlas (gl_app.cpp's rebuild_fonts): the old fonts are gone, so
  // the state takes the new atlas's mono font too.
  state.window.mono_font = load_fonts(1.0f, config.sentence, state.typed.stand_ins).mono;
  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  ImGui::GetIO().Fonts->GetTexDataAsAlpha8(&pixels, &width, &height);
  frame();
  const ImFont& font = *ImGui::GetIO().Fonts->Fonts[0];
  const std::string shown = to_field_text(state.typed, config.sentence);
  for (const char32_t c : code_points(shown)) {
    EXPECT_NE(font.FindGlyphNoFallback(ImWchar(c)), nullptr)
        << "U+" << std::hex << unsigned(c)
        << " is drawn as \"?\" (install fonts-unfonts-core and fonts-symbola: setup.sh does)";
  }
  // The emoji's glyph has ink: some of its atlas pixels are set.
  const ImFontGlyph* emoji = font.FindGlyphNoFallback(ImWchar(kFirstStandIn));
  ASSERT_NE(emoji, nullptr);
  int inked = 0;
  for (int y = int(emoji->V0 * height); y < int(emoji->V1 * height); ++y)
    for (int x = int(emoji->U0 * width); x < int(emoji->U1 * width); ++x)
      inked += pixels[y * width + x] > 128;
  EXPECT_GT(inked, 20) << "the emoji's glyph is blank";
  EXPECT_GT(emoji->AdvanceX, 0.0f);
}

// [SECTION] heatmap axes

TEST(AxisLabels, AllTokensWhenTheyFit) {
  const std::vector<std::string> words = {"The", "cat", "sat"};
  const auto labels = axis_labels(3, 40.0f, 15.0f, [&](int64_t i) { return words[size_t(i)]; });
  ASSERT_EQ(labels.size(), 3u);
  EXPECT_EQ(labels[1].index, 1);
  EXPECT_EQ(labels[1].text, "cat");
}

TEST(AxisLabels, ThinnedLabelsCarryTheirPositions) {
  // gpt2-small: T = 1024 tokens of the 35-token sample text, in a map 600 px tall with 15 px
  // labels: a label needs 15.75 px, i.e. 27 cells of 0.586 px; the round step is 50.
  const std::vector<std::string> tokens = tokens_for("", 1024);
  const float cell = 600.0f / 1024.0f;
  const auto labels = axis_labels(1024, cell, 15.0f, [&](int64_t i) { return tokens[size_t(i)]; });
  ASSERT_EQ(labels.size(), 21u);  // 0, 50, ..., 1000
  std::set<std::string> distinct;
  for (const AxisLabel& label : labels) {
    EXPECT_EQ(label.index % 50, 0);
    EXPECT_EQ(label.text, std::to_string(label.index) + ":" + tokens[size_t(label.index)]);
    distinct.insert(label.text);
  }
  EXPECT_EQ(distinct.size(), labels.size());
  EXPECT_EQ(labels[3].text, "150:brush");  // 150 = 4 * 35 + 10: the sample's 11th token
}

// [SECTION] colours

// CIELAB (D65) of an sRGB colour, for colour distances (CIE76 delta E).
std::array<double, 3> lab(ImU32 colour) {
  const ImVec4 c = ImGui::ColorConvertU32ToFloat4(colour);
  auto linear = [](double v) {
    return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
  };
  const double r = linear(c.x), g = linear(c.y), b = linear(c.z);
  const double x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
  const double y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const double z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
  auto f = [](double t) { return t > 0.008856 ? std::cbrt(t) : 7.787 * t + 16.0 / 116.0; };
  return {116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))};
}

double delta_e(ImU32 a, ImU32 b) {
  const auto p = lab(a), q = lab(b);
  return std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
}

TEST(HeadColours, SixteenHeadsGetSixteenDistinctColours) {
  double closest = 1e9;
  for (int a = 0; a < 16; ++a)
    for (int b = a + 1; b < 16; ++b)
      closest = std::min(closest, delta_e(head_colour(a), head_colour(b)));
  // Okabe & Ito's own eight are 26.6 apart at the closest; 20 is clearly distinct side by side.
  EXPECT_GT(closest, 20.0);
  for (const Theme theme : {Theme::Light, Theme::Dark})
    for (int h = 0; h < 16; ++h)
      EXPECT_GT(delta_e(head_colour(h), palette(theme).background), 30.0) << "head " << h;
}

// WCAG 2 contrast, computed here from its definition.
double wcag_contrast(ImU32 a, ImU32 b) {
  auto luminance = [](ImU32 colour) {
    const ImVec4 c = ImGui::ColorConvertU32ToFloat4(colour);
    auto linear = [](double v) {
      return v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * linear(c.x) + 0.7152 * linear(c.y) + 0.0722 * linear(c.z);
  };
  const double la = luminance(a), lb = luminance(b);
  return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

TEST(FadedTensors, NumbersAndCaptionsKeepAContrastOfFourAndAHalf) {
  for (const Theme theme : {Theme::Light, Theme::Dark}) {
    const Palette& colours = palette(theme);
    EXPECT_GE(wcag_contrast(colours.text_dim, colours.background), 4.5) << "faded captions";
    double worst = 21;
    for (const ColormapKind kind : {ColormapKind::Sequential, ColormapKind::Diverging}) {
      for (int i = 0; i <= 100; ++i) {
        const ImU32 cell = colour_at_packed(kind, float(i) / 100.0f);
        const CellColours faded = faded_cell(cell, 0.5f, colours.background);
        // The fill is the cell colour half over the background.
        const ImVec4 c = ImGui::ColorConvertU32ToFloat4(cell);
        const ImVec4 bg = ImGui::ColorConvertU32ToFloat4(colours.background);
        const ImVec4 f = ImGui::ColorConvertU32ToFloat4(faded.fill);
        EXPECT_NEAR(f.x, 0.5f * (c.x + bg.x), 1.0f / 255);
        EXPECT_NEAR(f.w, 1.0f, 1e-6f);
        worst = std::min(worst, wcag_contrast(faded.ink, faded.fill));
      }
    }
    EXPECT_GE(worst, 4.5) << (theme == Theme::Light ? "light" : "dark");
  }
}

}  // namespace
}  // namespace attnlab::gui
