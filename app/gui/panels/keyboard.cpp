#include "app/gui/panels/keyboard.hpp"

#include <algorithm>
#include <cfloat>
#include <string>

#include "app/gui/flash/flash_panels.hpp"
#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/look/theme.hpp"
#include "app/gui/variants/variant_panels.hpp"

namespace attnlab::gui {

namespace {

int code(ImGuiKey key) {
  return ImGui::GetKeyIndex(key);
}

// The keys the shortcuts read, and whether holding one repeats it.
struct ShortcutKey {
  int key;
  bool repeats;
};

std::vector<ShortcutKey> shortcut_keys() {
  std::vector<ShortcutKey> keys = {{code(ImGuiKey_RightArrow), true},
                                   {code(ImGuiKey_LeftArrow), true},
                                   {code(ImGuiKey_PageDown), true},
                                   {code(ImGuiKey_PageUp), true},
                                   {kKeyRightBracket, true},
                                   {kKeyLeftBracket, true},
                                   {code(ImGuiKey_Home), false},
                                   {code(ImGuiKey_End), false},
                                   {code(ImGuiKey_Space), false},
                                   {code(ImGuiKey_Escape), false},
                                   {kKeyF11, false},
                                   {kKeyS, false},
                                   {kKeyE, false},
                                   {kKeyC, false},
                                   {kKeyM, false},
                                   {kKeyP, false},
                                   {kKeyV, false},
                                   {kKeyW, false},
                                   {kKeyF, false},
                                   {kKeyK, false},
                                   {kKeyL, false},
                                   {kKeyA, false},
                                   {kKeyR, false},
                                   {kKeyB, false}};
  for (int digit = 0; digit <= 9; ++digit) keys.push_back({kKey0 + digit, false});
  return keys;
}

// This frame's presses, each once, in order. From a window: the presses it queued (a tap that went
// down and up between two frames included) and the system's repeats of held stepping keys. In
// headless frames: the keys ImGui saw go down, and ImGui's repeats of held stepping keys.
std::vector<KeyPress> take_presses(TypedInput& typed) {
  std::vector<KeyPress> presses;
  presses.swap(typed.key_presses);
  const std::vector<ShortcutKey> keys = shortcut_keys();
  const auto repeats = [&](int key) {
    return std::any_of(keys.begin(), keys.end(),
                       [key](const ShortcutKey& k) { return k.key == key && k.repeats; });
  };
  if (typed.window_queues_keys) {
    std::erase_if(presses, [&](const KeyPress& p) { return p.repeat && !repeats(p.key); });
    return presses;
  }
  const ImGuiIO& io = ImGui::GetIO();
  const KeyPress modifiers{0, io.KeyShift, io.KeyCtrl, io.KeyAlt};
  for (const auto& [key, repeating] : keys) {
    if (key < 0) continue;  // not mapped
    if (ImGui::IsKeyPressed(key, repeating)) {
      KeyPress press = modifiers;
      press.key = key;
      presses.push_back(press);
    }
  }
  return presses;
}

// The mistake `delta` places after the current one, None included (so the walk wraps through it).
Mistake neighbour_mistake(Mistake current, int delta) {
  const std::vector<MistakeInfo>& all = all_mistakes();
  const int count = int(all.size()) + 1;  // position 0 = None
  int position = 0;
  for (int i = 0; i < int(all.size()); ++i)
    if (all[size_t(i)].id == current) position = i + 1;
  position = ((position + delta) % count + count) % count;
  return position == 0 ? Mistake::None : all[size_t(position - 1)].id;
}

int shown_head_count(const AppState& state) {
  return state.session.trace ? int(state.session.trace->config.n_heads) : 0;
}

// Focus mode of the heads panel: ] and [ step through the heads (from the grid: the first or last
// head), V puts the next head beside the focused one or takes it away.
void head_focus_key(AppState& state, int key) {
  HeadFocus& focus = state.heads.focus;
  const int heads = shown_head_count(state);
  if (heads == 0) return;
  const auto step = [&](int delta) {
    focus.head =
        focus.head < 0 ? (delta > 0 ? 0 : heads - 1) : (focus.head + delta + heads) % heads;
    if (focus.compare == focus.head) focus.compare = -1;
  };
  if (key == kKeyRightBracket) step(+1);
  if (key == kKeyLeftBracket) step(-1);
  if (key == kKeyV && focus.head >= 0)
    focus.compare = focus.compare >= 0 || heads < 2 ? -1 : (focus.head + 1) % heads;
}

// The walk: with the Decode tab open, the stepping keys step through the decoded tokens instead;
// with the Flash tab open (and its sweep recorded), through the tiles.
void walk_key(AppState& state, int key) {
  const bool decoding = state.tabs.tool == ToolTab::Decode && state.session.trace &&
                        !state.session.trace->decode.steps.empty();
  const bool sweeping = state.tabs.tool == ToolTab::Flash;
  const auto step = [&](int delta) {
    if (sweeping && step_flash(state, delta)) return;
    decoding ? step_decode(state, delta) : step_by(state, delta);
  };
  constexpr int kFarAway = 1 << 20;
  if (key == code(ImGuiKey_RightArrow) || key == code(ImGuiKey_PageDown)) step(+1);
  if (key == code(ImGuiKey_LeftArrow) || key == code(ImGuiKey_PageUp)) step(-1);
  if (key == code(ImGuiKey_Home)) {
    if (sweeping && step_flash(state, -kFarAway)) return;
    decoding ? step_decode(state, -kFarAway) : go_to_step(state, 0);
  }
  if (key == code(ImGuiKey_End)) {
    if (sweeping && step_flash(state, kFarAway)) return;
    decoding ? step_decode(state, kFarAway) : go_to_step(state, int(state.walk.steps.size()) - 1);
  }
  if (key == code(ImGuiKey_Space)) toggle_play(state);
}

// Shift+digit switches a head off and on. With more than 10 heads a digit that can start a
// two-digit head waits for the second digit (pressed with or without Shift) for
// kSecondDigitSeconds: Shift+1 then 1 is head 11; alone, head 1 when the wait ends. True when the
// press was taken as a head's digit.
bool head_digit(AppState& state, int digit, bool shift) {
  HeadsPanel& heads = state.heads;
  const int count = shown_head_count(state);
  if (heads.pending_tens >= 0) {
    const int head = heads.pending_tens * 10 + digit;
    heads.pending_tens = -1;
    if (head < count) state.requests.later([head](AppState& s) { toggle_head_ablation(s, head); });
    return true;
  }
  if (!shift) return false;
  if (digit >= 1 && digit * 10 < count) {
    heads.pending_tens = digit;
    heads.tens_deadline = ImGui::GetTime() + kSecondDigitSeconds;
    return true;
  }
  state.requests.later([digit](AppState& s) { toggle_head_ablation(s, digit); });
  return true;
}

// Letters and digits without Ctrl or Alt (Shift is part of some).
void letter_key(AppState& state, const KeyPress& press) {
  const int key = press.key;
  if (key >= kKey0 && key <= kKey0 + 9) {
    const int digit = key - kKey0;
    const bool head = head_digit(state, digit, press.shift);  // else a tab
    if (!head && digit >= 1) state.tabs.requested_tool = ToolTab(digit - 1);
    if (!head && digit == 0) state.tabs.requested_tool = ToolTab::Model;
  }
  if (key == kKeyF) state.tabs.requested_tool = ToolTab::Flash;
  if (key == kKeyK) state.tabs.requested_tool = ToolTab::Check;
  if (key == kKeyC)
    state.tabs.requested_info = state.tabs.info == InfoTab::Code ? InfoTab::Checks : InfoTab::Code;
  if (key == kKeyP) state.ui.presenter = !state.ui.presenter;
  if (key == kKeyA) state.window.toggle_audience = true;
  if (key == kKeyW) state.tabs.requested_tool = ToolTab::WordOrder;
  if (key == kKeyM) {
    const int delta = press.shift ? -1 : +1;
    state.requests.later([delta](AppState& s) {
      set_mistake(s, neighbour_mistake(s.session.config.mistake, delta));
    });
    state.tabs.requested_tool = ToolTab::Mistakes;
  }
  if (key == kKeyS)  // cycles the weights' colour scale
    state.ui.colour_scale = ColourScale((int(state.ui.colour_scale) + 1) % kColourScaleCount);
  head_focus_key(state, key);
}

// A lesson playing takes the clicker's keys (PageDown / PageUp, → / ←) through its scenes and Esc
// to free play; L returns to the scene. True when the press was the lesson's.
bool lesson_key(AppState& state, const KeyPress& press) {
  if (!lesson_open(state) || press.ctrl || press.alt) return false;
  if (!lesson_playing(state)) {
    if (press.key != kKeyL) return false;
    state.requests.later(return_to_lesson);
    return true;
  }
  const int key = press.key;
  const bool forward = key == code(ImGuiKey_RightArrow) || key == code(ImGuiKey_PageDown);
  const bool back = key == code(ImGuiKey_LeftArrow) || key == code(ImGuiKey_PageUp);
  if (forward || back) {
    state.requests.later([delta = forward ? 1 : -1](AppState& s) { lesson_click(s, delta); });
    return true;
  }
  if (key == kKeyB && !press.shift && state.ui.presenter) {  // the bar of controls, or the picture
    state.lesson.controls_bar = !state.lesson.controls_bar;
    return true;
  }
  if (key == code(ImGuiKey_Escape) && !state.session.computing) {  // then Esc is free play's
    leave_lesson(state);
    return true;
  }
  return false;
}

void handle_press(AppState& state, const KeyPress& press, bool typing) {
  if (press.key == kKeyF11) state.window.toggle_fullscreen = true;
  if (press.ctrl && press.key == kKeyS)
    state.window.export_request = ExportRequest{std::nullopt, "", false, press.shift};
  if (press.ctrl && press.shift && press.key == kKeyC) state.window.copy_picture = true;
  if (press.ctrl && !press.shift && press.key == kKeyE)
    state.window.export_request = ExportRequest{std::nullopt, "", true};
  if (press.ctrl && press.shift && press.key == kKeyE) state.save.open = !state.save.open;
  if (press.ctrl && press.shift && press.key == kKeyR) state.save.toggle_recording = true;
  // Esc in the Save dialog cancels the export being written, else closes the dialog.
  if (state.save.open && !typing && press.key == code(ImGuiKey_Escape)) {
    if (state.save.writing.busy())
      state.save.writing.cancel();
    else
      state.save.open = false;
    return;
  }
  // A clicker's PageDown reaches the lesson even from a text field clicked last.
  const bool clicker = press.key == code(ImGuiKey_PageDown) || press.key == code(ImGuiKey_PageUp);
  if ((!typing || clicker) && lesson_key(state, press)) return;
  if (typing) return;  // the other keys are the text field's
  if (press.key == code(ImGuiKey_Escape)) {
    if (state.session.computing)
      state.requests.later(cancel_computation);
    else
      state.heads.focus = {};
    return;
  }
  walk_key(state, press.key);
  if (!press.ctrl && !press.alt) letter_key(state, press);
}

}  // namespace

void configure_keyboard(ImGuiIO& io) {
  // Navigation would move an invisible focus with the arrows and let Space press the control
  // clicked last: the lecture keys would do two things at once.
  io.ConfigFlags &= ~ImGuiConfigFlags_NavEnableKeyboard;
}

void note_key_press(TypedInput& typed, const KeyPress& press) {
  typed.key_presses.push_back(press);
}

void note_typed_char(TypedInput& typed, unsigned codepoint) {
  if (codepoint > 0xFFFF || codepoint == 0xFFFD) typed.replaced_chars.push_back(codepoint);
}

void handle_shortcuts(AppState& state) {
  const bool typing = ImGui::GetIO().WantTextInput;
  for (const KeyPress& press : take_presses(state.typed)) handle_press(state, press, typing);
  HeadsPanel& heads = state.heads;
  if (heads.pending_tens >= 0 && ImGui::GetTime() >= heads.tens_deadline) {
    const int head = heads.pending_tens;  // no second digit came: the one-digit head
    state.requests.later([head](AppState& s) { toggle_head_ablation(s, head); });
    heads.pending_tens = -1;
  }
}

std::string pending_head_text(const AppState& state) {
  const int tens = state.heads.pending_tens;
  if (tens < 0) return "";
  return "head " + std::to_string(tens) + "_ : the second digit (" + std::to_string(tens) +
         "0 \u2026 " + std::to_string(std::min(tens * 10 + 9, shown_head_count(state) - 1)) +
         "), or wait for head " + std::to_string(tens);
}

void draw_pending_head(const AppState& state) {
  const std::string text = pending_head_text(state);
  if (text.empty()) return;
  const ImGuiIO& io = ImGui::GetIO();
  const Palette& colours = palette(state.ui.theme);
  ImDrawList* list = ImGui::GetForegroundDrawList();
  const float size = ImGui::GetFontSize() * 1.6f;
  const ImVec2 extent = ImGui::GetFont()->CalcTextSizeA(size, FLT_MAX, 0, text.c_str());
  const float pad = size * 0.4f;
  const ImVec2 at((io.DisplaySize.x - extent.x) * 0.5f, io.DisplaySize.y * 0.12f);
  list->AddRectFilled(ImVec2(at.x - pad, at.y - pad),
                      ImVec2(at.x + extent.x + pad, at.y + extent.y + pad), colours.background,
                      pad * 0.5f);
  list->AddRect(ImVec2(at.x - pad, at.y - pad),
                ImVec2(at.x + extent.x + pad, at.y + extent.y + pad), colours.accent, pad * 0.5f, 0,
                2.0f);
  list->AddText(ImGui::GetFont(), size, at, colours.text, text.c_str());
}

}  // namespace attnlab::gui
