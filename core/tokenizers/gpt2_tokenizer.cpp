// GPT-2's tokenizer from vocab.json (piece -> id) and merges.txt ("#version" line, then one merge
// "a b" a line, by rank): byte-level BPE after GPT-2's regex, <|endoftext|> as an added token.
#include "core/model/errors.hpp"
#include "core/tokenizers/bpe_tokenizer.hpp"
#include "core/tokenizers/tokenizer_files.hpp"

namespace attnlab::tokenizer_files {

namespace fs = std::filesystem;

std::unique_ptr<HfTokenizer> open_gpt2(const fs::path& folder) {
  const fs::path vocab_path = folder / "vocab.json";
  const nlohmann::json vocab_json = read_json(vocab_path);
  std::unordered_map<std::string, int64_t> vocab;
  vocab.reserve(vocab_json.size());
  for (const auto& [piece, id] : vocab_json.items()) {
    if (!id.is_number_integer() || id.get<int64_t>() < 0) {
      throw UserError(vocab_path.string() + ": the id of \"" + piece +
                      "\" is not a whole number >= 0: the file is damaged; download it again");
    }
    vocab.emplace(piece, id.get<int64_t>());
  }

  const fs::path merges_path = folder / "merges.txt";
  const std::string text = read(merges_path);
  std::vector<std::pair<std::string, std::string>> merges;
  std::size_t line_number = 0;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || (line_number == 1 && line.rfind("#version", 0) == 0)) continue;
    const std::size_t space = line.find(' ');
    if (space == std::string::npos || space == 0 || space + 1 == line.size() ||
        line.find(' ', space + 1) != std::string::npos) {
      throw UserError(merges_path.string() + ": line " + std::to_string(line_number) +
                      " is not two pieces split by one space: the file is damaged; download it " +
                      "again");
    }
    merges.emplace_back(line.substr(0, space), line.substr(space + 1));
  }

  BpePipeline pipeline;
  pipeline.pre_tokenizers.emplace_back(BpePipeline::ByteLevel{false, true});
  pipeline.byte_level_pieces = true;
  pipeline.description = "GPT-2 byte-level BPE from vocab.json + merges.txt";
  SpecialTokenIds special;
  const nlohmann::json config = read_config(folder);
  const auto id_of = [&](const char* key, const char* fallback) -> std::optional<int64_t> {
    const std::string token = config_token(config, key).value_or(fallback);
    const auto it = vocab.find(token);
    return it == vocab.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
  special.bos = id_of("bos_token", "<|endoftext|>");
  special.eos = id_of("eos_token", "<|endoftext|>");
  special.unk = id_of("unk_token", "<|endoftext|>");
  special.pad = id_of("pad_token", "");
  if (const auto it = vocab.find("<|endoftext|>"); it != vocab.end()) {
    pipeline.added_tokens.push_back({it->first, it->second});
  }
  return std::make_unique<BpeTokenizer>(
      BpeModel(std::move(vocab), merges, {}, merges_path.string()), std::move(pipeline), special);
}

}  // namespace attnlab::tokenizer_files
