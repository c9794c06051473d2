#include "app/gui/panels/fitted_type.hpp"

#include <imgui_internal.h>  // the region's content extent and the frame's tables

#include <algorithm>
#include <cstdio>

#include "app/gui/panels/panels.hpp"
#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

namespace {

constexpr float kLeastFontPixels = 13;
// A region whose content needs less than 1/kGrowAbove of its room grows its type back, at most
// kMostGrows times for the same size, font and trace.
constexpr float kGrowAbove = 1.03f;
constexpr int kMostGrows = 6;

// The share of its width each table of `window` (or of a region inside it) has for its columns,
// the least of them: under 1, a table's columns are cut (or scroll); over 1, the widest table has
// room to grow (no table: no bound).
float table_width_room(const ImGuiWindow* window) {
  ImGuiContext& g = *GImGui;
  float least = 1e9f;
  for (int i = 0; i < g.Tables.GetMapSize(); ++i) {
    const ImGuiTable* table = g.Tables.TryGetMapData(i);
    if (!table || table->LastFrameActive != g.FrameCount || !table->OuterWindow ||
        !ImGui::IsWindowChildOf(table->OuterWindow, const_cast<ImGuiWindow*>(window), false))
      continue;
    float left = 1e9f, right = -1e9f;
    for (int c = 0; c < table->ColumnsCount; ++c) {
      if (!table->Columns[c].IsEnabled) continue;
      left = std::min(left, table->Columns[c].MinX);
      right = std::max(right, table->Columns[c].MaxX);
    }
    // To the right edge of the window the table is in: a table as wide as its columns (a measured
    // table) has the room beside it too, which lets the type grow back.
    const float room = std::max(table->OuterRect.Max.x, table->OuterWindow->WorkRect.Max.x) - left;
    if (right > left && room > 0) least = std::min(least, room / (right - left));
  }
  return least;
}

}  // namespace

float least_fitted_font_scale(float font_pixels) {
  return std::min(1.0f, kLeastFontPixels / font_pixels);
}

void begin_fitted_region(AppState& state, const char* id, ImVec2 size) {
  begin_padded_child(id, size, ImGuiWindowFlags_NoBackground);
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  TypeFit& fit = state.type_fits[window->ID];
  char fitted_for[120];
  std::snprintf(fitted_for, sizeof fitted_for, "%.0f %.0f %.2f %p", window->Size.x, window->Size.y,
                ImGui::GetFontSize(), static_cast<const void*>(state.session.trace.get()));
  if (fit.fitted_for != fitted_for) fit = TypeFit{1, fitted_for, false};
  ImGui::SetWindowFontScale(fit.scale);
  // The spacing around the type shrinks with it (ImGui scales only the glyphs): at its least type
  // a region kept the whole type's gaps between its lines, rows and cells, and still did not fit.
  const ImGuiStyle& style = ImGui::GetStyle();
  const auto scaled = [&](ImVec2 v) { return ImVec2(v.x * fit.scale, v.y * fit.scale); };
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, scaled(style.ItemSpacing));
  ImGui::PushStyleVar(ImGuiStyleVar_ItemInnerSpacing, scaled(style.ItemInnerSpacing));
  ImGui::PushStyleVar(ImGuiStyleVar_FramePadding, scaled(style.FramePadding));
  ImGui::PushStyleVar(ImGuiStyleVar_CellPadding, scaled(style.CellPadding));
}

float fitted_type_room(const AppState& state) {
  const auto fit = state.type_fits.find(ImGui::GetCurrentWindow()->ID);
  if (fit == state.type_fits.end()) return 1;
  const float scale = fit->second.scale;
  return least_fitted_font_scale(ImGui::GetFontSize() / scale) / scale;
}

void end_fitted_region(AppState& state) {
  ImGui::PopStyleVar(4);  // the spacing begin_fitted_region scaled
  ImGuiWindow* window = ImGui::GetCurrentWindow();
  TypeFit& fit = state.type_fits[window->ID];
  const float content = window->DC.CursorMaxPos.y - window->DC.CursorStartPos.y;
  // To the bottom of what shows of the region (its parent may end above the region's own edge).
  const float room = window->InnerClipRect.Max.y - (window->DC.CursorStartPos.y + window->Scroll.y);
  const float tall = content > 0 && room > 0 ? room / content : 1;
  const float needed = std::min(tall, table_width_room(window));
  const float least = least_fitted_font_scale(ImGui::GetFontSize() / fit.scale);
  // Too large: smaller type next frame, down to the floor. Room to spare (the content that made
  // it shrink is gone, or it shrank for a frame drawn before its content came): larger again, up
  // to whole type, at most kMostGrows times for the same region, font and trace (no flicker).
  const bool shrink = needed < 0.999f && fit.scale > least;
  const bool grow = !shrink && needed > kGrowAbove && fit.scale < 1 && fit.grows < kMostGrows;
  if (shrink) fit.scale = std::max(least, fit.scale * std::min(0.97f, needed));
  if (grow) {
    fit.scale = std::min(1.0f, fit.scale * needed * 0.99f);
    ++fit.grows;
  }
  // Fitted, but ImGui still shows the scrollbar it decided from the last frame's content: a
  // picture saved now would show it (and the narrower text). One more frame drops it: without it
  // the text is as wide or wider, so no taller.
  const bool stale_scrollbar = window->ScrollbarY && tall >= 1;
  fit.fitting = shrink || grow || stale_scrollbar;
  ImGui::SetWindowFontScale(1.0f);
  ImGui::EndChild();
}

bool type_fitting(const AppState& state) {
  return std::any_of(state.type_fits.begin(), state.type_fits.end(),
                     [](const auto& fit) { return fit.second.fitting; });
}

}  // namespace attnlab::gui
