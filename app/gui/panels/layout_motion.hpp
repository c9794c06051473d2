// ImGui lays a window out by the frame before's content (its scroll bars, an auto-sized child's
// size), and panels sized by the last frame's measurements follow it: after a change (a new trace,
// a scene) the picture still moves for a few frames. A saved picture (a screenshot, a still, a
// slide) waits for it to stand still, as it waits for layout_fitting().
#pragma once

#include <cstdint>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

class LayoutMotion {
 public:
  // After a frame is drawn, in ImGui's current context: whether any shown window's place, size,
  // scroll bars or content extent differ from the frame before's (the first frame moved).
  void note_frame();
  bool moving() const { return moving_; }

 private:
  uint64_t signature_ = 0;
  bool moving_ = true;
};

// Whether a picture saved now would not be the one that stays: the layout still fits its type or
// still moves, or a measurement a tab started as it was drawn (the Paths tab's timing) or a
// computation still runs. Exports wait for it, at most kMostFittingFrames frames (and for the
// measurement itself: settle_for_export).
bool picture_settling(const AppState& state, const LayoutMotion& motion);

}  // namespace attnlab::gui
