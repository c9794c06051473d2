#include "app/gui/export/one_page.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "app/lessons/lesson_files.hpp"
#include "core/limits/bounded_read.hpp"
#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"
#include "core/tokenizers/unicode.hpp"

namespace attnlab::gui {

namespace {

constexpr char kBlockStart[] = "<script type=\"application/json\" id=\"attnlab-lesson\">";
// The block pages saved before held the Markdown itself; a lesson in such a page is replaced too.
constexpr char kOldBlockStart[] = "<script type=\"text/markdown\" id=\"attnlab-lesson\"";
constexpr char kOnePageMark[] =
    "id=\"attnlab-code\"";  // the inlined attnlab.js (tools/one_page.py)

// Where the lesson block the page ends with starts (just before `body_end`, not inside the page's
// own code, which spells the block's start), or npos.
size_t lesson_block_at(const std::string& page, size_t body_end) {
  for (const char* block_start : {kBlockStart, kOldBlockStart}) {
    const size_t start = page.rfind(block_start, body_end);
    if (start == std::string::npos || start == 0) continue;
    const size_t opened = page.rfind("<script", start - 1), closed = page.rfind("</script>", start);
    const bool in_a_script =
        opened != std::string::npos && (closed == std::string::npos || closed < opened);
    const size_t end = page.find("</script>", start);
    if (!in_a_script && end != std::string::npos &&
        page.find_first_not_of(" \t\r\n", end + 9) == body_end)
      return start;
  }
  return std::string::npos;
}

}  // namespace

std::string json_for_script(std::string_view text) {
  const std::string valid = unicode::valid_utf8(text);
  std::string out;
  out.reserve(valid.size() + valid.size() / 8 + 2);
  out += '"';
  for (const char c : valid) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (byte < 0x20 || byte == 0x7f || c == '<' || c == '>' || c == '&') {
      char escape[8];
      std::snprintf(escape, sizeof escape, "\\u%04x", unsigned(byte));
      out += escape;
    } else {
      out += c;
    }
  }
  out += '"';
  return out;
}

std::string page_with_lesson(const std::string& page, const std::string& name,
                             const std::string& markdown) {
  std::string out = page;
  size_t body_end = out.rfind("</body>");
  if (body_end == std::string::npos) body_end = out.size();
  if (const size_t start = lesson_block_at(out, body_end); start != std::string::npos) {
    out.erase(start, body_end - start);
    body_end = start;
  }
  const std::string block = std::string(kBlockStart) + "{\"name\":" + json_for_script(name) +
                            ",\"markdown\":" + json_for_script(markdown) + "}</script>\n";
  out.insert(body_end, block);
  return out;
}

std::string one_page_path() {
  if (const char* path = std::getenv("ATTNLAB_ONE_PAGE"); path && *path) return path;
  return ATTNLAB_SOURCE_DIR "/build-web-single/attnlab.html";
}

std::string save_lesson_page(const std::string& file_or_name, const std::string& path) {
  const lessons::LessonText lesson = lessons::read_lesson_text(file_or_name);
  if (!lesson.error.empty()) return lesson.error;
  const std::string template_path = one_page_path();
  std::string page;
  try {
    page = read_bounded(template_path, limits::kOnePageTemplate);
  } catch (const UserError&) {
  }
  if (page.find(kOnePageMark) == std::string::npos)
    return "There is no one-file page at " + template_path +
           ": build it with ./setup.sh web --single-file (or set ATTNLAB_ONE_PAGE to it)";
  const std::string name = std::filesystem::path(lesson.name).stem().string();
  try {
    write_file_atomically(path, page_with_lesson(page, name, lesson.markdown));
  } catch (const std::exception& error) {
    return error.what();
  }
  return "";
}

}  // namespace attnlab::gui
