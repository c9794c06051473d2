#include "tests/fuzz/fuzz_lesson_input.hpp"

#include <algorithm>
#include <cctype>

#include "app/gui/state/options.hpp"
#include "app/lessons/lesson.hpp"
#include "core/tokenizers/unicode.hpp"
#include "tests/fuzz/fuzz_inputs.hpp"

namespace attnlab::fuzz {
namespace {

constexpr size_t kMaxProblemBytes = 2000;

void require(bool holds, const std::string& promise) {
  if (!holds) throw BrokenPromise(promise);
}

void require_valid(const std::string& text, const std::string& field) {
  require(unicode::valid_utf8(text) == text, field + " is not valid UTF-8");
}

void require_one_line(const std::string& text, const std::string& what) {
  require(!text.empty(), what + " is empty");
  require(text.find('\n') == std::string::npos, what + " is more than one line");
  require(text.size() <= kMaxProblemBytes,
          what + " is " + std::to_string(text.size()) + " bytes long");
  require_valid(text, what);
}

void check_fields(const lessons::Lesson& lesson) {
  require_valid(lesson.title, "the title");
  require_valid(lesson.description, "the description");
  for (const lessons::Scene& scene : lesson.scenes) {
    require_valid(scene.title, "a scene's title");
    require_valid(scene.caption, "a caption");
    for (const std::string& note : scene.notes) require_valid(note, "a note");
    if (scene.options)
      for (const std::string& word : *scene.options) require_valid(word, "an option");
    if (!scene.question) continue;
    const lessons::Question& question = *scene.question;
    require_valid(question.text, "a question");
    require_valid(question.answer, "an answer");
    for (const lessons::Choice& choice : question.choices) require_valid(choice.text, "a choice");
    lessons::answers_match(question.answer, question.answer);
  }
}

// The words of a scene's options that name an option writing a file, in the spellings CLI11 reads.
bool names_a_writer(const std::vector<std::string>& words) {
  static const char* const kWriters[] = {"--screenshot",       "--dump-layout", "--export-slides",
                                         "--export-png",       "--export-svg",  "--export-pdf",
                                         "--export-animation", "--export-page"};
  for (const std::string& word : words)
    for (const char* writer : kWriters)
      if (word.substr(0, word.find('=')) == writer) return true;
  return false;
}

void check_scene_options(const lessons::Scene& scene) {
  gui::StartOptions options;
  const gui::SceneOptions parsed =
      gui::parse_scene_options(*scene.options, "lesson-folder", "", options);
  for (const std::string& problem : parsed.problems) require_one_line(problem, "a scene's problem");
  // Data, never code: whatever the scene holds, nothing it sets writes a file.
  require(options.screenshot.empty() && options.dump_layout.empty() &&
              options.export_slides.empty() && options.export_png.empty() &&
              options.export_svg.empty() && options.export_pdf.empty() &&
              options.export_animation.empty() && options.export_page.empty(),
          "a scene set an option that writes a file");
  if (names_a_writer(*scene.options))
    require(!parsed.problems.empty(), "a scene's option that writes a file was not named");
  // A relative path the scene gives is the lesson folder's.
  if (!options.model.empty() && options.model[0] != '/')
    require(options.model.rfind("lesson-folder/", 0) == 0,
            "a scene's relative --model was not read in the lesson's folder");
}

}  // namespace

void exercise_lesson(const std::string& text) {
  const lessons::Lesson lesson = lessons::parse_lesson(text, "fuzz.md");
  const int lines = int(std::count(text.begin(), text.end(), '\n')) + 1;
  for (const lessons::Problem& problem : lesson.problems) {
    require(
        problem.line >= 1 && problem.line <= lines,
        "a problem names line " + std::to_string(problem.line) + " of " + std::to_string(lines));
    require_one_line(problem.reason, "a lesson's problem");
  }
  check_fields(lesson);
  for (const lessons::Scene& scene : lesson.scenes) {
    if (scene.question && lessons::answer_head(scene.question->answer) < 0) {
      // "head N" that is no int: named as a problem on the answer's line.
      const std::string& answer = scene.question->answer;
      std::string key;
      for (const char c : answer)
        if (c != ' ') key += char(std::tolower(static_cast<unsigned char>(c)));
      if (key.size() > 4 && key.compare(0, 4, "head") == 0 &&
          key.find_first_not_of("0123456789", 4) == std::string::npos)
        require(std::any_of(lesson.problems.begin(), lesson.problems.end(),
                            [](const lessons::Problem& p) {
                              return p.reason.find("heads") != std::string::npos;
                            }),
                "an answer \"" + answer.substr(0, 40) + "\" that is no head was not named");
    }
    if (scene.options) check_scene_options(scene);
    lessons::slide_name(1, scene.title);
  }
}

}  // namespace attnlab::fuzz
