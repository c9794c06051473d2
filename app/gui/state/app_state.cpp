#include "app/gui/state/app_state.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <thread>
#include <type_traits>

#include "app/gui/check/check_panels.hpp"
#include "app/gui/state/gui_words.hpp"
#include "app/gui/state/map_view.hpp"
#include "app/gui/state/trace_jobs.hpp"
#include "core/model/errors.hpp"
#include "core/teaching/ablation.hpp"
#include "core/trace/mha.hpp"

namespace attnlab::gui {

namespace {

constexpr const char* kPanelNames[kPanelCount] = {"controls", "pipeline", "tensors", "heads",
                                                  "info"};

// Whether the preset's explicit tensors may stand in `config`: the preset's heads (the same W
// split into other heads would be another model), and each tensor the preset gives (x, x_kv, the
// weights and biases, MLA's latent ones) is one this config has, with the shape it needs. So
// K/V heads, cross-attention's T_k and d_in_kv and MLA's widths count wherever a shape does.
bool same_shapes(const Config& config, const Config& preset, const Inputs& given) {
  if (config.n_heads != preset.n_heads) return false;
  const Inputs needed = shape_only_inputs(config);
  for (const InputTensor& tensor : kInputTensors) {
    const Tensor &have = given.*tensor.member, &need = needed.*tensor.member;
    if (have.storage() && (!need.storage() || have.shape() != need.shape())) return false;
  }
  return true;
}

bool has_explicit_inputs(const Inputs& in) {
  for (const InputTensor& tensor : kInputTensors)
    if ((in.*tensor.member).storage()) return true;
  return false;
}

void adopt_trace(AppState& state, TraceBundle bundle) {
  // Stay on the same (stage, sub-step) across traces, so moving a slider keeps the view.
  const PipelineStep* before = current_step(state);
  const Stage stage = before ? before->stage : Stage::Input;
  const Substep substep = before ? before->substep : Substep::None;

  Session& session = state.session;
  session.adopted_while_drawing += state.frame.drawing;
  session.trace = std::move(bundle.trace);
  session.correct_trace = std::move(bundle.correct);
  session.mistake_report = std::move(bundle.report);
  session.trace_seconds = bundle.seconds;
  session.trace_inputs = session.pending_inputs;
  session.run_error.clear();
  ++session.generation;  // every cache of the previous trace is out of date
  state.tensors.magnitudes.get(session.generation, WholeTrace{},
                               [&] { return std::move(bundle.magnitudes); });

  Walk& walk = state.walk;
  walk.steps = pipeline_steps(*session.trace);
  int index = find_step(walk.steps, stage, substep);
  if (index < 0) index = std::max(0, first_step_of(walk.steps, stage));
  walk.step_index = walk.previous_step_index = index;
  walk.batch_shown = std::clamp<int64_t>(walk.batch_shown, 0, session.trace->config.batch - 1);
  if (!walk.pending_stage.empty() && go_to_named_step(state, walk.pending_stage))
    walk.pending_stage.clear();
  take_pending_zoom(state);
}

// Drops the background run without a word (its config no longer matches the controls).
void stop_background_run(AppState& state) {
  if (!state.session.computing) return;
  state.session.worker->cancel();
  state.session.computing = false;
  ++state.session.last_request;  // whatever the cancelled run returns is now stale
}

}  // namespace

const char* panel_name(PanelId panel) {
  return kPanelNames[int(panel)];
}

bool parse_panel(const std::string& text, PanelId& panel) {
  for (int i = 0; i < kPanelCount; ++i) {
    if (text == kPanelNames[i]) {
      panel = PanelId(i);
      return true;
    }
  }
  return false;
}

// [SECTION] configuration

void load_presets(AppState& state) {
  state.session.preset_errors.clear();
  try {
    state.session.presets = load_all_presets(&state.session.preset_errors);
  } catch (const UserError& error) {  // no presets folder: no presets, and why
    state.session.presets.clear();
    state.session.preset_errors.push_back(error.what());
  }
}

void set_config(AppState& state, const Config& config) {
  Session& session = state.session;
  session.config = config;
  session.issues = validate(config);
  if (!session.issues.empty()) {
    stop_background_run(state);  // nothing to run; keep showing the last valid trace
    return;
  }
  const bool use_preset_inputs = has_explicit_inputs(session.preset_inputs) &&
                                 same_shapes(config, session.preset_config, session.preset_inputs);
  const Inputs inputs = use_preset_inputs ? session.preset_inputs : Inputs{};
  session.pending_inputs = inputs;
  if (has_explicit_inputs(session.preset_inputs) && !use_preset_inputs) {
    state.status = "The preset's own X and weights do not fit these sizes: using generated ones.";
  }

  if (trace_bytes_needed(config) <= kSyncTraceBytes) {
    stop_background_run(state);
    try {
      adopt_trace(state, compute_bundle(config, inputs));
    } catch (const std::exception& error) {
      session.run_error = in_gui_words(error);
    }
    return;
  }
  session.worker->request(++session.last_request, config, inputs);
  session.computing = true;
}

bool apply_preset(AppState& state, const std::string& name) {
  for (const Preset& preset : state.session.presets) {
    if (preset.name != name) continue;
    state.session.preset_name = preset.name;
    state.session.preset_config = preset.config;
    state.session.preset_inputs = preset.inputs;
    state.status.clear();
    set_config(state, preset.config);
    sync_edit_buffers(state);
    return true;
  }
  state.status = "No preset named \"" + name + "\".";
  return false;
}

void sync_edit_buffers(AppState& state) {
  std::string text;
  for (int64_t length : state.session.config.mask.padding_lengths)
    text += (text.empty() ? "" : ", ") + std::to_string(length);
  state.controls.padding_text = text;
  state.controls.padding_error.clear();
  state.ui.link_d_k = state.session.config.d_k == 0;
}

bool apply_padding_text(AppState& state, MaskSpec& mask) {
  std::string cleaned = state.controls.padding_text;
  std::replace(cleaned.begin(), cleaned.end(), ',', ' ');
  std::istringstream in(cleaned);
  std::vector<int64_t> lengths;
  for (std::string word; in >> word;) {
    // At most 9 digits: always fits, and far beyond any T (validate() names it).
    if (word.find_first_not_of("0123456789") != std::string::npos || word.size() > 9) {
      state.controls.padding_error = "write whole numbers separated by commas, e.g. 3, 5";
      return false;
    }
    lengths.push_back(std::stoll(word));
  }
  state.controls.padding_error.clear();
  mask.padding_lengths = std::move(lengths);
  return true;
}

bool issue_belongs_to(const AppState& state, const ConfigIssue& issue, const std::string& field) {
  if (issue.field == field) return true;
  // The memory cap is no one control's: it goes under the control that was changed last.
  return issue.field == "memory" && field == state.controls.last_edited_field;
}

std::string issue_for(const AppState& state, const std::string& field) {
  std::string text;
  for (const ConfigIssue& issue : state.session.issues)
    if (issue_belongs_to(state, issue, field))
      text += (text.empty() ? "" : "\n") + issue.in_controls;
  return text;
}

void poll_trace(AppState& state) {
  std::optional<TraceResult> result = state.session.worker->take_result();
  if (!result || result->request_id != state.session.last_request) return;
  state.session.computing = false;
  if (result->bundle.trace) {
    adopt_trace(state, std::move(result->bundle));
  } else if (result->cancelled) {
    state.status = "Computation cancelled: still showing the previous trace.";
  } else {
    state.session.run_error = result->error;
  }
}

void cancel_computation(AppState& state) {
  if (!state.session.computing) return;
  stop_background_run(state);
  state.status = "Computation cancelled: still showing the previous trace.";
}

// [SECTION] walking the stages

const PipelineStep* current_step(const AppState& state) {
  const Walk& walk = state.walk;
  if (walk.steps.empty()) return nullptr;
  return &walk.steps[size_t(std::clamp(walk.step_index, 0, int(walk.steps.size()) - 1))];
}

void go_to_step(AppState& state, int index) {
  Walk& walk = state.walk;
  if (walk.steps.empty()) return;
  index = std::clamp(index, 0, int(walk.steps.size()) - 1);
  if (index == walk.step_index) return;
  walk.previous_step_index = walk.step_index;
  walk.step_index = index;
  walk.transition_start = walk.clock;
  walk.play_timer = 0;
}

void step_by(AppState& state, int delta) {
  go_to_step(state, state.walk.step_index + delta);
}

void go_to_stage(AppState& state, Stage stage) {
  const int index = first_step_of(state.walk.steps, stage);
  if (index >= 0) go_to_step(state, index);
}

bool go_to_named_step(AppState& state, const std::string& text) {
  const size_t colon = text.find(':');
  Stage stage;
  if (!parse_stage(text.substr(0, colon), stage)) return false;
  Substep substep = Substep::None;
  if (colon != std::string::npos && !parse_substep(text.substr(colon + 1), substep)) return false;
  const std::vector<PipelineStep>& steps = state.walk.steps;
  const int index =
      colon == std::string::npos ? first_step_of(steps, stage) : find_step(steps, stage, substep);
  if (index < 0) return false;
  go_to_step(state, index);
  state.walk.transition_start = -1;  // arrive settled, without animation
  return true;
}

void toggle_play(AppState& state) {
  Walk& walk = state.walk;
  walk.playing = !walk.playing;
  walk.play_timer = 0;
  // Playing from the last step starts the walk over.
  if (walk.playing && walk.step_index + 1 >= int(walk.steps.size())) go_to_step(state, 0);
}

void advance_clock(AppState& state, double seconds) {
  Walk& walk = state.walk;
  walk.clock += seconds;
  if (!walk.playing || walk.steps.empty()) return;
  walk.play_timer += seconds;
  const double period = 1.0 / std::max(0.05f, state.ui.steps_per_second);
  if (walk.play_timer < period) return;
  const bool at_end = walk.step_index + 1 >= int(walk.steps.size());
  go_to_step(state, at_end ? 0 : walk.step_index + 1);  // the walk loops, for a demo left running
}

float transition_progress(const AppState& state) {
  const Walk& walk = state.walk;
  if (walk.frozen_transition >= 0) return walk.frozen_transition;
  if (state.ui.animation_seconds <= 0 || walk.transition_start < 0) return 1.0f;
  const double t =
      std::clamp((walk.clock - walk.transition_start) / state.ui.animation_seconds, 0.0, 1.0);
  return float(t * t * (3 - 2 * t));  // smoothstep: starts and lands gently
}

// [SECTION] the teaching toolkit

void set_mistake(AppState& state, Mistake mistake) {
  Config config = state.session.config;
  config.mistake = mistake;
  set_config(state, config);
}

void toggle_head_ablation(AppState& state, int64_t head) {
  Config config = state.session.config;
  if (head < 0 || head >= config.n_heads) return;
  // Grown only as far as this head (later ones count as on): n_heads may be typed in huge.
  if (head >= int64_t(config.ablated_heads.size())) config.ablated_heads.resize(size_t(head) + 1);
  config.ablated_heads[size_t(head)] = !config.ablated_heads[size_t(head)];
  set_config(state, config);
}

void take_pending_zoom(AppState& state) {
  HeadsPanel& heads = state.heads;
  if (heads.pending_zoom == 1 || !state.session.trace) return;
  if (heads.focus.head >= 0) {
    const auto count = int64_t(state.session.trace->tokens.size());  // T
    const double middle = double(count) * 0.5;
    heads.focus.view = zoom_about({}, count, heads.pending_zoom, middle, middle);
  }
  heads.pending_zoom = 1;
}

bool open_tab(AppState& state, const std::string& name) {
  for (int i = 0; i < kToolTabCount; ++i) {
    if (name != tool_tab_name(ToolTab(i))) continue;
    state.tabs.requested_tool = ToolTab(i);
    return true;
  }
  for (int i = 0; i < kInfoTabCount; ++i) {
    if (name != info_tab_name(InfoTab(i))) continue;
    state.tabs.requested_info = InfoTab(i);
    return true;
  }
  return false;
}

Inputs shown_trace_inputs(const AppState& state) {
  return trace_inputs(*state.session.trace, state.session.trace_inputs);
}

void start_importance(AppState& state) {
  start_for_trace(state, state.head_tools.importance, WholeTrace{}, "Head importance",
                  [](const Trace& trace, const Inputs& given, const RunControl& control) {
                    return head_importance(trace.config, trace_inputs(trace, given), control);
                  });
}

void start_path_timing(AppState& state) {
  start_for_trace(state, state.paths.comparison, WholeTrace{},
                  "Timing the loop against the batched path",
                  [](const Trace& trace, const Inputs& given, const RunControl& control) {
                    return compare_paths(trace.config, trace_inputs(trace, given), 5, control);
                  });
}

void start_head_count_comparison(AppState& state) {
  start_for_trace(state, state.head_tools.head_counts, WholeTrace{}, "The one-head comparison",
                  [](const Trace& trace, const Inputs& given, const RunControl& control) {
                    return compare_head_counts(trace.config, trace_inputs(trace, given), control);
                  });
}

// [SECTION] background jobs

namespace {

// Every background job of the app, written once: polled, waited for and cancelled from here.
template <typename State>
auto jobs_of(State& state) {
  using Pointer = std::conditional_t<std::is_const_v<State>, const Job*, Job*>;
  return std::vector<Pointer>{&state.head_tools.importance, &state.head_tools.head_counts,
                              &state.paths.comparison,      &state.word_order.shuffle,
                              &state.flash.lesson,          &state.train.head_counts,
                              &state.train.longer,          &state.model.load,
                              &state.model.finding,         &state.model.heads_off,
                              &state.model.generating,      &state.model.sentence_run,
                              &state.check.grading,         &state.save.writing};
}

}  // namespace

std::vector<Job*> all_jobs(AppState& state) {
  return jobs_of(state);
}

std::vector<const Job*> all_jobs(const AppState& state) {
  return jobs_of(state);
}

bool any_job_pending(const AppState& state) {
  for (const Job* job : all_jobs(state))
    if (job->pending()) return true;
  return false;
}

void poll_measurements(AppState& state) {
  for (Job* job : all_jobs(state)) job->poll();
  poll_check(state);  // before the model: it takes the dropped exercises and answers
  poll_model(state);  // a loaded model is shown, a new run's heads are looked for
}

void wait_for_measurements(AppState& state) {
  do {  // a finished model load starts its head finder: waited for too
    for (Job* job : all_jobs(state)) job->wait();
    poll_check(state);
    poll_model(state);
  } while (any_job_pending(state));
}

void cancel_all_jobs(AppState& state) {
  cancel_computation(state);
  if (state.train.run) state.train.run->pause();
  for (Job* job : all_jobs(state)) job->cancel();
}

bool wait_for_jobs_to_stop(const AppState& state, std::chrono::milliseconds limit) {
  const auto running = [&state] {
    if (state.session.worker && state.session.worker->busy()) return true;
    if (state.train.run && state.train.run->running()) return true;
    for (const Job* job : all_jobs(state))
      if (job->busy()) return true;
    return false;
  };
  const auto end = std::chrono::steady_clock::now() + limit;
  while (running()) {
    if (std::chrono::steady_clock::now() >= end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// [SECTION] heatmaps

const HeatmapSet& current_heatmaps(AppState& state) {
  const std::shared_ptr<const Trace>& trace = state.session.trace;
  const PipelineStep* step = current_step(state);
  const HeatmapView view =
      trace && step ? view_at_step(*trace, state.ui.heatmap_view, step->stage, step->substep)
                    : state.ui.heatmap_view;
  const HeatmapChoice choice = {view, state.walk.batch_shown, state.ui.colour_scale};
  return state.heads.heatmaps.get(state.session.generation, choice, [&] {
    return trace ? build_heatmaps(*trace, choice.view, choice.batch, choice.colour_scale)
                 : HeatmapSet{};
  });
}

}  // namespace attnlab::gui
