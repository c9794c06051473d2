// What the tokenizer kinds share: reading a folder's files with errors a person can act on, and
// each kind's constructor. Private to core/tokenizers.
#pragma once

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/tokenizers/hf_tokenizer.hpp"

namespace attnlab::tokenizer_files {

// The whole file; UserError when it is missing or unreadable.
std::string read(const std::filesystem::path& path);
// The file parsed as JSON (an object); UserError when it is missing or not a JSON object.
nlohmann::json read_json(const std::filesystem::path& path);
// tokenizer_config.json's object if the folder has one, else an empty object.
nlohmann::json read_config(const std::filesystem::path& folder);
// A token named in tokenizer_config.json: "bos_token": "<s>" or {"content": "<s>", ...}.
std::optional<std::string> config_token(const nlohmann::json& config, const char* key);

std::unique_ptr<HfTokenizer> open_gpt2(const std::filesystem::path& folder);
std::unique_ptr<HfTokenizer> open_tokenizer_json(const std::filesystem::path& folder);
std::unique_ptr<HfTokenizer> open_wordpiece(const std::filesystem::path& folder);

}  // namespace attnlab::tokenizer_files
