#include "app/lessons/lesson_files.hpp"

#include <embedded_lessons.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace attnlab::lessons {

namespace {

constexpr std::uintmax_t kMaxLessonBytes = 4 << 20;  // a lecture's text, many times over

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

LoadedLesson load_lesson(const std::string& file_or_name) {
  LoadedLesson loaded;
  std::error_code error;
  const std::filesystem::path path(file_or_name);
  if (!std::filesystem::exists(path, error)) {
    if (const EmbeddedLesson* builtin = find_builtin(file_or_name)) {
      loaded.lesson = parse_lesson(builtin->markdown, builtin->name);
      return loaded;
    }
    loaded.error = "no lesson file or built-in lesson \"" + file_or_name +
                   "\": give a .md file's path or one of " + names() + " (--list-lessons)";
    return loaded;
  }
  if (std::filesystem::is_directory(path, error)) {
    loaded.error = file_or_name + " is a folder: give the lesson's .md file";
    return loaded;
  }
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (!error && size > kMaxLessonBytes) {
    loaded.error = file_or_name + " is " + std::to_string(size >> 20) +
                   " MiB: a lesson is a Markdown text of at most 4 MiB";
    return loaded;
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) {
    loaded.error = "cannot read " + file_or_name + ": check that it is readable";
    return loaded;
  }
  const std::string markdown = text.str();
  if (markdown.find('\0') != std::string::npos) {
    loaded.error = file_or_name + " is not a text file: a lesson is Markdown (docs/lessons.md)";
    return loaded;
  }
  loaded.lesson = parse_lesson(markdown, file_or_name);
  return loaded;
}

}  // namespace attnlab::lessons
