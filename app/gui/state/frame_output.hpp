// What the panels record while drawing one frame (where things landed on screen, which problems
// were explained), for hover, figures, the layout dump and tests. draw_frame clears it at the
// start of every frame, so nothing here outlives the frame it describes.
#pragma once

#include <imgui.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/state/memory_layout.hpp"

namespace attnlab::gui {

enum class PanelId { Controls, Pipeline, Tensors, Heads, Info };
constexpr int kPanelCount = 5;

// Where a heatmap was drawn this frame (screen pixels), for hover and the layout dump, and which
// part of the map it shows (texture coordinates: 0..1 is the whole map; less when zoomed).
struct HeatmapPlacement {
  int head = 0;
  ImVec2 min, max;
  ImVec2 uv_min{0, 0}, uv_max{1, 1};
};

struct HoverCell {
  int head = -1;  // -1: nothing hovered
  int64_t query = -1;
  int64_t key = -1;
};

// A control or label as it was laid out this frame, for the layout test: every control records
// itself through tooltip() (panels.hpp), so overlaps and cut labels can be found headless.
struct PlacedItem {
  std::string label;
  ImVec2 min, max;                  // the item, label included (screen pixels)
  ImVec2 visible_min, visible_max;  // its window's visible inner rectangle
  bool scrolls_x = false;           // its window scrolls horizontally (wide content is fine there)
  bool scrolls_y = false;           // ... or vertically (an item at the bottom edge is scrolled to)
};

// A caption line of the stage view's tensors (name, shape, strides, ...), and whether it was cut
// with an ellipsis for want of width.
struct CaptionPlacement {
  std::string text;
  ImVec2 min, max;  // as drawn (screen pixels)
  bool cut = false;
};

// One line of a stage box's shape in the pipeline strip, as drawn.
struct StageBoxLine {
  std::string text;
  ImVec2 min, max;          // the text's rectangle
  float size = 0;           // its font size
  ImVec2 box_min, box_max;  // the box it is drawn in
};

// A text of the picture that spelled an unrevealed question's answer, drawn as a "?" box
// (app/gui/lessons/answer_boxes.hpp).
struct AnswerBox {
  std::string text;    // the glyphs the box hides
  ImVec4 rect;         // x0, y0, x1, y1: the box
  std::string window;  // the ImGui window that drew the text
};

struct FrameOutput {
  // From the shortcuts to the last panel: a trace adopted now would be freed under a panel reading
  // it (adopt_trace counts it in Session::adopted_while_drawing; the tests expect none).
  bool drawing = false;
  float layout_height = 0;  // the panels' height: the window less a lesson's band under them
  ImVec4 band_rect{};       // x0, y0, x1, y1: a playing lesson's band, where no tooltip shows
  std::vector<PlacedItem> items;
  bool playback_in_bar = false;     // presenter mode's bar drew the step counter, not the strip
  std::vector<ImVec4> text_fields;  // x0, y0, x1, y1: a field's text scrolls, it is never cut
  std::vector<CaptionPlacement> captions;
  float scene_cell_px = 0;                    // the height of a cell of the stage view's tensors
  std::vector<std::string> scene_records;     // the records the stage view drew as blocks, in order
  std::vector<CaptionPlacement> headline;     // presenter mode's code line and shape, line by line
  std::string headline_record;                // the record the headline shows the code of
  std::vector<std::string> mistake_headline;  // presenter mode's Mistakes tab: name: symptom
  std::string formula_record;                 // ... and the formula line the formula of
  std::vector<CaptionPlacement> listed;       // presenter mode: the records listed, not drawn
  std::vector<std::string> stage_box_shapes;  // the pipeline strip's boxes' shapes, stage by stage
  std::vector<std::string> stage_box_tips;    // their tooltips' "q (...) · k (...) · v (...)"
  std::vector<StageBoxLine> stage_box_lines;  // the shapes' lines as drawn, in their boxes
  std::array<ImVec4, kPanelCount> panel_rects{};  // x0, y0, x1, y1
  std::vector<HeatmapPlacement> heatmap_placements;
  HoverCell hover;                                   // the heatmap cell under the mouse
  std::vector<HeatmapPlacement> mistake_placements;  // head = 0 correct, 1 buggy, 2 difference
  std::vector<MemoryGridPlacement> memory_grids;     // where logical tensors were drawn
  std::vector<MemoryStripPlacement> memory_strips;   // where storage windows were drawn
  // Fields whose issue the controls panel drew, "run" for run_error and "export" for a failed
  // PNG export: every problem is explained on screen (the GUI fuzz test checks it).
  std::vector<std::string> explained;
  // The Heads tools tab's importance bars as drawn, head by head, and the trace generation they
  // were measured on (what the click tests compare with the shown trace).
  std::vector<double> importance_bars;
  uint64_t importance_generation = 0;
  std::vector<AnswerBox> answer_boxes;  // the answer's texts hidden this frame
  // x0, y0, x1, y1: places whose text is not a value of the run asked about (another model's row
  // of a reference table, a map's name), never masked (mark_not_the_run, answer_boxes.hpp).
  std::vector<ImVec4> not_the_run;
};

}  // namespace attnlab::gui
