#include "tests/fuzz/fuzz_writers_input.hpp"

#include <cairo.h>
#include <expat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "app/gui/export/maps_pdf.hpp"
#include "app/gui/export/one_page.hpp"
#include "app/gui/export/vector_export.hpp"
#include "app/gui/lessons/handout_pdf.hpp"
#include "app/gui/lessons/lesson_player.hpp"
#include "app/lessons/lesson.hpp"
#include "core/model/errors.hpp"
#include "core/model/tokenizer.hpp"
#include "core/tokenizers/unicode.hpp"
#include "tests/fuzz/fuzz_inputs.hpp"

namespace attnlab::fuzz {
namespace {

namespace fs = std::filesystem;

// The handout of a lesson: its first slides (each page is drawn alike; more would only be slower).
constexpr size_t kMaxSlides = 6;
// The map's labels: the sentence's first tokens.
constexpr size_t kMaxTokens = 10;

// The one-file page as the writer finds it: its own code spells the lesson block's start (inside a
// script, where it is no element), and the block goes just before </body>.
constexpr char kTemplate[] =
    "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>Attention Lab</title></head>"
    "<body>\n<script id=\"attnlab-code\">const lessonBlock = (name, markdown) =>\n"
    "  '<script type=\"application/json\" id=\"attnlab-lesson\">' + JSON.stringify({name, "
    "markdown}) + '<\\/script>\\n';</script>\n</body></html>\n";
constexpr char kBlockStart[] = "<script type=\"application/json\" id=\"attnlab-lesson\">";

void require(bool holds, const std::string& promise) {
  if (!holds) throw BrokenPromise(promise);
}

void require_one_line(const std::string& text, const std::string& what) {
  require(!text.empty() && text.find('\n') == std::string::npos,
          what + " is not one line: \"" + text.substr(0, 200) + "\"");
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

void write_file(const fs::path& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary);
  out << bytes;
  require(bool(out), "cannot write the fuzzer's own file " + path.string());
}

// A folder of this process's own under the temporary folder ($TMPDIR), with the files every input
// uses: a slide's picture and the one-file page. Removed when the process ends.
struct Scratch {
  fs::path dir, picture, page;
  Scratch() {
    dir = fs::temp_directory_path() / ("attnlab_fuzz_writers_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    picture = dir / "slide.png";
    cairo_surface_t* image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 32, 18);
    const cairo_status_t status = cairo_surface_write_to_png(image, picture.c_str());
    cairo_surface_destroy(image);
    require(status == CAIRO_STATUS_SUCCESS, "cannot write the fuzzer's slide picture");
    page = dir / "page.html";
    write_file(page, kTemplate);
  }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
  // Back to the two files above, whatever an input that broke a promise left behind.
  void clear() const {
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.path() != picture && entry.path() != page) fs::remove_all(entry.path());
  }
  // Only the two files above: a writer left nothing behind (no temporary, no part of a file).
  void require_clean(const std::string& after) const {
    for (const auto& entry : fs::directory_iterator(dir))
      require(entry.path() == picture || entry.path() == page,
              after + " left " + entry.path().filename().string() + " behind");
  }
};

Scratch& scratch() {
  static Scratch folder;
  return folder;
}

// [SECTION] the PDFs

// The pages of a PDF cairo wrote: its objects "N 0 obj\n<< /Type /Page" (not /Pages). A text of
// the input can appear only in the document's title, where it holds no new line.
int pdf_pages(const std::string& pdf) {
  static const std::string kPage = " obj\n<< /Type /Page";
  int pages = 0;
  for (size_t at = pdf.find(kPage); at != std::string::npos; at = pdf.find(kPage, at + 1))
    pages += at + kPage.size() < pdf.size() && !std::isalpha(uint8_t(pdf[at + kPage.size()]));
  return pages;
}

void require_whole_pdf(const std::string& pdf, int pages, const std::string& what) {
  require(pdf.rfind("%PDF-", 0) == 0, what + " does not start with %PDF-");
  const size_t last = pdf.find_last_not_of("\r\n");
  require(last != std::string::npos && last >= 4 && pdf.compare(last - 4, 5, "%%EOF") == 0,
          what + " does not end with %%EOF");
  const int found = pdf_pages(pdf);
  require(found == pages,
          what + " has " + std::to_string(found) + " pages, not " + std::to_string(pages));
}

// write_handout_pdf: with a picture it can read, every page is drawn (its texts made drawable);
// without a page it refuses in one line. Either way nothing is left but the whole file.
void check_handout(const std::string& title, const std::vector<gui::HandoutPage>& pages,
                   const std::string& what) {
  const Scratch& folder = scratch();
  const fs::path path = folder.dir / "lesson.pdf";
  try {
    gui::write_handout_pdf(path.string(), title, pages);
  } catch (const UserError& error) {
    require_one_line(error.what(), what + "'s refusal");
    require(pages.empty(), what + " was refused: " + error.what());
    require(!fs::exists(path), what + " was refused but written");
    folder.require_clean(what + "'s refusal");
    return;
  }
  require(!pages.empty(), what + " without a page was written");
  require_whole_pdf(read_file(path), int(pages.size()), what);
  fs::remove(path);
  folder.require_clean(what);
}

void check_handouts(const std::string& bytes) {
  // The text as it comes: every field of a page and the lesson's title.
  const gui::HandoutPage page{
      scratch().picture.string(), "1. " + bytes, {bytes, "Question: " + bytes}, {bytes}};
  check_handout(bytes, {page}, "the handout of the text");
  // The text as a lesson: its slides' pages as --export-slides makes them.
  const lessons::Lesson lesson = lessons::parse_lesson(bytes, "fuzz.md");
  std::vector<gui::HandoutPage> pages;
  for (const gui::Slide& slide : gui::lesson_slides(lesson)) {
    if (pages.size() == kMaxSlides) break;
    pages.push_back(
        gui::handout_page(lesson, slide.scene, slide.answer, scratch().picture.string()));
  }
  check_handout(lesson.title, pages, "the lesson's handout");
}

// [SECTION] the SVG

// What XML 1.0 can hold of `text`: valid UTF-8, each character XML refuses as U+FFFD.
std::string xml_holdable(const std::string& text) {
  std::u32string characters = unicode::decode_utf8(text);
  for (char32_t& c : characters)
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0xFFFE || c == 0xFFFF)
      c = U'\uFFFD';
  return unicode::encode_utf8(characters);
}

// A map of the sentence's tokens, in a group whose data and title hold the text itself.
gui::VectorPicture sentence_picture(const std::string& text) {
  std::vector<std::string> tokens = tokenize(text);
  if (tokens.size() > kMaxTokens) tokens.resize(kMaxTokens);
  const double cell = 20, left = 120, top = 140, side = cell * double(tokens.size());
  gui::VectorPicture picture;
  picture.width = left + side + 20, picture.height = top + side + 20;
  picture.items.push_back(
      gui::VectorGroup{true, "head-0", {{"data-head", "0"}, {"data-note", text}}});
  picture.items.push_back(
      gui::VectorText{20, 30, text, 14, gui::TextAnchor::Start, 0, "head-title"});
  picture.items.push_back(gui::VectorText{20, 60, text, 12, gui::TextAnchor::Middle, 0, "query"});
  for (size_t q = 0; q < tokens.size(); ++q) {
    const double at = double(q) * cell + cell / 2;
    picture.items.push_back(
        gui::VectorText{left - 6, top + at, tokens[q], 12, gui::TextAnchor::End, 0, "query"});
    picture.items.push_back(
        gui::VectorText{left + at, top - 6, tokens[q], 12, gui::TextAnchor::Start, -90, "key"});
    for (size_t k = 0; k < tokens.size(); ++k) {
      gui::VectorRect r;
      r.x = left + double(k) * cell, r.y = top + double(q) * cell, r.w = r.h = cell;
      r.cell = true, r.query = int64_t(q), r.key = int64_t(k), r.value = 1.0 / double(q + 1);
      r.masked = k > q, r.position = r.value;
      picture.items.push_back(r);
    }
  }
  picture.items.push_back(gui::VectorGroup{false, "", {}});
  return picture;
}

// The SVG as an XML parser gives it back: its root, each <text>'s characters in order and each
// group's attributes.
struct XmlRead {
  std::string root;
  std::vector<std::string> texts;
  std::vector<std::vector<std::pair<std::string, std::string>>> groups;
  bool in_text = false;
};

void XMLCALL on_start(void* data, const XML_Char* name, const XML_Char** attributes) {
  auto& read = *static_cast<XmlRead*>(data);
  if (read.root.empty()) read.root = name;
  if (std::strcmp(name, "text") == 0) {
    read.texts.emplace_back();
    read.in_text = true;
  } else if (std::strcmp(name, "g") == 0) {
    read.groups.emplace_back();
    for (const XML_Char** a = attributes; *a; a += 2) read.groups.back().emplace_back(a[0], a[1]);
  }
}

void XMLCALL on_end(void* data, const XML_Char*) {
  static_cast<XmlRead*>(data)->in_text = false;
}

void XMLCALL on_characters(void* data, const XML_Char* characters, int length) {
  auto& read = *static_cast<XmlRead*>(data);
  if (read.in_text) read.texts.back().append(characters, size_t(length));
}

XmlRead parse_xml(const std::string& svg) {
  XmlRead read;
  using Parser = std::unique_ptr<XML_ParserStruct, decltype(&XML_ParserFree)>;
  Parser parser(XML_ParserCreate(nullptr), XML_ParserFree);
  require(parser != nullptr, "expat could not start");
  XML_SetUserData(parser.get(), &read);
  XML_SetElementHandler(parser.get(), on_start, on_end);
  XML_SetCharacterDataHandler(parser.get(), on_characters);
  if (XML_Parse(parser.get(), svg.data(), int(svg.size()), XML_TRUE) != XML_STATUS_OK)
    throw BrokenPromise(std::string("the SVG is not well-formed XML: ") +
                        XML_ErrorString(XML_GetErrorCode(parser.get())) + " at line " +
                        std::to_string(XML_GetCurrentLineNumber(parser.get())) + ", column " +
                        std::to_string(XML_GetCurrentColumnNumber(parser.get())));
  return read;
}

void check_svg(const gui::VectorPicture& picture, const std::string& text) {
  const std::string svg = gui::picture_svg(picture);
  require(unicode::valid_utf8(svg) == svg, "the SVG is not valid UTF-8");
  const XmlRead read = parse_xml(svg);
  require(read.root == "svg", "the SVG's root is <" + read.root + ">");
  std::vector<std::string> wanted;
  for (const gui::VectorItem& item : picture.items)
    if (const auto* words = std::get_if<gui::VectorText>(&item))
      wanted.push_back(xml_holdable(words->words));
  require(read.texts.size() == wanted.size(), "the SVG has " + std::to_string(read.texts.size()) +
                                                  " texts, not " + std::to_string(wanted.size()));
  for (size_t i = 0; i < wanted.size(); ++i)
    require(read.texts[i] == wanted[i], "the SVG's text " + std::to_string(i) +
                                            " reads back as \"" + read.texts[i].substr(0, 80) +
                                            "\", not as the text made valid");
  require(read.groups.size() == 1, "the SVG has " + std::to_string(read.groups.size()) + " groups");
  const std::vector<std::pair<std::string, std::string>> attributes = {
      {"id", "head-0"}, {"data-head", "0"}, {"data-note", xml_holdable(text)}};
  require(read.groups[0] == attributes,
          "the group's data does not read back as the text made valid");
}

void check_maps_pdf(const gui::VectorPicture& picture) {
  require_whole_pdf(gui::picture_pdf(picture), 1, "the maps' PDF");
}

// [SECTION] the page

struct HeldLesson {
  std::string name, markdown;
};

std::string ascii_lower(std::string text) {
  for (char& c : text) c = char(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

// The one-file page's lesson as a browser reads it: the page is the template with the block just
// before its </body>; the HTML tokenizer's script data runs to the first "</script" (any case; a
// "<!--" before it would start the escaped states, where "<script" hides the end), the input
// stream turns CR LF and CR into LF and a NUL into U+FFFD, and JSON.parse reads the text.
HeldLesson browser_read(const std::string& page) {
  const std::string template_page = kTemplate;
  const size_t body_end = template_page.rfind("</body>");
  require(page.compare(0, body_end, template_page, 0, body_end) == 0,
          "the page before its lesson block changed");
  require(page.compare(body_end, std::strlen(kBlockStart), kBlockStart) == 0,
          "the page's lesson block does not start where its </body> was");
  const size_t data_at = body_end + std::strlen(kBlockStart);
  const std::string after = "</script>\n" + template_page.substr(body_end);
  require(page.size() >= data_at + after.size() &&
              page.compare(page.size() - after.size(), after.size(), after) == 0,
          "the page does not end with its block's </script> and the template's end");
  const std::string data = page.substr(data_at, page.size() - after.size() - data_at);
  require(ascii_lower(data).find("</script") == std::string::npos,
          "the lesson block holds \"</script\": the browser ends the block there");
  require(data.find("<!--") == std::string::npos,
          "the lesson block holds \"<!--\": the browser's escaped script data starts there");
  require(unicode::valid_utf8(data) == data, "the lesson block is not valid UTF-8");
  std::string stream;
  for (size_t i = 0; i < data.size(); ++i) {
    if (data[i] == '\r') {
      stream += '\n';
      if (i + 1 < data.size() && data[i + 1] == '\n') ++i;
    } else if (data[i] == '\0') {
      stream += "\uFFFD";
    } else {
      stream += data[i];
    }
  }
  nlohmann::json held;
  try {
    held = nlohmann::json::parse(stream);
  } catch (const nlohmann::json::exception& error) {
    throw BrokenPromise(std::string("JSON.parse refuses the lesson block: ") + error.what());
  }
  require(held.is_object() && held.size() == 2 && held.contains("name") &&
              held.contains("markdown") && held["name"].is_string() && held["markdown"].is_string(),
          "the lesson block is not {name, markdown}");
  return {held["name"].get<std::string>(), held["markdown"].get<std::string>()};
}

void require_holds(const std::string& page, const std::string& name, const std::string& markdown,
                   const std::string& what) {
  const HeldLesson held = browser_read(page);
  require(held.markdown == unicode::valid_utf8(markdown),
          what + "'s lesson does not read back as the lesson made valid");
  require(held.name == unicode::valid_utf8(name),
          what + "'s name does not read back as the name made valid");
}

// An environment variable set for one call, then as it was.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnvironment() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

void check_pages(const std::string& bytes) {
  // The text as it comes, its first line as the lesson's name.
  const std::string name = bytes.substr(0, bytes.find('\n'));
  const std::string page = gui::page_with_lesson(kTemplate, name, bytes);
  require_holds(page, name, bytes, "the page");
  require(gui::page_with_lesson(page, name, bytes) == page,
          "saving the same lesson into the page again changed it");
  // The text as a lesson file saved into the one-file page (--export-page): a text file is written
  // whole; an empty file, or one with a NUL (no text file), is refused in one line, with nothing
  // written.
  const Scratch& folder = scratch();
  const fs::path lesson = folder.dir / "lesson.md", saved = folder.dir / "saved.html";
  write_file(lesson, bytes);
  std::string refusal;
  {
    const ScopedEnvironment one_page("ATTNLAB_ONE_PAGE", folder.page.string());
    refusal = gui::save_lesson_page(lesson.string(), saved.string());
  }
  fs::remove(lesson);
  if (bytes.empty() || bytes.find('\0') != std::string::npos) {
    require_one_line(refusal, "the refusal of an empty lesson or one with a NUL");
    require(!fs::exists(saved), "a lesson was refused but its page written");
  } else {
    require(refusal.empty(), "the lesson's page was refused: " + refusal);
    const std::string written = read_file(saved);
    require(written == gui::page_with_lesson(kTemplate, "lesson", bytes),
            "the saved page is not the template with the lesson's block");
    require_holds(written, "lesson", bytes, "the saved page");
    fs::remove(saved);
  }
  folder.require_clean("saving the lesson's page");
}

}  // namespace

void exercise_writers(const std::string& bytes) {
  scratch().clear();
  check_handouts(bytes);
  const gui::VectorPicture picture = sentence_picture(bytes);
  check_svg(picture, bytes);
  check_maps_pdf(picture);
  check_pages(bytes);
}

}  // namespace attnlab::fuzz
