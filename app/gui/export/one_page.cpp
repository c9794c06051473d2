#include "app/gui/export/one_page.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/lessons/lesson_files.hpp"
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
  if (const size_t start = out.find(kBlockStart); start != std::string::npos) {
    const size_t end = out.find("</script>", start);
    size_t stop = end == std::string::npos ? out.size() : end + 9;
    if (stop < out.size() && out[stop] == '\n') ++stop;
    out.erase(start, stop - start);
  }
  const std::string block = std::string(kBlockStart) + " data-name=\"" +
                            replaced(replaced(name, "&", "&amp;"), "\"", "&quot;") + "\">" +
                            replaced(markdown, "</", "<\\/") + "</script>\n";
  const size_t body_end = out.rfind("</body>");
  out.insert(body_end == std::string::npos ? out.size() : body_end, block);
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
  std::ifstream in(template_path, std::ios::binary);
  std::ostringstream page;
  page << in.rdbuf();
  if (!in || page.str().find(kOnePageMark) == std::string::npos)
    return "There is no one-file page at " + template_path +
           ": build it with ./setup.sh web --single-file (or set ATTNLAB_ONE_PAGE to it)";
  const std::string name = std::filesystem::path(lesson.name).stem().string();
  try {
    write_file_atomically(path, page_with_lesson(page.str(), name, lesson.markdown));
  } catch (const std::exception& error) {
    return error.what();
  }
  return "";
}

}  // namespace attnlab::gui
