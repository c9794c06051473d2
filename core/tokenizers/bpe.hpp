// A BPE model: pieces and merges by rank, as GPT-2's vocab.json + merges.txt and a tokenizer.json's
// "BPE" model give them. Private to core/tokenizers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace attnlab {

class BpeModel {
 public:
  struct Options {
    bool byte_fallback = false;  // a character not in the vocabulary as its <0xNN> bytes
    bool ignore_merges = false;  // a word in the vocabulary is one piece, whatever the merges
    std::optional<int64_t> unk;  // else a character not in the vocabulary is left out
    bool fuse_unk = false;
  };

  // `where` names the file in error messages. Throws UserError for a merge of unknown pieces.
  BpeModel(std::unordered_map<std::string, int64_t> vocab,
           const std::vector<std::pair<std::string, std::string>>& merges, Options options,
           const std::string& where);

  // The ids of one word (already mapped to the vocabulary's characters, e.g. byte-level).
  void encode_word(const std::string& word, std::vector<int64_t>& ids) const;

  const std::unordered_map<std::string, int64_t>& vocab() const { return vocab_; }

 private:
  struct Merge {
    int32_t rank;
    int64_t id;
  };
  std::unordered_map<std::string, int64_t> vocab_;
  std::unordered_map<uint64_t, Merge> merges_;  // (left id, right id) -> rank and merged id
  Options options_;
};

}  // namespace attnlab
