// The experiment of issue 23, "longer than training": one task trained at T with each position
// encoding and several seeds, every model evaluated on fresh sequences of length T, 2T and 4T.
// The Train tab runs it in the background and draws its table; tools/length_experiment.py makes
// the README's table from attnlab-cli runs of the same settings.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/model/run_control.hpp"
#include "core/training/trainer.hpp"

namespace attnlab::training {

// One encoding at one length, over the seeds.
struct LengthCell {
  bool available = true;
  std::string not_available;     // "n/a: the learned table has T rows"
  std::vector<double> accuracy;  // per seed: the lowest output's accuracy
  double mean() const;
  double spread() const;  // the seeds' sample standard deviation (0 for one seed)
};

struct LengthRow {
  PositionEncoding pos = PositionEncoding::None;
  std::vector<LengthCell> cells;  // per length
};

struct LengthExperiment {
  Task task = Task::PreviousToken;
  int64_t steps = 0;             // training steps of every run
  std::vector<int64_t> lengths;  // T, 2T, 4T
  std::vector<uint64_t> seeds;
  std::vector<LengthRow> rows;  // one per encoding, in all_position_encodings() order
};

// The lengths the experiment evaluates at: T, 2T and 4T.
std::vector<int64_t> longer_lengths(int64_t seq_len);

// Trains `base` with every encoding and each seed of `seeds` (base.pos and base.seed are
// replaced), evaluates at longer_lengths(base.seq_len). Checks `control` between steps
// (Cancelled) and reports progress over all runs. Throws UserError for settings that cannot
// train (RoPE with an odd d_k: the error names it).
LengthExperiment run_length_experiment(TrainSettings base, const std::vector<uint64_t>& seeds,
                                       const RunControl& control = {});

}  // namespace attnlab::training
