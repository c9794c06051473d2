#include "app/gui/keyboard.hpp"

#include <imgui.h>

namespace attnlab::gui {

namespace {

bool pressed(ImGuiKey key, bool repeat = true) {
  return ImGui::IsKeyPressed(ImGui::GetKeyIndex(key), repeat);
}

}  // namespace

void handle_shortcuts(AppState& state) {
  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsKeyPressed(kKeyF11, false)) state.toggle_fullscreen = true;
  if (io.KeyCtrl && ImGui::IsKeyPressed(kKeyS, false))
    state.export_request = ExportRequest{std::nullopt, ""};
  if (io.WantTextInput) return;

  if (state.computing && pressed(ImGuiKey_Escape, false)) {
    cancel_computation(state);
    return;
  }
  if (pressed(ImGuiKey_PageDown)) step_by(state, +1);
  if (pressed(ImGuiKey_PageUp)) step_by(state, -1);
  if (state.controls_focused) {
    if (pressed(ImGuiKey_Escape, false)) ImGui::SetWindowFocus(nullptr);
    return;
  }
  if (pressed(ImGuiKey_RightArrow)) step_by(state, +1);
  if (pressed(ImGuiKey_LeftArrow)) step_by(state, -1);
  if (pressed(ImGuiKey_Home, false)) go_to_step(state, 0);
  if (pressed(ImGuiKey_End, false)) go_to_step(state, int(state.steps.size()) - 1);
  if (pressed(ImGuiKey_Space, false)) toggle_play(state);
}

}  // namespace attnlab::gui
