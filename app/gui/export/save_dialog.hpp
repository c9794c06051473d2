// The Save dialog (Ctrl+Shift+E, the Controls' "Save picture..."): the picture alone as a still or
// as the pipeline's animation, at a chosen size, theme and font scale, on a transparent background
// if asked; the choices are remembered. On the desktop Save runs the app's own export off screen
// (the window never waits) with progress and Cancel, and Record (Ctrl+Shift+R) keeps what the
// window shows while the lecturer steps. A page saves the picture at its own size and records
// with its Record button.
#pragma once

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// Call after the panels, every frame; draws nothing while the dialog is closed.
void draw_save_dialog(AppState& state);

// The problem with the choices (SaveProblem, save_state.hpp) when written to `path`: the folder
// first, then what the app's option parser says of the export's options.
SaveProblem save_problem(const AppState& state, const std::string& path);

// The same for the choices shown, kept in state.save.check: checked again (a stat of the folder,
// the option parser) only when the export's options or the folder change, or the dialog opens.
const SaveProblem& checked_save_problem(AppState& state);

}  // namespace attnlab::gui
