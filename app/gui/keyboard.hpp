// The lecture shortcuts: ←/→ (and PageUp/PageDown, as presentation clickers send) step through
// the stages, Home/End jump, Space plays/pauses, Esc cancels a background run, F11 toggles
// fullscreen, Ctrl+S saves a PNG.
#pragma once

#include "app/gui/app_state.hpp"

namespace attnlab::gui {

// Call after ImGui::NewFrame(). Arrows step only when no control has the keyboard (the focused
// controls panel uses them to move between and adjust controls; Esc hands them back).
void handle_shortcuts(AppState& state);

// The GLFW key codes the GLFW backend writes into io.KeysDown (for keys ImGuiKey_ lacks).
constexpr int kKeyS = 83;
constexpr int kKeyF11 = 300;

}  // namespace attnlab::gui
