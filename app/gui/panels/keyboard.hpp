// The lecture shortcuts: ←/→ (and PageUp/PageDown, as presentation clickers send) step through
// the stages, Home/End jump, Space plays/pauses, Esc cancels a background run, F11 toggles
// fullscreen, Ctrl+S saves a PNG, Ctrl+E the tensors as .npy in a .zip; 1-9 pick a tab of the
// middle panel (with the Decode tab open, the stepping keys step through the decoded tokens),
// C switches code/checks, M / Shift+M pick the next / previous mistake, Shift+1..9 switch heads
// 0..8 off and on.
#pragma once

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// Call after ImGui::NewFrame(). Arrows step only when no control has the keyboard (the focused
// controls panel uses them to move between and adjust controls; Esc hands them back).
void handle_shortcuts(AppState& state);

// The GLFW key codes the GLFW backend writes into io.KeysDown (for keys ImGuiKey_ lacks).
constexpr int kKeyS = 83;
constexpr int kKeyE = 69;
constexpr int kKeyC = 67;
constexpr int kKeyM = 77;
constexpr int kKeyP = 80;
constexpr int kKeyV = 86;
constexpr int kKeyLeftBracket = 91, kKeyRightBracket = 93;
constexpr int kKey1 = 49;  // '1'; '2'..'9' follow
constexpr int kKeyF11 = 300;

}  // namespace attnlab::gui
