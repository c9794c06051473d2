// The app's state, in parts: the session (config, trace, worker), the walk through the trace, the
// user's display settings, what each panel and tab remembers (its caches of the trace among it),
// the requests to the window layer, and what the panels recorded while drawing this frame.
// Panels are functions of it. Data flows one way: Config -> attnlab::run() -> Trace -> panels.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/check/check_state.hpp"
#include "app/gui/export/save_state.hpp"
#include "app/gui/flash/flash_state.hpp"
#include "app/gui/lessons/lesson_state.hpp"
#include "app/gui/model/model_state.hpp"
#include "app/gui/panels/fitted_type.hpp"
#include "app/gui/positions/word_order_state.hpp"
#include "app/gui/state/frame_output.hpp"
#include "app/gui/state/heatmap_data.hpp"
#include "app/gui/state/panel_state.hpp"
#include "app/gui/state/pipeline_steps.hpp"
#include "app/gui/state/requests.hpp"
#include "app/gui/state/session.hpp"
#include "app/gui/state/typed_input.hpp"
#include "app/gui/state/ui_settings.hpp"
#include "app/gui/state/walk.hpp"
#include "app/gui/state/window_requests.hpp"
#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/teaching/mistakes.hpp"

namespace attnlab::gui {

const char* panel_name(PanelId panel);  // "controls", "pipeline", ...
bool parse_panel(const std::string& text, PanelId& panel);

// Traces needing more than this are computed on the worker thread; smaller ones take well under
// a frame and are computed at once, so dragging a slider shows the new shapes immediately.
constexpr int64_t kSyncTraceBytes = 4 << 20;

struct AppState {
  Session session;
  Walk walk;
  UiSettings ui;  // saved with the settings

  // [SECTION] each panel's and tab's own
  ControlsPanel controls;
  PipelineStrip pipeline;
  TabSelection tabs;
  TensorsTab tensors;
  HeadsPanel heads;
  MistakesTab mistakes;
  MemoryTab memory;
  CodeTab code;
  HeadToolsTab head_tools;
  PathsTab paths;
  TrainTab train;
  DecodeTab decode;
  KVCacheTab kv_cache;
  ModelTab model;           // a real pretrained model (app/gui/model/)
  WordOrderTab word_order;  // app/gui/positions/
  FlashTab flash;           // long context: FlashAttention's tiled sweep (app/gui/flash/)
  CheckTab check;           // a student's own implementation graded (app/gui/check/)
  LessonPlayer lesson;      // a lecture's scenes (app/gui/lessons/)
  TypeFits type_fits;       // regions whose type shrinks to fit (panels/fitted_type.hpp)
  SaveDialog save;          // pictures and animations for slides (app/gui/export/)

  Requests requests;      // the panels' changes to the session, applied after the frame
  WindowRequests window;  // handled between frames
  TypedInput typed;       // the window's key presses and wide characters since the last frame
  std::string status;     // one line at the bottom: saved files, notices
  FrameOutput frame;      // cleared at the start of every frame
};

// [SECTION] configuration
void load_presets(AppState& state);
// Validates; a valid config starts a run (at once or on the worker), an invalid one only records
// the issues: the last valid trace stays on screen.
void set_config(AppState& state, const Config& config);
// Returns false (and sets status) when no preset has that name.
bool apply_preset(AppState& state, const std::string& name);
// Text fields that edit the config through a buffer (padding lengths) follow the config again.
void sync_edit_buffers(AppState& state);
// Reads state.controls.padding_text ("3, 5") into mask.padding_lengths and returns true; when it
// is not a list of whole numbers, sets state.controls.padding_error and leaves the mask alone.
bool apply_padding_text(AppState& state, MaskSpec& mask);
// True when `issue` is shown under the control of `field`: its own issues, and a whole-config
// issue (the memory cap) under the control changed last.
bool issue_belongs_to(const AppState& state, const ConfigIssue& issue, const std::string& field);
// The message for a field ("" when fine), e.g. issue_for(state, "n_heads").
std::string issue_for(const AppState& state, const std::string& field);
// Takes a finished background run, if any. Called every frame.
void poll_trace(AppState& state);
void cancel_computation(AppState& state);

// [SECTION] walking the stages
const PipelineStep* current_step(const AppState& state);
void go_to_step(AppState& state, int index);
void step_by(AppState& state, int delta);
void go_to_stage(AppState& state, Stage stage);
// "attend" (the stage's first step) or "attend:softmax", arriving without animation; false when
// the trace has no such step.
bool go_to_named_step(AppState& state, const std::string& text);
void toggle_play(AppState& state);
// Advances the clock (and the automatic walk) by one frame's time.
void advance_clock(AppState& state, double seconds);
// 0 -> 1 over the transition into the current step, eased; 1 when settled.
float transition_progress(const AppState& state);

// [SECTION] the teaching toolkit
// Injects a mistake (None removes it): a buggy run and the correct one, and the core's report.
void set_mistake(AppState& state, Mistake mistake);
// Switches one head off or on (config.ablated_heads) and runs again.
void toggle_head_ablation(AppState& state, int64_t head);
// "mistakes", "code", ... (tab_names()); false when unknown.
bool open_tab(AppState& state, const std::string& name);
// HeadsPanel::pending_zoom applied to the focused head's maps, when a trace is shown.
void take_pending_zoom(AppState& state);
// The inputs the shown trace used, completed (X from its tokens, weights from its seed): what the
// measurements run on. Throws UserError like complete_inputs.
Inputs shown_trace_inputs(const AppState& state);
// Starts the measurement for the shown trace unless it already ran for that trace generation.
void start_importance(AppState& state);
void start_path_timing(AppState& state);
void start_head_count_comparison(AppState& state);

// [SECTION] background jobs
// Every background job of the state (measurements, the shuffled run, Flash's sweep, training
// experiments, the model's load and head finder): the one list the frame polls, tests and
// screenshots wait for, and closing the app cancels. The trace worker (the session's) and the
// Train tab's live training run (paused, not ended) are not jobs: cancel_all_jobs stops them too.
std::vector<Job*> all_jobs(AppState& state);
std::vector<const Job*> all_jobs(const AppState& state);
bool any_job_pending(const AppState& state);  // a frame is due for one of them
// Takes finished jobs (and shows a loaded model); called every frame. wait_for_measurements blocks
// until every job is done (tests, scripts).
void poll_measurements(AppState& state);
void wait_for_measurements(AppState& state);
// Asks the trace worker, the training run and every job to stop (closing the window, SIGTERM).
void cancel_all_jobs(AppState& state);
// Waits up to `limit` for the trace worker, the training run and every job to stop running; false
// when one still runs (a computation that cannot be interrupted: the app abandons it at exit).
bool wait_for_jobs_to_stop(const AppState& state, std::chrono::milliseconds limit);

// [SECTION] heatmaps
// The heads panel's maps of the shown trace, for the view at the current step (view_at_step:
// attend's score sub-steps show their own record, other steps ui.heatmap_view), walk.batch_shown
// and ui.colour_scale (built again only when one of those or the trace changes).
const HeatmapSet& current_heatmaps(AppState& state);

}  // namespace attnlab::gui
