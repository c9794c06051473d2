// What the window's key and character callbacks saw since the last frame that ImGui 1.86's io
// cannot carry: every key press (io.KeysDown is sampled once a frame, so a tap shorter than a
// frame, as a presentation clicker sends, would be lost) and the characters ImGui receives as
// U+FFFD (its characters are 16 bits: an emoji does not fit). Filled by the window
// (note_key_press, note_typed_char in keyboard.hpp), taken by the frame.
#pragma once

#include <deque>
#include <string>
#include <vector>

namespace attnlab::gui {

// A text field holds a character ImGui cannot (past U+FFFF, or private use) as the private-use
// character kFirstStandIn + i, standing for TypedInput::stand_ins[i].
constexpr char32_t kFirstStandIn = 0xE000, kLastStandIn = 0xF8FF;

struct KeyPress {
  int key = 0;  // GLFW's key code, as io.KeysDown is indexed
  bool shift = false, ctrl = false, alt = false;
  bool repeat = false;  // the system's auto-repeat of a held key (GLFW_REPEAT)
};

struct TypedInput {
  // True once a window feeds key_presses: its presses and repeats are then the only ones counted
  // (X11 turns taps of one key closer than 20 ms into a press and repeats, so a repeat of a
  // stepping key is a step). Without a window (headless frames), io.KeysDown is read instead.
  bool window_queues_keys = false;
  std::vector<KeyPress> key_presses;    // in order; handle_shortcuts takes them
  std::deque<char32_t> replaced_chars;  // what each U+FFFD ImGui received really was, in order
  // Text fields hold a character ImGui cannot (beyond U+FFFF, or private use) as U+E000 + i,
  // standing for stand_ins[i]; the list only grows, so a field's text stays valid across frames.
  std::vector<char32_t> stand_ins;
  // The platform's clipboard, which route_clipboard (text_field.hpp) wraps so a pasted emoji gets
  // its stand-in and a copied stand-in leaves as the emoji; `pasted` holds the text last handed
  // to ImGui.
  struct Clipboard {
    const char* (*get)(void* user) = nullptr;
    void (*set)(void* user, const char* text) = nullptr;
    void* user = nullptr;
    std::string pasted;
  } clipboard;
};

}  // namespace attnlab::gui
