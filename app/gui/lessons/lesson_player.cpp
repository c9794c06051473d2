#include "app/gui/lessons/lesson_player.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "app/common/config_flags.hpp"
#include "app/gui/look/colormap.hpp"
#include "app/gui/state/atlas_text.hpp"
#include "app/gui/state/options.hpp"
#include "app/gui/state/startup.hpp"
#include "app/lessons/lesson_files.hpp"
#include "core/files/person_files.hpp"
#include "core/model/config_fields.hpp"
#include "core/model/errors.hpp"

namespace attnlab::gui {

namespace {

using lessons::Lesson;
using lessons::Scene;

std::string without_prefix(std::string text) {
  const std::string prefix = "attnlab: ";
  if (text.rfind(prefix, 0) == 0) text.erase(0, prefix.size());
  return text;
}

// The folder a lesson's relative paths are in: the file's ("" for a built-in lesson, or a file in
// the working folder).
std::string lesson_folder(const LessonPlayer& player) {
  if (player.file.empty() || lessons::is_builtin(player.file)) return "";
  return std::filesystem::path(player.file).parent_path().string();
}

// A scene's options read as the app's command line (see parse_scene_options).
SceneOptions parse_scene(const LessonPlayer& player, const std::vector<std::string>& words,
                         StartOptions& options) {
  return parse_scene_options(words, lesson_folder(player), player.model_folder, options);
}

// The options in effect at `index`: its own, or the last earlier scene's that had some.
const Scene* scene_with_options(const Lesson& lesson, int index) {
  for (int i = index; i >= 0; --i)
    if (lesson.scenes[size_t(i)].options) return &lesson.scenes[size_t(i)];
  return nullptr;
}

// The walk's step of "attend" or "attend:softmax" in the shown trace (-1: none).
int step_of(const AppState& state, const std::string& text) {
  const size_t colon = text.find(':');
  Stage stage;
  if (!parse_stage(text.substr(0, colon), stage)) return -1;
  if (colon == std::string::npos) return first_step_of(state.walk.steps, stage);
  Substep substep = Substep::None;
  if (!parse_substep(text.substr(colon + 1), substep)) return -1;
  return find_step(state.walk.steps, stage, substep);
}

// The scene's stage (input unless it names one), animated to when the trace is there, else taken
// when it arrives.
void arrive_at(AppState& state, const std::string& stage) {
  const int index = step_of(state, stage);
  if (state.session.trace && !state.session.computing && index >= 0) {
    state.walk.pending_stage.clear();
    if (index != state.walk.step_index) go_to_step(state, index);
  } else {
    state.walk.pending_stage = stage;
  }
}

// A real model's scene: the folder read (again only when another), its layer, its heads off.
void show_model(AppState& state, const StartOptions& options) {
  ModelTab& model = state.model;
  model.requested_page = options.model_page == "next" ? ModelPage::NextToken : ModelPage::Finder;
  const std::vector<int64_t> off = options.config.value("ablated_heads").heads;
  if (model.folder == options.model && model.session && model.loading.empty()) {
    show_model_layer(state, options.layer);
    model.requested_off_heads = off;
    switch_requested_heads_off(state);
    return;
  }
  model.requested_layer = options.layer;
  model.requested_off_heads = off;
  start_model_load(state, options.model);
}

// "" when the config flags apply over the state's config (a bad --mask throws) and give a config
// that runs; else why not.
std::string flags_problem(const AppState& state, const ConfigFlags& flags) {
  Config config = state.session.config;
  Inputs inputs = state.session.preset_inputs;
  try {
    apply_config_flags(flags, config, inputs);
  } catch (const std::exception& error) {
    return without_prefix(error.what());
  }
  const std::vector<ConfigIssue> issues = validate(config);
  return issues.empty() ? "" : describe(issues);
}

// The scene's config flags as far as they can be applied (over the preset just applied): all of
// them; else all but the one flag that makes them fail (named in `reasons`); else none, the
// preset as it is. So a bad option never leaves the previous scene's picture on screen.
ConfigFlags flags_that_apply(const AppState& state, const ConfigFlags& flags,
                             std::vector<std::string>& reasons) {
  const std::string problem = flags_problem(state, flags);
  if (problem.empty()) return flags;
  for (const ConfigField& field : config_fields()) {
    if (!flags.given(field.name)) continue;
    ConfigFlags fewer = flags.without(field.name);
    if (!flags_problem(state, fewer).empty()) continue;
    reasons.push_back(problem + " (" + field.flag +
                      " is left out; the scene's other options apply)");
    return fewer;
  }
  reasons.push_back(problem + " (the scene's config options are left out: the preset as it is)");
  return ConfigFlags{};
}

std::vector<std::string> applied(AppState& state, const StartOptions& given) {
  if (given.model.empty() &&
      !apply_preset(state, given.preset.empty() ? kDefaultPreset : given.preset))
    return {"unknown preset \"" + given.preset + "\" (attnlab-cli --list-presets lists them)"};
  std::vector<std::string> reasons;
  StartOptions options = given;
  if (options.model.empty()) options.config = flags_that_apply(state, given.config, reasons);
  state.tabs.requested_tool = ToolTab::Tensors;
  UiSettings& ui = state.ui;
  ui.heatmap_view = UiSettings{}.heatmap_view;
  ui.colour_scale = UiSettings{}.colour_scale;
  if (!options.heatmap_view.empty()) parse_heatmap_view(options.heatmap_view, ui.heatmap_view);
  if (!options.colour_scale.empty()) parse_colour_scale(options.colour_scale, ui.colour_scale);
  state.heads.focus = {options.focus_head, options.compare_head, {}};
  state.heads.pending_zoom = options.zoom;  // taken with the scene's trace
  const std::string error = without_prefix(apply_options_over_config(state, options));
  if (!error.empty()) reasons.push_back(error);
  if (state.session.trace && !state.session.computing) take_pending_zoom(state);
  if (!state.session.issues.empty()) {
    reasons.push_back(describe(state.session.issues));
    return reasons;
  }
  if (!options.model.empty()) show_model(state, options);
  arrive_at(state, options.stage.empty() ? "input" : options.stage);
  return reasons;
}

// "FILE:LINE: reason", as the lesson's own problems are said.
std::string scene_reason(const LessonPlayer& player, int line, const std::string& reason) {
  return player.lesson.source + ":" + std::to_string(line) + ": " + reason;
}

void note_error(LessonPlayer& player, const std::string& line) {
  if (std::find(player.errors.begin(), player.errors.end(), line) == player.errors.end())
    player.errors.push_back(line);
}

// The problem lines not printed yet on stderr, printed (docs/lessons.md: the band shows them, and
// stderr once).
void report_lesson_errors(LessonPlayer& player) {
  for (size_t i = player.errors_reported; i < player.errors.size(); ++i)
    std::fprintf(stderr, "attnlab: %s\n", player.errors[i].c_str());
  player.errors_reported = player.errors.size();
}

std::filesystem::file_time_type modified_time(const std::string& file) {
  std::error_code error;
  const auto time = std::filesystem::last_write_time(file, error);
  return error ? std::filesystem::file_time_type{} : time;
}

}  // namespace

namespace {

// The lesson read into the player, which starts over (no scene shown yet); "" or why it cannot be.
std::string load_into(LessonPlayer& player, const std::string& file_or_name,
                      const std::string& model_folder) {
  lessons::LoadedLesson loaded = lessons::load_lesson(file_or_name);
  if (!loaded.error.empty()) return loaded.error;
  const bool audience = player.audience_window, controls_bar = player.controls_bar;
  player = LessonPlayer{};
  player.audience_window = audience;
  player.controls_bar = controls_bar;
  player.lesson = std::move(loaded.lesson);
  player.file = file_or_name;
  player.model_folder = model_folder;
  if (!lessons::is_builtin(file_or_name)) player.modified = modified_time(file_or_name);
  for (const lessons::Problem& problem : player.lesson.problems)
    player.errors.push_back(lessons::describe(player.lesson, problem));
  report_lesson_errors(player);
  return "";
}

}  // namespace

std::string open_lesson(AppState& state, const std::string& file_or_name,
                        const std::string& model_folder) {
  const std::string error = load_into(state.lesson, file_or_name, model_folder);
  if (error.empty() && lesson_open(state)) show_scene(state, 0);
  ask_for_glyphs(state);  // the whole lesson's characters, whichever scene shows them
  return error;
}

bool show_scene(AppState& state, int index) {
  LessonPlayer& player = state.lesson;
  const std::vector<Scene>& scenes = player.lesson.scenes;
  if (index < 0 || index >= int(scenes.size())) return false;
  player.scene = index;
  player.revealed = false;
  player.chosen = -1;
  player.typed_answer.clear();
  player.playing = true;
  player.scene_error.clear();
  player.strokes.clear();
  if (player.started_at < 0) player.started_at = state.walk.clock;
  const Scene* with_options = scene_with_options(player.lesson, index);
  if (!with_options) return true;  // no state set yet: the app as it is
  std::vector<std::string> reasons;

  try {
    StartOptions options;
    const SceneOptions parsed = parse_scene(player, *with_options->options, options);
    reasons = parsed.problems;
    // The options read (the left-out ones aside) applied.
    if (parsed.usable)
      for (const std::string& reason : applied(state, options)) reasons.push_back(reason);
  } catch (const std::exception& error) {
    reasons.push_back(error.what());
  }
  for (const std::string& reason : reasons) {
    const std::string line = scene_reason(player, with_options->options_line, reason);
    player.scene_error += (player.scene_error.empty() ? "" : "\n") + line;
    note_error(player, line);
  }
  report_lesson_errors(player);
  ask_for_glyphs(state);  // the scene's sentence and problems, drawn: their glyphs in the atlas
  return reasons.empty();
}

bool lesson_open(const AppState& state) {
  return !state.lesson.lesson.scenes.empty();
}

bool lesson_playing(const AppState& state) {
  return lesson_open(state) && state.lesson.playing;
}

void lesson_click(AppState& state, int delta) {
  LessonPlayer& player = state.lesson;
  if (!lesson_open(state)) return;
  const int count = int(player.lesson.scenes.size());
  const Scene& scene = player.lesson.scenes[size_t(std::clamp(player.scene, 0, count - 1))];
  const Scene* with_options = scene_with_options(player.lesson, player.scene);
  const bool animates = with_options && with_options->animate && state.session.trace;
  if (delta > 0) {
    if (scene.question && !player.revealed) {
      player.revealed = true;
      return;
    }
    if (animates && state.walk.step_index + 1 < int(state.walk.steps.size())) {
      step_by(state, +1);
      return;
    }
    if (player.scene + 1 < count) show_scene(state, player.scene + 1);
    return;
  }
  if (animates && with_options->options) {
    StartOptions options;
    const bool parsed = parse_scene(player, *with_options->options, options).usable;
    const int first = step_of(state, options.stage.empty() ? "input" : options.stage);
    if (parsed && state.walk.step_index > first) {
      step_by(state, -1);
      return;
    }
  }
  if (scene.question && player.revealed) {
    player.revealed = false;
    return;
  }
  if (player.scene > 0) show_scene(state, player.scene - 1);
}

void leave_lesson(AppState& state) {
  state.lesson.playing = false;
}

void return_to_lesson(AppState& state) {
  if (lesson_open(state)) show_scene(state, std::max(state.lesson.scene, 0));
}

void follow_lesson(AppState& state, int scene, bool revealed, int step) {
  LessonPlayer& player = state.lesson;
  if (!lesson_open(state) || scene < 0 || scene >= int(player.lesson.scenes.size())) return;
  if (scene != player.scene) show_scene(state, scene);
  player.revealed = revealed;
  if (state.session.trace && !state.session.computing && step >= 0 &&
      step < int(state.walk.steps.size()) && step != state.walk.step_index)
    go_to_step(state, step);
}

void poll_lesson_file(AppState& state, double now) {
  LessonPlayer& player = state.lesson;
  if (!lesson_open(state) || lessons::is_builtin(player.file) || now < player.next_file_check)
    return;
  player.next_file_check = now + 1.0;
  const auto modified = modified_time(player.file);
  if (modified == player.modified) return;
  player.modified = modified;
  lessons::LoadedLesson loaded = lessons::load_lesson(player.file);
  if (!loaded.error.empty()) {
    player.notice = loaded.error;
    return;
  }
  const int scene = player.scene;
  const bool playing = player.playing;
  player.lesson = std::move(loaded.lesson);
  player.errors.clear();
  player.errors_reported = 0;  // the edited file's problems, said again
  for (const lessons::Problem& problem : player.lesson.problems)
    player.errors.push_back(lessons::describe(player.lesson, problem));
  report_lesson_errors(player);
  player.notice = "Reloaded " + player.file + ".";
  ask_for_glyphs(state);  // the edited text's characters
  if (player.lesson.scenes.empty()) return;
  const int shown = std::clamp(scene, 0, int(player.lesson.scenes.size()) - 1);
  if (playing) {
    show_scene(state, shown);
  } else {
    player.scene = shown;
  }
}

std::vector<std::string> scene_options_of(const AppState& state) {
  std::vector<std::string> words;
  const Config& config = state.session.trace ? state.session.trace->config : state.session.config;
  if (model_is_current(state)) {
    words = {"--model", state.model.folder, "--layer", std::to_string(state.model.layer)};
    std::string off;
    for (size_t h = 0; h < config.ablated_heads.size(); ++h)
      if (config.ablated_heads[h]) off += (off.empty() ? "" : ",") + std::to_string(h);
    if (!off.empty()) words.insert(words.end(), {"--ablate", off});
    if (state.model.page == ModelPage::NextToken)
      words.insert(words.end(), {"--model-page", "next"});
  } else {
    const std::string preset =
        state.session.preset_name.empty() ? kDefaultPreset : state.session.preset_name;
    words = {"--preset", preset};
    // Every field, so the scene is the same over any version of the preset.
    for (const std::string& flag : config_to_flags(config)) words.push_back(flag);
  }
  if (const PipelineStep* step = current_step(state)) {
    std::string stage = stage_name(step->stage);
    if (step->substep != Substep::None) stage += std::string(":") + substep_name(step->substep);
    words.insert(words.end(), {"--stage", stage});
  }
  if (state.tabs.tool != ToolTab::Tensors)
    words.insert(words.end(), {"--tab", tool_tab_name(state.tabs.tool)});
  if (state.heads.focus.head >= 0) {
    words.insert(words.end(), {"--focus-head", std::to_string(state.heads.focus.head)});
    if (state.heads.focus.compare >= 0)
      words.insert(words.end(), {"--compare-head", std::to_string(state.heads.focus.compare)});
  }
  if (state.ui.heatmap_view != UiSettings{}.heatmap_view)
    words.insert(words.end(), {"--heatmaps", heatmap_view_name(state.ui.heatmap_view)});
  if (state.ui.colour_scale != UiSettings{}.colour_scale)
    words.insert(words.end(), {"--colour-scale", colour_scale_name(state.ui.colour_scale)});
  if (state.tabs.tool == ToolTab::Flash && state.flash.tiles.rows > 0)
    words.insert(words.end(), {"--flash",
                               std::to_string(state.flash.tiles.rows) + ":" +
                                   std::to_string(state.flash.tiles.cols),
                               "--flash-step", std::to_string(state.flash.step + 1)});
  return words;
}

namespace {

// A word as a scene's block writes it: quoted when it holds a space or a quote.
std::string quoted(const std::string& word) {
  if (!word.empty() && word.find_first_of(" \t\"'\\") == std::string::npos) return word;
  std::string out = "\"";
  for (const char c : word) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string capture_scene(AppState& state, const std::string& title) {
  LessonPlayer& player = state.lesson;
  if (!lesson_open(state)) return "Open a lesson first (attnlab --lesson FILE).";
  std::string text;
  std::string file = player.file;
  if (lessons::is_builtin(player.file)) {  // the built-in one is copied, and the copy grows
    for (const lessons::BuiltinLesson& b : lessons::builtin_lessons())
      if (b.name == player.file) file = b.name + ".md";
    std::error_code exists;
    if (std::filesystem::exists(file, exists))
      return "A built-in lesson cannot be written, and " + file +
             " is here already: play that file (attnlab --lesson " + file + ") to add to it.";
    text = lessons::builtin_markdown(player.file);
  } else {
    const lessons::LessonText read = lessons::read_lesson_text(file);
    if (!read.error.empty()) return read.error + "; the scene was not captured.";
    text = read.markdown;
  }
  std::string block = "## " + (title.empty() ? "Captured scene" : title) + "\n```attnlab\n";
  std::string line;
  for (const std::string& word : scene_options_of(state)) {
    const std::string piece = quoted(word);
    // A new line before each option, and within 100 characters.
    if (!line.empty() && (word.rfind("--", 0) == 0 || line.size() + piece.size() > 100)) {
      block += line + "\n";
      line.clear();
    }
    line += (line.empty() ? "" : " ") + piece;
  }
  block += line + "\n```\nThe caption: what the class should see here.\n\n";
  // After the scene shown: before the next scene's heading, else at the end.
  const int next = player.scene + 1;
  size_t at = text.size();
  if (next < int(player.lesson.scenes.size())) {
    const int heading = player.lesson.scenes[size_t(next)].line;
    at = 0;
    for (int l = 1; l < heading && at != std::string::npos; ++l) at = text.find('\n', at) + 1;
  } else if (!text.empty() && text.back() != '\n') {
    block = "\n" + block;
  }
  if (!text.empty() && at == text.size() && text.size() >= 2 &&
      text.substr(text.size() - 2) != "\n\n")
    block = "\n" + block;
  const std::string read = text;  // the file as read: replaced only while it still holds it
  text.insert(std::min(at, text.size()), block);
  // The lesson is a person's file (core/files/person_files.hpp): an edit saved meanwhile is kept.
  const std::filesystem::path path(file);
  try {
    const PersonWrite written =
        write_person_files(path.has_parent_path() ? path.parent_path().string() : ".",
                           {{path.filename().string(), text, read}}, WhenDifferent::Keep);
    if (!written.kept.empty())
      return file + " changed since it was read: it is kept as it is and the scene was not " +
             "captured; capture it again.";
  } catch (const std::exception& error) {
    return std::string("The scene was not captured: ") + error.what();
  }
  const int scene = player.scene;
  const std::string model = player.model_folder;
  const std::string opened = load_into(player, file, model);
  if (!opened.empty()) return opened;
  player.scene = std::min(scene + 1, int(player.lesson.scenes.size()) - 1);
  player.playing = true;
  player.notice = "Captured scene " + std::to_string(player.scene + 1) + " in " + file + ".";
  return player.notice;
}

std::vector<Slide> lesson_slides(const lessons::Lesson& lesson) {
  std::vector<Slide> slides;
  for (int i = 0; i < int(lesson.scenes.size()); ++i) {
    slides.push_back({i, false});
    if (lesson.scenes[size_t(i)].question) slides.push_back({i, true});
  }
  return slides;
}

}  // namespace attnlab::gui
