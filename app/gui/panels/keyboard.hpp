// The lecture keys. They work whatever was clicked last: ImGui's keyboard navigation is off, so no
// control ever keeps the keyboard; only while a text field is being typed in (a field clicked, a
// slider Ctrl+clicked, or Tab from one field to the next) do keys go to the field, and Enter, Esc
// or a click elsewhere ends the typing.
//   ←/→ (and PageUp/PageDown, as presentation clickers send) step through the stages (with the
//   Decode tab open, through the decoded tokens; with the Flash tab open, through the tiles),
//   Home/End jump, Space plays/pauses;
//   1-9 always pick a tab of the middle panel (8 Decode, 9 KV cache), wherever the mouse is, and
//   F the Flash tab;
//   a head is opened by clicking its map, ] / [ step through the heads, V puts the next head
//   beside it, Esc returns to the grid (or cancels a background run);
//   Shift+0..9 switch head 0..9 off and on (the digit is the head's number); with more than 10
//   heads, Shift+1 then a second digit within kSecondDigitSeconds is head 10..19 (and so on),
//   "head 1_" on screen while the second digit is awaited;
//   C switches code/checks, M / Shift+M pick the next / previous mistake, S cycles the colour
//   scale, P toggles presenter mode, Ctrl+S saves a PNG, Ctrl+E the tensors as .npy in a .zip,
//   F11 toggles fullscreen;
//   while a lesson plays in presenter mode, B shows and hides the bar of controls (the lesson's
//   picture has none).
// Each press counts once: a tap shorter than a frame too (the window queues every press), and a
// held arrow or bracket repeats.
#pragma once

#include <imgui.h>

#include <string>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// ImGui's input settings for these keys (keyboard navigation off); the window and the headless
// tests call it once after creating the context.
void configure_keyboard(ImGuiIO& io);

// The window's key callback: a key went down (GLFW_PRESS; its repeats are ImGui's to make).
void note_key_press(TypedInput& typed, const KeyPress& press);
// The window's character callback, beside ImGui's own: a character ImGui receives as U+FFFD.
void note_typed_char(TypedInput& typed, unsigned codepoint);

// Call after ImGui::NewFrame(): takes this frame's presses and acts on them.
void handle_shortcuts(AppState& state);

// How long Shift+digit waits for a head's second digit.
constexpr double kSecondDigitSeconds = 1.2;
// "head 1_ : ..." while a head's second digit is awaited, else "".
std::string pending_head_text(const AppState& state);
// That text in large type over the top of the window; call after the panels.
void draw_pending_head(const AppState& state);

// GLFW's key codes, as the GLFW backend writes them into io.KeysDown (for keys ImGuiKey_ lacks).
constexpr int kKeyS = 83;
constexpr int kKeyE = 69;
constexpr int kKeyC = 67;
constexpr int kKeyM = 77;
constexpr int kKeyP = 80;
constexpr int kKeyV = 86;
constexpr int kKeyW = 87;
constexpr int kKeyF = 70;
constexpr int kKeyK = 75;
constexpr int kKeyL = 76;
constexpr int kKeyA = 65;
constexpr int kKeyR = 82;
constexpr int kKeyB = 66;
constexpr int kKeyLeftBracket = 91, kKeyRightBracket = 93;
constexpr int kKey0 = 48;  // '0'; '1'..'9' follow
constexpr int kKey1 = 49;
constexpr int kKeyF11 = 300;

}  // namespace attnlab::gui
