#include "app/gui/panels/text_field.hpp"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>

#include "app/gui/look/token_text.hpp"
#include "app/gui/look/wrap.hpp"
#include "app/gui/panels/panels.hpp"

namespace attnlab::gui {

namespace {

constexpr char32_t kReplacement = 0xFFFD;

bool needs_stand_in(char32_t c) {
  return c > 0xFFFF || (c >= kFirstStandIn && c <= kLastStandIn);
}

// The character standing for `c` in a field (U+FFFD once all 6400 are taken).
char32_t stand_in(TypedInput& typed, char32_t c) {
  std::vector<char32_t>& list = typed.stand_ins;
  const auto found = std::find(list.begin(), list.end(), c);
  if (found != list.end()) return kFirstStandIn + char32_t(found - list.begin());
  if (list.size() > kLastStandIn - kFirstStandIn) return kReplacement;
  list.push_back(c);
  return kFirstStandIn + char32_t(list.size() - 1);
}

// ImGui received each typed character beyond U+FFFF as U+FFFD: its stand-in goes in instead.
int restore_typed_char(ImGuiInputTextCallbackData* data) {
  auto& typed = *static_cast<TypedInput*>(data->UserData);
  if (data->EventChar != kReplacement || typed.replaced_chars.empty()) return 0;
  const char32_t c = typed.replaced_chars.front();
  typed.replaced_chars.pop_front();
  if (c != kReplacement) data->EventChar = ImWchar(stand_in(typed, c));
  return 0;
}

const char* paste_with_stand_ins(void* user) {
  auto& typed = *static_cast<TypedInput*>(user);
  const char* text = typed.clipboard.get ? typed.clipboard.get(typed.clipboard.user) : nullptr;
  if (!text) return nullptr;
  typed.clipboard.pasted = to_field_text(typed, text);
  return typed.clipboard.pasted.c_str();
}

void copy_without_stand_ins(void* user, const char* text) {
  auto& typed = *static_cast<TypedInput*>(user);
  if (typed.clipboard.set)
    typed.clipboard.set(typed.clipboard.user, from_field_text(typed, text).c_str());
}

}  // namespace

void route_clipboard(ImGuiIO& io, TypedInput& typed) {
  typed.clipboard.get = io.GetClipboardTextFn;
  typed.clipboard.set = io.SetClipboardTextFn;
  typed.clipboard.user = io.ClipboardUserData;
  io.GetClipboardTextFn = paste_with_stand_ins;
  io.SetClipboardTextFn = copy_without_stand_ins;
  io.ClipboardUserData = &typed;
}

std::string to_field_text(TypedInput& typed, const std::string& text) {
  std::string shown;
  for (const char32_t c : code_points(text))
    append_utf8(shown, needs_stand_in(c) ? stand_in(typed, c) : c);
  return shown;
}

std::string from_field_text(const TypedInput& typed, const std::string& shown) {
  std::string text;
  for (const char32_t c : code_points(shown)) {
    const size_t i = size_t(c) - kFirstStandIn;
    append_utf8(text, c >= kFirstStandIn && i < typed.stand_ins.size() ? typed.stand_ins[i] : c);
  }
  return text;
}

bool text_field(AppState& state, const char* label, const char* hint, std::string& text) {
  std::string shown = to_field_text(state.typed, text);
  // New stand-ins need their glyphs (an emoji's, from an installed font) in the atlas.
  if (state.typed.stand_ins.size() > state.window.font_stand_ins) state.window.fonts_dirty = true;
  if (!ImGui::InputTextWithHint(label, field_hint(hint).c_str(), &shown,
                                ImGuiInputTextFlags_CallbackCharFilter, restore_typed_char,
                                &state.typed)) {
    note_text_field();
    return false;
  }
  note_text_field();
  text = from_field_text(state.typed, shown);
  return true;
}

}  // namespace attnlab::gui
