// The pipeline strip: input and the six stages as clickable boxes with their output shapes, the
// current stage's sub-steps, play/pause with speed, and the background run's progress.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "app/gui/lessons/lesson_panels.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/panels/layout.hpp"
#include "app/gui/panels/panels.hpp"

namespace attnlab::gui {

namespace {

// The shape a stage makes for the queries, as numbers: "(1, 11, 2, 2)" (q's, not
// cross-attention's keys or MLA's rotary key, which the stage may make after it).
std::string stage_output_shape(const Trace& trace, Stage stage) {
  const TensorRecord* record = query_record(trace, stage);
  return record ? shape_to_string(record->tensor.shape()) : "";
}

// What a stage makes for each of q, k and v (and MLA's latent c_kv), e.g. GQA's project:
// "q (1, 7, 16) · k (1, 7, 4) · v (1, 7, 4)"; empty where it makes none of them.
std::string stage_qkv_shapes(const Trace& trace, Stage stage) {
  std::string text;
  // q, c_kv, k, v: the projections (fused QKV's column views) and MLA's latent of the keys
  const std::pair<Op, char> parts[] = {
      {Op::Project, 'q'}, {Op::Compress, 'k'}, {Op::Project, 'k'}, {Op::Project, 'v'}};
  for (const auto& [op, which] : parts) {
    const TensorRecord* last = nullptr;
    for (const TensorRecord* record : trace.stage_records(stage)) {
      const Op made = record->op == Op::SplitColumns ? Op::Project : record->op;
      if (made == op && record->which == which) last = record;
    }
    if (last)
      text += (text.empty() ? "" : " \u00B7 ") + last->name + " " +
              shape_to_string(last->tensor.shape());
  }
  return text;
}

bool strip_button(const char* label, bool current, ImVec2 size, const Palette& colours) {
  if (current) {
    ImGui::PushStyleColor(ImGuiCol_Button, colours.accent);
    ImGui::PushStyleColor(ImGuiCol_ButtonHovered, colours.accent);
    ImGui::PushStyleColor(ImGuiCol_Text, text_colour_on(colours.accent));
  }
  const bool clicked = ImGui::Button(label, size);
  if (current) ImGui::PopStyleColor(3);
  return clicked;
}

// A shape in lines no wider than `room` at the body text's size, broken after its commas (and
// spaces): "(1, 11, 2, 2)" -> "(1, 11," "2, 2)". A part wider than the room stays whole.
std::vector<std::string> shape_lines(const std::string& shape, float room) {
  std::vector<std::string> lines;
  std::string line;
  size_t start = 0;
  while (start < shape.size()) {
    const size_t space = shape.find(' ', start);
    const size_t end = space == std::string::npos ? shape.size() : space + 1;
    const std::string part = shape.substr(start, end - start);
    const std::string longer = line + part;
    const std::string trimmed = longer.substr(0, longer.find_last_not_of(' ') + 1);
    if (!line.empty() && ImGui::CalcTextSize(trimmed.c_str()).x > room) {
      lines.push_back(line.substr(0, line.find_last_not_of(' ') + 1));
      line = part;
    } else {
      line = longer;
    }
    start = end;
  }
  if (!line.empty()) lines.push_back(line.substr(0, line.find_last_not_of(' ') + 1));
  return lines;
}

// A stage box: its name (shrunk to fit a narrow box) over its output shape, at the body text's
// size on as many lines as it needs. A failed stage (a run that stopped with a framework error)
// is red.
bool stage_box(int index, const std::string& name, const std::vector<std::string>& shape,
               float text_size, bool current, bool failed, ImVec2 size, const Palette& colours) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::PushID(index);
  const bool clicked = ImGui::InvisibleButton("stage", size);
  ImGui::PopID();
  const ImGuiStyle& style = ImGui::GetStyle();
  const ImU32 fill = failed    ? colours.error
                     : current ? colours.accent
                               : ImGui::GetColorU32(ImGui::IsItemHovered() ? ImGuiCol_ButtonHovered
                                                                           : ImGuiCol_Button);
  const ImU32 ink = failed || current ? text_colour_on(fill) : colours.text;
  ImDrawList* list = ImGui::GetWindowDrawList();
  list->AddRectFilled(at, ImVec2(at.x + size.x, at.y + size.y), fill, style.FrameRounding);
  const float room = size.x - 2 * style.FramePadding.x;
  ImFont* font = ImGui::GetFont();
  const float name_w = font->CalcTextSizeA(text_size, FLT_MAX, 0, name.c_str()).x;
  const float name_size = name_w > room ? std::max(8.0f, text_size * room / name_w) : text_size;
  float y = at.y + style.FramePadding.y;
  list->AddText(font, name_size, ImVec2(at.x + style.FramePadding.x, y), ink, name.c_str());
  auto* frame = static_cast<FrameOutput*>(ImGui::GetIO().UserData);
  for (const std::string& line : shape) {
    y += text_size;
    const ImVec2 from(at.x + style.FramePadding.x, y);
    list->AddText(font, text_size, from, ink, line.c_str());
    if (frame) {
      const ImVec2 extent = font->CalcTextSizeA(text_size, FLT_MAX, 0, line.c_str());
      frame->stage_box_lines.push_back({line, from, ImVec2(from.x + extent.x, from.y + extent.y),
                                        text_size, at, ImVec2(at.x + size.x, at.y + size.y)});
    }
  }
  return clicked;
}

// The stage boxes' shapes: each one's lines, at `text_size`, the most lines of a box.
struct ShapeFit {
  float text_size = 0;
  size_t most_lines = 1;
  std::vector<std::vector<std::string>> lines;
};

// The widest unbreakable part of a shape ("16384,") at the body text's size.
float widest_part(const std::string& shape) {
  float widest = 0;
  size_t start = 0;
  while (start < shape.size()) {
    const size_t space = shape.find(' ', start);
    const size_t end = space == std::string::npos ? shape.size() : space;
    widest = std::max(widest, ImGui::CalcTextSize(shape.substr(start, end - start).c_str()).x);
    start = end + 1;
  }
  return widest;
}

// Draws the row(s) of stage boxes; returns how much higher they want to be than they were drawn.
float stage_row(AppState& state) {
  const Trace& trace = *state.session.trace;
  const PipelineStep* step = current_step(state);
  const Palette& colours = palette(state.ui.theme);
  const ImGuiStyle& style = ImGui::GetStyle();
  // A bare arrow with a quarter em either side: the boxes get the room.
  const float arrow_pad = std::round(ImGui::GetFontSize() * 0.25f);
  const float arrow_w = ImGui::CalcTextSize("\u2192").x + 2 * arrow_pad;
  std::vector<std::string> shapes;
  float widest = 0;
  for (int i = 0; i < kStageCount; ++i) {
    const Stage stage = Stage(i);
    const bool failed = trace.failure.failed && trace.failure.stage == stage;
    shapes.push_back(failed ? "failed: " + stage_output_shape(trace, stage)
                            : stage_output_shape(trace, stage));
    widest = std::max(widest, widest_part(shapes.back()));
  }
  // The shapes at the body text's size, broken after their commas: all boxes in one row, or in
  // rows of 4, 3, ..., whichever gives the lowest strip of those where a shape's widest number
  // fits a box. A row after the first starts with its arrow.
  const float avail = ImGui::GetContentRegionAvail().x;
  const float body = ImGui::GetFontSize();
  const float row_pad = 2 * style.FramePadding.y + style.ItemSpacing.y;
  const auto box_width = [&](int n) {
    return std::floor((avail - arrow_w * float(n == kStageCount ? n - 1 : n)) / float(n));
  };
  // Rows of `n` boxes: each shape's lines, the most lines of a box and the rows' height.
  const auto wrap_in_rows = [&](int n, std::vector<std::vector<std::string>>& wrapped) {
    wrapped.clear();
    size_t most = 1;
    for (const std::string& shape : shapes) {
      wrapped.push_back(shape_lines(shape, box_width(n) - 2 * style.FramePadding.x));
      most = std::max(most, wrapped.back().size());
    }
    const float rows = float((kStageCount + n - 1) / n);
    return std::pair(most, rows * (body * float(1 + most) + row_pad));
  };
  int per_row = kStageCount;
  std::vector<std::vector<std::string>> lines, wrapped;
  // Plain variables, not a structured binding: the lambda below captures most_lines (clang 14
  // refuses a captured binding).
  const auto first = wrap_in_rows(per_row, lines);
  size_t most_lines = first.first;
  float rows_h = first.second;
  for (int n = (kStageCount + 1) / 2; n >= 1; --n) {
    const bool numbers_fit = box_width(per_row) - 2 * style.FramePadding.x >= widest;
    const auto [most, height] = wrap_in_rows(n, wrapped);
    if (!numbers_fit || height < rows_h) {
      per_row = n, most_lines = most, rows_h = height;
      lines.swap(wrapped);
    }
  }
  // Smaller only where those rows would not fit the strip's largest height (a font scale of 2
  // on 768 rows or fewer): as large as fits, or each shape on one line shrunk to its box's width
  // where that is larger. Two rows of buttons below: the sub-steps, and the step counter when it
  // wraps under them (the audience's picture has no step counter).
  const int rows = (kStageCount + per_row - 1) / per_row;
  // Shapes of `text_size` on `most_lines` lines fill `for_boxes` pixels in each row of boxes.
  const auto fit_in = [&](float for_boxes) {
    ShapeFit fit{
        std::clamp(std::floor(for_boxes / (float(rows) * float(1 + most_lines))), 8.0f, body),
        most_lines, lines};
    if (fit.text_size < body) {
      float widest_shape = 0;
      for (const std::string& shape : shapes)
        widest_shape = std::max(widest_shape, ImGui::CalcTextSize(shape.c_str()).x);
      const float inner = box_width(per_row) - 2 * style.FramePadding.x;
      const float one_line = std::floor(std::min(
          {body, body * inner / std::max(widest_shape, 1.0f), for_boxes / (2 * float(rows))}));
      if (one_line > fit.text_size) {
        fit.text_size = one_line;
        fit.most_lines = 1;
        for (size_t i = 0; i < shapes.size(); ++i) fit.lines[i] = {shapes[i]};
      }
    }
    return fit;
  };
  const auto box_height = [&](const ShapeFit& fit) {
    return fit.text_size * float(1 + fit.most_lines) + style.FramePadding.y * 2;
  };
  const float rows_pad = float(rows) * row_pad;
  const ShapeFit wanted = fit_in(
      most_pipeline_strip_height(
          state.frame.layout_height > 0 ? state.frame.layout_height : ImGui::GetIO().DisplaySize.y,
          state.ui.presenter) -
      2 * style.WindowPadding.y -
      float(audience_picture(state) ? 1 : 2) * ImGui::GetFrameHeightWithSpacing() - rows_pad);
  // This frame's strip was laid out for what its content took last frame; where the boxes want
  // more than the room that leaves them (a lesson's band that just changed the picture's
  // height), they are drawn to fit it, whole, and the strip is as high as they want next frame.
  PipelineStrip& strip = state.pipeline;
  const float boxes_room =
      strip.content_height > 0
          ? ImGui::GetWindowHeight() - (strip.content_height - strip.boxes_height)
          : FLT_MAX;
  const auto rows_height = [&](const ShapeFit& fit) {
    return float(rows) * (box_height(fit) + style.ItemSpacing.y);
  };
  const ShapeFit drawn =
      rows_height(wanted) > boxes_room + 0.5f ? fit_in(boxes_room - rows_pad) : wanted;
  strip.boxes_height = rows_height(wanted);
  const ImVec2 box(box_width(per_row), box_height(drawn));
  for (int i = 0; i < kStageCount; ++i) {
    const Stage stage = Stage(i);
    const int row = i / per_row;
    const float row_y = style.WindowPadding.y + float(row) * (box.y + style.ItemSpacing.y);
    if (i > 0) {
      if (i % per_row != 0) ImGui::SameLine(0, arrow_pad);
      ImGui::SetCursorPosY(row_y + box.y * 0.5f - ImGui::GetTextLineHeight() * 0.5f);
      ImGui::TextUnformatted("\u2192");
      ImGui::SameLine(0, arrow_pad);
    }
    ImGui::SetCursorPosY(row_y);
    const bool failed = trace.failure.failed && trace.failure.stage == stage;
    if (auto* frame = static_cast<FrameOutput*>(ImGui::GetIO().UserData))
      frame->stage_box_shapes.push_back(shapes[size_t(i)]);
    if (stage_box(i, stage_name(stage), drawn.lines[size_t(i)], drawn.text_size,
                  step && step->stage == stage, failed, box, colours))
      go_to_stage(state, stage);
    const std::string made = stage_qkv_shapes(trace, stage);
    if (auto* frame = static_cast<FrameOutput*>(ImGui::GetIO().UserData))
      frame->stage_box_tips.push_back(made);
    if (failed) {
      tooltip(trace.failure.message.c_str());
    } else {
      const std::string tip =
          (made.empty() ? "" : "makes " + made + "\n") +
          "Go to this stage (\u2190/\u2192 step through every stage and sub-step).";
      tooltip(tip.c_str());
    }
  }
  return rows_height(wanted) - rows_height(drawn);
}

void substep_row(AppState& state) {
  const PipelineStep* step = current_step(state);
  const Palette& colours = palette(state.ui.theme);
  bool first = true;
  // A stage's plain step is a button of its own only beside sub-steps (transpose, then expand).
  const auto in_stage =
      std::count_if(state.walk.steps.begin(), state.walk.steps.end(),
                    [&](const PipelineStep& s) { return step && s.stage == step->stage; });
  for (size_t i = 0; i < state.walk.steps.size(); ++i) {
    const PipelineStep& s = state.walk.steps[i];
    if (!step || s.stage != step->stage || (s.substep == Substep::None && in_stage < 2)) continue;
    if (!first) ImGui::SameLine();
    first = false;
    const std::string label = s.label + "##sub" + std::to_string(i);
    if (strip_button(label.c_str(), int(i) == state.walk.step_index, ImVec2(0, 0), colours))
      go_to_step(state, int(i));
    tooltip("A sub-step of this stage: each one is one line of the PyTorch code.");
  }
  // Keeps the row for the step counter, unless presenter mode's bar has it.
  if (first && !state.frame.playback_in_bar) ImGui::Dummy(ImVec2(1, ImGui::GetFrameHeight()));
}

void playback_controls(AppState& state) {
  if (state.frame.playback_in_bar) return;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float spacing = style.ItemSpacing.x;
  // Right-aligned on the sub-steps' line when it fits beside them, else on a line of its own;
  // where only the button's symbol fits beside them, the symbol alone (its tooltip names it): a
  // row of the strip's height left to the maps under it.
  const float max_x = ImGui::GetWindowContentRegionMax().x;
  ImGui::SameLine();
  const float x = ImGui::GetCursorPosX();
  bool symbol = false;
  if (x > max_x - step_and_play_width(false) - spacing)
    symbol = x <= max_x - step_and_play_width(true) - spacing;
  const float right = max_x - step_and_play_width(symbol);
  if (x > right) ImGui::NewLine();
  ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), right));
  draw_step_and_play(state, symbol);
}

void progress_row(AppState& state) {
  ImGui::SameLine();
  const float cancel_w =
      ImGui::CalcTextSize("cancel (Esc)").x + ImGui::GetStyle().FramePadding.x * 2;
  const float bar_w = ImGui::GetFontSize() * 10;
  ImGui::ProgressBar(float(state.session.worker->progress()), ImVec2(bar_w, 0), "computing...");
  tooltip("A big configuration is computed in the background; the old trace stays meanwhile.");
  ImGui::SameLine();
  if (ImGui::Button("cancel (Esc)", ImVec2(cancel_w, 0))) state.requests.later(cancel_computation);
  tooltip("Stop computing and keep the trace on screen.");
}

}  // namespace

float step_and_play_width(bool symbol) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const char* widest = symbol ? "\u25A0" : "\u25A0 pause (Space)";
  return ImGui::CalcTextSize("step 00 / 00").x + style.ItemSpacing.x +
         ImGui::CalcTextSize(widest).x + 2 * style.FramePadding.x;
}

void draw_step_and_play(AppState& state, bool symbol) {
  const bool playing = state.walk.playing;
  const char* label = symbol ? (playing ? "\u25A0###play" : "\u25B6###play")
                             : (playing ? "\u25A0 pause (Space)" : "\u25B6 play (Space)");
  const char* widest = symbol ? "\u25A0" : "\u25A0 pause (Space)";
  const float play_w = ImGui::CalcTextSize(widest).x + 2 * ImGui::GetStyle().FramePadding.x;
  ImGui::Text("step %d / %d", state.walk.step_index + 1, int(state.walk.steps.size()));
  note_item("step counter");
  ImGui::SameLine();
  if (ImGui::Button(label, ImVec2(play_w, 0))) toggle_play(state);
  tooltip("Play: walk through the stages automatically (Space); the speed is under Display.");
}

void draw_pipeline_panel(AppState& state) {
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoNavInputs;
  if (begin_panel(state, PanelId::Pipeline, "Pipeline", flags)) {
    float boxes_want = 0;  // the strip's height that the boxes drew smaller this frame
    if (state.session.trace) {
      boxes_want = stage_row(state);
      substep_row(state);
    } else {
      ImGui::TextUnformatted("Computing the first trace...");
    }
    if (state.session.computing) progress_row(state);
    if (state.session.trace) playback_controls(state);
    state.pipeline.content_height = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y -
                                    ImGui::GetStyle().ItemSpacing.y + boxes_want;
  }
  ImGui::End();
}

}  // namespace attnlab::gui
