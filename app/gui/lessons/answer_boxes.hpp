// The one hook that hides an unrevealed answer in the picture (issue 38): after every window of a
// frame has drawn, and before ImGui::Render(), each text of the picture's panels (the pipeline,
// the stage view's tabs with their counters and tables, the heads, the info panel, and tooltips
// over them) is read back from the draw lists, whatever drew it, and each part that spells the
// answer (answer_mask.hpp decides) is drawn as a "?" box the size of that text, in the text's own
// colour, where the text was: nothing moves at the reveal. The lesson band (the question and its
// choices) and the controls are not the picture and are never masked.
//
// What a text means is known by where it was drawn: the mask hides the answer where the picture
// shows the asked run's own values (its counters, its shapes, its cells), not where it shows
// something else. Those places say so while they draw (mark_not_the_run): a reference table's row
// of another model (GPT-3's 96 heads beside a question whose answer is this config's 96), a
// name that numbers what it labels ("head 1": masking one name of a numbered set would point at
// the answer), and a map's row and column labels (its tokens: the cells answer a question about
// the map). A glyph drawn in such a place is never boxed.
#pragma once

#include "app/gui/look/drawn_text.hpp"
#include "app/gui/state/app_state.hpp"

namespace attnlab::gui {

// Masks this frame's picture for the state's lesson (nothing when no mask is in force) and
// records each box in state.frame.answer_boxes. Call after the last window has ended.
void draw_answer_boxes(AppState& state);

// Whether `line` goes on from `before`, the run drawn just before it: one text drawn over lines
// one under the other with nothing between (a shape broken after its comma, a wrapped sentence).
// Such lines are read as one text, each after a '\n' (answer_mask.hpp).
bool goes_on(const GlyphRun& before, const GlyphRun& line);

// Marks the screen rectangle [min, max] of this frame as a place whose text is not a value of the
// run the question asks about (see above); call while drawing it.
void mark_not_the_run(AppState& state, ImVec2 min, ImVec2 max);

// Whether the point (a glyph's middle) lies in a place marked by mark_not_the_run this frame.
bool not_the_run_at(const AppState& state, ImVec2 point);

}  // namespace attnlab::gui
