#include "app/gui/panels/layout_motion.hpp"

#include <imgui_internal.h>

#include <cstring>

#include "app/gui/state/redraw.hpp"

namespace attnlab::gui {

namespace {

// FNV-1a over a value's bytes.
template <class T>
void mix(uint64_t& hash, const T& value) {
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  for (const unsigned char byte : bytes) hash = (hash ^ byte) * 1099511628211ull;
}

}  // namespace

void LayoutMotion::note_frame() {
  const ImGuiContext& g = *ImGui::GetCurrentContext();
  uint64_t signature = 14695981039346656037ull;
  for (const ImGuiWindow* window : g.Windows) {
    if (!window->Active || window->Hidden) continue;
    mix(signature, window->ID);
    mix(signature, window->Pos);
    mix(signature, window->Size);
    mix(signature, window->ScrollbarX);
    mix(signature, window->ScrollbarY);
    // What this frame drew: the next frame sizes the scroll bars by it.
    mix(signature, ImFloor(window->DC.CursorMaxPos.x - window->DC.CursorStartPos.x));
    mix(signature, ImFloor(window->DC.CursorMaxPos.y - window->DC.CursorStartPos.y));
  }
  moving_ = signature != signature_;
  signature_ = signature;
}

bool picture_settling(const AppState& state, const LayoutMotion& motion) {
  return layout_fitting(state) || motion.moving() || any_job_pending(state) ||
         state.session.computing;
}

}  // namespace attnlab::gui
