// The Markdown of the lesson the page plays, for index.html's "Save as one page", which embeds it
// in the page it downloads (<script type="application/json" id="attnlab-lesson">, one_page.hpp).
#include <emscripten/emscripten.h>

#include <string>

#include "app/lessons/lesson_files.hpp"
#include "core/tokenizers/unicode.hpp"

// A built-in lesson's name or a lesson file's path (the page state's lesson.file): its Markdown,
// "" when there is none. Valid UTF-8 (unicode::valid_utf8), as the desktop writes it.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attnlab_lesson_markdown(const char* file_or_name) {
  static std::string markdown;
  markdown =
      attnlab::unicode::valid_utf8(attnlab::lessons::read_lesson_text(file_or_name).markdown);
  return markdown.c_str();
}
