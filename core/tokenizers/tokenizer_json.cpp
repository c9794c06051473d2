// tokenizer.json, the Hugging Face tokenizers format, for a BPE model: byte-level (GPT-2, Llama 3,
// Qwen2, SmolLM) or with byte fallback and "▁" for spaces (Llama 2, TinyLlama, Mistral). Read:
// normalizer Sequence / Prepend / Replace (a string) / Lowercase / NFC (taken as given: the text
// is expected composed already); pre_tokenizer Sequence / ByteLevel / Split (GPT-2's, Llama 3's
// and Qwen2's regexes) / Digits / Metaspace; the BPE model with merges as "a b" or ["a", "b"];
// added_tokens; post_processor TemplateProcessing / BertProcessing / RobertaProcessing /
// ByteLevel / Sequence. Anything else is refused by name.
#include "core/model/errors.hpp"
#include "core/tokenizers/bpe_tokenizer.hpp"
#include "core/tokenizers/tokenizer_files.hpp"

namespace attnlab::tokenizer_files {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

class Reader {
 public:
  explicit Reader(std::string where) : where_(std::move(where)) {}

  [[noreturn]] void fail(const std::string& what) const { throw UserError(where_ + ": " + what); }
  void unsupported(const std::string& what) const {
    fail(what + " is not supported by Attention Lab's tokenizers (it reads the BPE tokenizers " +
         "of GPT-2, the Llama family and Qwen2); use a model whose tokenizer is one of those");
  }
  const json& field(const json& object, const char* key, const std::string& path) const {
    if (!object.is_object() || !object.contains(key)) {
      fail(path + "." + key + " is missing: the file is damaged or of another format; " +
           "download it again");
    }
    return object[key];
  }
  std::string text(const json& object, const char* key, const std::string& path) const {
    const json& value = field(object, key, path);
    if (!value.is_string()) fail(path + "." + key + " is not a string: download the file again");
    return value.get<std::string>();
  }
  bool flag(const json& object, const char* key, bool fallback) const {
    const auto it = object.find(key);
    return it != object.end() && it->is_boolean() ? it->get<bool>() : fallback;
  }
  std::string type(const json& object, const std::string& path) const {
    return text(object, "type", path);
  }

  void normalizer(const json& n, const std::string& path, BpePipeline& pipeline) const {
    if (n.is_null()) return;
    const std::string kind = type(n, path);
    if (kind == "Sequence") {
      const json& list = field(n, "normalizers", path);
      for (std::size_t i = 0; i < list.size(); ++i) {
        normalizer(list[i], path + ".normalizers[" + std::to_string(i) + "]", pipeline);
      }
    } else if (kind == "Prepend") {
      pipeline.normalizers.emplace_back(BpePipeline::Prepend{text(n, "prepend", path)});
    } else if (kind == "Replace") {
      const json& pattern = field(n, "pattern", path);
      if (!pattern.contains("String")) unsupported(path + ": a Replace by regex");
      pipeline.normalizers.emplace_back(BpePipeline::Replace{
          text(pattern, "String", path + ".pattern"), text(n, "content", path)});
    } else if (kind == "Lowercase") {
      pipeline.normalizers.emplace_back(BpePipeline::Lowercase{});
    } else if (kind != "NFC") {
      unsupported(path + ": the normalizer \"" + kind + "\"");
    }
  }

  void pre_tokenizer(const json& p, const std::string& path, BpePipeline& pipeline) const {
    if (p.is_null()) return;
    const std::string kind = type(p, path);
    if (kind == "Sequence") {
      const json& list = field(p, "pretokenizers", path);
      for (std::size_t i = 0; i < list.size(); ++i) {
        pre_tokenizer(list[i], path + ".pretokenizers[" + std::to_string(i) + "]", pipeline);
      }
    } else if (kind == "ByteLevel") {
      pipeline.pre_tokenizers.emplace_back(
          BpePipeline::ByteLevel{flag(p, "add_prefix_space", false), flag(p, "use_regex", true)});
      pipeline.byte_level_pieces = true;
    } else if (kind == "Split") {
      const json& pattern = field(p, "pattern", path);
      const std::string regex =
          pattern.contains("Regex") ? text(pattern, "Regex", path + ".pattern") : std::string();
      const auto known = pre_tokenizers::known_pattern(regex);
      if (!known) unsupported(path + ": the Split pattern \"" + regex + "\"");
      if (text(p, "behavior", path) != "Isolated" || flag(p, "invert", false)) {
        unsupported(path + ": a Split other than \"Isolated\"");
      }
      pipeline.pre_tokenizers.emplace_back(BpePipeline::Split{*known});
    } else if (kind == "Digits") {
      pipeline.pre_tokenizers.emplace_back(
          BpePipeline::Digits{flag(p, "individual_digits", false)});
    } else if (kind == "Metaspace") {
      BpePipeline::Metaspace meta;
      meta.replacement = text(p, "replacement", path);
      const auto scheme = p.find("prepend_scheme");
      if (scheme != p.end() && scheme->is_string()) {
        const std::string s = scheme->get<std::string>();
        meta.prepend_always = s == "always";
        meta.prepend_first = s == "always" || s == "first";
      } else {
        meta.prepend_always = meta.prepend_first = flag(p, "add_prefix_space", true);
      }
      meta.split = flag(p, "split", true);
      pipeline.pre_tokenizers.emplace_back(meta);
    } else {
      unsupported(path + ": the pre-tokenizer \"" + kind + "\"");
    }
  }

  int64_t token_id(const json& entry, const std::string& path) const {
    if (entry.is_array() && entry.size() == 2 && entry[1].is_number_integer()) {
      return entry[1].get<int64_t>();  // BertProcessing's ["[CLS]", 101]
    }
    fail(path + " is not a [token, id] pair: download the file again");
  }

  void post_processor(const json& p, const std::string& path, BpePipeline& pipeline) const {
    if (p.is_null()) return;
    const std::string kind = type(p, path);
    if (kind == "Sequence") {
      const json& list = field(p, "processors", path);
      for (std::size_t i = 0; i < list.size(); ++i) {
        post_processor(list[i], path + ".processors[" + std::to_string(i) + "]", pipeline);
      }
    } else if (kind == "TemplateProcessing") {
      const json& single = field(p, "single", path);
      const json& specials = field(p, "special_tokens", path);
      bool before = true;
      for (const json& item : single) {
        if (item.contains("Sequence")) {
          before = false;
          continue;
        }
        const std::string name = text(field(item, "SpecialToken", path + ".single"), "id",
                                      path + ".single.SpecialToken");
        const json& ids = field(field(specials, name.c_str(), path + ".special_tokens"), "ids",
                                path + ".special_tokens." + name);
        for (const json& id : ids) (before ? pipeline.before : pipeline.after).push_back(id);
      }
    } else if (kind == "BertProcessing" || kind == "RobertaProcessing") {
      pipeline.before.push_back(token_id(field(p, "cls", path), path + ".cls"));
      pipeline.after.push_back(token_id(field(p, "sep", path), path + ".sep"));
    } else if (kind != "ByteLevel") {
      unsupported(path + ": the post-processor \"" + kind + "\"");
    }
  }

 private:
  std::string where_;
};

}  // namespace

std::unique_ptr<HfTokenizer> open_tokenizer_json(const fs::path& folder) {
  const fs::path path = folder / "tokenizer.json";
  const Reader reader(path.string());
  const json root = read_json(path);
  const json& model = reader.field(root, "model", "the file");
  const std::string model_type = model.value("type", std::string("BPE"));
  if (model_type != "BPE") reader.unsupported("model.type \"" + model_type + "\"");
  for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
    if (model.contains(key) && model[key].is_string() && !model[key].get<std::string>().empty()) {
      reader.unsupported(std::string("model.") + key);
    }
  }

  const json& vocab_json = reader.field(model, "vocab", "model");
  if (!vocab_json.is_object()) reader.fail("model.vocab is not an object: download it again");
  std::unordered_map<std::string, int64_t> vocab;
  vocab.reserve(vocab_json.size());
  for (const auto& [piece, id] : vocab_json.items()) {
    if (!id.is_number_integer() || id.get<int64_t>() < 0) {
      reader.fail("model.vocab: the id of \"" + piece + "\" is not a whole number >= 0; " +
                  "download the file again");
    }
    vocab.emplace(piece, id.get<int64_t>());
  }
  std::vector<std::pair<std::string, std::string>> merges;
  const json& merges_json = reader.field(model, "merges", "model");
  merges.reserve(merges_json.size());
  for (std::size_t i = 0; i < merges_json.size(); ++i) {
    const json& m = merges_json[i];
    if (m.is_string()) {  // "a b"
      const std::string s = m.get<std::string>();
      const std::size_t space = s.find(' ', 1);
      if (space != std::string::npos && space + 1 < s.size()) {
        merges.emplace_back(s.substr(0, space), s.substr(space + 1));
        continue;
      }
    } else if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {
      merges.emplace_back(m[0].get<std::string>(), m[1].get<std::string>());
      continue;
    }
    reader.fail("model.merges[" + std::to_string(i) + "] is neither \"a b\" nor [\"a\", \"b\"]; " +
                "download the file again");
  }

  BpePipeline pipeline;
  if (root.contains("added_tokens")) {
    for (const json& token : root["added_tokens"]) {
      const std::string content = reader.text(token, "content", "added_tokens[]");
      const json& id = reader.field(token, "id", "added_tokens[]");
      if (!id.is_number_integer() || id.get<int64_t>() < 0) {
        reader.fail("added_tokens: the id of \"" + content + "\" is not a whole number >= 0");
      }
      pipeline.added_tokens.push_back({content, id.get<int64_t>()});
    }
  }
  reader.normalizer(root.value("normalizer", json()), "normalizer", pipeline);
  reader.pre_tokenizer(root.value("pre_tokenizer", json()), "pre_tokenizer", pipeline);
  reader.post_processor(root.value("post_processor", json()), "post_processor", pipeline);

  const auto id_of = [&](const std::optional<std::string>& token) -> std::optional<int64_t> {
    if (!token) return std::nullopt;
    for (const auto& added : pipeline.added_tokens) {
      if (added.content == *token) return added.id;
    }
    const auto it = vocab.find(*token);
    return it == vocab.end() ? std::nullopt : std::optional<int64_t>(it->second);
  };
  BpeModel::Options options;
  options.byte_fallback = reader.flag(model, "byte_fallback", false);
  options.ignore_merges = reader.flag(model, "ignore_merges", false);
  options.fuse_unk = reader.flag(model, "fuse_unk", false);
  if (model.contains("unk_token") && model["unk_token"].is_string()) {
    options.unk = id_of(model["unk_token"].get<std::string>());
  }
  const json config = read_config(folder);
  SpecialTokenIds special;
  special.bos = id_of(config_token(config, "bos_token"));
  special.eos = id_of(config_token(config, "eos_token"));
  special.unk = options.unk ? options.unk : id_of(config_token(config, "unk_token"));
  special.pad = id_of(config_token(config, "pad_token"));
  special.cls = id_of(config_token(config, "cls_token"));
  special.sep = id_of(config_token(config, "sep_token"));
  special.mask = id_of(config_token(config, "mask_token"));
  pipeline.description = std::string(pipeline.byte_level_pieces ? "byte-level BPE" : "BPE") +
                         (options.byte_fallback ? " with byte fallback" : "") +
                         " from tokenizer.json";
  return std::make_unique<BpeTokenizer>(BpeModel(std::move(vocab), merges, options, path.string()),
                                        std::move(pipeline), special);
}

}  // namespace attnlab::tokenizer_files
