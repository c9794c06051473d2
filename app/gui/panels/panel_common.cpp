// Helpers every panel uses.
#include <imgui_internal.h>  // the current window's visible rectangle

#include <algorithm>
#include <cmath>

#include "app/gui/look/theme.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"

namespace attnlab::gui {

void value_bar(float fraction, float width, ImU32 colour, const char* text) {
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const float height = ImGui::GetTextLineHeight();
  ImDrawList* list = ImGui::GetWindowDrawList();
  const float filled = std::round(width * std::clamp(fraction, 0.0f, 1.0f));
  list->AddRectFilled(at, ImVec2(at.x + width, at.y + height),
                      ImGui::GetColorU32(ImGuiCol_FrameBg));
  if (filled > 0) list->AddRectFilled(at, ImVec2(at.x + filled, at.y + height), colour);
  ImGui::Dummy(ImVec2(width, height));
  ImGui::SameLine();
  ImGui::TextUnformatted(text);
}

bool begin_panel(AppState& state, PanelId panel, const char* title, ImGuiWindowFlags extra) {
  const ImVec4 r = state.frame.panel_rects[int(panel)];
  ImGui::SetNextWindowPos(ImVec2(r.x, r.y));
  ImGui::SetNextWindowSize(ImVec2(r.z - r.x, r.w - r.y));
  // The layout follows the window and font size, so panels are placed, not dragged. No panel
  // background: the panels tile the window, whose clear colour is the background already, and a
  // software rasteriser (Mesa llvmpipe under Xvfb) spends most of a frame blending full-window
  // quads.
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoBackground |
                                 extra;
  return ImGui::Begin(title, nullptr, flags);
}

void note_item(const char* label) {
  auto* frame = static_cast<FrameOutput*>(ImGui::GetIO().UserData);
  if (!frame) return;
  const ImGuiWindow* window = ImGui::GetCurrentWindow();
  const ImRect& visible = window->InnerClipRect;
  frame->items.push_back(
      {label, ImGui::GetItemRectMin(), ImGui::GetItemRectMax(), visible.Min, visible.Max,
       window->ScrollbarX,
       window->ScrollbarY || (window->Flags & ImGuiWindowFlags_NoScrollbar) == 0});
}

void note_text_field() {
  auto* frame = static_cast<FrameOutput*>(ImGui::GetIO().UserData);
  if (!frame) return;
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  frame->text_fields.push_back(ImVec4(min.x, min.y, max.x, max.y));
}

void tooltip(const char* text, bool above) {
  note_item(text);
  // Not while the control is dragged: the tooltip would hide the value that is changing.
  if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled) || ImGui::IsItemActive()) return;
  if (above) {  // its bottom at the control's top: what is under the control stays in sight
    const ImVec2 top = ImGui::GetItemRectMin();
    ImGui::SetNextWindowPos(ImVec2(top.x, top.y - ImGui::GetStyle().ItemSpacing.y),
                            ImGuiCond_Always, ImVec2(0.0f, 1.0f));
  }
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24.0f);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

void issue_text(AppState& state, const char* field) {
  const std::string message = issue_for(state, field);
  if (message.empty()) return;
  ImGui::PushStyleColor(ImGuiCol_Text, palette(state.ui.theme).error);
  text_wrapped(message);
  ImGui::PopStyleColor();
  for (const ConfigIssue& issue : state.session.issues)
    if (issue_belongs_to(state, issue, field)) state.frame.explained.push_back(issue.field);
}

void heading(const AppState& state, const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, palette(state.ui.theme).accent);
  text_wrapped(text);  // a long heading takes two lines rather than run past the room
  ImGui::PopStyleColor();
}

bool begin_whole_table(const char* id, int columns, int rows, bool header, ImGuiTableFlags flags) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float row = ImGui::GetTextLineHeight() + 2 * style.CellPadding.y + 2;  // + the borders
  const float height =
      row * float(rows + (header ? 1 : 0)) + style.ScrollbarSize + 0.5f * ImGui::GetFontSize();
  return ImGui::BeginTable(id, columns,
                           flags | ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollX,
                           ImVec2(0, height));
}

void empty_tab_note(const std::string& text) {
  large_text(text, 1.5f * ImGui::GetFontSize(), ImGui::GetColorU32(ImGuiCol_Text));
}

}  // namespace attnlab::gui
