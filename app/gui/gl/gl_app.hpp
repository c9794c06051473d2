// The window: GLFW + OpenGL 3.3 core + Dear ImGui, the main loop, PNG export, settings at exit,
// and the scripted modes (--screenshot, --bench-frames).
#pragma once

#include "app/gui/state/options.hpp"

namespace attnlab::gui {

// Returns the process exit code: 0, 1 (a file could not be written, no GL 3.3), 2 (no display,
// bad start options in a scripted run).
int run_gui(const StartOptions& options);

}  // namespace attnlab::gui
