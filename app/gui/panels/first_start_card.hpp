// The first start's card: over the whole window, in large type, what P, the arrows (and
// PageDown), Space and the digits do and where the lessons and the guide are. Up on the very first
// start only (the window sets WindowRequests::first_start_card); any key or click dismisses it,
// remembered in the settings (UiSettings::first_start_done).
#pragma once

#include "app/gui/state/app_state.hpp"
#include "app/gui/state/options.hpp"

namespace attnlab::gui {

// Whether this start shows the card: the very first start of a person using the app, never a
// scripted run, a lesson played in front of a class (--lesson) or a student's answer (--check).
bool shows_first_start_card(const StartOptions& options, bool first_start_done);

// Call before the shortcuts. While the card is up it takes every key, character and click: true
// then (the shortcuts do nothing this frame); the first of them dismisses it.
bool first_start_card_takes_input(AppState& state);

// Draws the card over everything, if it is up; call after the panels.
void draw_first_start_card(AppState& state);

}  // namespace attnlab::gui
