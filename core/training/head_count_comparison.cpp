#include "core/training/head_count_comparison.hpp"

#include <algorithm>

namespace attnlab::training {

std::vector<HeadCountCurve> compare_head_counts(TrainSettings base,
                                                const std::vector<int64_t>& head_counts,
                                                const RunControl& control, int64_t log_every) {
  std::vector<int64_t> counts;
  for (const int64_t h : head_counts)
    if (h > 0 && base.d_model % h == 0) counts.push_back(h);
  std::vector<HeadCountCurve> curves;
  base.log_every = log_every;
  base.d_k = 0;  // d_model / h: equal parameter counts
  const double total_steps = double(base.steps) * double(counts.size());
  for (size_t run = 0; run < counts.size(); ++run) {
    TrainSettings settings = base;
    settings.heads = counts[run];
    Trainer trainer(settings);
    for (int64_t step = 0; step < settings.steps; ++step) {
      control.check_cancel();
      trainer.step();
      if (step % 20 == 0)
        control.report((double(run) * double(settings.steps) + double(step)) / total_steps);
    }
    HeadCountCurve curve;
    curve.heads = settings.heads;
    for (const HistoryEntry& entry : trainer.history()) {
      const std::vector<double>& acc = entry.report.accuracy;
      const double lowest = acc.empty() ? 0.0 : *std::min_element(acc.begin(), acc.end());
      curve.steps.push_back(entry.step);
      curve.loss.push_back(entry.report.loss);
      curve.accuracy.push_back(lowest);
      if (curve.steps_to_99 < 0 && lowest >= 0.99) curve.steps_to_99 = entry.step;
    }
    curves.push_back(std::move(curve));
  }
  control.report(1.0);
  return curves;
}

}  // namespace attnlab::training
