// Every writer takes any text whole (issue 43): the maps' SVG and PDF, the handout PDF and the
// one-file page's lesson block, each fed every hostile text of tests/gui/writer_texts/ and a list
// here (bytes that are not UTF-8, NUL and other controls, "</script", "<!--<script", "<\/", CDATA,
// U+FFFE). The fuzz target fuzz_writers (tests/fuzz/fuzz_writers_input.hpp) feeds them arbitrary
// bytes with the same promises; this test keeps the named texts. Each output must be
// whole: the SVG's text valid XML 1.0 character data that reads back as the text made valid; the
// PDFs drawn with no cairo error; the page's block free of "<" and decoding (JSON) to exactly the
// text made valid. A cairo error is reported in one line and leaves no file.
#include <cairo.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "app/gui/export/cairo_pdf.hpp"
#include "app/gui/export/maps_pdf.hpp"
#include "app/gui/export/one_page.hpp"
#include "app/gui/export/vector_export.hpp"
#include "app/gui/lessons/handout_pdf.hpp"
#include "core/model/errors.hpp"
#include "core/tokenizers/unicode.hpp"

namespace attnlab::gui {
namespace {

namespace fs = std::filesystem;

struct Hostile {
  std::string name, text;
};

// The list here, then every file of tests/gui/writer_texts/ (README.md aside).
std::vector<Hostile> hostile_texts() {
  std::vector<Hostile> texts = {
      {"latin1", "caf\xe9 au lait"},
      {"nul", std::string("a\0b", 3)},
      {"controls", "\x01\x02\x0b\x0c\x1b\x1f\x7f"},
      {"crlf_tab", "one\r\ntwo\rthree\tfour"},
      {"script_end", "</script>"},
      {"comment_script", "<!--<script>"},
      {"escaped_slash", "<\\/"},
      {"cdata", "<![CDATA[x]]>"},
      {"markup", "<b>&amp;\"'</b>"},
      {"noncharacters", "\xEF\xBF\xBE\xEF\xBF\xBF"},
      {"cut", "\xE4\xBD"},
      {"empty", ""},
  };
  std::vector<fs::path> files;
  for (const auto& entry :
       fs::directory_iterator(fs::path(ATTNLAB_SOURCE_DIR) / "tests/gui/writer_texts"))
    if (entry.path().extension() == ".txt") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    texts.push_back({file.stem().string(), bytes.str()});
  }
  return texts;
}

// What XML 1.0 can hold of `text`: valid UTF-8, each character XML refuses as U+FFFD.
std::string xml_holdable(const std::string& text) {
  std::u32string characters = unicode::decode_utf8(text);
  for (char32_t& c : characters)
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0xFFFE || c == 0xFFFF)
      c = U'\uFFFD';
  return unicode::encode_utf8(characters);
}

// XML character data as a parser gives it back: the five references the writer uses and the
// numeric ones for tab, new line and carriage return. Fails on any other "&" or a "<".
std::string xml_read(const std::string& data) {
  static const std::pair<const char*, const char*> kReferences[] = {
      {"&amp;", "&"}, {"&lt;", "<"},   {"&gt;", ">"},  {"&quot;", "\""},
      {"&#9;", "\t"}, {"&#10;", "\n"}, {"&#13;", "\r"}};
  std::string out;
  for (size_t i = 0; i < data.size();) {
    EXPECT_NE(data[i], '<') << "a raw '<' in character data";
    if (data[i] != '&') {
      out += data[i++];
      continue;
    }
    bool known = false;
    for (const auto& [reference, character] : kReferences)
      if (data.compare(i, std::strlen(reference), reference) == 0) {
        out += character;
        i += std::strlen(reference);
        known = true;
        break;
      }
    EXPECT_TRUE(known) << "an unknown reference at " << data.substr(i, 8);
    if (!known) ++i;
  }
  return out;
}

// A one-text picture: the words as a token label in a group whose data holds them too.
VectorPicture picture_with(const std::string& words) {
  VectorPicture picture;
  picture.width = 200, picture.height = 100;
  picture.items.push_back(VectorGroup{true, "head-0", {{"data-note", words}}});
  picture.items.push_back(VectorText{10, 50, words, 14, TextAnchor::Start, 0, "query"});
  picture.items.push_back(VectorText{100, 50, words, 14, TextAnchor::Middle, -90, "key"});
  picture.items.push_back(VectorGroup{false, "", {}});
  return picture;
}

int pdf_pages(const std::string& pdf) {
  const std::regex page(R"(/Type\s*/Page[^s\w])");
  return int(
      std::distance(std::sregex_iterator(pdf.begin(), pdf.end(), page), std::sregex_iterator()));
}

class WriterText : public ::testing::Test {
 protected:
  void SetUp() override {
    dir = fs::temp_directory_path() / ("attnlab_writer_text_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    picture = (dir / "slide.png").string();
    cairo_surface_t* image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 64, 36);
    ASSERT_EQ(cairo_surface_write_to_png(image, picture.c_str()), CAIRO_STATUS_SUCCESS);
    cairo_surface_destroy(image);
  }
  void TearDown() override { fs::remove_all(dir); }
  fs::path dir;
  std::string picture;
};

TEST_F(WriterText, TheSvgHoldsEveryTextAsXmlThatReadsBackAsTheTextMadeValid) {
  for (const auto& [name, text] : hostile_texts()) {
    SCOPED_TRACE(name);
    const std::string svg = picture_svg(picture_with(text));
    EXPECT_EQ(unicode::valid_utf8(svg), svg) << "the SVG is valid UTF-8";
    EXPECT_EQ(xml_holdable(svg), svg) << "no character XML 1.0 refuses";
    const std::regex label("class=\"query\">([^<]*)</text>");
    std::smatch found;
    ASSERT_TRUE(std::regex_search(svg, found, label)) << "the label's <text> is whole";
    EXPECT_EQ(xml_read(found[1]), xml_holdable(unicode::valid_utf8(text)));
    const std::regex note("data-note=\"([^\"]*)\">");
    ASSERT_TRUE(std::regex_search(svg, found, note)) << "the group's data is one attribute";
    EXPECT_EQ(xml_read(found[1]), xml_holdable(unicode::valid_utf8(text)));
  }
}

TEST_F(WriterText, ThePdfsDrawEveryTextWhole) {
  for (const auto& [name, text] : hostile_texts()) {
    SCOPED_TRACE(name);
    std::string maps;
    ASSERT_NO_THROW(maps = picture_pdf(picture_with(text)));
    EXPECT_EQ(maps.rfind("%PDF-", 0), 0u);
    EXPECT_EQ(pdf_pages(maps), 1);
    const std::string handout = (dir / (name + ".pdf")).string();
    const HandoutPage page{picture, "1. " + text, {text, "Question: " + text}, {text}};
    ASSERT_NO_THROW(write_handout_pdf(handout, text, {page, page}));
    std::ifstream in(handout, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(pdf_pages(bytes), 2);
  }
}

// The page's lesson block as a page's JSON.parse reads it: {name, markdown}.
nlohmann::json block_of(const std::string& page) {
  const std::string start = "<script type=\"application/json\" id=\"attnlab-lesson\">";
  const size_t at = page.rfind(start);
  if (at == std::string::npos) return {};
  const size_t text_at = at + start.size();
  const std::string text = page.substr(text_at, page.find("</script>", text_at) - text_at);
  EXPECT_EQ(text.find('<'), std::string::npos) << "no '<' inside the block";
  return nlohmann::json::parse(text);
}

const std::string kPage =
    "<!doctype html>\n<html><body><script id=\"attnlab-code\">code()</script>\n</body></html>\n";

TEST_F(WriterText, ThePageHoldsEveryLessonAndNameExactly) {
  for (const auto& [name, text] : hostile_texts()) {
    SCOPED_TRACE(name);
    const std::string page = page_with_lesson(kPage, text, text);
    const nlohmann::json held = block_of(page);
    ASSERT_TRUE(held.is_object());
    EXPECT_EQ(held["markdown"].get<std::string>(), unicode::valid_utf8(text));
    EXPECT_EQ(held["name"].get<std::string>(), unicode::valid_utf8(text));
    EXPECT_EQ(page.substr(0, page.rfind("</body>")).find("</script", page.rfind("attnlab-lesson")),
              page.rfind("</script>"))
        << "the block's own end is the only one after its start";
    // Saved again over itself: one block, the new lesson.
    const std::string again = page_with_lesson(page, "again", text + "!");
    EXPECT_EQ(block_of(again)["markdown"].get<std::string>(), unicode::valid_utf8(text) + "!");
    EXPECT_EQ(again.size(),
              page.size() - json_for_script(text).size() + json_for_script("again").size() + 1);
  }
}

TEST_F(WriterText, AFourMebibyteLessonOfEscapesIsWrittenAndReadsBack) {
  std::string markdown;
  for (int i = 0; i < (1 << 21); ++i) markdown += "</";
  const std::string page = page_with_lesson(kPage, "big", markdown);
  EXPECT_EQ(block_of(page)["markdown"].get<std::string>(), markdown);
}

TEST_F(WriterText, ACairoErrorIsOneLineAndNoFile) {
  // Text that is not UTF-8 stops a cairo context (it draws nothing after it): the bytes are
  // refused.
  try {
    cairo_pdf_bytes(
        100, 100, "",
        [](cairo_t* cr) {
          cairo_move_to(cr, 10, 50);
          cairo_show_text(cr, "caf\xe9");
          cairo_show_page(cr);
        },
        "cannot draw the test");
    ADD_FAILURE() << "no error";
  } catch (const UserError& error) {
    EXPECT_EQ(std::string(error.what()), "cannot draw the test: input string not valid UTF-8");
  }
  // A text turned by an angle that is not a number: the maps' PDF says so and writes nothing.
  VectorPicture broken = picture_with("label");
  std::get<VectorText>(broken.items[1]).rotation = std::nan("");
  const std::string path = (dir / "maps.pdf").string();
  const std::string error = write_picture_pdf(broken, path);
  EXPECT_EQ(error, "cannot draw the maps as PDF: invalid matrix (not invertible)");
  EXPECT_FALSE(fs::exists(path));
  // A handout with no page, or a page whose picture cannot be read: no file either.
  const std::string handout = (dir / "lesson.pdf").string();
  EXPECT_THROW(write_handout_pdf(handout, "t", {}), UserError);
  EXPECT_THROW(write_handout_pdf(handout, "t", {{(dir / "absent.png").string(), "1. x", {}, {}}}),
               UserError);
  EXPECT_FALSE(fs::exists(handout));
  for (const auto& entry : fs::directory_iterator(dir))
    EXPECT_EQ(entry.path().extension(), ".png") << "a temporary left: " << entry.path();
}

}  // namespace
}  // namespace attnlab::gui
