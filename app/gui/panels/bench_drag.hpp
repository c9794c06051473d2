// `attnlab --bench-frames N --bench-drag EVERY`: the frame-time benchmark while a slider is
// dragged. Every EVERY frames n_heads moves to the next of 8, 4, 2 (all divide the base preset's
// d_model of 512), through set_config as the slider does: at the base preset each change starts a
// worker run that supersedes the one in flight.
#pragma once

#include <cstdint>

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// Call before drawing frame `frame` (counted from 1).
void drag_heads_for_bench(AppState& state, int64_t frame, int every);

}  // namespace attnlab::gui
