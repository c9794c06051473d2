// The boundary of every frame: whatever a frame throws while it is built, drawn or saved (a
// std::bad_alloc, a library's own exception, a UserError nobody caught) ends that frame only. One
// line goes to stderr and to the status line, ImGui's frame is closed as it was left, and the app
// stays up. (Every job has the same boundary: BackgroundTask's run, background_task.hpp.)
#pragma once

#include <exception>
#include <functional>
#include <string>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// Runs `frame` and returns what it returns (false: the loop ends); when it throws, says so, sets
// `*failed` (when given) and returns true (the next frame is drawn as usual).
bool guard_frame(AppState& state, const std::function<bool()>& frame, bool* failed = nullptr);

// The one line a frame's exception is said in: "This frame failed (out of memory): ... The app
// goes on."
std::string frame_failure_line(const std::string& what);

}  // namespace attnlab::gui
