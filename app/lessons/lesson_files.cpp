#include "app/lessons/lesson_files.hpp"

#include <embedded_lessons.hpp>
#include <filesystem>
#include <sstream>

#include "core/limits/bounded_read.hpp"
#include "core/model/errors.hpp"

namespace attnlab::lessons {

namespace {

const EmbeddedLesson* find_builtin(const std::string& name) {
  for (const EmbeddedLesson& lesson : kEmbeddedLessons)
    if (name == lesson.name) return &lesson;
  return nullptr;
}

std::string names() {
  std::string all;
  for (const EmbeddedLesson& lesson : kEmbeddedLessons)
    all += (all.empty() ? "" : ", ") + std::string(lesson.name);
  return all;
}

}  // namespace

std::vector<BuiltinLesson> builtin_lessons() {
  std::vector<BuiltinLesson> all;
  for (const EmbeddedLesson& embedded : kEmbeddedLessons) {
    const Lesson lesson = parse_lesson(embedded.markdown, embedded.name);
    BuiltinLesson entry{embedded.name, lesson.title, int(lesson.scenes.size()), 0};
    for (const Scene& scene : lesson.scenes) entry.questions += scene.question ? 1 : 0;
    all.push_back(entry);
  }
  return all;
}

std::string list_lessons() {
  std::ostringstream out;
  for (const BuiltinLesson& lesson : builtin_lessons())
    out << lesson.name << "  " << lesson.title << " (" << lesson.scenes << " scenes, "
        << lesson.questions << " questions)\n";
  return out.str();
}

std::string builtin_markdown(const std::string& name) {
  const EmbeddedLesson* lesson = find_builtin(name);
  return lesson ? lesson->markdown : "";
}

bool is_builtin(const std::string& file_or_name) {
  std::error_code error;
  return !std::filesystem::exists(file_or_name, error) && find_builtin(file_or_name);
}

LessonText read_lesson_text(const std::string& file_or_name) {
  LessonText read;
  std::error_code error;
  const std::filesystem::path path(file_or_name);
  if (!std::filesystem::exists(path, error)) {
    if (const EmbeddedLesson* builtin = find_builtin(file_or_name)) {
      read.markdown = builtin->markdown;
      read.name = builtin->name;
      return read;
    }
    read.error = "no lesson file or built-in lesson \"" + file_or_name +
                 "\": give a .md file's path or one of " + names() + " (--list-lessons)";
    return read;
  }
  if (std::filesystem::is_directory(path, error)) {
    read.error = file_or_name + " is a folder: give the lesson's .md file";
    return read;
  }
  std::string text;
  try {
    text = read_bounded(file_or_name, limits::kLessonFile);  // pipes and devices included
  } catch (const UserError& refused) {
    read.error = refused.what();
    return read;
  }
  if (text.find('\0') != std::string::npos) {
    read.error = file_or_name + " is not a text file: a lesson is Markdown (docs/lessons.md)";
    return read;
  }
  read.markdown = std::move(text);
  read.name = file_or_name;
  return read;
}

LoadedLesson load_lesson(const std::string& file_or_name) {
  LoadedLesson loaded;
  const LessonText read = read_lesson_text(file_or_name);
  loaded.error = read.error;
  if (read.error.empty()) loaded.lesson = parse_lesson(read.markdown, read.name);
  return loaded;
}

}  // namespace attnlab::lessons
