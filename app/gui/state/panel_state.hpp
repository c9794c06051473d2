// What each panel and tab remembers between frames: its own choices, its caches of the shown
// trace (TraceCache) and its jobs measuring it (TraceJob), both keyed by (trace generation, the
// panel's own choice).
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

#include "app/gui/state/background_task.hpp"
#include "app/gui/state/heatmap_data.hpp"
#include "app/gui/state/map_view.hpp"
#include "app/gui/state/memory_layout.hpp"
#include "app/gui/state/mistake_maps.hpp"
#include "app/gui/state/toolkit_tabs.hpp"
#include "app/gui/state/trace_cache.hpp"
#include "app/gui/train/train_run.hpp"
#include "core/teaching/comparisons.hpp"
#include "core/training/head_count_comparison.hpp"
#include "core/training/head_pruning.hpp"
#include "core/training/length_experiment.hpp"
#include "core/variants/cache_comparison.hpp"

namespace attnlab::gui {

// What the pipeline strip's content needed last frame: the layout gives it that height.
struct PipelineStrip {
  float content_height = 0;  // 0 until first drawn
  float boxes_height = 0;    // of which the rows of stage boxes took this much
};

struct ControlsPanel {
  // A number typed into a field (Ctrl+click on a slider, or an input box) is applied on Enter or
  // when the field loses focus, not at every keystroke; until then it waits here, by widget ID.
  std::map<ImGuiID, std::variant<int64_t, uint64_t, float>> typed_values;
  std::string last_edited_field;  // validate()'s name for the control changed last ("seq_len")
  std::string padding_text;       // the padding-lengths field as typed ("3, 5")
  std::string padding_error;      // when that text is not a list of whole numbers
  bool stacked_labels = false;    // the panel is narrow: labels go on a line above their field
  // A slider over valid values Ctrl+clicked (or double-clicked): a number box in its place until
  // Enter, Esc or a click elsewhere; `typing_focus` until the box has the keyboard.
  ImGuiID typing_slider = 0;
  bool typing_focus = false;
};

// The open tab of each tabbed panel, and the ones to select on the next frames (keys, --tab).
struct TabSelection {
  ToolTab tool = ToolTab::Tensors;
  InfoTab info = InfoTab::Code;
  std::optional<ToolTab> requested_tool;
  std::optional<InfoTab> requested_info;
};

struct TensorsTab {
  // Largest |value| per record, for its colours: seeded with the trace's bundle when it is
  // adopted, completed as records are drawn.
  TraceCache<WholeTrace, std::map<std::string, float>> magnitudes;
};

// What the heads panel's maps are built for, besides the trace.
struct HeatmapChoice {
  HeatmapView view = HeatmapView::Weights;
  int64_t batch = 0;  // the sequence shown
  ColourScale colour_scale = ColourScale::PerRow;
  bool operator==(const HeatmapChoice&) const = default;
};

// Focus mode: one head drawn as large as the panel allows (or two side by side, sharing one
// zoom and pan) instead of the grid of all heads.
struct HeadFocus {
  int head = -1;     // -1: the grid
  int compare = -1;  // the head beside it; -1: none
  MapView view;      // the visible window of both maps
};

struct HeadsPanel {
  TraceCache<HeatmapChoice, HeatmapSet> heatmaps;  // current_heatmaps()
  HeadFocus focus;
  // A scene's --zoom: the focused maps magnified about their centre once the scene's trace is
  // shown (the zoom is in cells: it needs T). 1: none waiting.
  double pending_zoom = 1;
  float full_header_h = 0;  // the full header's height when last drawn (0: not yet)
  // Shift+1 with more than 10 heads: head 1_ waits for a second digit (Shift+1 then 1 = head 11)
  // until ImGui's clock passes `tens_deadline`, then head 1 is switched.
  int pending_tens = -1;
  double tens_deadline = 0;
};

struct MistakesTab {
  int64_t head = 0;   // the head whose maps are compared
  int64_t token = 0;  // forget-transpose: the token whose (h, h) map is shown
  TraceCache<MistakeMapChoice, std::array<HeatmapSet, 3>> maps;  // current_mistake_maps()
};

struct MemoryTab {
  char tensor = 'q';  // which of q, k, v the tab follows
  MemoryHover hover;  // the storage cell under the mouse last frame
  // First storage element of the tab's window; -1 until the tab first draws, which places it
  // across the first head boundary.
  int64_t window_start = -1;
};

struct CodeTab {
  int highlight = -1;  // first highlighted line of the code view
};

struct HeadToolsTab {
  TraceJob<std::vector<double>> importance;  // head_importance, per head
  TraceJob<HeadCountComparison> head_counts;
  // The one-vs-h table's width at the body type, in fonts, as last measured: the columns stay put
  // while a new comparison runs (a click on a head's box starts one).
  float table_fonts = 0;
};

struct PathsTab {
  TraceJob<PathComparison> comparison;  // the loop against the batched path
};

// The next lessons' tabs (app/gui/variants/).
struct DecodeTab {
  int step = 0;  // the decode step shown
};
struct KVCacheTab {
  // The same layer as MHA, GQA, MQA (and MLA), counted once per trace.
  TraceCache<WholeTrace, std::vector<CacheRow>> rows;
};

struct TrainTab {
  training::TrainSettings settings;  // as edited; a Reset (or Start) builds the model from them
  std::unique_ptr<TrainRun> run;     // made on first use (its thread waits until then)
  float pace = 0;                    // steps per second to watch it learn; 0: as fast as it goes
  std::string error;                 // why the settings cannot train, shown beside them
  int scrub = -1;                    // the snapshot shown; -1 = the latest (live)
  std::optional<training::HeadPruning> pruning;  // measured on the model at pruned_at steps
  int64_t pruned_at = -1;
  int remove_k = 0;                         // "remove the k least important heads"
  std::string model_dir = "attnlab-model";  // the folder Save and Load use
  std::string model_message;                // the last Save / Load outcome
  // Heads vs one head: h = 1, 2, 4, 8, 16 trained one after another in the background.
  BackgroundTask<std::vector<training::HeadCountCurve>> head_counts;
  // Longer than training: every position encoding trained, then evaluated at T, 2T and 4T.
  BackgroundTask<training::LengthExperiment> longer;
  int longer_seeds = 1;      // seeds per encoding
  bool show_longer = false;  // the right side shows the experiment instead of the heads
};

}  // namespace attnlab::gui
