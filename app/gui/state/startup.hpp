// The first state of a run: presets, the restored session or the requested preset, command-line
// overrides, the first trace, the requested (or restored) stage and tab.
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

// The config flags of `options` over the session's config (dropped whole, with the returned
// message, when one is bad), then its tab, Flash tiles and Check folder; starts the run.
std::string apply_options_over_config(AppState& state, const StartOptions& options);

// True when the last session comes back: no --preset and no config flag (a config flag starts a
// new lesson from the preset or seed003, not from the last session's leftovers). Its step and tab
// come back with it, unless --stage or --tab say otherwise.
bool restores_session(const StartOptions& options, const LoadedSettings* restored);

// The last window size, unless --width or --height was given (display settings, as the theme and
// font scale, come back whatever the config).
void restore_window_size(StartOptions& options, const LoadedSettings* restored);

// The window on a monitor whose work area (the screen less its panels) is `work_width` x
// `work_height`: a first start takes the whole work area, a remembered size is cut to it;
// --width and --height stay as given.
void fit_window_to_work_area(StartOptions& options, int work_width, int work_height);

// The settings to save at exit (the window's size is the window's to fill in).
Settings current_settings(const AppState& state, const std::string& imgui_ini);

constexpr const char* kDefaultPreset = "seed003";

}  // namespace attnlab::gui
