// The Markdown of the lesson the page plays, for index.html's "Save as one page", which embeds it
// in the page it downloads (<script type="text/markdown" id="attnlab-lesson">).
#include <emscripten/emscripten.h>

#include <fstream>
#include <sstream>
#include <string>

#include "app/lessons/lesson_files.hpp"

// A built-in lesson's name or a lesson file's path (the page state's lesson.file): its Markdown,
// "" when there is none.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attnlab_lesson_markdown(const char* file_or_name) {
  static std::string markdown;
  if (attnlab::lessons::is_builtin(file_or_name)) {
    markdown = attnlab::lessons::builtin_markdown(file_or_name);
  } else {
    std::ifstream in(file_or_name, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    markdown = text.str();
  }
  return markdown.c_str();
}
