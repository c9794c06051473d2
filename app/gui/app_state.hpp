// One struct holds everything the app shows and remembers; panels are functions of it.
// Data flows one way: Config -> attnlab::run() -> Trace -> panels draw it.
#pragma once

#include <imgui.h>

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "app/gui/background_task.hpp"
#include "app/gui/heatmap_data.hpp"
#include "app/gui/memory_layout.hpp"
#include "app/gui/mistake_maps.hpp"
#include "app/gui/pipeline_steps.hpp"
#include "app/gui/toolkit_tabs.hpp"
#include "app/gui/trace_worker.hpp"
#include "app/gui/ui_settings.hpp"
#include "core/teaching/comparisons.hpp"
#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/teaching/mistakes.hpp"
#include "core/model/preset.hpp"
#include "core/trace/trace.hpp"

namespace attnlab::gui {

enum class PanelId { Controls, Pipeline, Tensors, Heads, Info };
constexpr int kPanelCount = 5;
const char* panel_name(PanelId panel);  // "controls", "pipeline", ...
bool parse_panel(const std::string& text, PanelId& panel);

// Traces needing more than this are computed on the worker thread; smaller ones take well under
// a frame and are computed at once, so dragging a slider shows the new shapes immediately.
constexpr int64_t kSyncTraceBytes = 4 << 20;

struct HoverCell {
  int head = -1;  // -1: nothing hovered
  int64_t query = -1;
  int64_t key = -1;
};

// Where a heatmap was drawn this frame (screen pixels), for hover and the layout dump.
struct HeatmapPlacement {
  int head = 0;
  ImVec2 min, max;
};

// A PNG the app should write after rendering the current frame.
struct ExportRequest {
  std::optional<PanelId> panel;  // none = the whole window
  std::string path;              // "" = attnlab-<panel>-<date-time>.png in the current folder
};

struct AppState {
  // [SECTION] configuration and trace
  Config config;  // what the controls show; may be invalid
  std::string preset_name;
  Config preset_config;  // the preset's own config: its explicit tensors fit only these sizes
  Inputs preset_inputs;
  std::vector<Preset> presets;
  std::vector<std::string> preset_errors;

  std::shared_ptr<const Trace> trace;  // the last valid trace; stays while the config is invalid
  std::vector<ConfigIssue> issues;     // of `config`, shown beside the control they name
  std::string run_error;               // a run that failed for another reason
  // With a mistake injected, `trace` is the buggy run; these are the correct run of the same
  // config and inputs, and the core's comparison of the two.
  std::shared_ptr<const Trace> correct_trace;
  std::optional<MistakeReport> mistake_report;
  Inputs trace_inputs;    // the explicit inputs `trace` was run with (undefined ones generated)
  Inputs pending_inputs;  // those of the newest request

  // [SECTION] background computation
  std::unique_ptr<TraceWorker> worker = std::make_unique<TraceWorker>();
  uint64_t last_request = 0;  // the newest request; older results are ignored
  bool computing = false;

  // [SECTION] the walk through the stages
  std::vector<PipelineStep> steps;
  int step_index = 0;
  int previous_step_index = 0;   // where the current transition started
  double transition_start = -1;  // clock time of the last step change
  std::string pending_stage;     // "attend" or "attend:softmax", taken once a trace exists
  bool playing = false;
  double play_timer = 0;         // seconds on the current step while playing
  double clock = 0;              // seconds since start (sum of frame times)
  float frozen_transition = -1;  // >= 0: transitions held at this progress (figures of them)
  int64_t frames_drawn = 0;

  // [SECTION] tensors panel
  std::map<std::string, float> record_magnitudes;  // largest |value| per record, for its colours
  std::weak_ptr<const Trace> magnitudes_of;        // the trace those belong to (not kept alive)

  // [SECTION] heads panel
  int64_t batch_shown = 0;  // which sequence of the batch the panels show
  HeatmapSet heatmaps;
  uint64_t heatmaps_version = 0;  // bumped on every rebuild; the renderer re-uploads on change
  bool heatmaps_dirty = true;
  HoverCell hover;  // the heatmap cell under the mouse this frame

  // [SECTION] the tabbed panels and the teaching toolkit
  ToolTab tool_tab = ToolTab::Tensors;
  InfoTab info_tab = InfoTab::Code;
  std::optional<ToolTab> requested_tool_tab;  // selected on the next frames (keys, --tab)
  std::optional<InfoTab> requested_info_tab;
  int64_t mistake_map = 0;    // the head the mistakes panel compares
  int64_t mistake_token = 0;  // forget-transpose: the token whose (h, h) map is shown
  MistakeMaps mistake_maps;   // correct, buggy, |difference| (current_mistake_maps)
  std::vector<HeatmapPlacement> mistake_placements;  // head = 0 correct, 1 buggy, 2 difference

  char memory_tensor = 'q';                        // which of q, k, v the memory panel follows
  MemoryHover memory_hover;                        // storage cell under the mouse
  std::vector<MemoryGridPlacement> memory_grids;   // where logical tensors were drawn this frame
  std::vector<MemoryStripPlacement> memory_strips;  // where storage windows were drawn this frame
  // First storage element of the memory tab's window; -1 until the tab first draws, which
  // places it across the first head boundary.
  int64_t memory_window_start = -1;
  int code_highlight = -1;                         // first highlighted line of the code view
  BackgroundTask<std::vector<double>> importance;  // head_importance, per head
  BackgroundTask<PathComparison> paths;
  BackgroundTask<HeadCountComparison> head_counts;

  UiSettings ui;
  // [SECTION] controls
  // A number typed into a field (Ctrl+click on a slider, or an input box) is applied on Enter or
  // when the field loses focus, not at every keystroke; until then it waits here, by widget ID.
  std::map<ImGuiID, std::variant<int64_t, uint64_t, float>> typed_values;
  std::string last_edited_field;  // validate()'s name for the control changed last ("seq_len")
  std::string padding_text;       // the padding-lengths field as typed ("3, 5")
  std::string padding_error;      // when that text is not a list of whole numbers

  // [SECTION] requests for the window layer, handled between frames
  bool fonts_dirty = false;  // font scale changed: rebuild the atlas
  std::string font_text;     // the atlas has glyphs for this text's characters (the sentence)
  bool toggle_fullscreen = false;
  std::optional<ExportRequest> export_request;
  std::string status;  // one line at the bottom: saved files, notices
  // The last PNG export's outcome, shown beside the Save buttons: "Saved <path>" or why not.
  std::string export_message;
  bool export_failed = false;

  // [SECTION] what the panels recorded while drawing
  std::array<ImVec4, kPanelCount> panel_rects{};  // x0, y0, x1, y1
  std::vector<HeatmapPlacement> heatmap_placements;
  // Fields whose issue the controls panel drew this frame, "run" for run_error and "export" for
  // a failed PNG export: every
  // problem is explained on screen (the GUI fuzz test checks it).
  std::vector<std::string> explained;
  bool controls_focused = false;  // arrows then belong to the focused control
  ImFont* mono_font = nullptr;    // code lines; null = the default font
};

// True when `cached` was taken from `trace` (both may be empty). Caches hold weak pointers: they
// keep no old trace alive, and a new trace allocated where a freed one was is still a new one.
inline bool same_trace(const std::weak_ptr<const Trace>& cached,
                       const std::shared_ptr<const Trace>& trace) {
  return !cached.owner_before(trace) && !trace.owner_before(cached);
}

// [SECTION] configuration
void load_presets(AppState& state);
// Validates; a valid config starts a run (at once or on the worker), an invalid one only records
// the issues: the last valid trace stays on screen.
void set_config(AppState& state, const Config& config);
// Returns false (and sets status) when no preset has that name.
bool apply_preset(AppState& state, const std::string& name);
// Text fields that edit the config through a buffer (padding lengths) follow the config again.
void sync_edit_buffers(AppState& state);
// Reads state.padding_text ("3, 5") into mask.padding_lengths and returns true; when it is not a
// list of whole numbers, sets state.padding_error and leaves the mask alone.
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
// The inputs the shown trace used, completed (X from its tokens, weights from its seed): what the
// measurements run on. Throws UserError like complete_inputs.
Inputs shown_trace_inputs(const AppState& state);
// Starts the measurement for the shown trace unless it already ran for that config.
void start_importance(AppState& state);
void start_path_timing(AppState& state);
void start_head_count_comparison(AppState& state);
// Takes finished measurements; called every frame. wait_for_measurements blocks (tests, scripts).
void poll_measurements(AppState& state);
void wait_for_measurements(AppState& state);
// Asks the trace worker and every measurement to stop (closing the window, SIGTERM, SIGINT).
void cancel_all_jobs(AppState& state);

// [SECTION] heatmaps
const HeatmapSet& current_heatmaps(AppState& state);
void set_heatmap_view(AppState& state, HeatmapView view);

}  // namespace attnlab::gui
