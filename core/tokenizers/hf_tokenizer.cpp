#include "core/tokenizers/hf_tokenizer.hpp"

#include "core/limits/bounded_read.hpp"
#include "core/model/errors.hpp"
#include "core/tokenizers/tokenizer_files.hpp"

namespace attnlab {

namespace fs = std::filesystem;

namespace tokenizer_files {

std::string read(const fs::path& path) {
  std::error_code error;
  if (!fs::is_regular_file(path, error)) {
    throw UserError(path.string() + ": not found: the model folder needs it; download it with " +
                    "the model's other files");
  }
  return read_bounded(path.string(), limits::kTokenizerFile);
}

nlohmann::json read_json(const fs::path& path) {
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(read(path));
  } catch (const nlohmann::json::parse_error& e) {
    throw UserError(path.string() + ": not valid JSON (" + e.what() +
                    "): the file is damaged or cut short; download it again");
  }
  if (!json.is_object()) {
    throw UserError(path.string() + ": holds no JSON object: the file is not what the model's " +
                    "folder should have; download it again");
  }
  return json;
}

nlohmann::json read_config(const fs::path& folder) {
  const fs::path path = folder / "tokenizer_config.json";
  std::error_code error;
  return fs::exists(path, error) ? read_json(path) : nlohmann::json::object();
}

std::optional<std::string> config_token(const nlohmann::json& config, const char* key) {
  const auto it = config.find(key);
  if (it == config.end()) return std::nullopt;
  if (it->is_string()) return it->get<std::string>();
  if (it->is_object() && it->contains("content") && (*it)["content"].is_string()) {
    return (*it)["content"].get<std::string>();
  }
  return std::nullopt;
}

}  // namespace tokenizer_files

std::unique_ptr<HfTokenizer> HfTokenizer::open(const std::string& folder,
                                               const std::string& model_type) {
  const fs::path dir(folder);
  std::error_code error;
  if (!fs::is_directory(dir, error)) {
    throw UserError(folder + ": not a folder: give the Hugging Face model's folder (the one " +
                    "with config.json and the tokenizer's files)");
  }
  const auto has = [&](const char* name) { return fs::exists(dir / name, error); };
  if (model_type == "bert") return tokenizer_files::open_wordpiece(dir);
  if (model_type == "gpt2" && has("vocab.json") && has("merges.txt")) {
    return tokenizer_files::open_gpt2(dir);
  }
  if (!has("tokenizer.json")) {
    std::string hint = "download tokenizer.json with the model's other files";
    if (has("tokenizer.model")) {
      hint = "this folder has only tokenizer.model (SentencePiece), which is not read; " + hint;
    } else if (model_type == "gpt2") {
      hint = "download tokenizer.json, or vocab.json and merges.txt, with the model's other files";
    }
    throw UserError((dir / "tokenizer.json").string() + ": not found: a " + model_type +
                    " model's tokenizer is read from it; " + hint);
  }
  return tokenizer_files::open_tokenizer_json(dir);
}

}  // namespace attnlab
