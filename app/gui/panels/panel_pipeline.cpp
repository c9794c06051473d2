// The pipeline strip: input and the six stages as clickable boxes with their output shapes, the
// current stage's sub-steps, play/pause with speed, and the background run's progress.
#include <imgui.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "app/gui/look/theme.hpp"
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
  for (const char* name : {"q", "c_kv", "k", "v"}) {
    const TensorRecord* last = nullptr;
    for (const TensorRecord* record : trace.stage_records(stage))
      if (record->name == name) last = record;
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

// A stage box: its name over its output shape, each shrunk to fit a narrow box (large fonts).
// A failed stage (a run that stopped with a framework error) is red.
bool stage_box(int index, const std::string& name, const std::string& shape, bool current,
               bool failed, ImVec2 size, const Palette& colours) {
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
  float y = at.y + style.FramePadding.y;
  for (const auto& [text, largest] :
       {std::pair{&name, ImGui::GetFontSize()}, std::pair{&shape, ImGui::GetFontSize() * 0.85f}}) {
    const float width = ImGui::GetFont()->CalcTextSizeA(largest, FLT_MAX, 0, text->c_str()).x;
    const float text_size = width > room ? std::max(8.0f, largest * room / width) : largest;
    list->AddText(ImGui::GetFont(), text_size, ImVec2(at.x + style.FramePadding.x, y), ink,
                  text->c_str());
    y += ImGui::GetFontSize();
  }
  return clicked;
}

void stage_row(AppState& state) {
  const Trace& trace = *state.session.trace;
  const PipelineStep* step = current_step(state);
  const Palette& colours = palette(state.ui.theme);
  const float arrow_w = ImGui::CalcTextSize(" \u2192 ").x;
  const float box_w =
      (ImGui::GetContentRegionAvail().x - arrow_w * (kStageCount - 1)) / kStageCount;
  const ImVec2 box(std::floor(box_w),
                   ImGui::GetTextLineHeight() * 2 + ImGui::GetStyle().FramePadding.y * 2);
  for (int i = 0; i < kStageCount; ++i) {
    const Stage stage = Stage(i);
    if (i > 0) {
      ImGui::SameLine(0, 0);
      ImGui::SetCursorPosY(ImGui::GetCursorPosY() + box.y * 0.5f -
                           ImGui::GetTextLineHeight() * 0.5f);
      ImGui::TextUnformatted(" \u2192 ");
      ImGui::SameLine(0, 0);
    }
    ImGui::SetCursorPosY(ImGui::GetStyle().WindowPadding.y);
    const bool failed = trace.failure.failed && trace.failure.stage == stage;
    const std::string shape =
        failed ? "failed: " + stage_output_shape(trace, stage) : stage_output_shape(trace, stage);
    if (auto* frame = static_cast<FrameOutput*>(ImGui::GetIO().UserData))
      frame->stage_box_shapes.push_back(shape);
    if (stage_box(i, stage_name(stage), shape, step && step->stage == stage, failed, box, colours))
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
  if (first) ImGui::Dummy(ImVec2(1, ImGui::GetFrameHeight()));  // keeps the row for what follows
}

void playback_controls(AppState& state) {
  const float play_w =
      ImGui::CalcTextSize("\u25B6 play (Space)").x + ImGui::GetStyle().FramePadding.x * 2;
  const float status_w = ImGui::CalcTextSize("step 00 / 00").x;
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  // Right-aligned on the sub-steps' line when it fits beside them, else on a line of its own.
  const float right = ImGui::GetWindowContentRegionMax().x - play_w - status_w - spacing * 2;
  ImGui::SameLine();
  if (ImGui::GetCursorPosX() > right) ImGui::NewLine();
  ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), right));
  ImGui::Text("step %d / %d", state.walk.step_index + 1, int(state.walk.steps.size()));
  note_item("step counter");
  ImGui::SameLine();
  if (ImGui::Button(state.walk.playing ? "\u25A0 pause (Space)" : "\u25B6 play (Space)",
                    ImVec2(play_w, 0)))
    toggle_play(state);
  tooltip("Walk through the stages automatically; the speed is under Display.");
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

void draw_pipeline_panel(AppState& state) {
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoNavInputs;
  if (begin_panel(state, PanelId::Pipeline, "Pipeline", flags)) {
    if (state.session.trace) {
      stage_row(state);
      substep_row(state);
    } else {
      ImGui::TextUnformatted("Computing the first trace...");
    }
    if (state.session.computing) progress_row(state);
    if (state.session.trace) playback_controls(state);
    state.pipeline.content_height = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y -
                                    ImGui::GetStyle().ItemSpacing.y;
  }
  ImGui::End();
}

}  // namespace attnlab::gui
