#include "app/gui/app_state.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "core/teaching/ablation.hpp"
#include "core/model/errors.hpp"
#include "core/trace/mha.hpp"

namespace attnlab::gui {

namespace {

constexpr const char* kPanelNames[kPanelCount] = {"controls", "pipeline", "tensors", "heads",
                                                  "info"};

// The sizes a preset's explicit tensors (x, w_q, ...) depend on.
bool same_shapes(const Config& a, const Config& b) {
  return a.tokens() == b.tokens() && a.batch == b.batch && a.input_dim() == b.input_dim() &&
         a.d_model == b.d_model && a.n_heads == b.n_heads && a.head_dim_k() == b.head_dim_k() &&
         a.head_dim_v() == b.head_dim_v() && a.bias == b.bias && a.output_proj == b.output_proj;
}

bool has_explicit_inputs(const Inputs& in) {
  for (const Tensor* t :
       {&in.x, &in.w_q, &in.w_k, &in.w_v, &in.w_o, &in.b_q, &in.b_k, &in.b_v, &in.b_o})
    if (t->storage()) return true;
  return false;
}

void adopt_trace(AppState& state, TraceBundle bundle) {
  // Stay on the same (stage, sub-step) across traces, so moving a slider keeps the view.
  const PipelineStep* before = current_step(state);
  const Stage stage = before ? before->stage : Stage::Input;
  const Substep substep = before ? before->substep : Substep::None;

  state.trace = std::move(bundle.trace);
  state.record_magnitudes = std::move(bundle.magnitudes);
  state.magnitudes_of = state.trace;
  state.correct_trace = std::move(bundle.correct);
  state.mistake_report = std::move(bundle.report);
  state.trace_inputs = state.pending_inputs;
  state.steps = pipeline_steps(*state.trace);
  int index = find_step(state.steps, stage, substep);
  if (index < 0) index = std::max(0, first_step_of(state.steps, stage));
  state.step_index = state.previous_step_index = index;
  state.batch_shown = std::clamp<int64_t>(state.batch_shown, 0, state.trace->config.batch - 1);
  state.run_error.clear();
  state.heatmaps_dirty = true;
  if (!state.pending_stage.empty() && go_to_named_step(state, state.pending_stage))
    state.pending_stage.clear();
}

// Drops the background run without a word (its config no longer matches the controls).
void stop_background_run(AppState& state) {
  if (!state.computing) return;
  state.worker->cancel();
  state.computing = false;
  ++state.last_request;  // whatever the cancelled run returns is now stale
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
  state.preset_errors.clear();
  try {
    state.presets = load_all_presets(&state.preset_errors);
  } catch (const UserError& error) {  // no presets folder: no presets, and why
    state.presets.clear();
    state.preset_errors.push_back(error.what());
  }
}

void set_config(AppState& state, const Config& config) {
  state.config = config;
  state.issues = validate(config);
  if (!state.issues.empty()) {
    stop_background_run(state);  // nothing to run; keep showing the last valid trace
    return;
  }
  const bool use_preset_inputs =
      has_explicit_inputs(state.preset_inputs) && same_shapes(config, state.preset_config);
  const Inputs inputs = use_preset_inputs ? state.preset_inputs : Inputs{};
  state.pending_inputs = inputs;
  if (has_explicit_inputs(state.preset_inputs) && !use_preset_inputs) {
    state.status = "The preset's own X and weights do not fit these sizes: using generated ones.";
  }

  if (trace_bytes_needed(config) <= kSyncTraceBytes) {
    stop_background_run(state);
    try {
      adopt_trace(state, compute_bundle(config, inputs));
    } catch (const std::exception& error) {
      state.run_error = error.what();
    }
    return;
  }
  state.worker->request(++state.last_request, config, inputs);
  state.computing = true;
}

bool apply_preset(AppState& state, const std::string& name) {
  for (const Preset& preset : state.presets) {
    if (preset.name != name) continue;
    state.preset_name = preset.name;
    state.preset_config = preset.config;
    state.preset_inputs = preset.inputs;
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
  for (int64_t length : state.config.mask.padding_lengths)
    text += (text.empty() ? "" : ", ") + std::to_string(length);
  state.padding_text = text;
  state.padding_error.clear();
  state.ui.link_d_k = state.config.d_k == 0;
}

bool apply_padding_text(AppState& state, MaskSpec& mask) {
  std::string cleaned = state.padding_text;
  std::replace(cleaned.begin(), cleaned.end(), ',', ' ');
  std::istringstream in(cleaned);
  std::vector<int64_t> lengths;
  for (std::string word; in >> word;) {
    // At most 9 digits: always fits, and far beyond any T (validate() names it).
    if (word.find_first_not_of("0123456789") != std::string::npos || word.size() > 9) {
      state.padding_error = "write whole numbers separated by commas, e.g. 3, 5";
      return false;
    }
    lengths.push_back(std::stoll(word));
  }
  state.padding_error.clear();
  mask.padding_lengths = std::move(lengths);
  return true;
}

bool issue_belongs_to(const AppState& state, const ConfigIssue& issue, const std::string& field) {
  if (issue.field == field) return true;
  // The memory cap is no one control's: it goes under the control that was changed last.
  return issue.field == "memory" && field == state.last_edited_field;
}

std::string issue_for(const AppState& state, const std::string& field) {
  std::string text;
  for (const ConfigIssue& issue : state.issues)
    if (issue_belongs_to(state, issue, field)) text += (text.empty() ? "" : "\n") + issue.message;
  return text;
}

void poll_trace(AppState& state) {
  std::optional<TraceResult> result = state.worker->take_result();
  if (!result || result->request_id != state.last_request) return;
  state.computing = false;
  if (result->bundle.trace) {
    adopt_trace(state, std::move(result->bundle));
  } else if (result->cancelled) {
    state.status = "Computation cancelled: still showing the previous trace.";
  } else {
    state.run_error = result->error;
  }
}

void cancel_computation(AppState& state) {
  if (!state.computing) return;
  stop_background_run(state);
  state.status = "Computation cancelled: still showing the previous trace.";
}

// [SECTION] walking the stages

const PipelineStep* current_step(const AppState& state) {
  if (state.steps.empty()) return nullptr;
  return &state.steps[size_t(std::clamp(state.step_index, 0, int(state.steps.size()) - 1))];
}

void go_to_step(AppState& state, int index) {
  if (state.steps.empty()) return;
  index = std::clamp(index, 0, int(state.steps.size()) - 1);
  if (index == state.step_index) return;
  state.previous_step_index = state.step_index;
  state.step_index = index;
  state.transition_start = state.clock;
  state.play_timer = 0;
}

void step_by(AppState& state, int delta) {
  go_to_step(state, state.step_index + delta);
}

void go_to_stage(AppState& state, Stage stage) {
  const int index = first_step_of(state.steps, stage);
  if (index >= 0) go_to_step(state, index);
}

bool go_to_named_step(AppState& state, const std::string& text) {
  const size_t colon = text.find(':');
  Stage stage;
  if (!parse_stage(text.substr(0, colon), stage)) return false;
  Substep substep = Substep::None;
  if (colon != std::string::npos && !parse_substep(text.substr(colon + 1), substep)) return false;
  const int index = colon == std::string::npos ? first_step_of(state.steps, stage)
                                               : find_step(state.steps, stage, substep);
  if (index < 0) return false;
  go_to_step(state, index);
  state.transition_start = -1;  // arrive settled, without animation
  return true;
}

void toggle_play(AppState& state) {
  state.playing = !state.playing;
  state.play_timer = 0;
  // Playing from the last step starts the walk over.
  if (state.playing && state.step_index + 1 >= int(state.steps.size())) go_to_step(state, 0);
}

void advance_clock(AppState& state, double seconds) {
  state.clock += seconds;
  if (!state.playing || state.steps.empty()) return;
  state.play_timer += seconds;
  const double period = 1.0 / std::max(0.05f, state.ui.steps_per_second);
  if (state.play_timer < period) return;
  const bool at_end = state.step_index + 1 >= int(state.steps.size());
  go_to_step(state, at_end ? 0 : state.step_index + 1);  // the walk loops, for a demo left running
}

float transition_progress(const AppState& state) {
  if (state.frozen_transition >= 0) return state.frozen_transition;
  if (state.ui.animation_seconds <= 0 || state.transition_start < 0) return 1.0f;
  const double t =
      std::clamp((state.clock - state.transition_start) / state.ui.animation_seconds, 0.0, 1.0);
  return float(t * t * (3 - 2 * t));  // smoothstep: starts and lands gently
}

// [SECTION] the teaching toolkit

void set_mistake(AppState& state, Mistake mistake) {
  Config config = state.config;
  config.mistake = mistake;
  set_config(state, config);
}

void toggle_head_ablation(AppState& state, int64_t head) {
  Config config = state.config;
  if (head < 0 || head >= config.n_heads) return;
  // Grown only as far as this head (later ones count as on): n_heads may be typed in huge.
  if (head >= int64_t(config.ablated_heads.size())) config.ablated_heads.resize(size_t(head) + 1);
  config.ablated_heads[size_t(head)] = !config.ablated_heads[size_t(head)];
  set_config(state, config);
}

bool open_tab(AppState& state, const std::string& name) {
  for (int i = 0; i < kToolTabCount; ++i) {
    if (name != tool_tab_name(ToolTab(i))) continue;
    state.requested_tool_tab = ToolTab(i);
    return true;
  }
  for (int i = 0; i < kInfoTabCount; ++i) {
    if (name != info_tab_name(InfoTab(i))) continue;
    state.requested_info_tab = InfoTab(i);
    return true;
  }
  return false;
}

Inputs shown_trace_inputs(const AppState& state) {
  return complete_inputs(state.trace->config, state.trace->tokens, state.trace_inputs);
}

namespace {

// Starts `task` for the shown trace's config with `work(config, complete inputs, control)`, on
// its thread; refused at once (the task's error) when the config has no values to measure.
template <typename Result, typename Work>
void start_for_trace(AppState& state, BackgroundTask<Result>& task, const std::string& what,
                     Work work) {
  if (!state.trace || task.started_for(state.trace->config)) return;
  const Config config = state.trace->config;
  const std::vector<std::string> tokens = state.trace->tokens;
  const Inputs given = state.trace_inputs;
  task.start(config, what, [config, tokens, given, work](const RunControl& control) {
    return work(config, complete_inputs(config, tokens, given), control);
  });
}

}  // namespace

void start_importance(AppState& state) {
  start_for_trace(state, state.importance, "Head importance",
                  [](const Config& c, const Inputs& in, const RunControl& control) {
                    return head_importance(c, in, control);
                  });
}

void start_path_timing(AppState& state) {
  start_for_trace(state, state.paths, "Timing the loop against the batched path",
                  [](const Config& c, const Inputs& in, const RunControl& control) {
                    return compare_paths(c, in, 5, control);
                  });
}

void start_head_count_comparison(AppState& state) {
  start_for_trace(state, state.head_counts, "The one-head comparison",
                  [](const Config& c, const Inputs& in, const RunControl& control) {
                    return compare_head_counts(c, in, control);
                  });
}

void poll_measurements(AppState& state) {
  state.importance.poll();
  state.paths.poll();
  state.head_counts.poll();
}

void wait_for_measurements(AppState& state) {
  state.importance.wait();
  state.paths.wait();
  state.head_counts.wait();
}

void cancel_all_jobs(AppState& state) {
  cancel_computation(state);
  state.importance.cancel();
  state.paths.cancel();
  state.head_counts.cancel();
}

// [SECTION] heatmaps

const HeatmapSet& current_heatmaps(AppState& state) {
  if (state.heatmaps_dirty) {
    state.heatmaps = state.trace ? build_heatmaps(*state.trace, state.ui.heatmap_view,
                                                  state.batch_shown, state.ui.stretch_weights)
                                 : HeatmapSet{};
    ++state.heatmaps_version;
    state.heatmaps_dirty = false;
  }
  return state.heatmaps;
}

void set_heatmap_view(AppState& state, HeatmapView view) {
  if (state.ui.heatmap_view == view) return;
  state.ui.heatmap_view = view;
  state.heatmaps_dirty = true;
}

}  // namespace attnlab::gui
