// The tensor view: the tensors of the current step as blocks (inputs faded on the left, outputs
// on the right), labelled with the seeds' notation, sizes, strides, contiguity and storage.
// Moving to a step animates what it does: project grows Q, K, V; split opens h bands; transpose
// stacks them; attend fills the T x T maps; concat lays the bands side by side again.
#include <imgui.h>
#include <imgui_internal.h>  // the window's font scale

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/token_text.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/layout.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/panels/stage_view.hpp"
#include "app/gui/panels/stale_banner.hpp"
#include "app/gui/panels/tensor_drawing.hpp"

namespace attnlab::gui {

namespace {

struct SceneItem {
  const TensorRecord* record = nullptr;
  BlockGeometry geometry;
  BlockStyle style;
  bool input = false;        // what the step reads: faded, left of the arrow
  bool moves_parts = false;  // its parts travel between side by side and stacked
};

// [SECTION] what each step shows, and how it animates (a: 0 -> 1 over the transition)

std::vector<SceneItem> build_scene(const Trace& trace, const PipelineStep& step, float a,
                                   float gap) {
  const int64_t h = trace.config.n_heads;
  std::vector<SceneItem> scene;
  auto add = [&](const char* name, bool input, BlockStyle style, bool bands = false) {
    const TensorRecord* record = trace.find(name);
    if (!record) return;
    if (input) style.alpha = 0.5f;
    scene.push_back({record, geometry_of(*record, h, bands), style, input});
  };
  auto outputs = [&](BlockStyle style, bool bands = false) {
    for (const TensorRecord* record : step_records(trace, step))
      scene.push_back({record, geometry_of(*record, h, bands), style, false});
  };
  auto add_inputs = [&](BlockStyle style, bool bands = false) {
    for (const TensorRecord* input : step_inputs(trace, step))
      add(input->name.c_str(), true, style, bands);
  };
  const BlockStyle stacked{.deck = 1, .band_gap = gap, .band_tint = 1};
  const BlockStyle side_by_side{.deck = 0, .band_gap = gap, .band_tint = 1};
  const BlockStyle filling{.deck = 1, .band_gap = gap, .band_tint = 1, .reveal_rows = a};

  switch (step.stage) {
    case Stage::Input:
      outputs({});
      break;
    case Stage::Project:
      add_inputs({});
      outputs({.reveal_cols = a});
      break;
    case Stage::Split:
      outputs({.band_gap = a * gap, .band_tint = a});
      break;
    case Stage::Transpose:
      if (step.substep == Substep::Expand) {
        // K's expand and reshape (V's are the same): the n_kv heads read g times by a stride of
        // 0, then merged into h heads.
        for (const TensorRecord* record : step_records(trace, step))
          if (record->which != 'v')  // k_grouped, k_expanded, MLA's k_rope_heads
            scene.push_back({record, geometry_of(*record, h, false), stacked, false});
        break;
      }
      outputs({.deck = a, .band_gap = gap, .band_tint = 1});
      for (SceneItem& item : scene) item.moves_parts = true;
      break;
    case Stage::Attend:
      add_inputs(stacked);
      outputs(filling);
      break;
    case Stage::Concat:
      if (step.substep == Substep::TransposeBack) {
        add_inputs(stacked);
        outputs({.deck = 1 - a, .band_gap = gap, .band_tint = 1});
        scene.back().moves_parts = true;
      } else if (step.substep == Substep::Contiguous) {
        add_inputs(side_by_side);
        outputs({.band_gap = gap, .band_tint = 1, .fresh = 1 - 0.6f * a});
      } else {
        outputs({.band_gap = (1 - a) * gap, .band_tint = 1 - 0.7f * a}, true);
      }
      break;
    case Stage::OutputProject:
      add_inputs({.band_tint = 0.3f}, true);
      outputs({.reveal_cols = trace.config.output_proj ? a : 1.0f});
      break;
  }
  return scene;
}

// [SECTION] captions

// A caption line: its parts joined on one line, or (compact) each part on a line of its own,
// where the stage view is narrow. Lines are never cut: the layout gives them their width.
struct CaptionLine {
  std::vector<std::string> parts;
  std::string joiner;
  std::string joined() const {
    std::string text;
    for (size_t i = 0; i < parts.size(); ++i) text += (i ? joiner : "") + parts[i];
    return text;
  }
  size_t lines(bool compact) const { return compact ? parts.size() : 1; }
};

struct Captions {
  std::vector<CaptionLine> above, below;
};

Captions captions_of(const TensorRecord& r) {
  const Tensor& t = r.tensor;
  Captions c;
  c.above = {{{r.name, r.axes_text()}, "  "}, {{"= " + shape_to_string(t.shape())}, ""}};
  std::string storage;
  if (r.is_view) {
    storage = "view of " + r.storage_owner;
  } else if (r.substep == Substep::Contiguous) {
    storage = "copy: new storage";
  } else {
    storage = "new storage";
  }
  c.below = {{{"strides", shape_to_string(t.strides())}, " "},
             {{t.is_contiguous() ? "contiguous" : "not contiguous", storage}, " \u00B7 "}};
  // A stride of 0 (expand): one copy in memory read again along that axis.
  for (size_t d = 0; d < t.strides().size() && d < r.axes.size(); ++d) {
    if (t.strides()[d] == 0 && t.size(int64_t(d)) > 1) {
      c.below.push_back({{"stride 0 on " + r.axes[d].symbol + ":",
                          std::to_string(t.size(int64_t(d))) + " reads, 1 copy"},
                         " "});
    }
  }
  return c;
}

size_t line_count(const std::vector<CaptionLine>& lines, bool compact) {
  size_t n = 0;
  for (const CaptionLine& line : lines) n += line.lines(compact);
  return n;
}

float text_width(const std::string& text, float size) {
  return ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0, text.c_str()).x;
}

float widest(const std::vector<std::string>& lines, float size) {
  float w = 0;
  for (const std::string& line : lines) w = std::max(w, text_width(line, size));
  return w;
}

float widest(const Captions& c, bool compact, float size) {
  float w = 0;
  for (const auto* lines : {&c.above, &c.below})
    for (const CaptionLine& line : *lines)
      w = std::max(w, compact ? widest(line.parts, size) : text_width(line.joined(), size));
  return w;
}

// [SECTION] fitting the scene into the panel

// How the blocks are arranged: `columns` to a row (rows of blocks where one row would leave
// specks: MLA's projection makes seven tensors), captions above and below each block or beside
// it, their lines whole or broken at their parts.
struct Arrangement {
  size_t columns = 1;
  bool beside = false;
  bool compact = false;
};

struct SceneMetrics {
  Arrangement arrangement;
  float caption_size = 0, line_h = 0, pad = 0;
  float above_h = 0, below_h = 0;  // stacked captions: the same for every block, so rows align
  float item_gap = 0, row_gap = 0, arrow_w = 0, tokens_w = 0, caption_gap = 0;
  std::vector<float> caption_w;  // each item's widest caption line
  std::vector<float> caption_h;  // beside: each item's caption lines

  size_t rows(size_t items) const {
    return (items + arrangement.columns - 1) / arrangement.columns;
  }
  // The width and height item i takes with its captions.
  ImVec2 slot(size_t i, ImVec2 block) const {
    if (arrangement.beside)
      return ImVec2(block.x + caption_gap + caption_w[i], std::max(block.y, caption_h[i]));
    return ImVec2(std::max(caption_w[i], block.x), above_h + block.y + below_h);
  }
};

// The block's largest size over its animation, so cells keep their size while it plays.
ImVec2 settled_extent(const SceneItem& item, CellSize cell, float gap) {
  BlockStyle loose = item.style;
  loose.band_gap = gap;
  if (!item.moves_parts) return block_extent(item.geometry, cell, loose);
  loose.deck = 0;
  const ImVec2 side = block_extent(item.geometry, cell, loose);
  loose.deck = 1;
  const ImVec2 deck = block_extent(item.geometry, cell, loose);
  return ImVec2(std::max(side.x, deck.x), std::max(side.y, deck.y));
}

// Whether the item after `i` starts with the arrow from the step's inputs to its outputs.
bool arrow_before(const std::vector<SceneItem>& scene, size_t i) {
  return i > 0 && !scene[i].input && scene[i - 1].input;
}

// The scene's width and height with these cells.
ImVec2 scene_extent(const std::vector<SceneItem>& scene, const SceneMetrics& m, CellSize cell,
                    float gap) {
  ImVec2 total(0, 0);
  const size_t columns = m.arrangement.columns;
  for (size_t row = 0; row * columns < scene.size(); ++row) {
    float width = m.tokens_w, height = 0;
    for (size_t i = row * columns; i < std::min(scene.size(), (row + 1) * columns); ++i) {
      const ImVec2 slot = m.slot(i, settled_extent(scene[i], cell, gap));
      width +=
          slot.x + (i > row * columns ? m.item_gap : 0) + (arrow_before(scene, i) ? m.arrow_w : 0);
      height = std::max(height, slot.y);
    }
    total.x = std::max(total.x, width);
    total.y += height + (row > 0 ? m.row_gap : 0);
  }
  return total;
}

bool fits(const std::vector<SceneItem>& scene, const SceneMetrics& m, CellSize cell, float gap,
          ImVec2 room) {
  const ImVec2 extent = scene_extent(scene, m, cell, gap);
  return extent.x <= room.x && extent.y <= room.y;
}

// Largest cells that fit: first wide enough for printed values, else square ones.
CellSize fit_cells(const std::vector<SceneItem>& scene, const SceneMetrics& m, CellSize value_cell,
                   float gap, ImVec2 room, bool& values) {
  values = fits(scene, m, value_cell, gap, room);
  if (values) return value_cell;
  float low = 0.05f, high = value_cell.h * 1.2f;
  if (!fits(scene, m, {low, low}, gap, room)) return {0, 0};  // the captions alone do not fit
  for (int i = 0; i < 24; ++i) {
    const float mid = 0.5f * (low + high);
    (fits(scene, m, {mid, mid}, gap, room) ? low : high) = mid;
  }
  return {low, low};
}

// Caption lines from `at` (each part on a line of its own when compact), recorded whole for the
// tests with whether any of it was cut at `width`.
float draw_captions(ImVec2 at, float width, const std::vector<CaptionLine>& lines,
                    const SceneMetrics& m, ImU32 first_colour, ImU32 colour) {
  auto* frame = static_cast<FrameOutput*>(ImGui::GetIO().UserData);
  const bool compact = m.arrangement.compact;
  float y = at.y;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::vector<std::string> drawn =
        compact ? lines[i].parts : std::vector<std::string>{lines[i].joined()};
    const ImVec2 first(at.x, y);
    float drawn_w = 0;
    bool cut = false;
    for (const std::string& text : drawn) {
      draw_cut_text(ImVec2(at.x, y), width, m.caption_size, i == 0 ? first_colour : colour,
                    text.c_str());
      const float full = text_width(text, m.caption_size);
      drawn_w = std::max(drawn_w, std::min(full, width));
      cut |= full > width;
      y += m.line_h;
    }
    if (frame)
      frame->captions.push_back({lines[i].joined(), first, ImVec2(at.x + drawn_w, y), cut});
  }
  return y - at.y;
}

float magnitude_of(AppState& state, const TensorRecord& record) {
  std::map<std::string, float>& magnitudes = state.tensors.magnitudes.get(
      state.session.generation, WholeTrace{}, [] { return std::map<std::string, float>{}; });
  auto [it, added] = magnitudes.try_emplace(record.name, 1.0f);
  if (added) it->second = largest_magnitude(record.tensor);
  return it->second;
}

bool is_weights(const TensorRecord& record) {
  return record.op == Op::Softmax || record.op == Op::ZeroMasked || record.op == Op::DropWeights;
}

// How a scene fits the room: caption metrics, the cell size, and whether numbers are printed.
struct SceneFit {
  SceneMetrics m;
  CellSize cell;
  bool values = false;
  float value_size = 0;
  float value_min_cell_width = 0;
};

SceneFit fit_scene(const std::vector<SceneItem>& scene, const std::vector<std::string>& tokens,
                   float gap, ImVec2 room, Arrangement arrangement) {
  const float font = ImGui::GetFontSize();
  SceneFit fit;
  SceneMetrics& m = fit.m;
  m.arrangement = arrangement;
  m.caption_size = std::round(font * 0.8f);
  m.line_h = m.caption_size * 1.2f;
  m.pad = font * 0.3f;
  m.item_gap = font * 1.2f;
  m.row_gap = font * 0.6f;
  m.caption_gap = font * 0.5f;
  const bool has_inputs = scene.front().input;
  m.arrow_w = has_inputs ? ImGui::CalcTextSize(" \u2192 ").x : 0;
  size_t above_lines = 0, below_lines = 0;
  for (const SceneItem& item : scene) {
    const Captions c = captions_of(*item.record);
    // A pixel to spare: the text is drawn at a rounded position and a hair over its measured
    // width would cut it with an ellipsis.
    m.caption_w.push_back(std::ceil(widest(c, arrangement.compact, m.caption_size)) + 1);
    const size_t above = line_count(c.above, arrangement.compact);
    const size_t below = line_count(c.below, arrangement.compact);
    m.caption_h.push_back(m.line_h * float(above + below) + m.pad);
    above_lines = std::max(above_lines, above);
    below_lines = std::max(below_lines, below);  // a stride-0 line makes one more
  }
  m.above_h = m.line_h * float(above_lines) + m.pad;
  m.below_h = m.line_h * float(below_lines) + m.pad;
  // Numbers in the cells at 3/4 of the font size if they fit, else a little smaller (never
  // below 11 px); otherwise square cells as large as fit, without numbers.
  for (const float fraction : {0.75f, 0.62f}) {
    fit.value_size = std::max(11.0f, std::round(font * fraction));
    fit.value_min_cell_width = text_width("-0.00", fit.value_size) + 6;
    const CellSize value_cell{fit.value_min_cell_width, std::round(fit.value_size * 1.3f)};
    // Token labels down the left of a single row, when its rows are tall enough to read them.
    m.tokens_w = m.rows(scene.size()) == 1 ? widest(tokens, fit.value_size) + font * 0.5f : 0;
    fit.cell = fit_cells(scene, m, value_cell, gap, room, fit.values);
    if (m.tokens_w > 0 && fit.cell.h < fit.value_size * 0.9f) {
      m.tokens_w = 0;
      fit.cell = fit_cells(scene, m, value_cell, gap, room, fit.values);
    }
    if (fit.values) break;
  }
  return fit;
}

// The arrangement with the largest cells: one row, captions above and below, whole lines first;
// a later one only for cells a fifth larger (or for printed values).
SceneFit best_fit(const std::vector<SceneItem>& scene, const std::vector<std::string>& tokens,
                  float gap, ImVec2 room) {
  SceneFit best;
  bool first = true;
  for (const bool compact : {false, true}) {
    for (const bool beside : {false, true}) {
      for (size_t columns = scene.size(); columns >= 1; --columns) {
        // Only as many columns as make a different number of rows.
        if (columns < scene.size() &&
            (scene.size() + columns - 1) / columns == (scene.size() + columns) / (columns + 1))
          continue;
        const SceneFit fit = fit_scene(scene, tokens, gap, room, {columns, beside, compact});
        if (fit.values && !best.values) return fit;
        if (first || fit.cell.h > 1.2f * best.cell.h) best = fit;
        first = false;
      }
    }
  }
  return best;
}

// The rows' tokens, as the font draws them: the key/value sentence's when the first block's rows
// are cross-attention's keys (x_kv, k, v).
std::vector<std::string> row_tokens(const Trace& trace, const SceneItem& front) {
  const size_t dims = front.record->axes.size();
  const size_t row_axis = dims == 5                                               ? 3
                          : dims == 4 && front.geometry.axis == PartAxis::Leading ? 2
                                                                                  : 1;
  const bool key_rows = row_axis < dims && front.record->axes[row_axis].symbol == "T_k";
  std::vector<std::string> tokens;
  for (const std::string& token : key_rows ? trace.tokens_kv : trace.tokens)
    tokens.push_back(display_text(token, *ImGui::GetFont()));
  return tokens;
}

// The smallest cell worth drawing: below it a tensor is a squiggle, not a grid.
float min_cell(float font) {
  return std::max(6.0f, std::round(font * 0.3f));
}

// The scene of the current step fitted into `room`, less the text above it (`text_height`, which
// depends on what is listed). Where the step's inputs would shrink its outputs below readable
// cells, only the outputs are drawn (the inputs are listed by name and shape above them); in
// presenter mode (`list_outputs`), where the outputs still are specks, the last ones are listed
// too until the rest are readable (never `keep`, the one the headline names).
struct StagePlan {
  std::vector<SceneItem> scene;
  std::vector<const TensorRecord*> dropped_inputs, listed_outputs;
  std::vector<std::string> tokens;
  SceneFit fit;
};

using TextHeight = std::function<float(const StagePlan&)>;

StagePlan plan_scene(const Trace& trace, const PipelineStep& step, float a, float gap, ImVec2 room,
                     const TensorRecord* keep = nullptr, bool list_outputs = false,
                     const TextHeight& text_height = {}) {
  StagePlan plan;
  plan.scene = build_scene(trace, step, a, gap);
  if (plan.scene.empty()) return plan;
  const auto refit = [&] {
    plan.tokens = row_tokens(trace, plan.scene.front());
    const float text_h = text_height ? text_height(plan) : 0;
    plan.fit = best_fit(plan.scene, plan.tokens, gap, ImVec2(room.x, room.y - text_h));
  };
  refit();
  const float font = ImGui::GetFontSize();
  if (plan.scene.front().input && plan.fit.cell.h < font * 0.6f && !plan.scene.back().input) {
    for (const SceneItem& item : plan.scene)
      if (item.input) plan.dropped_inputs.push_back(item.record);
    std::erase_if(plan.scene, [](const SceneItem& item) { return item.input; });
    refit();
  }
  while (list_outputs && plan.fit.cell.h < min_cell(font) && plan.scene.size() > 1) {
    auto last = std::find_if(plan.scene.rbegin(), plan.scene.rend(),
                             [&](const SceneItem& item) { return item.record != keep; });
    if (last == plan.scene.rend()) break;
    plan.listed_outputs.insert(plan.listed_outputs.begin(), last->record);
    plan.scene.erase(std::next(last).base());
    refit();
  }
  return plan;
}

void draw_scene(AppState& state, const StagePlan& plan) {
  const Palette& colours = palette(state.ui.theme);
  const float font = ImGui::GetFontSize();
  const float gap = std::round(font * 0.4f);
  const std::vector<SceneItem>& scene = plan.scene;
  if (scene.empty()) return;
  const SceneMetrics& m = plan.fit.m;
  const CellSize cell = plan.fit.cell;
  auto* frame = static_cast<FrameOutput*>(ImGui::GetIO().UserData);
  if (frame) {
    frame->scene_cell_px = cell.h;
    for (const SceneItem& item : scene) frame->scene_records.push_back(item.record->name);
  }
  const bool values = plan.fit.values;
  const float value_size = plan.fit.value_size;
  DrawContext context;
  context.colours = &colours;
  context.value_font_size = value_size;
  context.value_min_cell_width = plan.fit.value_min_cell_width;

  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec2 top_left = ImGui::GetCursorScreenPos(), room = ImGui::GetContentRegionAvail();
  float row_y = top_left.y, right = top_left.x;
  const size_t columns = m.arrangement.columns;
  for (size_t row = 0; row * columns < scene.size(); ++row) {
    float x = top_left.x, row_h = 0;
    const float block_y = row_y + (m.arrangement.beside ? 0 : m.above_h);
    if (m.tokens_w > 0) {
      for (int64_t i = 0; i < int64_t(plan.tokens.size()) && i < scene.front().geometry.rows; ++i)
        list->AddText(ImGui::GetFont(), value_size,
                      ImVec2(x, block_y + cell.h * float(i) + (cell.h - value_size) * 0.5f),
                      colours.text_dim, plan.tokens[size_t(i)].c_str());
      x += m.tokens_w;
    }
    for (size_t i = row * columns; i < std::min(scene.size(), (row + 1) * columns); ++i) {
      const SceneItem& item = scene[i];
      if (i > row * columns) x += m.item_gap;
      if (arrow_before(scene, i)) {
        const float middle = block_y + item.geometry.rows * cell.h * 0.5f;
        // The first block of a row starts at the panel's edge: its arrow cannot reach back.
        const float arrow_x = i > row * columns ? x - m.item_gap * 0.5f : x;
        list->AddText(ImVec2(arrow_x, middle - font * 0.5f), colours.text, " \u2192 ");
        x += m.arrow_w;
      }
      context.sequential = is_weights(*item.record);
      context.weights_scale = state.ui.colour_scale;
      context.value_scale = magnitude_of(state, *item.record);
      BlockStyle style = item.style;
      style.values = values && state.ui.show_values;
      draw_block(list, ImVec2(x, block_y), *item.record, state.walk.batch_shown, item.geometry,
                 cell, style, context);

      const Captions c = captions_of(*item.record);
      const ImU32 ink = item.input ? colours.text_dim : colours.text;
      const ImU32 name_ink = item.input ? colours.text_dim : colours.accent;
      const ImVec2 extent = settled_extent(item, cell, gap);
      const ImVec2 slot = m.slot(i, extent);
      if (m.arrangement.beside) {
        const float caption_x = x + extent.x + m.caption_gap, width = m.caption_w[i];
        const float above =
            draw_captions(ImVec2(caption_x, block_y), width, c.above, m, name_ink, ink);
        draw_captions(ImVec2(caption_x, block_y + above + m.pad), width, c.below, m, ink, ink);
      } else {
        draw_captions(ImVec2(x, row_y), slot.x, c.above, m, name_ink, ink);
        draw_captions(ImVec2(x, block_y + extent.y + m.pad), slot.x, c.below, m, ink, ink);
      }
      x += slot.x;
      row_h = std::max(row_h, slot.y);
    }
    right = std::max(right, x);
    row_y += row_h + m.row_gap;
  }
  // The scene's extent, so its region scrolls where the scene is larger: only where no
  // arrangement fitted (a fitted scene's captions are cut to their columns, its sums rounded).
  ImVec2 extent(right - top_left.x, row_y - m.row_gap - top_left.y);
  if (cell.h > 0) extent = ImVec2(std::min(extent.x, room.x), std::min(extent.y, room.y));
  ImGui::Dummy(extent);
}

// [SECTION] the text above the scene

// The record the headline and the formula line name: the one the step makes for the queries
// when it is drawn (q at split, not v), else the last block drawn (k's reshape at GQA's expand,
// whose v is not drawn).
const TensorRecord* named_record(const Trace& trace, const PipelineStep& step,
                                 const std::vector<SceneItem>& scene) {
  const TensorRecord* query = query_record(trace, step);
  for (const SceneItem& item : scene)
    if (item.record == query) return query;
  for (auto it = scene.rbegin(); it != scene.rend(); ++it)
    if (!it->input) return it->record;
  return query;
}

// Presenter mode's headline: the step's line of code and the shape it makes, large, e.g.
// "q.view(B, T, h, d_k) -> (1, 11, 2, 2)": on one line where it fits, else the code wrapped at
// its spaces and the shape on a line of its own (it is what the lecture points at). Never cut:
// the size shrinks (to 0.8 of the font) for the shape, and the layout gives the stage view the
// width of the shape and the code's longest word at that size.
struct Headline {
  std::string code, shape;
  float size = 0;
  std::vector<std::string> lines;
  float height() const { return size * (1.15f * float(lines.size()) - 0.15f); }
};

// The code's units (wrap_code breaks only between them: never inside a call's brackets).
std::vector<std::string> words_of(const std::string& code) {
  const auto measure = [](const std::string& s) { return text_width(s, 1); };
  return code_units(code, 0, measure);
}

Headline headline_of(const TensorRecord& record, float drawn_width, float largest = 1.3f) {
  const float width = drawn_width - kCutTextShort;  // what draw_cut_text shows of it
  Headline h;
  h.code = record.pytorch.substr(0, record.pytorch.find("  #"));
  h.shape = "\u2192  " + shape_to_string(record.tensor.shape());
  const float font = ImGui::GetFontSize();
  // `largest` times the font (1.3; 0.8 where the scene needs the height), smaller (down to 0.8
  // of it) where the shape or a word would not fit.
  float widest_w = text_width(h.shape, font);
  for (const std::string& word : words_of(h.code))
    widest_w = std::max(widest_w, text_width(word, font));
  h.size = font * std::clamp(0.999f * width / std::max(widest_w, 1.0f), 0.8f, largest);
  const std::string line = h.code + "  " + h.shape;
  if (text_width(line, h.size) <= width) {
    h.lines = {line};
    return h;
  }
  const auto measure = [&](const std::string& s) { return text_width(s, h.size); };
  h.lines = wrap_code(h.code, width, measure);
  h.lines.push_back(h.shape);
  return h;
}

// The width the headline needs whole: its shape and its code's longest word at 0.8 of the font.
float headline_min_width(const TensorRecord& record) {
  const Headline h = headline_of(record, 0);
  const float size = ImGui::GetFontSize() * 0.8f;
  float w = text_width(h.shape, size);
  for (const std::string& word : words_of(h.code)) w = std::max(w, text_width(word, size));
  return std::ceil(w) + 1 + kCutTextShort;
}

void draw_headline(const AppState& state, const Headline& h, float width) {
  const ImU32 ink = palette(state.ui.theme).accent;
  ImVec2 at = ImGui::GetCursorScreenPos();
  auto* frame = static_cast<FrameOutput*>(ImGui::GetIO().UserData);
  for (const std::string& line : h.lines) {
    draw_cut_text(at, width, h.size, ink, line.c_str());
    const float full = text_width(line, h.size);
    if (frame)
      frame->headline.push_back({line, at, ImVec2(at.x + std::min(full, width), at.y + h.size),
                                 full > width - kCutTextShort});
    at.y += h.size * 1.15f;
  }
  ImGui::Dummy(ImVec2(width, h.height() + ImGui::GetStyle().ItemSpacing.y));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s  %s", h.code.c_str(), h.shape.c_str());
}

// The formula's lines in presenter mode, wrapped between units (never cut, never inside brackets).
std::vector<std::string> wrapped(const std::string& text, float width) {
  const auto measure = [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; };
  return wrap_code(text, width, measure);
}

// "from x (1, 7, 16)", "also made: k (1, 7, 16) · v (1, 7, 16)": wrapped between records, never
// inside a shape.
std::vector<std::string> records_lines(const std::string& lead,
                                       const std::vector<const TensorRecord*>& records,
                                       float width) {
  std::vector<std::string> lines{lead};
  for (const TensorRecord* record : records) {
    const std::string item = record->name + " " + shape_to_string(record->tensor.shape());
    const std::string joined = lines.back() + (lines.back() == lead ? " " : " \u00B7 ") + item;
    if (ImGui::CalcTextSize(joined.c_str()).x <= width)
      lines.back() = joined;
    else
      lines.push_back(item);
  }
  return lines;
}

// The lines listing what the scene leaves out, each wrapped whole at `width`.
std::vector<std::string> listed_lines(const StagePlan& plan, float width) {
  std::vector<std::string> lines;
  if (!plan.dropped_inputs.empty())
    for (std::string& line : records_lines("from", plan.dropped_inputs, width))
      lines.push_back(std::move(line));
  if (!plan.listed_outputs.empty())
    for (std::string& line : records_lines("also made:", plan.listed_outputs, width))
      lines.push_back(std::move(line));
  return lines;
}

// Presenter text's lines a paragraph's pitch apart (the presenter style's item spacing is made
// for controls: at font scale 2 it left half a line between lines and pushed the tensors off a
// 720-row screen).
float tight_pitch() {
  return ImGui::GetTextLineHeight() + std::round(ImGui::GetFontSize() * 0.12f);
}

template <typename Draw>
void tight_lines(const Draw& draw) {
  const ImVec2 spacing = ImGui::GetStyle().ItemSpacing;
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing,
                      ImVec2(spacing.x, tight_pitch() - ImGui::GetTextLineHeight()));
  draw();
  ImGui::PopStyleVar();
  ImGui::Dummy(ImVec2(0, spacing.y - (tight_pitch() - ImGui::GetTextLineHeight())));
}

// The stage and sub-step (which presenter mode's pipeline strip already shows, so it is left
// out there) and the step's formula: in presenter mode wrapped whole, otherwise beside it when it
// fits, else under it, cut at the edge (its tooltip has it whole).
void where_line(const AppState& state, const PipelineStep& step, const TensorRecord* named) {
  if (!state.ui.presenter) {
    std::string where = stage_name(step.stage);
    if (step.substep != Substep::None) where += " / " + step.label;
    ImGui::TextUnformatted(where.c_str());
  }
  if (!named) return;
  if (auto* frame = static_cast<FrameOutput*>(ImGui::GetIO().UserData))
    frame->formula_record = named->name;
  const std::string& formula = named->formula;
  const float font = ImGui::GetFontSize();
  const ImU32 ink = palette(state.ui.theme).accent;
  if (state.ui.presenter) {
    ImGui::PushStyleColor(ImGuiCol_Text, ink);
    tight_lines([&] {
      for (const std::string& line : wrapped(formula, ImGui::GetContentRegionAvail().x))
        ImGui::TextUnformatted(line.c_str());
    });
    ImGui::PopStyleColor();
    return;
  }
  same_line_if_fits(ImGui::CalcTextSize(formula.c_str()).x, font);
  const float right = ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  draw_cut_text(at, right - at.x, font, ink, formula.c_str());
  ImGui::Dummy(ImVec2(right - at.x, ImGui::GetTextLineHeight()));
  tooltip(formula.c_str());
}

// Presenter text's sizes: the headline's largest (times the font) and the formula's and listed
// lines' (times the font).
struct PresenterSizes {
  float headline = 1.3f, text = 1;
};

// The window's font scaled by `factor` while it lives (the formula and listed lines' size). As
// ImGui::SetWindowFontScale, but without marking the window written: the layout measures before
// any panel begins, in ImGui's fallback window, which must stay hidden.
class ScaledFont {
 public:
  explicit ScaledFont(float factor) : scale_(GImGui->CurrentWindow->FontWindowScale) {
    set(scale_ * factor);
  }
  ~ScaledFont() { set(scale_); }
  ScaledFont(const ScaledFont&) = delete;
  ScaledFont& operator=(const ScaledFont&) = delete;

 private:
  static void set(float scale) {
    ImGuiContext& g = *GImGui;
    g.CurrentWindow->FontWindowScale = scale;
    g.FontSize = g.DrawListSharedData.FontSize = g.CurrentWindow->CalcFontSize();
  }
  float scale_;
};

// The height of the presenter text above the scene at this width.
float presenter_text_height(const TensorRecord& named, const StagePlan& plan, float width,
                            PresenterSizes sizes) {
  const float spacing = ImGui::GetStyle().ItemSpacing.y;
  float h = headline_of(named, width, sizes.headline).height() + spacing * 2;
  const ScaledFont text(sizes.text);
  const float line = tight_pitch();
  h += line * float(wrapped(named.formula, width).size()) + spacing;
  const size_t listed = listed_lines(plan, width).size();
  return h + (listed ? line * float(listed) + spacing : 0);
}

// Presenter mode's plan: the headline at 1.3 times the font, or where that leaves the tensors
// specks, at 0.8 of it; on a short screen (font scale 2 on 720 rows) the formula and listed lines
// at 0.8 of the font too (`sizes`: those chosen).
StagePlan presenter_plan(const Trace& trace, const PipelineStep& step, float a, float gap,
                         ImVec2 room, const TensorRecord& named, PresenterSizes& sizes,
                         bool list_outputs = true) {
  StagePlan plan;
  for (const PresenterSizes tried :
       {PresenterSizes{1.3f, 1}, PresenterSizes{0.8f, 1}, PresenterSizes{0.8f, 0.8f}}) {
    sizes = tried;
    const TextHeight text_h = [&](const StagePlan& p) {
      return presenter_text_height(named, p, room.x, tried);
    };
    plan = plan_scene(trace, step, a, gap, room, &named, list_outputs, text_h);
    if (plan.fit.cell.h >= min_cell(ImGui::GetFontSize())) break;
  }
  return plan;
}

}  // namespace

void draw_tensors_tab(AppState& state) {
  const PipelineStep* step = current_step(state);
  if (!step || !state.session.trace) return;
  const Trace& trace = *state.session.trace;
  draw_stale_banner(state);
  const float font = ImGui::GetFontSize();
  const float gap = std::round(font * 0.4f);
  const float a = transition_progress(state);
  const float width = ImGui::GetContentRegionAvail().x;
  // The scene first (its inputs may be left out), so the headline can name a block it draws.
  const std::vector<SceneItem> scene = build_scene(trace, *step, a, gap);
  const TensorRecord* named = named_record(trace, *step, scene);
  StagePlan plan;
  PresenterSizes sizes;
  if (state.ui.presenter && named) {
    plan = presenter_plan(trace, *step, a, gap, ImVec2(width, ImGui::GetContentRegionAvail().y),
                          *named, sizes);
    if (auto* frame = static_cast<FrameOutput*>(ImGui::GetIO().UserData))
      frame->headline_record = named->name;
    draw_headline(state, headline_of(*named, width, sizes.headline), width);
  }
  std::optional<ScaledFont> text;
  if (state.ui.presenter) text.emplace(sizes.text);
  where_line(state, *step, named);
  text.reset();
  // The listed tensors and the scene in a region of their own, which scrolls where no
  // arrangement fits the panel (font scale 2 on 768 rows): they are scrolled to rather than cut.
  begin_scroll_region("##scene");
  if (state.ui.presenter) text.emplace(sizes.text);
  auto* frame = static_cast<FrameOutput*>(ImGui::GetIO().UserData);
  const std::vector<std::string> listed = listed_lines(plan, width);
  if (!listed.empty())
    tight_lines([&] {
      for (const std::string& line : listed) {
        // A line wider than the column ends in an ellipsis, whole in its tooltip.
        const ImVec2 at = ImGui::GetCursorScreenPos(), size = ImGui::CalcTextSize(line.c_str());
        draw_cut_text(at, width, ImGui::GetFontSize(), ImGui::GetColorU32(ImGuiCol_TextDisabled),
                      line.c_str());
        ImGui::Dummy(ImVec2(std::min(size.x, width), size.y));
        if (size.x > width && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", line.c_str());
        if (frame)
          frame->listed.push_back({line, at, ImVec2(at.x + size.x, at.y + size.y), size.x > width});
      }
    });
  text.reset();  // the scene's captions at the font's own size
  if (trace.shape_only) {
    ImGui::SameLine();
    ImGui::TextDisabled("(shape-only: no values were computed)");
  }
  if (!state.ui.presenter) plan = plan_scene(trace, *step, a, gap, ImGui::GetContentRegionAvail());
  draw_scene(state, plan);
  end_scroll_region();
}

float presenter_stage_width(const AppState& state, ImVec2 panel, float heads_width) {
  const PipelineStep* step = current_step(state);
  if (!step || !state.session.trace) return 0;
  const Trace& trace = *state.session.trace;
  const float font = ImGui::GetFontSize();
  const float gap = std::round(font * 0.4f);
  const ImVec2 padding = ImGui::GetStyle().WindowPadding;
  // Settled (the animation's end): the cells do not change size while it plays.
  const std::vector<SceneItem> scene = build_scene(trace, *step, 1, gap);
  const TensorRecord* named = named_record(trace, *step, scene);
  if (!named || scene.empty()) return 0;
  const float text_min = headline_min_width(*named);
  // Whole at this width, with (`list`) or without the outputs that would be specks listed, and
  // cells of at least `least` px.
  const auto whole = [&](float width, bool list, float least) {
    const float inner = width - 2 * padding.x;
    if (inner < text_min) return false;
    PresenterSizes sizes;
    const StagePlan plan = presenter_plan(
        trace, *step, 1, gap, ImVec2(inner, panel.y - 2 * padding.y), *named, sizes, list);
    const ScaledFont text(sizes.text);
    for (const std::string& line : listed_lines(plan, inner))  // a record wider than the width
      if (ImGui::CalcTextSize(line.c_str()).x > inner) return false;
    return plan.fit.cell.h >= least;
  };
  // The narrowest width at which `fits`, up to `top`.
  const auto narrowest = [&](float top, const auto& fits) {
    float low = 0, high = top;
    for (int i = 0; i < 14; ++i) {
      const float mid = 0.5f * (low + high);
      (fits(mid) ? high : low) = mid;
    }
    return std::ceil(high);
  };
  // Every tensor readable where the heads keep their share; else that share, with as many
  // tensors as it draws readable (the rest listed); else (T = 128, or font scale 2 on 720 rows)
  // the narrowest at which the text is whole; else the user's split: the heads stay in view.
  const float most = std::floor(panel.x * (1 - kMinHeadsFraction)) - 1;
  const float least = min_cell(font), any = 0.01f;
  // No wider than leaves the heads their maps' least side, where the stage is whole there: then
  // all of that (narrower would list more of its tensors for maps larger than they need be).
  const float beside_heads = std::floor(panel.x - heads_width);
  const auto for_heads = [&](float width) {
    if (heads_width <= 0 || width <= beside_heads || !whole(beside_heads, true, least))
      return width;
    return beside_heads;
  };
  if (whole(most, false, least))
    return for_heads(narrowest(most, [&](float w) { return whole(w, false, least); }));
  if (whole(most, true, least)) return for_heads(most);
  // Outside attend the heads' maps are shown ahead (faded) or as attend left them: where no
  // column beside them draws the stage whole (font scale 2 on 720-768 rows), the stage takes the
  // whole width, and the heads come back at attend.
  if (step->stage != Stage::Attend && whole(panel.x, true, least)) return panel.x;
  if (whole(most, true, any)) return narrowest(most, [&](float w) { return whole(w, true, any); });
  return 0;  // the user's split, as before
}

}  // namespace attnlab::gui
