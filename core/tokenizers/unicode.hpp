// UTF-8 and the Unicode character classes the tokenizers split text by (tables generated from
// node's Unicode data: unicode_tables.cpp), and how a piece is shown to a person.
#pragma once

#include <array>
#include <string>
#include <string_view>

namespace attnlab::unicode {

// UTF-8 to code points; a byte that starts no valid sequence becomes U+FFFD.
std::u32string decode_utf8(std::string_view text);
std::string encode_utf8(std::u32string_view text);
void append_utf8(std::string& out, char32_t cp);
// The text as valid UTF-8: each byte that starts no valid sequence becomes U+FFFD ("caf\xe9" gives
// "caf\uFFFD"). Text from a file passes through this before any writer (PDF, SVG, the page) or the
// screen sees it. Unchanged (and not copied twice) when already valid.
std::string valid_utf8(std::string_view text);

bool is_letter(char32_t cp);           // \p{L}
bool is_number(char32_t cp);           // \p{N}
bool is_white_space(char32_t cp);      // the White_Space property: a regex's \s
bool is_punctuation(char32_t cp);      // \p{P}
bool is_other(char32_t cp);            // \p{Cc} \p{Cf} \p{Co} \p{Cs}
bool is_space_separator(char32_t cp);  // \p{Zs}

// Full lower case (may be longer: U+0130 gives "i" + U+0307).
void append_lower(std::u32string& out, char32_t cp);
// Canonical decomposition (NFD) with the non-spacing marks dropped: "é" gives "e".
void append_without_marks(std::u32string& out, char32_t cp);

// GPT-2's bytes_to_unicode(): every byte as a printable character (the space is "Ġ", U+0120).
const std::array<char32_t, 256>& byte_to_char();
// The inverse; -1 for a character that stands for no byte.
int char_to_byte(char32_t cp);

// Text as a person can see it in a piece: a space as "·", a new line as "↵", a tab as "⇥",
// another control character or a byte that is not (complete) UTF-8 as "<0xNN>".
std::string visible(std::string_view bytes);

}  // namespace attnlab::unicode
