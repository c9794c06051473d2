// The window's side of the Save dialog (app/gui/export/save_dialog.hpp): it starts the exports the
// dialog asked for, and runs Record: the window shows the picture alone, each frame is kept at the
// recording's rate, and a red mark (drawn after the frame is read, so never recorded) says so.
#pragma once

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// At start: what this platform can do (run the app off screen, write MP4s).
void configure_saving(AppState& state);

// After a frame is rendered, before it is shown: starts the dialog's exports, starts or stops a
// recording, keeps this frame if one runs, and says when an export finished.
void after_frame_saving(AppState& state, GLFWwindow* window);

}  // namespace attnlab::gui
