// The Markdown of the lesson the page plays, for index.html's "Save as one page", which embeds it
// in the page it downloads (<script type="text/markdown" id="attnlab-lesson">).
#include <emscripten/emscripten.h>

#include <string>

#include "app/lessons/lesson_files.hpp"

// A built-in lesson's name or a lesson file's path (the page state's lesson.file): its Markdown,
// "" when there is none.
extern "C" EMSCRIPTEN_KEEPALIVE const char* attnlab_lesson_markdown(const char* file_or_name) {
  static std::string markdown;
  markdown = attnlab::lessons::read_lesson_text(file_or_name).markdown;
  return markdown.c_str();
}
