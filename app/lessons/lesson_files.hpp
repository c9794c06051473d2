// Where lessons come from: a Markdown file, or one of the lessons built into the app (lessons/*.md,
// embedded at build time: the app stays one binary).
#pragma once

#include <string>
#include <vector>

#include "app/lessons/lesson.hpp"

namespace attnlab::lessons {

struct BuiltinLesson {
  std::string name;  // the file's stem: "ten-minutes"
  std::string title;
  int scenes = 0;
  int questions = 0;
};

std::vector<BuiltinLesson> builtin_lessons();

// The built-in lessons, one per line: name, title, scene and question counts (--list-lessons).
std::string list_lessons();

struct LoadedLesson {
  Lesson lesson;
  std::string error;  // one line: the file could not be read (the lesson is empty then)
};

// A lesson's Markdown, as read: a file's path, or a built-in lesson's name when no such file
// exists.
struct LessonText {
  std::string markdown;
  std::string name;   // the file's path, or the built-in lesson's name
  std::string error;  // one line: why it could not be read ("" when read)
};
LessonText read_lesson_text(const std::string& file_or_name);

// The same, parsed.
LoadedLesson load_lesson(const std::string& file_or_name);

// A built-in lesson's Markdown ("" for no such lesson).
std::string builtin_markdown(const std::string& name);

// True when `file_or_name` names a built-in lesson (no file of that name): nothing to watch for
// edits.
bool is_builtin(const std::string& file_or_name);

}  // namespace attnlab::lessons
