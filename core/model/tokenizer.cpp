#include "core/model/tokenizer.hpp"

#include <algorithm>

#include "core/tokenizers/unicode.hpp"

namespace attnlab {

const char* const kSampleText =
    "The artist painted the portrait of a woman with a brush. "
    "Scientists discovered water on Mars using advanced telescopes. "
    "The government should regulate free speech. The cat sat on the mat.";

namespace {

bool is_word_byte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '\'' || c >= 0x80;  // >= 0x80: part of a UTF-8 multibyte character
}

bool is_separator(unsigned char c) {
  return c <= ' ' || c == 0x7f;
}  // whitespace, controls

}  // namespace

std::vector<std::string> tokenize(const std::string& text) {
  std::vector<std::string> tokens;
  std::string word;
  // Invalid UTF-8 becomes U+FFFD here, so no token (label, PDF, SVG, screen) holds a bad byte; the
  // count is the same (both are word bytes).
  for (unsigned char c : unicode::valid_utf8(text)) {
    if (is_word_byte(c)) {
      word.push_back(static_cast<char>(c));
      continue;
    }
    if (!word.empty()) tokens.push_back(std::move(word));
    word.clear();
    if (!is_separator(c)) tokens.emplace_back(1, static_cast<char>(c));
  }
  if (!word.empty()) tokens.push_back(std::move(word));
  return tokens;
}

std::vector<std::string> tokens_for(const std::string& sentence, int64_t count) {
  std::vector<std::string> source = tokenize(sentence);
  if (source.empty()) source = tokenize(kSampleText);
  std::vector<std::string> tokens;
  tokens.reserve(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i)
    tokens.push_back(source[static_cast<size_t>(i) % source.size()]);
  return tokens;
}

std::string sample_text_notice(const std::string& subject, const std::string& sentence) {
  if (!tokenize(sentence).empty()) return "";
  std::string why = "has no words or punctuation";
  if (sentence.empty()) {
    why = "is empty";
  } else if (std::all_of(sentence.begin(), sentence.end(), [](char c) { return c == ' '; })) {
    why = "has only spaces";
  }
  const std::vector<std::string> sample = tokenize(kSampleText);
  std::string opening;
  for (size_t i = 0; i < 5; ++i) opening += sample[i] + " ";
  return subject + " " + why + ": using the built-in sample text (" +
         std::to_string(sample.size()) + " tokens: \"" + opening + "\u2026\")";
}

}  // namespace attnlab
