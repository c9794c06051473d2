#include "app/gui/state/redraw.hpp"

#include <algorithm>
#include <iterator>

#include "app/gui/lessons/lesson_panels.hpp"
#include "app/gui/lessons/lesson_player.hpp"
#include "app/gui/panels/fitted_type.hpp"

namespace attnlab::gui {

namespace {

bool transition_animating(const AppState& state) {
  return state.walk.frozen_transition < 0 && transition_progress(state) < 1.0f;
}

bool window_request_pending(const AppState& state) {
  const WindowRequests& window = state.window;
  return window.fonts_dirty || window.toggle_fullscreen || window.toggle_audience ||
         window.copy_picture || window.export_request || state.tabs.requested_tool ||
         state.tabs.requested_info || !state.requests.empty();
}

}  // namespace

bool wants_frames(const AppState& state) {
  const bool training = state.train.run && state.train.run->running();  // heads learning live
  // A model folder being opened (or just dropped): frames until it is shown, so its progress
  // moves and it is taken as soon as it is loaded (a page draws only the frames that are due).
  const bool opening_model = !state.model.loading.empty() || !state.window.dropped_paths.empty();
  return transition_animating(state) || state.walk.playing || state.session.computing ||
         any_job_pending(state) || window_request_pending(state) || training || opening_model ||
         !state.lesson.trail.empty() || state.lesson.drawing ||  // the pointer fades, the pen draws
         layout_fitting(state) || answer_changed(state.check);   // the watcher woke the loop
}

bool layout_fitting(const AppState& state) {
  return band_fitting(state) || type_fitting(state);
}

NextFrame next_frame(const AppState& state, const InputActivity& input) {
  if (wants_frames(state) || input.frames_since_change < kSettleFrames || input.held)
    return {0, true};
  if (input.text_input) return {kCursorBlinkSeconds, true};
  // A recording keeps a frame at its rate even while the picture holds.
  if (state.save.recording.on) return {1.0 / state.save.recording.fps, true};
  // A lesson file is looked at about once a second: edited, it is read again.
  if (lesson_open(state) && !state.lesson.file.empty()) return {kLessonFileSeconds, true};
  return {kIdleWaitSeconds, false};
}

void note_frame_drawn(InputActivity& input, const AppState& state, const ImGuiIO& io) {
  input.frames_since_change = wants_frames(state) ? 0 : input.frames_since_change + 1;
  const auto down = [](bool d) { return d; };
  input.held = std::any_of(std::begin(io.MouseDown), std::end(io.MouseDown), down) ||
               std::any_of(std::begin(io.KeysDown), std::end(io.KeysDown), down);
  input.text_input = io.WantTextInput;
}

double capped_frame_seconds(double seconds) {
  return std::min(seconds, kMaxFrameSeconds);
}

}  // namespace attnlab::gui
