// The Train tab's "longer than training" parts (issue 23): the run's accuracy at T and at the
// evaluation lengths, and the experiment that trains the tab's task with every position encoding
// and draws the accuracy at T, 2T and 4T as a table.
#pragma once

#include <vector>

#include "core/training/length_eval.hpp"

namespace attnlab::gui {

struct AppState;

// One wrapped line: "accuracy at T = 12: 100 %, at 24: 97 %, at 48: n/a: the learned table ...".
void length_eval_line(const std::vector<training::LengthEval>& evals);

// The "Longer than training" button, its seeds, and its background job's progress and Cancel;
// with table_here (the tab's right side too narrow for the table) the view below them.
void longer_than_training_section(AppState& state, bool table_here);
// The experiment's progress and Cancel while it runs, then what it trained and its table; beside
// the heads (on the tab's right side), a button back to them.
void longer_than_training_view(AppState& state, bool beside_heads);

}  // namespace attnlab::gui
