// The Flash tab (key F): FlashAttention's tiled online softmax as a lesson. The (T, T) score
// matrix drawn as a grid of tiles lighting up as the sweep goes (the tiles a mask hides hatched),
// each row's running max m and sum l as bars, the output rows being corrected, and a memory gauge
// comparing the ordinary path with the tiled one. ←/→ step through the tiles while it is open.
#pragma once

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

void draw_flash_tab(AppState& state);
// Moves the shown sweep step by `delta`, clamped to the recorded steps; false when there is no
// sweep to step through (the stepping keys then walk the stages).
bool step_flash(AppState& state, int delta);
// Records the sweep of the shown trace for the tab's tiles and head, unless it already is;
// returns that choice (the key of the lesson shown, with the trace generation).
SweepChoice start_flash_sweep(AppState& state);

}  // namespace attnlab::gui
