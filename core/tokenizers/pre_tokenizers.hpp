// The pre-tokenizers' splitting regexes, written out by hand over Unicode classes (unicode.hpp):
// each returns the pieces the regex's matches cut the text into, in order, covering all of it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnlab::pre_tokenizers {

using Pieces = std::vector<std::u32string>;

// GPT-2's: 's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
Pieces split_gpt2(std::u32string_view text);

// Llama 3's, and Qwen2's when max_digits is 1:
// (?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|
// \s*[\r\n]+|\s+(?!\S)|\s+
Pieces split_llama3(std::u32string_view text, int max_digits);

// Digits: every number on its own (individual) or each run of numbers as one piece.
Pieces split_digits(std::u32string_view text, bool individual);

// The regex patterns a tokenizer.json "Split" may give that split_gpt2 / split_llama3 implement:
// the maximum digits a number piece has (0 for GPT-2's pattern), or nothing for another pattern.
struct KnownPattern {
  bool gpt2 = false;
  int max_digits = 0;
};
std::optional<KnownPattern> known_pattern(std::string_view regex);

}  // namespace attnlab::pre_tokenizers
