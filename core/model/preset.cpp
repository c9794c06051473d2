#include "core/model/preset.hpp"

#include <algorithm>
#include <filesystem>

#include "core/limits/bounded_read.hpp"
#include "core/model/asset_paths.hpp"
#include "core/model/config_json.hpp"
#include "core/model/errors.hpp"
#include "core/teaching/crafted_heads.hpp"

namespace attnlab {

namespace fs = std::filesystem;
using nlohmann::json;

std::string presets_dir() {
  return assets_dir() + "/presets";
}

namespace {

// X given as (T, d_in) becomes (1, T, d_in).
Tensor as_batched(Tensor x) {
  if (x.dim() == 2) return x.view({1, x.size(0), x.size(1)});
  return x;
}

void read_inputs(const json& inputs, const std::string& source, Preset& preset) {
  if (!inputs.is_object()) throw UserError(source + ": key \"inputs\" must be an object");
  Inputs& in = preset.inputs;
  for (const auto& item : inputs.items()) {
    // Named, not a structured binding: lambdas cannot capture those in clang 14 (the page's).
    const std::string& key = item.key();
    const json& value = item.value();
    const auto* known = std::find_if(std::begin(kInputTensors), std::end(kInputTensors),
                                     [&](const InputTensor& t) { return key == t.name; });
    if (known == std::end(kInputTensors)) {
      preset.warnings.push_back(source + ": unknown input \"" + key + "\" ignored");
      continue;
    }
    in.*known->member = tensor_from_json(value, key, source);
  }
  if (in.x.storage()) in.x = as_batched(in.x);
  if (in.x_kv.storage()) in.x_kv = as_batched(in.x_kv);
}

}  // namespace

Preset parse_preset(const std::string& text, const std::string& source) {
  const json root = parse_json_text(text, source);
  if (!root.is_object()) throw UserError(source + ": must be a JSON object ({...})");
  Preset preset;
  preset.name = fs::path(source).stem().string();
  preset.config =
      config_from_json(root, source, {"title", "description", "inputs"}, preset.warnings);
  if (root.contains("title")) {
    if (!root["title"].is_string()) throw UserError(source + ": key \"title\" must be a string");
    preset.title = root["title"].get<std::string>();
  }
  if (root.contains("description")) {
    if (!root["description"].is_string())
      throw UserError(source + ": key \"description\" must be a string");
    preset.description = root["description"].get<std::string>();
  }
  if (preset.title.empty()) preset.title = preset.name;
  if (root.contains("inputs")) read_inputs(root["inputs"], source, preset);
  if (preset.inputs.x.storage()) {
    if (preset.inputs.x.dim() != 3)
      throw UserError(source + ": \"x\" must be (T, d_in) or (B, T, d_in), not " +
                      shape_to_string(preset.inputs.x.shape()));
    // The file's X fixes B, T and d_in.
    preset.config.batch = preset.inputs.x.size(0);
    preset.config.seq_len = preset.inputs.x.size(1);
    preset.config.d_in = preset.inputs.x.size(2);
  }
  if (preset.inputs.x_kv.storage()) {
    if (preset.inputs.x_kv.dim() != 3)
      throw UserError(source + ": \"x_kv\" must be (T_k, d_in_kv) or (B, T_k, d_in_kv), not " +
                      shape_to_string(preset.inputs.x_kv.shape()));
    // And X_kv the key/value side's: cross-attention over its T_k rows.
    preset.config.batch = preset.inputs.x_kv.size(0);
    preset.config.kv_len = preset.inputs.x_kv.size(1);
    preset.config.d_in_kv = preset.inputs.x_kv.size(2);
  }
  const std::vector<ConfigIssue> issues = validate(preset.config);
  if (!issues.empty()) throw UserError(source + ": " + describe(issues));
  return preset;
}

Preset load_preset_file(const std::string& path) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) throw UserError(path + ": no such preset file");
  return parse_preset(read_bounded(path, limits::kPresetFile), path);
}

std::vector<Preset> load_all_presets(std::vector<std::string>* errors) {
  std::vector<Preset> presets;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(presets_dir(), ec)) {
    if (entry.path().extension() != ".json") continue;
    try {
      presets.push_back(load_preset_file(entry.path().string()));
    } catch (const UserError& e) {
      if (errors) errors->push_back(e.what());
    }
  }
  if (ec && errors)
    errors->push_back(presets_dir() + ": cannot list presets (" + ec.message() + ")");
  presets.push_back(crafted_heads_preset());  // built in code: its weights are constructed
  std::sort(presets.begin(), presets.end(),
            [](const Preset& a, const Preset& b) { return a.name < b.name; });
  return presets;
}

Preset find_preset(const std::string& name) {
  if (name == "crafted") return crafted_heads_preset();
  const std::string path = presets_dir() + "/" + name + ".json";
  std::error_code ec;
  if (name.find('/') == std::string::npos && fs::is_regular_file(path, ec))
    return load_preset_file(path);
  std::string known;
  for (const Preset& p : load_all_presets()) known += (known.empty() ? "" : ", ") + p.name;
  throw UserError("no preset named \"" + name + "\": choose one of " + known);
}

}  // namespace attnlab
