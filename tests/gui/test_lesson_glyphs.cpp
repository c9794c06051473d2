// Every character a lesson or the interface holds is drawn (issue 38): the atlas is built from the
// lesson's text when it is opened, with a font found for each character DejaVu lacks, and a
// character no installed font has is drawn as a box, named once on stderr; never "?".
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/look/token_text.hpp"
#include "app/gui/state/atlas_text.hpp"
#include "app/lessons/lesson_files.hpp"
#include "core/tokenizers/unicode.hpp"
#include "headless_imgui.hpp"
#include "tiny_checkpoints.hpp"

namespace attnlab::gui {
namespace {

std::string hex(char32_t c) {
  char name[16];
  std::snprintf(name, sizeof name, "U+%04X", unsigned(c));
  return name;
}

class LessonGlyphs : public HeadlessImGui {
 protected:
  // The atlas as the window builds it (gl_app.cpp's rebuild_fonts) at the lecture's font scale.
  Fonts build_atlas() {
    state.window.font_text = atlas_text(state);
    const Fonts fonts = load_fonts(1.5f, state.window.font_text, state.typed.stand_ins);
    unsigned char* pixels = nullptr;
    int width = 0, height = 0;
    ImGui::GetIO().Fonts->GetTexDataAsAlpha8(&pixels, &width, &height);
    state.window.mono_font = fonts.mono;
    state.window.fonts_dirty = false;
    return fonts;
  }

  // Each character of `text` (its line named) that the font draws as its fallback.
  static void expect_glyphs(const ImFont& font, const std::string& text, const std::string& where) {
    int line = 1;
    std::set<char32_t> said;
    for (const char32_t c : code_points(text)) {
      if (c == '\n') ++line;
      if (c < 0x20 || c == 0x7F || said.count(c)) continue;
      said.insert(c);
      const bool drawn = c <= IM_UNICODE_CODEPOINT_MAX &&
                         font.FindGlyphNoFallback(static_cast<ImWchar>(c)) != nullptr;
      std::string utf8;
      append_utf8(utf8, c);
      EXPECT_TRUE(drawn) << where << ":" << line << ": " << hex(c) << " (" << utf8
                         << ") has no glyph in the atlas";
    }
  }
};

TEST_F(LessonGlyphs, EveryCharacterOfEveryBuiltInLessonHasAGlyph) {
  load_presets(state);
  for (const lessons::BuiltinLesson& builtin : lessons::builtin_lessons()) {
    SCOPED_TRACE(builtin.name);
    state.window.font_text.clear();  // as at start: the atlas holds the interface's characters
    const std::string model = builtin.name == "real-model"
                                  ? attnlab::fixtures::tiny_checkpoint("gpt2-f32-tied")
                                  : std::string();
    ASSERT_EQ(open_lesson(state, builtin.name, model), "");
    const std::string markdown = unicode::valid_utf8(lessons::builtin_markdown(builtin.name));
    ASSERT_FALSE(markdown.empty());
    if (markdown.find("\xE1\xB5\xA2") != std::string::npos)  // ᵢ: not among the interface's
      EXPECT_TRUE(state.window.fonts_dirty) << "opening the lesson asks for a new atlas";
    const Fonts fonts = build_atlas();
    EXPECT_EQ(fonts.missing, std::vector<char32_t>{}) << "characters drawn as a box";
    // The whole file: every text the lesson band draws comes from it.
    expect_glyphs(*fonts.ui, markdown, builtin.name + ".md");
  }
}

TEST_F(LessonGlyphs, TheSubscriptTheTickAndTheReplacementCharacterAreDrawn) {
  load_presets(state);
  ASSERT_EQ(open_lesson(state, "ten-minutes", ""), "");
  const Fonts fonts = build_atlas();
  for (const char32_t c : {char32_t(0x1D62), char32_t(0x2713), char32_t(0x2717), char32_t(0xFFFD)})
    EXPECT_NE(fonts.ui->FindGlyphNoFallback(static_cast<ImWchar>(c)), nullptr) << hex(c);
  EXPECT_NE(fonts.ui->FindGlyphNoFallback(0x1D62), fonts.ui->FallbackGlyph);
}

// A byte that is not UTF-8 in a lesson reads as U+FFFD, and U+FFFD is drawn.
TEST_F(LessonGlyphs, ALessonWithABadByteDrawsTheReplacementCharacter) {
  load_presets(state);
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "attnlab_glyphs";
  std::filesystem::create_directories(dir);
  const std::string file = (dir / "bad-byte.md").string();
  std::ofstream(file) << "# Bad\n\n## One\n```attnlab\n--preset seed003\n```\nCaf\xE9 is \xFF.\n";
  ASSERT_EQ(open_lesson(state, file, ""), "");
  ASSERT_EQ(state.lesson.lesson.scenes.size(), 1u);
  EXPECT_NE(state.lesson.lesson.scenes[0].caption.find("\xEF\xBF\xBD"), std::string::npos);
  const Fonts fonts = build_atlas();
  expect_glyphs(*fonts.ui, lesson_text(state.lesson), file);
}

// The interface's own strings: every character past ASCII in a string of the app's source (raw or
// as a \u escape) has a glyph in the atlas built for no text at all.
TEST_F(LessonGlyphs, EveryCharacterOfTheInterfacesStringsHasAGlyph) {
  const Fonts fonts = load_fonts(1.0f);
  const std::regex string_literal(R"re("(?:[^"\\\n]|\\.)*")re");
  const std::regex escape(R"(\\u([0-9a-fA-F]{4}))");
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(
           std::string(ATTNLAB_SOURCE_DIR) + "/app/gui")) {
    if (entry.path().extension() != ".cpp") continue;
    ++files;
    std::ifstream in(entry.path());
    std::string line, strings;
    while (std::getline(in, line)) {
      const std::string code = line.substr(0, line.find("// "));  // comments are not drawn
      for (std::sregex_iterator s(code.begin(), code.end(), string_literal), end; s != end; ++s) {
        const std::string literal = s->str();
        for (std::sregex_iterator e(literal.begin(), literal.end(), escape); e != end; ++e)
          append_utf8(strings, char32_t(std::stoul((*e)[1].str(), nullptr, 16)));
        for (const char32_t c : code_points(literal))
          if (c >= 0x80) append_utf8(strings, c);
      }
    }
    expect_glyphs(*fonts.ui, strings, entry.path().string());
  }
  EXPECT_GT(files, 50) << "the app's sources were read";
}

// A character no installed font has (U+2FE0 is unassigned) is drawn as an empty box, not "?",
// and named once on stderr however often the atlas is built.
TEST_F(LessonGlyphs, ACharacterNoFontHasIsABoxNamedOnce) {
  ::testing::internal::CaptureStderr();
  load_fonts(1.0f, "a\u2FE0b");
  const Fonts fonts = load_fonts(1.0f, "a\u2FE0b");
  const std::string said = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(fonts.missing, std::vector<char32_t>{0x2FE0});
  size_t times = 0;
  for (size_t at = said.find("U+2FE0"); at != std::string::npos; at = said.find("U+2FE0", at + 1))
    ++times;
  EXPECT_EQ(times, 1u) << said;
  EXPECT_NE(said.find("drawn as a box"), std::string::npos) << said;

  unsigned char* pixels = nullptr;
  int width = 0, height = 0;
  ImGui::GetIO().Fonts->GetTexDataAsAlpha8(&pixels, &width, &height);
  const ImFont& font = *fonts.ui;
  EXPECT_EQ(font.FindGlyphNoFallback(0x2FE0), nullptr);
  const ImFontGlyph* box = font.FindGlyphNoFallback(kBoxChar);
  ASSERT_NE(box, nullptr);
  EXPECT_EQ(font.FindGlyph(0x2FE0), box) << "the box is what a missing character is drawn as";
  EXPECT_NE(font.FallbackChar, ImWchar('?'));
  EXPECT_GT(font.GetCharAdvance(0x2FE0), 0.0f);
  // Its outline is inked, its inside is empty; it stands on the baseline.
  const int x0 = int(box->U0 * float(width) + 0.5f), x1 = int(box->U1 * float(width) + 0.5f);
  const int y0 = int(box->V0 * float(height) + 0.5f), y1 = int(box->V1 * float(height) + 0.5f);
  ASSERT_GT(x1 - x0, 4);
  ASSERT_GT(y1 - y0, 4);
  for (int x = x0; x < x1; ++x) {
    EXPECT_EQ(pixels[y0 * width + x], 0xFF) << "top edge at " << x - x0;
    EXPECT_EQ(pixels[(y1 - 1) * width + x], 0xFF) << "bottom edge at " << x - x0;
  }
  for (int y = y0; y < y1; ++y) {
    EXPECT_EQ(pixels[y * width + x0], 0xFF) << "left edge at " << y - y0;
    EXPECT_EQ(pixels[y * width + x1 - 1], 0xFF) << "right edge at " << y - y0;
  }
  EXPECT_EQ(pixels[((y0 + y1) / 2) * width + (x0 + x1) / 2], 0x00) << "the inside is empty";
  EXPECT_FLOAT_EQ(box->Y1, std::round(font.Ascent));
}

}  // namespace
}  // namespace attnlab::gui
