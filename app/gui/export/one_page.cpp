#include "app/gui/export/one_page.hpp"

#include <cstdlib>
#include <filesystem>

#include "app/lessons/lesson_files.hpp"
#include "core/limits/bounded_read.hpp"
#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab::gui {

namespace {

constexpr char kBlockStart[] = "<script type=\"text/markdown\" id=\"attnlab-lesson\"";
constexpr char kOnePageMark[] =
    "id=\"attnlab-code\"";  // the inlined attnlab.js (tools/one_page.py)

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

}  // namespace

std::string page_with_lesson(const std::string& page, const std::string& name,
                             const std::string& markdown) {
  std::string out = page;
  size_t body_end = out.rfind("</body>");
  if (body_end == std::string::npos) body_end = out.size();
  // A lesson inside is the block just before </body>; the page's code spells the block's start
  // too, inside its own script, and that is not a lesson.
  if (const size_t start = out.rfind(kBlockStart, body_end);
      start != std::string::npos && start > 0) {
    const size_t opened = out.rfind("<script", start - 1), closed = out.rfind("</script>", start);
    const bool in_a_script =
        opened != std::string::npos && (closed == std::string::npos || closed < opened);
    const size_t end = out.find("</script>", start);
    if (!in_a_script && end != std::string::npos &&
        out.find_first_not_of(" \t\r\n", end + 9) == body_end) {
      out.erase(start, body_end - start);
      body_end = start;
    }
  }
  const std::string block = std::string(kBlockStart) + " data-name=\"" +
                            replaced(replaced(name, "&", "&amp;"), "\"", "&quot;") + "\">" +
                            replaced(markdown, "</", "<\\/") + "</script>\n";
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
