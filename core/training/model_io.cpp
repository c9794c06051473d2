#include "core/training/model_io.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <system_error>

#include "core/model/errors.hpp"
#include "core/tensor/npy.hpp"

namespace attnlab::training {

namespace {

using nlohmann::json;

json report_json(const LossReport& r) {
  return {{"loss", r.loss}, {"output_loss", r.output_loss}, {"accuracy", r.accuracy}};
}

}  // namespace

void make_folder(const std::string& dir) {
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error) throw UserError("cannot create the folder '" + dir + "': " + error.message());
}

std::string settings_json(const TrainSettings& s, const ModelShape& m) {
  json parameters = json::array();
  const ParameterLayout layout = parameter_layout(m);
  for (size_t i = 0; i < layout.names.size(); ++i)
    parameters.push_back({{"name", layout.names[i]}, {"shape", layout.shapes[i]}});
  const TaskInfo& info = task_info(s.task);
  json j = {
      {"format", "attnlab-trained-model"},
      {"version", 1},
      {"task", info.name},
      {"task_pattern", info.pattern},
      {"layers", s.layers},
      {"heads", s.heads},
      {"d_model", s.d_model},
      {"d_k", m.head_dim()},
      {"d_v", m.head_dim()},
      {"seq_len", s.seq_len},
      {"vocab", s.vocab},
      {"mlp", s.mlp},
      {"mlp_hidden", m.mlp ? m.hidden() : 0},
      {"bias", s.bias},
      {"causal", m.causal},
      {"outputs", m.output_vocab},
      {"steps", s.steps},
      {"batch_size", s.batch_size},
      {"lr", s.lr},
      {"weight_decay", s.weight_decay},
      {"clip_norm", s.clip_norm},
      {"optimizer", {{"name", "AdamW"}, {"beta1", 0.9}, {"beta2", 0.999}, {"eps", 1e-8}}},
      {"seed", s.seed},
      {"log_every", s.log_every},
      {"init",
       "tok_emb, pos_emb ~ N(0, 1); weights and biases ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in))"},
      {"parameters", parameters},
  };
  return j.dump(2) + "\n";
}

std::string history_json(const std::vector<HistoryEntry>& history) {
  json entries = json::array();
  for (const HistoryEntry& e : history) {
    json heads = json::array();
    for (const HeadScores& h : e.heads) {
      heads.push_back({{"layer", h.layer},
                       {"head", h.head},
                       {"previous", h.previous},
                       {"first", h.first},
                       {"same", h.same},
                       {"mirror", h.mirror},
                       {"prefix", h.prefix},
                       {"entropy", h.entropy}});
    }
    json entry = report_json(e.report);
    entry["step"] = e.step;
    entry["heads"] = heads;
    entries.push_back(entry);
  }
  return json{{"history", entries}}.dump(1) + "\n";
}

void save_model(const std::string& dir, const Trainer& trainer) {
  make_folder(dir);
  const Parameters<float>& p = trainer.parameters();
  for (size_t i = 0; i < p.values.size(); ++i) {
    const std::string& name = p.layout.names[i];
    save_npy(dir + "/" + name + ".npy", to_tensor(name, p.layout.shapes[i], p.values[i]));
  }
  write_file_atomically(dir + "/history.json", history_json(trainer.history()));
  // Last: a folder with model.json is a complete model.
  write_file_atomically(dir + "/model.json", settings_json(trainer.settings(), trainer.shape()));
}

void save_gradients(const std::string& dir, const Batch& batch, const LossReport& report,
                    const Parameters<float>& grads) {
  make_folder(dir);
  const Shape bt{batch.batch, batch.seq_len};
  save_npy_int64(dir + "/batch_tokens.npy", batch.tokens, bt);
  for (size_t j = 0; j < batch.targets.size(); ++j)
    save_npy_int64(dir + "/batch_targets" + std::to_string(j) + ".npy", batch.targets[j], bt);
  for (size_t i = 0; i < grads.values.size(); ++i) {
    const std::string name = "grad_" + grads.layout.names[i];
    save_npy(dir + "/" + name + ".npy", to_tensor(name, grads.layout.shapes[i], grads.values[i]));
  }
  write_file_atomically(dir + "/loss.json", report_json(report).dump(2) + "\n");
}

}  // namespace attnlab::training
