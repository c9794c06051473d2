// A training run: settings, the seeded model, fresh batches of the task each step, AdamW, and the
// logged history (loss, accuracy per output, per-head pattern scores).
#pragma once

#include <string>
#include <vector>

#include "core/training/adamw.hpp"
#include "core/training/head_scores.hpp"
#include "core/training/length_eval.hpp"
#include "core/training/model.hpp"
#include "core/training/tasks.hpp"

namespace attnlab::training {

// Every setting of `attnlab-cli train` (saved in model.json).
struct TrainSettings {
  Task task = Task::PreviousAndFirst;
  int64_t layers = 1, heads = 2, d_model = 32, d_k = 0, seq_len = 12, vocab = 16;
  bool mlp = false, bias = true;
  int64_t steps = 1500, batch_size = 64;
  double lr = 3e-3, weight_decay = 0.0, clip_norm = 0.0;
  uint64_t seed = 0;
  int64_t log_every = 50;
  PositionEncoding pos = PositionEncoding::Learned;  // --pos
  std::vector<int64_t> eval_seq_lens;  // --eval-seq-len: lengths to evaluate at after training
};

// Throws UserError (one line: the setting, what is wrong, how to fix it) for settings that cannot
// train: unknown sizes, V < 2, T too short for the task, d_model not divisible by h without d_k,
// RoPE with an odd d_k, an evaluation length the task cannot use or too long to evaluate.
void check_settings(const TrainSettings& settings);
ModelShape model_shape(const TrainSettings& settings);

struct HistoryEntry {
  int64_t step = 0;  // 0-based step index: the loss is on its batch, before its update
  LossReport report;
  std::vector<HeadScores> heads;
};

class Trainer {
 public:
  explicit Trainer(const TrainSettings& settings);

  // Forward, backward and one AdamW update on batch number steps_done(); returns the loss on that
  // batch before the update. Logs to history() every log_every steps and at the last step.
  LossReport step();
  int64_t steps_done() const { return steps_done_; }

  // The batch step number `index` trains on (index 0 is the first).
  Batch batch(int64_t index) const;
  // Loss and gradients on a batch without updating (for --grads and the tests).
  LossReport gradients(const Batch& batch, Parameters<float>& grads);
  // Loss, accuracy and pattern scores on a batch, no update.
  HistoryEntry evaluate(const Batch& batch);
  // Longer than training: accuracy at T and at each of settings().eval_seq_lens on fresh
  // sequences (length_eval.hpp), kept for history.json.
  const std::vector<LengthEval>& evaluate_lengths();
  const std::vector<LengthEval>& length_evals() const { return length_evals_; }

  const TrainSettings& settings() const { return settings_; }
  const ModelShape& shape() const { return shape_; }
  const Parameters<float>& parameters() const { return params_; }
  Parameters<float>& parameters() { return params_; }
  const std::vector<HistoryEntry>& history() const { return history_; }
  const ForwardCache<float>& cache() const { return cache_; }

 private:
  TrainSettings settings_;
  ModelShape shape_;
  Parameters<float> params_, grads_;
  AdamW optimizer_;
  ForwardCache<float> cache_;
  std::vector<HistoryEntry> history_;
  std::vector<LengthEval> length_evals_;
  int64_t steps_done_ = 0;
};

}  // namespace attnlab::training
