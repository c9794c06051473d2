#include "app/gui/state/startup.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "app/gui/check/check_panels.hpp"
#include "app/gui/flash/flash_panels.hpp"
#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/state/config_fields.hpp"
#include "app/gui/state/map_view.hpp"
#include "core/model/config.hpp"
#include "core/model/errors.hpp"

namespace attnlab::gui {

namespace {

// --focus-head, --compare-head, --zoom: the heads panel in focus mode, zoomed about the centre.
std::string start_head_focus(AppState& state, const StartOptions& options) {
  const int64_t heads = state.session.trace->config.n_heads;
  for (const int head : {options.focus_head, options.compare_head})
    if (head >= heads)
      return "attnlab: there is no head " + std::to_string(head) +
             " (n_heads = " + std::to_string(heads) + ")";
  const auto count = int64_t(state.session.trace->tokens.size());  // T
  const double middle = double(count) * 0.5;
  state.heads.focus = {options.focus_head, options.compare_head,
                       zoom_about({}, count, options.zoom, middle, middle)};
  return "";
}

// The model shown when the app closed, opened again in the background (its layer and sentence);
// a folder that is gone (moved, or a page's folder, which a reload forgets) is said, not an error.
void reopen_last_model(AppState& state, const ShownModel& last) {
  if (last.folder.empty()) return;
  std::error_code error;
  if (!std::filesystem::is_directory(last.folder, error)) {
    state.status += (state.status.empty() ? "" : " ") + ("The last model's folder " + last.folder +
                                                         " is not there any more: open it again.");
    return;
  }
  state.model.requested_layer = last.layer;
  if (!state.model.requested_sentence) state.model.requested_sentence = last.sentence;
  start_model_load(state, last.folder);
}

}  // namespace

std::string start_state(AppState& state, const StartOptions& options,
                        const LoadedSettings* restored) {
  load_presets(state);
  std::string error;
  if (restored) {
    state.ui = restored->settings.ui;
    state.save.choices = restored->settings.save;
    state.status = restored->notice;
  }
  if (!options.theme.empty()) state.ui.theme = options.theme == "dark" ? Theme::Dark : Theme::Light;
  if (options.font_scale) state.ui.font_scale = *options.font_scale;
  if (!options.heatmap_view.empty())
    parse_heatmap_view(options.heatmap_view, state.ui.heatmap_view);
  if (!options.colour_scale.empty())
    parse_colour_scale(options.colour_scale, state.ui.colour_scale);
  if (options.scripted()) state.ui.animation_seconds = 0;
  if (options.transition) state.walk.frozen_transition = *options.transition;
  if (options.present) state.ui.presenter = true;
  state.walk.pending_stage = options.stage;

  const bool restore_config = restores_session(options, restored);
  if (restore_config) {
    if (options.stage.empty()) state.walk.pending_stage = restored->settings.stage;
    if (options.tab.empty() && !restored->settings.tab.empty())
      open_tab(state, restored->settings.tab);
    state.session.preset_name = restored->settings.preset;
    for (const Preset& preset : state.session.presets) {
      if (preset.name != state.session.preset_name) continue;
      state.session.preset_config = preset.config;
      state.session.preset_inputs = preset.inputs;
    }
    // Settings that cannot be used any more (a preset or a limit changed) are dropped one by
    // one, each named with its reason; the rest of the session is kept.
    Config fallback;
    for (const Preset& preset : state.session.presets)
      if (preset.name == kDefaultPreset) fallback = preset.config;
    RestoredConfig kept = restore_valid(restored->settings.config, fallback);
    state.session.config = kept.config;
    if (!kept.dropped.empty()) {
      std::string dropped;
      for (const std::string& d : kept.dropped) dropped += (dropped.empty() ? "" : "; ") + d;
      state.status +=
          (state.status.empty() ? "" : " ") + ("Restored the last session except " + dropped + ".");
      state.session.preset_name.clear();
    }
  } else {
    const std::string name = options.preset.empty() ? kDefaultPreset : options.preset;
    if (!apply_preset(state, name)) {
      error = state.session.presets.empty() ? "attnlab: " + state.session.preset_errors.front()
                                            : "attnlab: unknown preset \"" + name +
                                                  "\" (attnlab-cli --list-presets lists them)";
      apply_preset(state, kDefaultPreset);
    }
  }

  const std::string flags_error = apply_options_over_config(state, options);
  if (error.empty()) error = flags_error;
  if (error.empty() && !state.session.issues.empty())
    error = "attnlab: " + describe(state.session.issues);

  // A restored config may be invalid now (a preset changed): fall back to the default preset.
  if (!state.session.trace && !state.session.computing && restore_config)
    apply_preset(state, kDefaultPreset);
  // --sentence is also the sentence of a model opened later (dropped, picked in the page).
  if (options.config.given("sentence"))
    state.model.requested_sentence = options.config.value("sentence").text.value_or("");
  if (options.model.empty() && restore_config) reopen_last_model(state, restored->settings.model);
  if (!options.model.empty() && options.lesson.empty()) {  // a lesson's scenes open it themselves
    ModelTab& model = state.model;
    model.requested_layer = options.layer;
    model.requested_off_heads = options.config.value("ablated_heads").heads;
    if (!options.model_page.empty())
      model.requested_page =
          options.model_page == "next" ? ModelPage::NextToken : ModelPage::Finder;
    start_model_load(state, options.model);
    if (options.scripted()) {
      wait_for_model(state);
      if (error.empty() && !model.error.empty()) error = "attnlab: " + model.error;
      if (error.empty() && !model.sentence_error.empty())
        error = "attnlab: " + model.sentence_error;
    }
  }
  // Scripted runs need the trace before their first frame; a window shows progress instead.
  if (options.scripted() && !state.model.loading.empty()) wait_for_model(state);  // reopened
  if (options.scripted()) state.session.worker->wait_idle();
  poll_trace(state);
  if (options.scripted() && state.session.trace) {
    // The tabs that measure in the background show their numbers in the screenshot.
    if (state.tabs.requested_tool == ToolTab::HeadTools) {
      start_importance(state);
      start_head_count_comparison(state);
    }
    if (state.tabs.requested_tool == ToolTab::Paths) start_path_timing(state);
    if (state.tabs.requested_tool == ToolTab::Flash) start_flash_sweep(state);
    wait_for_measurements(state);
  }
  if (error.empty() && !state.session.trace && !state.session.computing)
    error = "attnlab: " + state.session.run_error;
  if (error.empty() && state.session.trace && options.focus_head >= 0)
    error = start_head_focus(state, options);
  if (error.empty() && state.session.trace && !state.walk.pending_stage.empty()) {
    if (!options.stage.empty()) error = "attnlab: this trace has no step \"" + options.stage + "\"";
    state.walk.pending_stage.clear();  // a restored step the trace lacks: the first step
  }
  if (!options.lesson.empty()) {  // its first scene replaces what the options set
    const std::string unread = open_lesson(state, options.lesson, options.model);
    if (!unread.empty()) return "attnlab: " + unread;
    const int scenes = int(state.lesson.lesson.scenes.size());
    if (options.scene > scenes)
      return "attnlab: --scene " + std::to_string(options.scene) + ": the lesson " +
             options.lesson + " has " + std::to_string(scenes) + " scenes; give 1 to " +
             std::to_string(scenes);
    if (options.scene > 0)  // the scene asked for
      show_scene(state, options.scene - 1);
    else if (restored && restored->settings.lesson.file == options.lesson &&
             restored->settings.lesson.scene > 0)  // the same lesson as when the app closed
      show_scene(state, std::min(restored->settings.lesson.scene, scenes - 1));
  }
  return error;
}

std::string apply_options_over_config(AppState& state, const StartOptions& options) {
  std::string error;
  Config config = state.session.config;
  Inputs preset_inputs = state.session.preset_inputs;
  try {
    // --ablate with --model: the model's heads, checked when it is read (adopt_model).
    apply_config_flags(
        options.model.empty() ? options.config : options.config.without("ablated_heads"), config,
        preset_inputs);
    state.session.preset_inputs = preset_inputs;
    // Flags that change the preset make the user's own config: the bar says "(custom)".
    if (config != state.session.config) state.session.preset_name.clear();
  } catch (const UserError& bad_flag) {  // the flags are dropped whole: the preset as it is
    error = std::string("attnlab: ") + bad_flag.what();
    config = state.session.config;
  }
  if (!options.tab.empty()) open_tab(state, options.tab);
  if (options.flash) {  // checked by parse_options
    state.flash.tiles = parse_tile_sizes(*options.flash);
    state.flash.step = options.flash_step - 1;
    state.tabs.requested_tool = ToolTab::Flash;
  }
  set_config(state, config);
  sync_edit_buffers(state);
  if (!options.check.empty()) open_check(state, options.check);
  return error;
}

bool restores_session(const StartOptions& options, const LoadedSettings* restored) {
  return options.preset.empty() && !options.config_flags_given && restored && restored->found;
}

void restore_window_size(StartOptions& options, const LoadedSettings* restored) {
  if (options.size_given || !restored || !restored->found) return;
  const Settings& saved = restored->settings;
  // Within --width's and --height's ranges; anything else (a hand-edited file) is not used.
  if (saved.window_width < kMinWindowWidth || saved.window_width > kMaxWindowSide ||
      saved.window_height < kMinWindowHeight || saved.window_height > kMaxWindowSide)
    return;
  options.width = saved.window_width;
  options.height = saved.window_height;
  options.size_remembered = true;
}

void fit_window_to_work_area(StartOptions& options, int work_width, int work_height) {
  if (options.size_given || work_width < kMinWindowWidth || work_height < kMinWindowHeight) return;
  options.width = options.size_remembered ? std::min(options.width, work_width) : work_width;
  options.height = options.size_remembered ? std::min(options.height, work_height) : work_height;
}

Settings current_settings(const AppState& state, const std::string& imgui_ini) {
  Settings settings;
  // Never an invalid config: while the controls hold one, the last valid (shown) config is saved.
  if (state.session.issues.empty())
    settings.config = state.session.config;
  else if (state.session.trace)
    settings.config = state.session.trace->config;
  else if (validate(state.session.preset_config).empty())
    settings.config = state.session.preset_config;
  settings.preset = state.session.preset_name;
  if (const PipelineStep* step = current_step(state)) {
    settings.stage = stage_name(step->stage);
    if (step->substep != Substep::None)
      settings.stage += std::string(":") + substep_name(step->substep);
  }
  settings.tab = tool_tab_name(state.tabs.tool);
  settings.ui = state.ui;
  settings.imgui_ini = imgui_ini;
  if (model_is_current(state))
    settings.model = {state.model.folder, state.model.layer, state.model.sentence};
  if (lesson_open(state)) settings.lesson = {state.lesson.file, std::max(state.lesson.scene, 0)};
  settings.save = state.save.choices;
  return settings;
}

}  // namespace attnlab::gui
