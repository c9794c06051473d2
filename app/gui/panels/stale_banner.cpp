#include "app/gui/panels/stale_banner.hpp"

#include <imgui.h>

#include <cstdio>

#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/state/config_fields.hpp"

namespace attnlab::gui {

namespace {

// Settings named while they are few; more (a preset, a lesson's scene: eight at once) are not
// listed: the list would fill the picture. `many` says them instead.
std::string named_or(const std::vector<FieldValue>& fields, const std::string& many) {
  constexpr size_t kMostNamed = 3;
  return fields.size() <= kMostNamed ? join_fields(fields) : many;
}

}  // namespace

std::string stale_message(const AppState& state) {
  if (!state.session.trace) return "";
  const Config& shown = state.session.trace->config;
  const std::vector<FieldValue> changed = differing_fields(state.session.config, shown);
  const std::string wanted = named_or(
      changed, lesson_playing(state) ? "scene " + std::to_string(state.lesson.scene + 1)
                                     : std::to_string(changed.size()) + " changed settings");
  if (wanted.empty() && state.session.issues.empty() && !state.session.computing &&
      state.session.run_error.empty())
    return "";
  const std::string showing = named_or(differing_fields(shown, state.session.config), "");
  // Presenter mode hides the controls: the reason is said here, where the lecturer looks.
  const bool controls_hidden = state.ui.presenter;
  const std::string picture = "showing " + (showing.empty() ? "the last valid trace" : showing);
  if (!state.session.issues.empty())
    return "Out of date: " + picture + "; " + (wanted.empty() ? "the settings" : wanted) +
           (state.session.issues.size() == 1 && wanted.find(',') == std::string::npos ? " is"
                                                                                      : " are") +
           " invalid" +
           (controls_hidden ? ": " + state.session.issues.front().in_controls : ", see Controls");
  if (!state.session.run_error.empty())
    return "Out of date: " + picture + "; " + (wanted.empty() ? "the new run" : wanted) +
           " failed" + (controls_hidden ? ": " + state.session.run_error : ", see Controls");
  if (state.session.computing) {
    char percent[16];
    std::snprintf(percent, sizeof percent, "%.0f%%", 100 * state.session.worker->progress());
    return "Computing " + (wanted.empty() ? std::string("a new trace") : wanted) + " (" + percent +
           "): " + picture;
  }
  return "Out of date: " + picture;
}

void draw_stale_banner(const AppState& state) {
  const std::string message = stale_message(state);
  if (message.empty()) return;
  // Amber with black text: a warning that reads in both themes and on a projector.
  constexpr ImU32 kFill = IM_COL32(255, 196, 0, 255);
  const float pad = ImGui::GetStyle().FramePadding.y;
  const float width = ImGui::GetContentRegionAvail().x;
  const float wrap = width - 2 * pad;
  const ImVec2 text_size = ImGui::CalcTextSize(message.c_str(), nullptr, false, wrap);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  const ImVec2 end(at.x + width, at.y + text_size.y + 2 * pad);
  ImDrawList* list = ImGui::GetWindowDrawList();
  list->AddRectFilled(at, end, kFill);
  list->AddText(ImGui::GetFont(), ImGui::GetFontSize(), ImVec2(at.x + pad, at.y + pad),
                text_colour_on(kFill), message.c_str(), nullptr, wrap);
  ImGui::Dummy(ImVec2(width, end.y - at.y));
}

}  // namespace attnlab::gui
