// Helpers every panel uses.
#include <imgui_internal.h>  // the current window's visible rectangle

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

#include "app/gui/look/drawn_text.hpp"
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
  const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
  // A tab of a tab bar that scrolls sideways is scrolled to, as an item of a scrolling window.
  const std::vector<ImVec4> bars = scrolling_tab_bars();
  const bool in_scrolling_bar = std::any_of(bars.begin(), bars.end(), [&](const ImVec4& b) {
    return min.y >= b.y - 1 && max.y <= b.w + 1;
  });
  frame->items.push_back(
      {label, min, max, visible.Min, visible.Max, window->ScrollbarX || in_scrolling_bar,
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
  // None over a playing lesson's band: it would cover the caption the class reads.
  const auto* frame = static_cast<const FrameOutput*>(ImGui::GetIO().UserData);
  const ImVec2 mouse = ImGui::GetIO().MousePos;
  if (frame && frame->band_rect.w > frame->band_rect.y && mouse.x >= frame->band_rect.x &&
      mouse.x < frame->band_rect.z && mouse.y >= frame->band_rect.y && mouse.y < frame->band_rect.w)
    return;
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

void error_text(const AppState& state, const std::string& text) {
  ImGui::PushStyleColor(ImGuiCol_Text, palette(state.ui.theme).error);
  text_wrapped(text);
  ImGui::PopStyleColor();
}

void issue_text(AppState& state, const char* field) {
  const std::string message = issue_for(state, field);
  if (message.empty()) return;
  error_text(state, message);
  for (const ConfigIssue& issue : state.session.issues)
    if (issue_belongs_to(state, issue, field)) state.frame.explained.push_back(issue.field);
}

bool begin_tab_bar(const char* id) {
  return ImGui::BeginTabBar(id, ImGuiTabBarFlags_FittingPolicyScroll);
}

// What this window's bar showed last frame is kept in the window's own storage (each window, each
// ImGui context has its own): a request is never "used up" by the first window that draws it.
StateTabs::StateTabs(int chosen)
    : shown_key_(ImGui::GetID("##state_tab_shown")),
      chosen_(chosen),
      shown_(ImGui::GetStateStorage()->GetInt(shown_key_, -1)) {}

int StateTabs::flags(int index) const {
  return index == chosen_ && shown_ != chosen_ ? ImGuiTabItemFlags_SetSelected : 0;
}

bool StateTabs::opened(int index) {
  const bool changed = shown_ >= 0 && index != shown_;
  ImGui::GetStateStorage()->SetInt(shown_key_, index);
  return changed;
}

bool section_header(const char* title, const char* tip, ImGuiTreeNodeFlags flags) {
  // ImGui draws a header's label clipped at the frame's edge with no ellipsis: the header is
  // given an empty label and the title is drawn here, where the label would be.
  const char* id = std::strstr(title, "###");
  const std::string shown(title, id ? size_t(id - title) : std::strlen(title));
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const bool open = ImGui::CollapsingHeader(id ? id : ("###" + shown).c_str(), flags);
  const ImGuiStyle& style = ImGui::GetStyle();
  const float font = ImGui::GetFontSize();
  const ImVec2 text(at.x + font + 3 * style.FramePadding.x, at.y + style.FramePadding.y);
  const float room = ImGui::GetItemRectMax().x - style.FramePadding.x - text.x;
  draw_cut_text(text, room, font, ImGui::GetColorU32(ImGuiCol_Text), shown.c_str());
  const bool cut = ImGui::CalcTextSize(shown.c_str()).x > room;
  if (cut) {
    tooltip((shown + (*tip ? ": " : "") + tip).c_str());
  } else if (*tip) {
    tooltip(tip);
  }
  return open;
}

void heading(const AppState& state, const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, palette(state.ui.theme).accent);
  text_wrapped(text);  // a long heading takes two lines rather than run past the room
  ImGui::PopStyleColor();
}

bool begin_padded_child(const char* id, ImVec2 size, ImGuiWindowFlags flags) {
  const float half_pad = std::floor(ImGui::GetStyle().WindowPadding.x * 0.5f);
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(half_pad, 0));
  const bool open =
      ImGui::BeginChild(id, size, false, flags | ImGuiWindowFlags_AlwaysUseWindowPadding);
  ImGui::PopStyleVar();
  return open;
}

bool begin_scroll_region(const char* id) {
  // The window's padding past the content on every side, with that padding: the region's content
  // is the window's remaining content, and its clip (which ImGui draws half a padding inside the
  // region's edge) is the window's own.
  const ImVec2 pad = ImGui::GetStyle().WindowPadding;
  ImGui::SetCursorPos(ImVec2(ImGui::GetCursorPosX() - pad.x, ImGui::GetCursorPosY() - pad.y));
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, pad);
  const bool open =
      ImGui::BeginChild(id, ImVec2(avail.x + pad.x, avail.y + pad.y), false,
                        ImGuiWindowFlags_HorizontalScrollbar | ImGuiWindowFlags_NoBackground |
                            ImGuiWindowFlags_AlwaysUseWindowPadding);
  ImGui::PopStyleVar();
  return open;
}

void end_scroll_region() {
  if (ImGui::GetCurrentWindow()->ScrollbarX)
    ImGui::Dummy(ImVec2(0, ImGui::GetStyle().ScrollbarSize));
  ImGui::EndChild();
}

void empty_tab_note(const std::string& text) {
  large_text(text, 1.5f * ImGui::GetFontSize(), ImGui::GetColorU32(ImGuiCol_Text));
}

}  // namespace attnlab::gui
