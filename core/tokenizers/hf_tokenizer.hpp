// Real models' tokenizers, offline, from a Hugging Face model folder:
//  - GPT-2's byte-level BPE from vocab.json + merges.txt (gpt2_tokenizer.cpp);
//  - tokenizer.json (the Hugging Face tokenizers format): BPE, byte-level as GPT-2, Llama 3,
//    Qwen2 and SmolLM ship it, or with byte fallback and "▁" for spaces as Llama 2, TinyLlama and
//    Mistral ship it, with added tokens and the post-processor's BOS (tokenizer_json.cpp);
//  - BERT's WordPiece from vocab.txt, lower-cased or not per tokenizer_config.json
//    (wordpiece_tokenizer.cpp).
// A missing or malformed file is a UserError naming the file, what is wrong and how to fix it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnlab {

struct TokenizedText {
  std::vector<int64_t> ids;
  // As the model sees them, made visible: a space as "·" (GPT-2's "Ġ" and SentencePiece's "▁"
  // too), a new line as "↵", a tab as "⇥", a byte that is not a whole character as "<0xNN>";
  // BERT's continuation pieces keep their "##".
  std::vector<std::string> pieces;
};

// The ids of the tokens a model gives a special meaning; those it has not are empty.
struct SpecialTokenIds {
  std::optional<int64_t> bos, eos, unk, pad, cls, sep, mask;
};

class HfTokenizer {
 public:
  virtual ~HfTokenizer() = default;

  // model_type as config.json gives it: "gpt2", "llama", "mistral", "qwen2", "bert" (any other
  // reads tokenizer.json). "bert" reads vocab.txt; "gpt2" reads vocab.json + merges.txt where the
  // folder has both, else tokenizer.json; the others read tokenizer.json.
  static std::unique_ptr<HfTokenizer> open(const std::string& folder,
                                           const std::string& model_type);

  // The ids and pieces of `text` (UTF-8; a byte that is not, is read as U+FFFD), with the special
  // tokens the model adds (Llama 2's <s>, BERT's [CLS] ... [SEP]) unless add_special is false.
  virtual TokenizedText encode(const std::string& text, bool add_special = true) const = 0;
  // The piece of an id, as encode() shows it; "" for an id outside the vocabulary.
  virtual std::string piece(int64_t id) const = 0;
  // One more than the largest id.
  virtual int64_t vocab_size() const = 0;
  // What was read, for a person: e.g. "byte-level BPE from tokenizer.json".
  virtual std::string description() const = 0;

  const SpecialTokenIds& special_ids() const { return special_; }

 protected:
  SpecialTokenIds special_;
};

}  // namespace attnlab
