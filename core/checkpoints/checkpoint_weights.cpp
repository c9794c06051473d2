#include "core/checkpoints/checkpoint_weights.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/limits/bounded_read.hpp"
#include "core/model/errors.hpp"

namespace attnlab {

namespace {

namespace fs = std::filesystem;

// "index.json" -> {"model.layers.0.self_attn.q_proj.weight": "model-00001-of-00002.safetensors"}
std::map<std::string, std::string> read_weight_map(const fs::path& index) {
  const nlohmann::json json = nlohmann::json::parse(
      read_bounded(index.string(), limits::kSafetensorsIndex), nullptr, false);
  if (json.is_discarded() || !json.is_object() || !json.contains("weight_map") ||
      !json["weight_map"].is_object())
    throw UserError(index.string() +
                    ": is not a safetensors index (a JSON object with a \"weight_map\")");
  std::map<std::string, std::string> map;
  for (const auto& [name, file] : json["weight_map"].items()) {
    const std::string shard = file.is_string() ? file.get<std::string>() : "";
    // A shard is a file beside the index: no folders, so an index cannot point elsewhere.
    if (shard.empty() || fs::path(shard).filename().string() != shard)
      throw UserError(index.string() + ": \"" + name + "\" maps to \"" + shard +
                      "\", not a file name beside the index");
    map[name] = shard;
  }
  return map;
}

}  // namespace

CheckpointWeights::CheckpointWeights(const std::string& folder) : folder_(folder) {
  const fs::path dir(folder);
  const fs::path single = dir / "model.safetensors", index = dir / "model.safetensors.index.json";
  if (fs::exists(index)) {
    for (const auto& [name, shard] : read_weight_map(index)) {
      auto& file = shards_[shard];
      if (!file) {
        if (!fs::exists(dir / shard))
          throw UserError(folder + ": the index names the shard " + shard +
                          ", which is not in the folder (download it too)");
        file = std::make_unique<SafetensorsFile>((dir / shard).string());
      }
      if (!file->has(name))
        throw UserError(folder + ": the index puts \"" + name + "\" in " + shard +
                        ", which does not hold it");
      shard_of_[name] = file.get();
    }
    return;
  }
  if (!fs::exists(single)) {
    const bool torch_only = fs::exists(dir / "pytorch_model.bin");
    throw UserError(folder + ": has no model.safetensors (nor model.safetensors.index.json)" +
                    std::string(torch_only ? "; it has pytorch_model.bin: save the model again "
                                             "with save_pretrained(..., safe_serialization=True)"
                                           : ": give the folder of a downloaded model"));
  }
  auto& file = shards_["model.safetensors"];
  file = std::make_unique<SafetensorsFile>(single.string());
  for (const std::string& name : file->names()) shard_of_[name] = file.get();
}

std::vector<std::string> CheckpointWeights::names() const {
  std::vector<std::string> names;
  for (const auto& [name, shard] : shard_of_) names.push_back(name);
  return names;
}

const SafetensorsEntry& CheckpointWeights::entry(const std::string& name) const {
  const auto found = shard_of_.find(name);
  if (found == shard_of_.end())
    throw UserError(folder_ + ": the checkpoint has no tensor named \"" + name + "\"");
  return found->second->entry(name);
}

void CheckpointWeights::read_all() const {
  for (const auto& [file, shard] : shards_) shard->read_all();
}

Tensor CheckpointWeights::load(const std::string& name) const {
  entry(name);  // the folder's message for an unknown name
  return shard_of_.at(name)->load(name);
}

}  // namespace attnlab
