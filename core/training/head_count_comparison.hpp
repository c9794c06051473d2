// Heads vs one head: the same task, d_model and seed trained with h = 1, 2, 4, 8, 16 (d_k = D/h,
// so every run has the same parameter count), one after another, and their loss curves side by
// side with the steps each needed to reach 99 % accuracy (issue 12's practice exercise).
#pragma once

#include <vector>

#include "core/model/run_control.hpp"
#include "core/training/trainer.hpp"

namespace attnlab::training {

struct HeadCountCurve {
  int64_t heads = 0;
  std::vector<int64_t> steps;    // logged steps
  std::vector<double> loss;      // training loss at each logged step
  std::vector<double> accuracy;  // the lowest output's accuracy at each logged step
  int64_t steps_to_99 = -1;      // first logged step at 99 % or more; -1 = never
};

// Trains `base` once per head count that divides base.d_model (others are skipped), with d_k =
// d_model / h and a log every `log_every` steps. Checks `control` between steps (Cancelled) and
// reports progress over all runs.
std::vector<HeadCountCurve> compare_head_counts(TrainSettings base,
                                                const std::vector<int64_t>& head_counts,
                                                const RunControl& control = {},
                                                int64_t log_every = 10);

}  // namespace attnlab::training
