// When the picture is not of the controls' config (a setting is invalid, a new trace is still
// being computed, or the run failed), the stage view and the heads say so on the picture itself:
// "Out of date: showing n_heads = 2; n_heads = 3 is invalid, see Controls".
#pragma once

#include <string>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// "" when the shown trace is the controls' config.
std::string stale_message(const AppState& state);

// A full-width warning bar with that message at the cursor (nothing when up to date).
void draw_stale_banner(const AppState& state);

}  // namespace attnlab::gui
