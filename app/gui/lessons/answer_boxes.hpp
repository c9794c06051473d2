// The one hook that hides an unrevealed answer in the picture (issue 38): after every window of a
// frame has drawn, and before ImGui::Render(), each text of the picture's panels (the pipeline,
// the stage view's tabs with their counters and tables, the heads, the info panel, and tooltips
// over them) is read back from the draw lists, whatever drew it, and each part that spells the
// answer (answer_mask.hpp decides) is drawn as a "?" box the size of that text, in the text's own
// colour, where the text was: nothing moves at the reveal. The lesson band (the question and its
// choices) and the controls are not the picture and are never masked.
#pragma once

#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// Masks this frame's picture for the state's lesson (nothing when no mask is in force) and
// records each box in state.frame.answer_boxes. Call after the last window has ended.
void draw_answer_boxes(AppState& state);

}  // namespace attnlab::gui
