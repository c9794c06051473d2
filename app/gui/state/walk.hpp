// The walk through the shown trace: its steps, where the viewer is (step and sequence of the
// batch), the animation between steps and the automatic play.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "app/gui/state/pipeline_steps.hpp"

namespace attnlab::gui {

struct Walk {
  std::vector<PipelineStep> steps;  // of the shown trace
  int step_index = 0;
  int previous_step_index = 0;   // where the current transition started
  double transition_start = -1;  // clock time of the last step change
  std::string pending_stage;     // "attend" or "attend:softmax", taken once a trace exists
  int64_t batch_shown = 0;       // which sequence of the batch the panels show
  bool playing = false;
  double play_timer = 0;         // seconds on the current step while playing
  double clock = 0;              // seconds since start (sum of frame times)
  int64_t frames_drawn = 0;      // frames since start
  float frozen_transition = -1;  // >= 0: transitions held at this progress (figures of them)
};

}  // namespace attnlab::gui
