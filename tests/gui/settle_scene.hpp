// A lesson's scene drawn until it has settled, as a still waits for it: its model read, its trace
// computed and
// shown, the tabs' measurements in, the band and the fitted regions done fitting their type and
// the windows standing still (three frames at least). One loop for the tests that look at a scene
// whole.
#pragma once

#include "app/gui/model/model_state.hpp"
#include "app/gui/panels/layout_motion.hpp"
#include "app/gui/state/redraw.hpp"
#include "headless_imgui.hpp"

namespace attnlab::gui {

// Draws with `draw_frame` at most `most_frames` frames; false if the scene is still settling.
template <class DrawFrame>
bool settle_scene(AppState& state, DrawFrame&& draw_frame, int most_frames) {
  LayoutMotion motion;
  for (int i = 0; i < most_frames; ++i) {
    if (!state.model.loading.empty()) wait_for_model(state);
    state.session.worker->wait_idle();
    poll_trace(state);
    draw_frame();
    motion.note_frame();
    wait_for_measurements(state);  // the tabs' measurements in (the head-count table's)
    if (i >= 2 && !picture_settling(state, motion) && !state.session.computing) return true;
  }
  return false;
}

}  // namespace attnlab::gui
