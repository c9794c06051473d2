// Longer than training (issue 23): a trained model's loss and accuracy on fresh sequences of its
// task at other lengths than the T it trained on. A learned position table has T rows: beyond T
// there is no row to add, so the evaluation says so instead of extrapolating silently.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/training/model.hpp"
#include "core/training/tasks.hpp"

namespace attnlab::training {

// The longest evaluation length accepted (the (T, T) maps of a long sequence are evaluated a few
// sequences at a time, so memory stays small).
constexpr int64_t kMaxEvalSeqLen = 1024;
// Fresh sequences evaluated at each length.
constexpr int64_t kEvalSequences = 256;

struct LengthEval {
  int64_t seq_len = 0;             // the evaluated length
  bool available = true;           // false: the model cannot read sequences this long
  std::string not_available;       // why, e.g. "n/a: the learned table has 12 rows"
  LossReport report;               // loss and accuracy per output, over every targeted position
  double lowest_accuracy() const;  // the lowest output's accuracy (1 output: its accuracy)
};

// "n/a: the learned table has T rows" when `shape` cannot read `seq_len` tokens, "" when it can.
std::string length_not_available(const ModelShape& shape, int64_t seq_len);

// The `sequences` sequences evaluate_lengths() reads at length T, in chunks small enough that one
// forward pass keeps at most 2^22 attention weights.
std::vector<Batch> length_eval_batches(const ModelShape& shape, Task task, uint64_t seed, int64_t T,
                                       int64_t sequences);

// Each length of `lengths` in order, on `sequences` sequences of `task` drawn for `seed` from
// batch indices training never reaches (the same sequences for every model of that seed).
std::vector<LengthEval> evaluate_lengths(const ModelShape& shape, const Parameters<float>& params,
                                         Task task, uint64_t seed,
                                         const std::vector<int64_t>& lengths,
                                         int64_t sequences = kEvalSequences);

}  // namespace attnlab::training
