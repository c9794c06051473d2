#include "app/gui/export/save_command.hpp"

#include <cstdio>
#include <ctime>
#include <filesystem>

#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/model/model_state.hpp"
#include "app/gui/state/options.hpp"

namespace attnlab::gui {

namespace {

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

bool animates_lesson(const AppState& state, const SaveChoices& choices) {
  return choices.kind == SaveKind::Animation && choices.whole_lesson && lesson_open(state);
}

// What the picture shows, for its name: the lesson, the model or the preset, and the stage.
std::string subject(const AppState& state, const SaveChoices& choices) {
  if (animates_lesson(state, choices))
    return std::filesystem::path(state.lesson.file).stem().string();
  std::string name = model_is_current(state)             ? "model"
                     : state.session.preset_name.empty() ? "custom"
                                                         : state.session.preset_name;
  if (choices.kind == SaveKind::Animation) return name + "-pipeline";
  if (const PipelineStep* step = current_step(state))
    name += std::string("-") + stage_name(step->stage);
  return name;
}

// The full path: what the dialog says it writes and wrote ("Wrote /home/me/talk/attnlab-....png"),
// not a bare name whose folder the lecturer has to guess (issue 38).
std::string in_folder(const SaveChoices& choices, const std::string& name) {
  const std::filesystem::path folder(choices.folder);
  std::error_code error;
  const std::filesystem::path full = std::filesystem::absolute(folder / name, error);
  return (error ? folder / name : full).lexically_normal().string();
}

}  // namespace

std::string file_time_stamp() {
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", std::localtime(&now));
  return stamp;
}

std::string recording_file_name(const SaveChoices& choices, const std::string& stamp) {
  return in_folder(choices, "attnlab-recording-" + stamp + (choices.mp4 ? ".mp4" : ".gif"));
}

std::string save_file_name(const AppState& state, const SaveChoices& choices,
                           const std::string& stamp) {
  const char* extension = choices.kind == SaveKind::Still ? ".png" : choices.mp4 ? ".mp4" : ".gif";
  return in_folder(choices, "attnlab-" + subject(state, choices) + "-" + stamp + extension);
}

std::vector<std::string> save_arguments(const AppState& state, const SaveChoices& choices,
                                        const std::string& path) {
  std::vector<std::string> words;
  if (animates_lesson(state, choices)) {
    words = {"--lesson", state.lesson.file};
    if (!state.model.folder.empty()) words.insert(words.end(), {"--model", state.model.folder});
  } else {
    words = scene_options_of(state);
  }
  words.insert(words.end(), {"--width", std::to_string(choices.width), "--height",
                             std::to_string(choices.height), "--theme",
                             choices.theme == Theme::Light ? "light" : "dark", "--font-scale",
                             number(choices.font_scale)});
  if (choices.kind == SaveKind::Still) {
    words.insert(words.end(), {"--export-png", path});
    if (choices.transparent) words.push_back("--transparent");
  } else {
    words.insert(words.end(), {"--export-animation", path, "--fps", std::to_string(choices.fps),
                               "--seconds-per-stage", number(choices.seconds_per_stage)});
  }
  return words;
}

std::string check_save_arguments(const std::vector<std::string>& arguments) {
  std::vector<const char*> argv = {"attnlab"};
  for (const std::string& word : arguments) argv.push_back(word.c_str());
  StartOptions options;
  const ParseOutcome outcome = parse_options(int(argv.size()), argv.data(), options);
  if (outcome.exit_code == -1) return "";
  std::string reason = outcome.message;
  if (reason.rfind("attnlab: ", 0) == 0) reason.erase(0, 9);
  if (const size_t help = reason.find(" (see attnlab --help)"); help != std::string::npos)
    reason.erase(help);
  return reason;
}

}  // namespace attnlab::gui
