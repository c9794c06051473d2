// The first state of a run: presets, the restored session or the requested preset, command-line
// overrides, the first trace, the requested stage.
#pragma once

#include <string>

#include "app/gui/state/app_state.hpp"
#include "app/gui/state/options.hpp"
#include "app/gui/state/settings.hpp"

namespace attnlab::gui {

// Fills `state`; waits for the first trace. Returns "" or a one-line error (unknown preset,
// invalid overrides) that a scripted run reports and exits on; interactive runs show it instead.
std::string start_state(AppState& state, const StartOptions& options,
                        const LoadedSettings* restored);

// The settings to save at exit.
Settings current_settings(const AppState& state, const std::string& imgui_ini);

constexpr const char* kDefaultPreset = "seed003";

}  // namespace attnlab::gui
