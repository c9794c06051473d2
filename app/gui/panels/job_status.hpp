// One line for a background job (a measurement, the trace): while it runs, a progress bar and a
// Cancel button; when it was refused or failed, the reason in red; when cancelled, a button to
// start it again. Every job the app runs shows itself through this one widget.
#pragma once

#include <imgui.h>

#include <string>

#include "app/gui/state/background_task.hpp"

namespace attnlab::gui {

struct JobView {
  const char* id;  // unique per job on screen: "importance"
  bool busy = false;
  double progress = 0;
  std::string error;  // a refusal or a failure
  bool cancelled = false;
  const char* doing = "measuring";  // the progress bar's word
  const char* again =
      "Measure again";  // after a cancel; null: no button (the caller's own starts it)
};

enum class JobAction { None, Cancel, Restart };

// Draws the job's line (nothing when it is idle and fine) and returns what the user asked for.
JobAction job_status(const JobView& job, ImU32 error_colour);

// The same for a BackgroundTask, acting on the answer. True while it runs or failed (the caller
// then has no fresh result to draw).
template <typename Result, typename Key>
bool draw_task_status(BackgroundTask<Result, Key>& task, const char* id, ImU32 error_colour,
                      const char* doing = "measuring", const char* again = "Measure again") {
  const JobAction action = job_status(
      JobView{id, task.busy(), task.progress(), task.error(), task.cancelled(), doing, again},
      error_colour);
  if (action == JobAction::Cancel) task.cancel();
  if (action == JobAction::Restart) task.forget();  // the panel starts it again
  return task.busy() || !task.error().empty() || task.cancelled();
}

}  // namespace attnlab::gui
