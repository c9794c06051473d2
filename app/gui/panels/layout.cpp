#include "app/gui/panels/layout.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "app/gui/lessons/lesson_panels.hpp"
#include "app/gui/panels/panels.hpp"
#include "app/gui/panels/stage_view.hpp"

namespace attnlab::gui {

namespace {

// A split keeps every panel usable: at least this much of the window either side.
constexpr float kMinFraction = 0.15f;
constexpr float kMaxFraction = 0.85f;

float clamp_split(float fraction) {
  return std::clamp(fraction, kMinFraction, kMaxFraction);
}

// The strip: a row of stage boxes (their names over their shapes, on as many lines as the shapes
// need; two rows of boxes in a narrow strip), a row of sub-steps and the step counter. The strip
// takes what its rows need (the step counter wraps under the sub-steps when the window is
// narrow), up to most_pipeline_strip_height; before it was first drawn, an estimate.
float pipeline_strip_height(float wanted, float font, float H, bool presenter) {
  return std::round(std::clamp(wanted > 0 ? wanted : 5.6f * font, 80.0f,
                               std::max(80.0f, most_pipeline_strip_height(H, presenter))));
}

}  // namespace

float presenter_bar_height(float font, int rows) {
  // One row of fields (1.3 em) and room around it; each further row a field's height and the
  // spacing above it (0.3 em).
  return std::round(2.4f * font + 1.6f * font * float(std::max(rows, 1) - 1));
}

PanelLayout compute_layout(ImVec2 display, float font, const UiSettings& ui, float pipeline_height,
                           bool stage_alone, float stage_width, int bar_rows) {
  const float W = display.x, H = display.y;
  PanelLayout layout;
  auto set = [&](PanelId id, float x0, float y0, float x1, float y1) {
    layout.rects[int(id)] = ImVec4(std::round(x0), std::round(y0), std::round(x1), std::round(y1));
  };
  const float pipeline_h = pipeline_strip_height(pipeline_height, font, H, ui.presenter);
  if (ui.presenter) {
    const float bar_h = bar_rows > 0 ? presenter_bar_height(font, bar_rows) : 0;
    const float stage_w = std::max(W * clamp_split(ui.splits.presenter), stage_width);
    stage_alone |= W - stage_w < kMinHeadsFraction * W;
    set(PanelId::Controls, 0, 0, W, bar_h);
    set(PanelId::Pipeline, 0, bar_h, W, bar_h + pipeline_h);
    if (stage_alone) {
      set(PanelId::Tensors, 0, bar_h + pipeline_h, W, H);
      layout.rects[int(PanelId::Heads)] = ImVec4(0, 0, 0, 0);
    } else {
      set(PanelId::Tensors, 0, bar_h + pipeline_h, stage_w, H);
      set(PanelId::Heads, stage_w, bar_h + pipeline_h, W, H);
    }
    layout.rects[int(PanelId::Info)] = ImVec4(0, 0, 0, 0);
    return layout;
  }
  const float controls_w = W * clamp_split(ui.splits.controls);
  const float rest_h = H - pipeline_h;
  set(PanelId::Controls, 0, 0, controls_w, H);
  set(PanelId::Pipeline, controls_w, 0, W, pipeline_h);
  if (stage_alone) {  // the middle panel down to the bottom: no heads, no code
    set(PanelId::Tensors, controls_w, pipeline_h, W, H);
    layout.rects[int(PanelId::Heads)] = ImVec4(0, 0, 0, 0);
    layout.rects[int(PanelId::Info)] = ImVec4(0, 0, 0, 0);
    return layout;
  }
  const float tensors_h = std::round(rest_h * clamp_split(ui.splits.tensors));
  const float heads_w = std::round((W - controls_w) * clamp_split(ui.splits.heads));
  set(PanelId::Tensors, controls_w, pipeline_h, W, pipeline_h + tensors_h);
  set(PanelId::Heads, controls_w, pipeline_h + tensors_h, controls_w + heads_w, H);
  set(PanelId::Info, controls_w + heads_w, pipeline_h + tensors_h, W, H);
  return layout;
}

PanelLayout frame_layout(AppState& state, ImVec2 display, bool stage_alone) {
  const float font = ImGui::GetFontSize();
  const UiSettings& ui = state.ui;
  const bool alone = stage_alone;
  float stage_width = 0;
  // The audience's picture has no bar, nor has a lesson's (until B brings it back).
  const int bar_rows = !ui.presenter ? 1
                       : audience_picture(state) || lesson_picture(state)
                           ? 0
                           : presenter_bar_rows(state, display.x);
  if (ui.presenter && !alone) {
    const float below = display.y - (bar_rows > 0 ? presenter_bar_height(font, bar_rows) : 0) -
                        pipeline_strip_height(state.pipeline.content_height, font, display.y, true);
    // The heads beside it keep the room their maps' least side needs, where the stage is whole
    // beside that.
    const float heads_width = heads_width_for_least_maps(state, ImVec2(display.x, below));
    stage_width = presenter_stage_width(state, ImVec2(display.x, below), heads_width);
  }
  return compute_layout(display, font, ui, state.pipeline.content_height, alone, stage_width,
                        bar_rows);
}

float most_pipeline_strip_height(float display_h, bool presenter) {
  return std::round((presenter ? 0.36f : 0.4f) * display_h);
}

void drag_borders(const PanelLayout& layout, UiSettings& ui) {
  ImGuiIO& io = ImGui::GetIO();
  const ImVec2 mouse = io.MousePos;
  const float grab = std::max(3.0f, ImGui::GetFontSize() * 0.2f);
  const ImVec4& controls = layout.rects[int(PanelId::Controls)];
  const ImVec4& tensors = layout.rects[int(PanelId::Tensors)];
  const ImVec4& heads = layout.rects[int(PanelId::Heads)];
  // The border under the mouse: a vertical line at x between y0..y1, or a horizontal one.
  std::optional<Border> hovered;
  auto near_vertical = [&](float x, float y0, float y1) {
    return std::abs(mouse.x - x) <= grab && mouse.y >= y0 && mouse.y <= y1;
  };
  if (ui.presenter) {
    if (near_vertical(tensors.z, tensors.y, tensors.w)) hovered = Border::Presenter;
  } else if (near_vertical(controls.z, controls.y, controls.w)) {
    hovered = Border::Controls;
  } else if (!shown(layout, PanelId::Heads)) {
    // the middle panel alone: no border under it
  } else if (std::abs(mouse.y - tensors.w) <= grab && mouse.x >= tensors.x &&
             mouse.x <= tensors.z) {
    hovered = Border::Tensors;
  } else if (near_vertical(heads.z, heads.y, heads.w)) {
    hovered = Border::Heads;
  }
  ImGuiStorage* storage = ImGui::GetStateStorage();
  const ImGuiID dragging_id = ImGui::GetID("##dragged_border");
  int dragging = storage->GetInt(dragging_id, -1);
  if (dragging < 0 && hovered && ImGui::IsMouseClicked(ImGuiMouseButton_Left) &&
      !ImGui::IsAnyItemActive())
    dragging = int(*hovered);
  if (!ImGui::IsMouseDown(ImGuiMouseButton_Left)) dragging = -1;
  storage->SetInt(dragging_id, dragging);
  const int shown_border = dragging >= 0 ? dragging : (hovered ? int(*hovered) : -1);
  if (shown_border >= 0)
    ImGui::SetMouseCursor(Border(shown_border) == Border::Tensors ? ImGuiMouseCursor_ResizeNS
                                                                  : ImGuiMouseCursor_ResizeEW);
  if (dragging < 0) return;
  const float W = io.DisplaySize.x;
  switch (Border(dragging)) {
    case Border::Controls:
      ui.splits.controls = clamp_split(mouse.x / W);
      break;
    case Border::Presenter:
      ui.splits.presenter = clamp_split(mouse.x / W);
      break;
    case Border::Tensors:
      ui.splits.tensors = clamp_split((mouse.y - tensors.y) / (heads.w - tensors.y));
      break;
    case Border::Heads:
      ui.splits.heads = clamp_split((mouse.x - heads.x) / (W - heads.x));
      break;
  }
}

}  // namespace attnlab::gui
