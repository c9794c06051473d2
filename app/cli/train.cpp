#include "app/cli/train.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <optional>

#include "app/cli/parse_arguments.hpp"
#include "core/model/errors.hpp"
#include "core/training/model_io.hpp"
#include "core/training/trainer.hpp"

namespace attnlab::cli {

namespace {

using namespace attnlab::training;

void print_log_line(const HistoryEntry& e) {
  std::fprintf(stderr, "step %6lld  loss %.4f  accuracy", static_cast<long long>(e.step),
               e.report.loss);
  for (double a : e.report.accuracy) std::fprintf(stderr, " %.3f", a);
  std::fprintf(stderr, "  heads (prev/first/prefix)");
  for (const HeadScores& h : e.heads) {
    std::fprintf(stderr, " L%lldH%lld %.2f/%.2f/%.2f", static_cast<long long>(h.layer),
                 static_cast<long long>(h.head), h.previous, h.first, h.prefix);
  }
  std::fprintf(stderr, "\n");
}

// Longer than training: one line per evaluated length.
void print_length_evals(const std::vector<LengthEval>& evals) {
  for (const LengthEval& e : evals) {
    if (e.available) {
      std::fprintf(stderr, "eval T=%lld  loss %.4f  accuracy %.3f\n",
                   static_cast<long long>(e.seq_len), e.report.loss, e.lowest_accuracy());
    } else {
      std::fprintf(stderr, "eval T=%lld  %s\n", static_cast<long long>(e.seq_len),
                   e.not_available.c_str());
    }
  }
}

}  // namespace

int run_train(int argc, char** argv) {
  CLI::App app{
      "attnlab-cli train: trains an attention-only transformer on a synthetic task and saves it "
      "(model.json, one .npy per parameter, history.json)."};
  TrainSettings s;
  std::string task_name, out_dir, grads_dir, pos_name = "learned";
  bool bias = true, no_bias = false;
  std::string tasks_help = "The task:";
  for (const TaskInfo& info : all_tasks()) tasks_help += std::string(" ") + info.name;
  app.add_option("--task", task_name, tasks_help)->required();
  app.add_option("--layers", s.layers, "Layers L (1 or 2)")->required();
  app.add_option("--heads", s.heads, "Heads per layer h")->required();
  app.add_option("--d-model", s.d_model, "Model width D")->required();
  app.add_option("--d-k", s.d_k, "Per-head width of Q, K, V (default D / h)");
  app.add_option("--seq-len", s.seq_len, "Sequence length T")->required();
  app.add_option("--vocab", s.vocab, "Vocabulary size V (at least 2)")->required();
  app.add_flag("--mlp", s.mlp, "Add a ReLU MLP block (hidden 4D) after each attention block");
  auto* bias_flag = app.add_flag("--bias", bias, "Biases on the projections (the default)");
  app.add_flag("--no-bias", no_bias, "No biases on the Q, K, V and output projections")
      ->excludes(bias_flag);
  app.add_option("--steps", s.steps, "Training steps N (0: only write the initial model)")
      ->required();
  app.add_option("--batch-size", s.batch_size, "Sequences per step")->required();
  app.add_option("--lr", s.lr, "AdamW learning rate")->required();
  app.add_option("--weight-decay", s.weight_decay, "AdamW weight decay (default 0)");
  app.add_option("--clip", s.clip_norm, "Clip the global gradient norm to this (default off)");
  app.add_option("--seed", s.seed, "Seed of the initial weights and of the batches")->required();
  app.add_option("--out", out_dir, "Folder to write the model to")->required();
  app.add_option("--log-every", s.log_every, "Log loss, accuracy and head scores every N steps");
  app.add_option("--pos", pos_name,
                 "Position encoding: " + position_encoding_choices() +
                     " (default learned: a trained (T, D) table)");
  app.add_option("--eval-seq-len", s.eval_seq_lens,
                 "After training, also evaluate on fresh sequences of these lengths (e.g. 2T 4T); "
                 "the accuracy at T and at each goes into history.json")
      ->expected(1, 8);
  app.add_option("--grads", grads_dir,
                 "With --steps 0: write the first batch, its loss and every gradient into DIR2");
  if (const int stop = parse_arguments(app, argc, argv, "attnlab-cli train"); stop >= 0)
    return stop;
  try {
    s.task = task_from_name(task_name);
    s.bias = !no_bias;
    const std::optional<PositionEncoding> pos = parse_position_encoding(pos_name);
    if (!pos) {
      throw UserError("--pos " + pos_name + ": unknown position encoding; use one of " +
                      position_encoding_choices());
    }
    s.pos = *pos;
    if (!grads_dir.empty() && s.steps != 0)
      throw UserError("--grads is for the untrained model: give --steps 0 with it");
    Trainer trainer(s);
    make_folder(out_dir);  // refused before any training, not after it
    if (!grads_dir.empty()) make_folder(grads_dir);
    if (!grads_dir.empty()) {
      Parameters<float> grads = zero_parameters<float>(trainer.shape());
      const Batch first = trainer.batch(0);
      const LossReport report = trainer.gradients(first, grads);
      save_gradients(grads_dir, first, report, grads);
      std::cerr << "attnlab-cli train: loss " << report.loss << "; wrote the batch and "
                << grads.values.size() << " gradients to " << grads_dir << "\n";
    }
    const auto start = std::chrono::steady_clock::now();
    for (int64_t i = 0; i < s.steps; ++i) {
      const LossReport report = trainer.step();
      if (!std::isfinite(report.loss)) {
        throw UserError("training diverged at step " + std::to_string(i) +
                        " (the loss is not a number); lower --lr or add --clip 1");
      }
      if (!trainer.history().empty() && trainer.history().back().step == i)
        print_log_line(trainer.history().back());
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!s.eval_seq_lens.empty()) print_length_evals(trainer.evaluate_lengths());
    save_model(out_dir, trainer);
    std::cerr << "attnlab-cli train: " << s.steps << " steps in " << seconds << " s; wrote "
              << trainer.parameters().values.size()
              << " parameters, model.json and history.json to " << out_dir << "\n";
  } catch (const UserError& e) {
    std::cerr << "attnlab-cli train: " << e.what() << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "attnlab-cli train: out of memory: lower --batch-size, --seq-len or --d-model\n";
    return 2;
  }
  return 0;
}

}  // namespace attnlab::cli
