// A region of a tab whose type shrinks until its content, tables included, fits whole (issue 38:
// a table scales its type down before it cuts a row or a column). Each frame the region measures
// its content against its room: too tall, or a table wider than the region, and its type is
// smaller next frame (about in proportion), down to a floor; below the floor it scrolls. Content
// that leaves room (it came late, or shrank) lets the type grow back, a few times at most (no
// flicker). The type starts whole again when the region's size, the font or the trace changes.
#pragma once

#include <imgui.h>

#include <map>
#include <string>

namespace attnlab::gui {

struct AppState;

struct TypeFit {
  float scale = 1;         // of the window's font, for the region's text and tables
  std::string fitted_for;  // the region's size, the font and the trace it was fitted to
  bool fitting = false;    // changed last frame: another frame sees whether it fits now
  int grows = 0;           // times it grew back (content that shrank, or came late), bounded
};

// Each fitted region's, by its ImGui window ID.
using TypeFits = std::map<ImGuiID, TypeFit>;

// The least type a region shrinks to: 13 px, or the font if smaller.
float least_fitted_font_scale(float font_pixels);

// begin_padded_child(id, size, no background) with the region's fitted type; end_fitted_region()
// measures what it drew and closes it (call it whatever begin returned, as EndChild).
void begin_fitted_region(AppState& state, const char* id, ImVec2 size);
void end_fitted_region(AppState& state);

// Inside a fitted region: its least type over its type now (1 at its floor), what a content
// choosing between shrinking to fit and scrolling at the region's type can still count on.
float fitted_type_room(const AppState& state);

// A region shrank its type last frame: another frame is wanted.
bool type_fitting(const AppState& state);

}  // namespace attnlab::gui
