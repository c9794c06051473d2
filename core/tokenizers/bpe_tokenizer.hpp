// A BPE tokenizer as a tokenizer.json describes one: normalizers, pre-tokenizers, the BPE model,
// added tokens and the special tokens put around a text. gpt2_tokenizer.cpp and
// tokenizer_json.cpp fill it in. Private to core/tokenizers.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "core/tokenizers/bpe.hpp"
#include "core/tokenizers/hf_tokenizer.hpp"
#include "core/tokenizers/pre_tokenizers.hpp"

namespace attnlab {

struct BpePipeline {
  struct Prepend {
    std::string text;
  };
  struct Replace {
    std::string from, to;
  };
  struct Lowercase {};
  using Normalizer = std::variant<Prepend, Replace, Lowercase>;

  struct ByteLevel {  // bytes as GPT-2's printable characters, after GPT-2's regex if use_regex
    bool add_prefix_space = false;
    bool use_regex = true;
  };
  struct Split {  // Isolated pieces of one of the regexes pre_tokenizers.hpp knows
    pre_tokenizers::KnownPattern pattern;
  };
  struct Digits {
    bool individual = false;
  };
  struct Metaspace {  // spaces as "▁", one prepended (always, or only at the text's start)
    std::string replacement = "\u2581";
    bool prepend_always = true;
    bool prepend_first = true;
    bool split = true;
  };
  using PreTokenizer = std::variant<ByteLevel, Split, Digits, Metaspace>;

  struct AddedToken {
    std::string content;
    int64_t id = 0;
  };

  std::vector<Normalizer> normalizers;
  std::vector<PreTokenizer> pre_tokenizers;
  std::vector<AddedToken> added_tokens;
  std::vector<int64_t> before, after;  // the special tokens put around a text
  bool byte_level_pieces = false;      // pieces are GPT-2's byte characters, else "▁" for space
  std::string description;
};

class BpeTokenizer : public HfTokenizer {
 public:
  BpeTokenizer(BpeModel model, BpePipeline pipeline, SpecialTokenIds special);

  TokenizedText encode(const std::string& text, bool add_special = true) const override;
  std::string piece(int64_t id) const override;
  int64_t vocab_size() const override { return static_cast<int64_t>(pieces_.size()); }
  std::string description() const override { return pipeline_.description; }

 private:
  void encode_segment(const std::string& text, bool first, std::vector<int64_t>& ids) const;

  BpeModel model_;
  BpePipeline pipeline_;
  std::vector<std::string> pieces_;  // by id, made visible
};

}  // namespace attnlab
