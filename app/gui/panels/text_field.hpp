// A one-line text field over UTF-8 text that keeps every character. ImGui 1.86 as Debian builds
// it (and the page, built the same way) holds a field's text in 16-bit characters: a character
// beyond U+FFFF (an emoji) typed, or already in the text when the field is edited, would become
// U+FFFD. In the field such a character (and a private-use one, whose place it borrows) stands as
// a private-use character U+E000..U+F8FF, read back when the text changes; the window tells which
// character each U+FFFD ImGui received really was (note_typed_char), and the clipboard is routed
// through the same stand-ins (route_clipboard).
#pragma once

#include <imgui.h>

#include <string>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// ImGui::InputTextWithHint over `text`; true when the user changed it.
bool text_field(AppState& state, const char* label, const char* hint, std::string& text);

// Routes ImGui's clipboard (as the platform backend set it) through the fields' stand-ins: text
// pasted keeps its emoji (ImGui 1.86 would read each as U+FFFD), text copied from a field leaves
// with them. `typed` must outlive ImGui's context.
void route_clipboard(ImGuiIO& io, TypedInput& typed);

// The field's text for `text`, and `text` for the field's text (exposed for tests).
std::string to_field_text(TypedInput& typed, const std::string& text);
std::string from_field_text(const TypedInput& typed, const std::string& shown);

}  // namespace attnlab::gui
