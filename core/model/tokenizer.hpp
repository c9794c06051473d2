// Splits a sentence into word and punctuation tokens, the way the lecture examples count them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attnlab {

// The passage used when no sentence is given (sentences from the seeds), cycled to any length.
extern const char* const kSampleText;
// Sentences longer than this are truncated (and the trace says so).
constexpr int64_t kMaxTokens = 4096;

// Words (runs of letters, digits, apostrophes and any UTF-8 multibyte characters) and single
// punctuation marks; whitespace and control characters separate tokens and are dropped.
std::vector<std::string> tokenize(const std::string& text);

// Exactly `count` tokens: the sentence's (or the sample text's) cycled or truncated.
std::vector<std::string> tokens_for(const std::string& sentence, int64_t count);

// When the sentence gives no tokens, one line saying why and what is used instead, starting with
// `subject` ("--sentence is empty: using the built-in sample text (35 tokens: ...)"); else "".
std::string sample_text_notice(const std::string& subject, const std::string& sentence);

}  // namespace attnlab
