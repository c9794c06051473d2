#include "core/training/trainer.hpp"

#include <algorithm>

#include "core/model/errors.hpp"

namespace attnlab::training {

namespace {

void require_positive(int64_t value, const char* setting) {
  if (value < 1) {
    throw UserError("{{" + std::string(setting) + " " + std::to_string(value) +
                    "}}: must be at least 1; give a positive number");
  }
}

// The init stream and the data stream differ, so changing one never shifts the other.
constexpr uint64_t kInitSalt = 0x1F2E3D4C5B6A7988ull;

}  // namespace

void check_settings(const TrainSettings& s) {
  require_positive(s.heads, "n_heads");
  require_positive(s.d_model, "d_model");
  require_positive(s.batch_size, "batch_size");
  require_positive(s.log_every, "log_every");
  if (s.layers != 1 && s.layers != 2)
    throw UserError("{{layers " + std::to_string(s.layers) + "}}: use 1 or 2 layers");
  if (s.steps < 0) throw UserError("{{steps " + std::to_string(s.steps) + "}}: use 0 or more");
  if (s.d_k < 0) throw UserError("{{d_k " + std::to_string(s.d_k) + "}}: use a positive width");
  if (s.d_k == 0 && s.d_model % s.heads != 0) {
    throw UserError("{{d_model " + std::to_string(s.d_model) + "}} is not divisible by {{n_heads " +
                    std::to_string(s.heads) + "}}: choose a multiple of " +
                    std::to_string(s.heads) + " or give {{d_k}}");
  }
  if (s.pos == PositionEncoding::Rope && model_shape(s).head_dim() % 2 != 0) {
    throw UserError(
        "RoPE{{(pos rope)}} needs an even d_k (it turns pairs of dimensions), but d_k is " +
        std::to_string(model_shape(s).head_dim()) +
        ": give an even {{d_k}} or change {{d_model}} / {{n_heads}}");
  }
  for (const int64_t length : s.eval_seq_lens) {
    if (length < task_info(s.task).min_seq_len || length > kMaxEvalSeqLen) {
      throw UserError("{{eval_seq_len " + std::to_string(length) + "}}: use a length from " +
                      std::to_string(task_info(s.task).min_seq_len) + " (the task's shortest) to " +
                      std::to_string(kMaxEvalSeqLen));
    }
  }
  if (!(s.lr > 0)) throw UserError("{{lr}} must be positive, e.g. {{lr 3e-3}}");
  if (s.weight_decay < 0) throw UserError("{{weight_decay}} must be 0 or more");
  check_task_sizes(s.task, s.seq_len, s.vocab);
}

ModelShape model_shape(const TrainSettings& s) {
  ModelShape m;
  m.layers = s.layers;
  m.heads = s.heads;
  m.d_model = s.d_model;
  m.d_k = s.d_k;
  m.seq_len = s.seq_len;
  m.vocab = s.vocab;
  m.mlp = s.mlp;
  m.bias = s.bias;
  m.pos = s.pos;
  const TaskInfo& info = task_info(s.task);
  m.causal = info.causal;
  m.output_vocab.assign(size_t(info.outputs), s.vocab);  // every output predicts a token
  return m;
}

Trainer::Trainer(const TrainSettings& settings)
    : settings_((check_settings(settings), settings)),
      shape_(model_shape(settings)),
      params_(initial_parameters(shape_, settings.seed ^ kInitSalt)),
      grads_(zero_parameters<float>(shape_)),
      optimizer_(shape_, AdamWSettings{settings.lr, 0.9, 0.999, 1e-8, settings.weight_decay,
                                       settings.clip_norm}) {}

Batch Trainer::batch(int64_t index) const {
  return make_batch(settings_.task, settings_.batch_size, settings_.seq_len, settings_.vocab,
                    settings_.seed, index);
}

LossReport Trainer::gradients(const Batch& batch, Parameters<float>& grads) {
  const LossReport report = forward_loss(shape_, params_, batch, cache_);
  backward(shape_, params_, batch, cache_, grads);
  return report;
}

HistoryEntry Trainer::evaluate(const Batch& batch) {
  HistoryEntry entry;
  entry.step = steps_done_;
  entry.report = forward_loss(shape_, params_, batch, cache_);
  entry.heads = head_scores(shape_, batch, cache_);
  return entry;
}

const std::vector<LengthEval>& Trainer::evaluate_lengths() {
  std::vector<int64_t> lengths{settings_.seq_len};
  for (const int64_t length : settings_.eval_seq_lens)
    if (std::find(lengths.begin(), lengths.end(), length) == lengths.end())
      lengths.push_back(length);
  length_evals_ =
      training::evaluate_lengths(shape_, params_, settings_.task, settings_.seed, lengths);
  return length_evals_;
}

LossReport Trainer::step() {
  const Batch data = batch(steps_done_);
  const LossReport report = gradients(data, grads_);
  const bool log = steps_done_ % settings_.log_every == 0 || steps_done_ + 1 == settings_.steps;
  if (log) history_.push_back({steps_done_, report, head_scores(shape_, data, cache_)});
  optimizer_.step(params_, grads_);
  ++steps_done_;
  return report;
}

}  // namespace attnlab::training
