#include "core/exercise/exercise.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "core/exercise/starter_code.hpp"
#include "core/files/person_files.hpp"
#include "core/limits/bounded_read.hpp"
#include "core/model/config_json.hpp"
#include "core/model/errors.hpp"
#include "core/model/json_fields.hpp"
#include "core/model/masks.hpp"
#include "core/tensor/npy.hpp"
#include "core/trace/mha.hpp"

namespace attnlab {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kFormat = 1;  // exercise.json's "format"
constexpr const char* kExerciseJson = "exercise.json";

// What an exercise cannot state in plain NumPy terms, each with the setting to change.
void require_plain(const Config& c) {
  const std::vector<std::pair<bool, const char*>> refused{
      {c.cross(), "cross-attention{{(cross)}}"},
      {c.latent(), "latent attention{{(mla)}}"},
      {c.rotary(), "RoPE{{(pos rope)}}"},
      {c.alibi(), "ALiBi{{(pos alibi)}}"},
      {c.decode_steps > 0, "KV-cache decoding{{(decode_steps)}}"},
      {c.dropout > 0, "dropout{{(dropout)}}"},
      {c.mistake != Mistake::None, "a simulated mistake{{(mistake)}}"},
      {!c.ablated_heads.empty(), "switched-off heads{{(ablated_heads)}}"},
      {c.fused_qkv, "a fused W_qkv{{(fused_qkv)}}"},
      {c.shape_only, "shape-only mode (too large to compute: choose a smaller preset or sizes)"},
  };
  for (const auto& [refuse, what] : refused)
    if (refuse)
      throw UserError(std::string("an exercise is plain multi-head attention (grouped K/V heads "
                                  "and masks allowed): turn off ") +
                      what);
}

json shape_json(const Shape& shape) {
  return json(std::vector<int64_t>(shape.begin(), shape.end()));
}

// exercise.json's "points": each key a stage of `answer`, each value a finite number >= 0.
std::map<std::string, double> read_points(const json& doc, const Trace& answer,
                                          const std::string& source) {
  std::map<std::string, double> points;
  const json* object = object_field(doc, "points", source);
  if (!object) return points;
  const std::vector<std::string> stages = stage_names(answer);
  for (const auto& [stage, value] : object->items()) {
    if (std::find(stages.begin(), stages.end(), stage) == stages.end()) {
      std::string names;
      for (const std::string& n : stages) names += (names.empty() ? "" : ", ") + n;
      throw UserError(source + ": \"points\" names \"" + stage +
                      "\", not a stage of this exercise; the stages are " + names);
    }
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() < 0) {
      std::string given = value.dump(-1, ' ', false, json::error_handler_t::replace);
      if (given.size() > 60) given = given.substr(0, 57) + "...";
      throw UserError(source + ": \"points\" of \"" + stage + "\" must be a number of points, 0 " +
                      "or more (e.g. \"" + stage + "\": 2), not " + given);
    }
    points[stage] = value.get<double>();
  }
  return points;
}

}  // namespace

double stage_points(const Exercise& exercise, const std::string& stage) {
  if (exercise.points.empty()) return 1.0;
  const auto found = exercise.points.find(stage);
  return found == exercise.points.end() ? 0.0 : found->second;
}

std::vector<std::string> input_names(const Config& c) {
  std::vector<std::string> names{"x", "w_q", "w_k", "w_v"};
  if (c.output_proj) names.push_back("w_o");
  if (c.bias) {
    for (const char* b : {"b_q", "b_k", "b_v"}) names.push_back(b);
    if (c.output_proj) names.push_back("b_o");
  }
  return names;
}

std::vector<std::string> stage_names(const Trace& answer) {
  std::vector<std::string> names;
  for (const TensorRecord& r : answer.records)
    if (r.stage != Stage::Input) names.push_back(r.name);
  return names;
}

Exercise make_exercise(const Config& config, const Inputs& given) {
  require_plain(config);
  const Trace first = run(config, given);
  const Inputs complete = trace_inputs(first, given);
  Exercise e;
  e.config = config;
  const Tensor& x = complete.x;  // (B, T, d_in), positions already added
  e.config.batch = x.size(0);
  e.config.seq_len = x.size(1);
  e.config.d_in = x.size(2);
  for (const InputTensor& t : kInputTensors)
    for (const std::string& name : input_names(e.config))
      if (name == t.name) e.inputs.*t.member = (complete.*t.member).contiguous(name);
  e.answer = run(e.config, e.inputs);
  return e;
}

std::vector<PersonFile> exercise_files(const Exercise& e) {
  const Config& c = e.config;
  std::vector<PersonFile> files;
  json inputs = json::object();
  for (const InputTensor& t : kInputTensors) {
    for (const std::string& name : input_names(c)) {
      if (name != t.name) continue;
      files.push_back({name + ".npy", npy_bytes(e.inputs.*t.member), {}});
      inputs[name] = shape_json((e.inputs.*t.member).shape());
    }
  }
  const int64_t B = c.batch, T = c.tokens();
  const std::vector<uint8_t> visible = visibility(c.mask, B, T);
  json rows = json::array();
  for (int64_t b = 0; b < B; ++b) {
    json sequence = json::array();
    for (int64_t i = 0; i < T; ++i) {
      json row = json::array();
      for (int64_t j = 0; j < T; ++j) row.push_back(int(visible[(b * T + i) * T + j]));
      sequence.push_back(row);
    }
    rows.push_back(sequence);
  }
  json stages = json::array();
  for (const std::string& name : stage_names(e.answer)) {
    const TensorRecord* r = e.answer.find(name);
    stages.push_back({{"name", name},
                      {"shape", shape_json(r->tensor.shape())},
                      {"axes", r->axes_text()},
                      {"pytorch", r->pytorch}});
  }
  const json doc = {
      {"format", kFormat},
      {"what", "Attention Lab exercise: code multi-head attention; README.md says how"},
      {"config", config_to_json(c)},
      {"sizes",
       {{"B", B},
        {"T", T},
        {"d_in", c.input_dim()},
        {"d_model", c.d_model},
        {"n_heads", c.n_heads},
        {"n_kv_heads", c.kv_heads()},
        {"d_k", c.head_dim_k()},
        {"d_v", c.head_dim_v()},
        {"d_out", c.out_dim()},
        {"output_projection", c.output_proj},
        {"bias", c.bias}}},
      {"mask",
       {{"description", describe(c.mask)},
        {"visible", rows},
        {"meaning", "visible[b][i][j] = 1: query i of sequence b may attend to key j"}}},
      {"inputs", inputs},
      {"stages", stages},
  };
  files.push_back({kExerciseJson, doc.dump(1) + "\n", {}});
  files.push_back({"README.md", exercise_readme(e), {}});
  files.push_back({"mha.py", numpy_starter(), {}});
  files.push_back({"mha_torch.py", torch_starter(), {}});
  return files;
}

PersonWrite write_exercise(const Exercise& e, const std::string& dir,
                           WhenDifferent when_different) {
  const std::vector<PersonFile> files = exercise_files(e);  // all made before anything is written
  const auto json_file = std::find_if(files.begin(), files.end(),
                                      [](const PersonFile& f) { return f.name == kExerciseJson; });
  // Another exercise's folder: its inputs and answer kept beside this one's would not agree.
  const fs::path existing = fs::path(dir) / kExerciseJson;
  std::error_code error;
  if (when_different == WhenDifferent::Keep && fs::exists(existing, error) &&
      !file_holds(existing.string(), json_file->bytes))
    throw UserError(dir +
                    " holds another exercise (its exercise.json differs from this one's): "
                    "nothing was written; choose another folder, or replace its files with "
                    "attnlab-cli exercise " +
                    dir + " --force (the old ones are moved aside, e.g. mha.py to mha.py.~1~)");
  return write_person_files(dir, files, when_different);
}

Exercise load_exercise(const std::string& dir) {
  if (!fs::is_directory(dir))
    throw UserError(dir + ": no such exercise folder; make one with attnlab-cli exercise " + dir +
                    " --preset seed002");
  const fs::path json_path = fs::path(dir) / "exercise.json";
  if (!fs::exists(json_path))
    throw UserError(dir +
                    ": no exercise.json in the folder; make an exercise with attnlab-cli "
                    "exercise " +
                    dir + " --preset seed002");
  const json doc =
      parse_json_text(read_bounded(json_path.string(), limits::kExerciseJson), json_path.string());
  const std::string source = json_path.string();
  const auto remake = [&](const std::string& why) {
    return UserError(source + ": " + why + "; make the exercise again (attnlab-cli exercise " +
                     dir + " --force)");
  };
  if (!doc.is_object()) throw remake("not a JSON object");
  std::optional<int64_t> format;
  const json* config_object = nullptr;
  try {
    format = int_field(doc, "format", source);
    config_object = object_field(doc, "config", source);
  } catch (const UserError& wrong_type) {  // names the file, the key and the type it must have
    throw UserError(std::string(wrong_type.what()) + "; make the exercise again (attnlab-cli " +
                    "exercise " + dir + " --force)");
  }
  if (format != kFormat) throw remake("not an exercise.json of this version");
  if (!config_object) throw remake("no \"config\" in it");
  std::vector<std::string> warnings;
  Config config = config_from_json(*config_object, source, {}, warnings);
  require_plain(config);
  Exercise e;
  e.config = config;
  for (const InputTensor& t : kInputTensors)
    for (const std::string& name : input_names(config))
      if (name == t.name) e.inputs.*t.member = load_npy(dir + "/" + name + ".npy", name);
  e.answer = run(e.config, e.inputs);
  e.points = read_points(doc, e.answer, source);
  return e;
}

}  // namespace attnlab
