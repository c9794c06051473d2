// The tensor view: the tensors of the current step as blocks (inputs faded on the left, outputs
// on the right), labelled with the seeds' notation, sizes, strides, contiguity and storage.
// Moving to a step animates what it does: project grows Q, K, V; split opens h bands; transpose
// stacks them; attend fills the T x T maps; concat lays the bands side by side again.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/token_text.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"
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
          if (record->name.starts_with("k"))
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

struct Captions {
  std::vector<std::string> above, below;
};

Captions captions_of(const TensorRecord& r) {
  const Tensor& t = r.tensor;
  Captions c;
  c.above = {r.name + "  " + r.axes_text(), "= " + shape_to_string(t.shape())};
  std::string storage;
  if (r.is_view) {
    storage = "view of " + r.storage_owner;
  } else if (r.substep == Substep::Contiguous) {
    storage = "copy: new storage";
  } else {
    storage = "new storage";
  }
  c.below = {
      "strides " + shape_to_string(t.strides()),
      std::string(t.is_contiguous() ? "contiguous" : "not contiguous") + " \u00B7 " + storage};
  // A stride of 0 (expand): one copy in memory read again along that axis.
  for (size_t d = 0; d < t.strides().size() && d < r.axes.size(); ++d) {
    if (t.strides()[d] == 0 && t.size(int64_t(d)) > 1) {
      c.below.push_back("stride 0 on " + r.axes[d].symbol + ": " +
                        std::to_string(t.size(int64_t(d))) + " reads, 1 copy");
    }
  }
  return c;
}

float widest(const std::vector<std::string>& lines, float size) {
  float w = 0;
  for (const std::string& line : lines)
    w = std::max(w, ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0, line.c_str()).x);
  return w;
}

// [SECTION] fitting the scene into the panel

struct SceneMetrics {
  float caption_size = 0, line_h = 0, above_h = 0, below_h = 0;
  float item_gap = 0, arrow_w = 0, tokens_w = 0;
  std::vector<float> caption_w;
  // A caption wider than this share of the width is cut with an ellipsis (its tooltip has it
  // whole) rather than squeezing the tensors into specks.
  float caption_cap = FLT_MAX;
  // Captions (whole) right of each block instead of above and below it: for a short, wide stage
  // view (a projector's 720 rows at a large font), where lines above and below leave specks.
  bool beside = false;
  float caption_gap = 0;

  float caption_width(size_t i) const { return std::min(caption_w[i], caption_cap); }
  // The width item i takes: its block, or its caption up to the cap; or both side by side.
  float slot(size_t i, float block_w) const {
    return beside ? block_w + caption_gap + caption_width(i) : std::max(caption_width(i), block_w);
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

bool fits(const std::vector<SceneItem>& scene, const SceneMetrics& m, CellSize cell, float gap,
          ImVec2 room) {
  float width = m.tokens_w + m.arrow_w + m.item_gap * float(scene.size() - 1);
  for (size_t i = 0; i < scene.size(); ++i) {
    const ImVec2 extent = settled_extent(scene[i], cell, gap);
    if (extent.y > room.y - m.above_h - m.below_h) return false;
    width += m.slot(i, extent.x);
  }
  return width <= room.x;
}

// Largest cells that fit: first wide enough for printed values, else square ones.
CellSize fit_cells(const std::vector<SceneItem>& scene, const SceneMetrics& m, CellSize value_cell,
                   float gap, ImVec2 room, bool& values) {
  values = fits(scene, m, value_cell, gap, room);
  if (values) return value_cell;
  float low = 0.05f, high = value_cell.h * 1.2f;
  for (int i = 0; i < 24; ++i) {
    const float mid = 0.5f * (low + high);
    (fits(scene, m, {mid, mid}, gap, room) ? low : high) = mid;
  }
  return {low, low};
}

// Caption lines from `at`, each cut with an ellipsis at `width` (and recorded for the tests).
void draw_captions(ImVec2 at, float width, const std::vector<std::string>& lines,
                   const SceneMetrics& m, ImU32 first_colour, ImU32 colour) {
  auto* frame = static_cast<FrameOutput*>(ImGui::GetIO().UserData);
  for (size_t i = 0; i < lines.size(); ++i) {
    const ImVec2 line_at(at.x, at.y + m.line_h * float(i));
    draw_cut_text(line_at, width, m.caption_size, i == 0 ? first_colour : colour, lines[i].c_str());
    if (!frame) continue;
    const float full = widest({lines[i]}, m.caption_size);
    frame->captions.push_back({lines[i], line_at,
                               ImVec2(line_at.x + std::min(full, width), line_at.y + m.line_h),
                               full > width});
  }
}

float magnitude_of(AppState& state, const TensorRecord& record) {
  std::map<std::string, float>& magnitudes = state.tensors.magnitudes.get(
      state.session.generation, WholeTrace{}, [] { return std::map<std::string, float>{}; });
  auto [it, added] = magnitudes.try_emplace(record.name, 1.0f);
  if (added) it->second = largest_magnitude(record.tensor);
  return it->second;
}

bool is_weights(const TensorRecord& record) {
  return record.name == "weights" || record.name == "weights_dropout";
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
                   float gap, ImVec2 room, bool beside) {
  const float font = ImGui::GetFontSize();
  SceneFit fit;
  SceneMetrics& m = fit.m;
  m.caption_size = std::round(font * 0.8f);
  m.line_h = m.caption_size * 1.2f;
  m.above_h = m.line_h * 2 + font * 0.3f;
  m.item_gap = font * 1.2f;
  m.beside = beside;
  m.caption_gap = font * 0.5f;
  const bool has_inputs = scene.front().input;
  m.arrow_w = has_inputs ? ImGui::CalcTextSize(" \u2192 ").x : 0;
  size_t below_lines = 2;
  for (const SceneItem& item : scene) {
    const Captions c = captions_of(*item.record);
    // A pixel to spare: the text is drawn at a rounded position and a hair over its measured
    // width would cut it with an ellipsis.
    m.caption_w.push_back(
        std::ceil(std::max(widest(c.above, m.caption_size), widest(c.below, m.caption_size))) + 1);
    below_lines = std::max(below_lines, c.below.size());  // a stride-0 line makes three
  }
  m.below_h = m.line_h * float(below_lines) + font * 0.3f;
  if (beside) {  // the caption's lines run down beside the block (one gap between its parts)
    if (m.line_h * float(2 + below_lines) + font * 0.3f > room.y) return fit;
    m.above_h = m.below_h = 0;
  }
  // Each item's fair share of the width left beside the token labels, arrow and gaps.
  const auto cap_captions = [&] {
    const float shared = room.x - m.tokens_w - m.arrow_w - m.item_gap * float(scene.size() - 1);
    // Exactly the share (a hair under): captions alone never make the scene too wide. Beside
    // the blocks they are whole, the blocks taking what is left.
    m.caption_cap = beside ? FLT_MAX : std::max(1.0f, 0.999f * shared / float(scene.size()));
  };
  // Numbers in the cells at 3/4 of the font size if they fit, else a little smaller (never
  // below 11 px); otherwise square cells as large as fit, without numbers.
  for (const float fraction : {0.75f, 0.62f}) {
    fit.value_size = std::max(11.0f, std::round(font * fraction));
    fit.value_min_cell_width =
        ImGui::GetFont()->CalcTextSizeA(fit.value_size, FLT_MAX, 0, "-0.00").x + 6;
    const CellSize value_cell{fit.value_min_cell_width, std::round(fit.value_size * 1.3f)};
    // Token labels down the left, when the rows are tall enough to read them.
    m.tokens_w = widest(tokens, fit.value_size) + font * 0.5f;
    cap_captions();
    fit.cell = fit_cells(scene, m, value_cell, gap, room, fit.values);
    if (fit.cell.h < fit.value_size * 0.9f) {
      m.tokens_w = 0;
      cap_captions();
      fit.cell = fit_cells(scene, m, value_cell, gap, room, fit.values);
    }
    if (fit.values) break;
  }
  return fit;
}

void draw_scene(AppState& state, const PipelineStep& step) {
  const Trace& trace = *state.session.trace;
  const Palette& colours = palette(state.ui.theme);
  const float font = ImGui::GetFontSize();
  const float gap = std::round(font * 0.4f);
  std::vector<SceneItem> scene = build_scene(trace, step, transition_progress(state), gap);
  if (scene.empty()) return;
  // The rows' tokens, as the font draws them: the key/value sentence's when the first block's
  // rows are cross-attention's keys (x_kv, k, v).
  const SceneItem& front = scene.front();
  const size_t dims = front.record->axes.size();
  const size_t row_axis = dims == 5                                               ? 3
                          : dims == 4 && front.geometry.axis == PartAxis::Leading ? 2
                                                                                  : 1;
  const bool key_rows = row_axis < dims && front.record->axes[row_axis].symbol == "T_k";
  std::vector<std::string> tokens;
  for (const std::string& token : key_rows ? trace.tokens_kv : trace.tokens)
    tokens.push_back(display_text(token, *ImGui::GetFont()));
  const ImVec2 room = ImGui::GetContentRegionAvail();
  // Captions above and below the blocks, unless (whole) beside them gives cells a third larger.
  const auto best_fit = [&] {
    const SceneFit stacked = fit_scene(scene, tokens, gap, room, false);
    if (stacked.values) return stacked;
    const SceneFit beside = fit_scene(scene, tokens, gap, room, true);
    return beside.cell.h > 1.33f * stacked.cell.h ? beside : stacked;
  };
  SceneFit fit = best_fit();
  // Where the step's inputs would shrink its outputs to specks (a narrow stage view), only the
  // outputs are drawn: the code line above names the inputs.
  if (scene.front().input && fit.cell.h < font * 0.6f && !scene.back().input) {
    std::erase_if(scene, [](const SceneItem& item) { return item.input; });
    fit = best_fit();
  }
  const SceneMetrics& m = fit.m;
  const CellSize cell = fit.cell;
  if (auto* frame = static_cast<FrameOutput*>(ImGui::GetIO().UserData))
    frame->scene_cell_px = cell.h;
  const bool values = fit.values;
  const float value_size = fit.value_size;
  DrawContext context;
  context.colours = &colours;
  context.value_font_size = value_size;
  context.value_min_cell_width = fit.value_min_cell_width;

  ImDrawList* list = ImGui::GetWindowDrawList();
  const ImVec2 top_left = ImGui::GetCursorScreenPos();
  float x = top_left.x;
  const float block_y = top_left.y + m.above_h;
  if (m.tokens_w > 0) {
    for (int64_t i = 0; i < int64_t(tokens.size()) && i < scene.front().geometry.rows; ++i)
      list->AddText(ImGui::GetFont(), value_size,
                    ImVec2(x, block_y + cell.h * float(i) + (cell.h - value_size) * 0.5f),
                    colours.text_dim, tokens[size_t(i)].c_str());
    x += m.tokens_w;
  }
  for (size_t i = 0; i < scene.size(); ++i) {
    const SceneItem& item = scene[i];
    if (i > 0 && !item.input && scene[i - 1].input) {
      const float middle = block_y + scene.front().geometry.rows * cell.h * 0.5f;
      list->AddText(ImVec2(x - m.item_gap * 0.5f, middle - font * 0.5f), colours.text, " \u2192 ");
      x += m.arrow_w;
    }
    context.sequential = is_weights(*item.record);
    context.value_scale = magnitude_of(state, *item.record);
    BlockStyle style = item.style;
    style.values = values && state.ui.show_values;
    draw_block(list, ImVec2(x, block_y), *item.record, state.walk.batch_shown, item.geometry, cell,
               style, context);

    const Captions c = captions_of(*item.record);
    const ImU32 ink = item.input ? colours.text_dim : colours.text;
    const ImU32 name_ink = item.input ? colours.text_dim : colours.accent;
    const ImVec2 extent = settled_extent(item, cell, gap);
    const float slot = m.slot(i, extent.x);
    if (m.beside) {
      const float caption_x = x + extent.x + m.caption_gap, width = m.caption_width(i);
      draw_captions(ImVec2(caption_x, block_y), width, c.above, m, name_ink, ink);
      const float below_y = block_y + m.line_h * float(c.above.size()) + font * 0.3f;
      draw_captions(ImVec2(caption_x, below_y), width, c.below, m, ink, ink);
    } else {
      draw_captions(ImVec2(x, top_left.y), slot, c.above, m, name_ink, ink);
      draw_captions(ImVec2(x, block_y + extent.y + font * 0.3f), slot, c.below, m, ink, ink);
    }
    x += slot + m.item_gap;
  }
}

// Presenter mode's headline: the step's line of code and the shape it makes, large, e.g.
// "q.view(B, T, h, d_k) -> (1, 11, 2, 2)". Where the stage view is too narrow for one line, the
// shape goes on a second line of its own (it is what the lecture points at) and the code is cut
// with an ellipsis.
void you_are_here(const AppState& state, const TensorRecord& record) {
  const std::string code = record.pytorch.substr(0, record.pytorch.find("  #"));
  const std::string shape = "\u2192  " + shape_to_string(record.tensor.shape());
  const std::string line = code + "  " + shape;
  const float width = ImGui::GetContentRegionAvail().x;
  const ImU32 ink = palette(state.ui.theme).accent;
  ImFont* font = ImGui::GetFont();
  // 1.3 times the font, smaller (down to 0.8 of it) where the shape would be cut.
  const float shape_w = font->CalcTextSizeA(ImGui::GetFontSize(), FLT_MAX, 0, shape.c_str()).x;
  const float size = ImGui::GetFontSize() * std::clamp(width / std::max(shape_w, 1.0f), 0.8f, 1.3f);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const bool one_line = font->CalcTextSizeA(size, FLT_MAX, 0, line.c_str()).x <= width;
  draw_cut_text(at, width, size, ink, one_line ? line.c_str() : code.c_str());
  if (!one_line) draw_cut_text(ImVec2(at.x, at.y + size * 1.15f), width, size, ink, shape.c_str());
  const float height = one_line ? size : size * 2.15f;
  ImGui::Dummy(ImVec2(width, height + ImGui::GetStyle().ItemSpacing.y));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", line.c_str());
}

// The stage and sub-step (which presenter mode's pipeline strip already shows, so it is left
// out there) and the step's formula, beside it when it fits, else under it, cut at the edge.
void where_line(const AppState& state, const PipelineStep& step,
                const std::vector<const TensorRecord*>& records) {
  if (!state.ui.presenter) {
    std::string where = stage_name(step.stage);
    if (step.substep != Substep::None) where += " / " + step.label;
    ImGui::TextUnformatted(where.c_str());
  }
  if (records.empty()) return;
  const std::string& formula = records.front()->formula;
  const float font = ImGui::GetFontSize();
  if (!state.ui.presenter) same_line_if_fits(ImGui::CalcTextSize(formula.c_str()).x, font);
  const float right = ImGui::GetWindowContentRegionMax().x + ImGui::GetWindowPos().x;
  const ImVec2 at = ImGui::GetCursorScreenPos();
  draw_cut_text(at, right - at.x, font, palette(state.ui.theme).accent, formula.c_str());
  ImGui::Dummy(ImVec2(right - at.x, ImGui::GetTextLineHeight()));
  tooltip(formula.c_str());
}

}  // namespace

void draw_tensors_tab(AppState& state) {
  const PipelineStep* step = current_step(state);
  if (!step || !state.session.trace) return;
  draw_stale_banner(state);
  const std::vector<const TensorRecord*> records = step_records(*state.session.trace, *step);
  if (state.ui.presenter && !records.empty()) you_are_here(state, *records.back());
  where_line(state, *step, records);
  if (state.session.trace->shape_only) {
    ImGui::SameLine();
    ImGui::TextDisabled("(shape-only: no values were computed)");
  }
  draw_scene(state, *step);
}

}  // namespace attnlab::gui
