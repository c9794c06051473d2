// Unicode character classes and mappings for the tokenizers, generated into unicode_tables.cpp by
// tests/tokenizers/gen_unicode_tables.mjs. Private to core/tokenizers: use unicode.hpp.
#pragma once

#include <cstddef>

namespace attnlab::unicode_tables {

struct CodeRange {
  char32_t first;
  char32_t last;
};
// `from` maps to up to three code points (unused ones are 0; all 0 means: dropped).
struct CodeMapping {
  char32_t from;
  char32_t to[3];
};

extern const CodeRange kLetters[];  // \p{L}
extern const std::size_t kLettersSize;
extern const CodeRange kNumbers[];  // \p{N}
extern const std::size_t kNumbersSize;
extern const CodeRange kPunctuation[];  // \p{P}
extern const std::size_t kPunctuationSize;
extern const CodeRange kOther[];  // \p{Cc} \p{Cf} \p{Co} \p{Cs}
extern const std::size_t kOtherSize;
extern const CodeRange kSpaceSeparators[];  // \p{Zs}
extern const std::size_t kSpaceSeparatorsSize;
extern const CodeMapping kLowerCase[];  // full lower case, where it differs
extern const std::size_t kLowerCaseSize;
extern const CodeMapping kWithoutMarks[];  // NFD without \p{Mn}, where it differs (no Hangul)
extern const std::size_t kWithoutMarksSize;

}  // namespace attnlab::unicode_tables
