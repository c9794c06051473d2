// A trained model on disk: a folder of C-order float32 .npy files (one per parameter, named as in
// parameter_layout), model.json (every setting) and history.json. Every file is written atomically.
#pragma once

#include <string>

#include "core/training/trainer.hpp"

namespace attnlab::training {

// Creates `dir` (and its parents) if needed; throws UserError naming it when it cannot.
void make_folder(const std::string& dir);

std::string settings_json(const TrainSettings& settings, const ModelShape& shape);
// {"history": [...]} and, after evaluate_lengths(), "length_eval": one entry per length.
std::string history_json(const std::vector<HistoryEntry>& history,
                         const std::vector<LengthEval>& length_evals = {});

// Creates `dir` if needed; writes model.json, <name>.npy for every parameter, history.json.
void save_model(const std::string& dir, const Trainer& trainer);

// For checking the backward pass against an autograd: batch_tokens.npy int64 (B, T),
// batch_targets{j}.npy int64 (B, T) (-1 = no target), loss.json, grad_<name>.npy.
void save_gradients(const std::string& dir, const Batch& batch, const LossReport& report,
                    const Parameters<float>& grads);

// A saved model read back: its settings and weights (a Trainer built from `settings` and given
// `parameters` continues from it).
struct SavedModel {
  TrainSettings settings;
  ModelShape shape;
  Parameters<float> parameters;
};

// Reads what save_model wrote. Throws UserError (one line naming the folder or file, what is wrong
// and how to fix it) for a folder that is not a model: no or unreadable model.json, a setting
// missing or invalid, a parameter file missing, unreadable or of the wrong shape.
SavedModel load_model(const std::string& dir);

}  // namespace attnlab::training
