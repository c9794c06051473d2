#include "core/training/model_io.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <system_error>

#include "core/limits/bounded_read.hpp"
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
      {"pos", position_encoding_name(s.pos)},
      {"eval_seq_len", s.eval_seq_lens},
      {"init", std::string(s.pos == PositionEncoding::Learned ? "tok_emb, pos_emb" : "tok_emb") +
                   " ~ N(0, 1); weights and biases ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in))"},
      {"parameters", parameters},
  };
  return j.dump(2) + "\n";
}

std::string history_json(const std::vector<HistoryEntry>& history,
                         const std::vector<LengthEval>& length_evals) {
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
  json doc{{"history", entries}};
  if (!length_evals.empty()) {
    json lengths = json::array();
    for (const LengthEval& e : length_evals) {
      json entry = e.available ? report_json(e.report) : json{{"not_available", e.not_available}};
      entry["seq_len"] = e.seq_len;
      entry["available"] = e.available;
      lengths.push_back(entry);
    }
    doc["length_eval"] = lengths;
  }
  return doc.dump(1) + "\n";
}

void save_model(const std::string& dir, const Trainer& trainer) {
  make_folder(dir);
  const Parameters<float>& p = trainer.parameters();
  for (size_t i = 0; i < p.values.size(); ++i) {
    const std::string& name = p.layout.names[i];
    save_npy(dir + "/" + name + ".npy", to_tensor(name, p.layout.shapes[i], p.values[i]));
  }
  write_file_atomically(dir + "/history.json",
                        history_json(trainer.history(), trainer.length_evals()));
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

SavedModel load_model(const std::string& dir) {
  const std::string path = dir + "/model.json";
  std::error_code missing;
  if (!std::filesystem::exists(path, missing)) {
    throw UserError("'" + dir + "' is not a trained model: it has no readable model.json; " +
                    "give a folder written by attnlab-cli train --out");
  }
  const std::string text = read_bounded(path, limits::kModelJson);
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    throw UserError(path + " is not valid JSON (" + e.what() + "); train the model again");
  }
  if (!j.is_object() || j.value("format", "") != "attnlab-trained-model") {
    throw UserError(path + " is not an attnlab model.json (no \"format\": " +
                    "\"attnlab-trained-model\"); give a folder written by attnlab-cli train --out");
  }
  SavedModel m;
  TrainSettings& s = m.settings;
  try {
    s.task = task_from_name(j.at("task").get<std::string>());
    s.layers = j.at("layers").get<int64_t>();
    s.heads = j.at("heads").get<int64_t>();
    s.d_model = j.at("d_model").get<int64_t>();
    s.d_k = j.at("d_k").get<int64_t>();
    s.seq_len = j.at("seq_len").get<int64_t>();
    s.vocab = j.at("vocab").get<int64_t>();
    s.mlp = j.at("mlp").get<bool>();
    s.bias = j.at("bias").get<bool>();
    s.steps = j.at("steps").get<int64_t>();
    s.batch_size = j.at("batch_size").get<int64_t>();
    s.lr = j.at("lr").get<double>();
    s.weight_decay = j.at("weight_decay").get<double>();
    s.clip_norm = j.value("clip_norm", 0.0);
    s.seed = j.at("seed").get<uint64_t>();
    s.log_every = j.value("log_every", int64_t{50});
    s.eval_seq_lens = j.value("eval_seq_len", std::vector<int64_t>{});
    // Folders written before issue 23 have no "pos": their table is pos_emb.npy.
    const std::string pos = j.value("pos", std::string("learned"));
    const std::optional<PositionEncoding> encoding = parse_position_encoding(pos);
    if (!encoding) {
      throw UserError("\"pos\": \"" + pos + "\" is not a position encoding; use one of " +
                      position_encoding_choices());
    }
    s.pos = *encoding;
  } catch (const json::exception& e) {
    throw UserError(path + ": a setting is missing or has the wrong type (" + e.what() +
                    "); train the model again");
  } catch (const UserError& e) {
    throw UserError(path + ": " + e.what());
  }
  try {
    check_settings(s);
  } catch (const UserError& e) {
    throw UserError(path + ": " + e.what());
  }
  m.shape = model_shape(s);
  m.parameters = zero_parameters<float>(m.shape);
  for (size_t i = 0; i < m.parameters.values.size(); ++i) {
    const std::string& name = m.parameters.layout.names[i];
    const Shape& want = m.parameters.layout.shapes[i];
    const std::string file_path = dir + "/" + name + ".npy";
    if (!std::filesystem::exists(file_path)) {
      throw UserError("'" + dir + "' is not a complete model: " + name + ".npy is missing (" +
                      "model.json's settings need it); train the model again");
    }
    const Tensor t = load_npy(file_path, name);
    if (t.shape() != want) {
      throw UserError(file_path + " has shape " + shape_to_string(t.shape()) +
                      " but model.json's " + "settings need " + shape_to_string(want) +
                      "; the folder mixes two models");
    }
    std::copy(t.data(), t.data() + t.numel(), m.parameters.values[i].data());
  }
  return m;
}

}  // namespace attnlab::training
