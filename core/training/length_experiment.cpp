#include "core/training/length_experiment.hpp"

#include <cmath>

namespace attnlab::training {

double LengthCell::mean() const {
  double sum = 0;
  for (const double a : accuracy) sum += a;
  return accuracy.empty() ? 0.0 : sum / double(accuracy.size());
}

double LengthCell::spread() const {
  if (accuracy.size() < 2) return 0.0;
  const double m = mean();
  double squares = 0;
  for (const double a : accuracy) squares += (a - m) * (a - m);
  return std::sqrt(squares / double(accuracy.size() - 1));
}

std::vector<int64_t> longer_lengths(int64_t seq_len) {
  return {seq_len, 2 * seq_len, 4 * seq_len};
}

LengthExperiment run_length_experiment(TrainSettings base, const std::vector<uint64_t>& seeds,
                                       const RunControl& control) {
  LengthExperiment result;
  result.task = base.task;
  result.steps = base.steps;
  result.lengths = longer_lengths(base.seq_len);
  result.seeds = seeds;
  base.eval_seq_lens.assign(result.lengths.begin() + 1, result.lengths.end());
  const std::vector<PositionEncoding>& encodings = all_position_encodings();
  for (const PositionEncoding pos : encodings) {  // every setting refused before any training
    base.pos = pos;
    check_settings(base);
  }
  const double runs = double(encodings.size() * seeds.size());
  double run = 0;
  for (const PositionEncoding pos : encodings) {
    LengthRow row;
    row.pos = pos;
    row.cells.resize(result.lengths.size());
    for (const uint64_t seed : seeds) {
      TrainSettings settings = base;
      settings.pos = pos;
      settings.seed = seed;
      Trainer trainer(settings);
      for (int64_t step = 0; step < settings.steps; ++step) {
        control.check_cancel();
        trainer.step();
        if (step % 20 == 0)
          control.report((run + double(step) / double(settings.steps + 1)) / runs);
      }
      control.check_cancel();
      const std::vector<LengthEval>& evals = trainer.evaluate_lengths();
      for (size_t i = 0; i < evals.size(); ++i) {
        LengthCell& cell = row.cells[i];
        cell.available = evals[i].available;
        cell.not_available = evals[i].not_available;
        if (evals[i].available) cell.accuracy.push_back(evals[i].lowest_accuracy());
      }
      run += 1;
      control.report(run / runs);
    }
    result.rows.push_back(std::move(row));
  }
  return result;
}

}  // namespace attnlab::training
