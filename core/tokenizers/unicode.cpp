#include "core/tokenizers/unicode.hpp"

#include <algorithm>
#include <cstdio>

#include "core/tokenizers/unicode_tables.hpp"

namespace attnlab::unicode {
namespace {

using unicode_tables::CodeMapping;
using unicode_tables::CodeRange;

bool in_ranges(const CodeRange* ranges, std::size_t size, char32_t cp) {
  const CodeRange* end = ranges + size;
  const CodeRange* it =
      std::upper_bound(ranges, end, cp, [](char32_t c, const CodeRange& r) { return c < r.first; });
  return it != ranges && cp <= (it - 1)->last;
}

const CodeMapping* find_mapping(const CodeMapping* table, std::size_t size, char32_t cp) {
  const CodeMapping* end = table + size;
  const CodeMapping* it =
      std::lower_bound(table, end, cp, [](const CodeMapping& m, char32_t c) { return m.from < c; });
  return it != end && it->from == cp ? it : nullptr;
}

void append_mapped(std::u32string& out, const CodeMapping* mapping, char32_t cp) {
  if (mapping == nullptr) {
    out.push_back(cp);
    return;
  }
  for (char32_t to : mapping->to) {
    if (to != 0) out.push_back(to);
  }
}

}  // namespace

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

std::string encode_utf8(std::u32string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char32_t cp : text) append_utf8(out, cp);
  return out;
}

namespace {

// The length of the valid UTF-8 sequence at `i` (0 if there is none) and its code point.
std::size_t utf8_sequence(std::string_view text, std::size_t i, char32_t& cp) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  std::size_t length = 0;
  char32_t min = 0;
  if (lead < 0x80) {
    cp = lead;
    return 1;
  } else if ((lead & 0xE0) == 0xC0) {
    length = 2, cp = lead & 0x1F, min = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3, cp = lead & 0x0F, min = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4, cp = lead & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  for (std::size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return length;
}

}  // namespace

std::u32string decode_utf8(std::string_view text) {
  std::u32string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const std::size_t length = utf8_sequence(text, i, cp);
    out.push_back(length == 0 ? U'\uFFFD' : cp);
    i += length == 0 ? 1 : length;
  }
  return out;
}

std::string valid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const std::size_t length = utf8_sequence(text, i, cp);
    if (length == 0) return encode_utf8(decode_utf8(text));
    i += length;
  }
  return std::string(text);
}

bool is_letter(char32_t cp) {
  return in_ranges(unicode_tables::kLetters, unicode_tables::kLettersSize, cp);
}
bool is_number(char32_t cp) {
  return in_ranges(unicode_tables::kNumbers, unicode_tables::kNumbersSize, cp);
}
bool is_punctuation(char32_t cp) {
  return in_ranges(unicode_tables::kPunctuation, unicode_tables::kPunctuationSize, cp);
}
bool is_other(char32_t cp) {
  return in_ranges(unicode_tables::kOther, unicode_tables::kOtherSize, cp);
}
bool is_space_separator(char32_t cp) {
  return in_ranges(unicode_tables::kSpaceSeparators, unicode_tables::kSpaceSeparatorsSize, cp);
}

bool is_white_space(char32_t cp) {
  return (cp >= 0x09 && cp <= 0x0D) || cp == 0x20 || cp == 0x85 || cp == 0xA0 || cp == 0x1680 ||
         (cp >= 0x2000 && cp <= 0x200A) || cp == 0x2028 || cp == 0x2029 || cp == 0x202F ||
         cp == 0x205F || cp == 0x3000;
}

void append_lower(std::u32string& out, char32_t cp) {
  append_mapped(out, find_mapping(unicode_tables::kLowerCase, unicode_tables::kLowerCaseSize, cp),
                cp);
}

void append_without_marks(std::u32string& out, char32_t cp) {
  if (cp >= 0xAC00 && cp <= 0xD7A3) {  // Hangul syllables: leading, vowel and trailing jamo
    const char32_t index = cp - 0xAC00;
    out.push_back(0x1100 + index / (21 * 28));
    out.push_back(0x1161 + (index % (21 * 28)) / 28);
    if (index % 28 != 0) out.push_back(0x11A7 + index % 28);
    return;
  }
  append_mapped(
      out, find_mapping(unicode_tables::kWithoutMarks, unicode_tables::kWithoutMarksSize, cp), cp);
}

const std::array<char32_t, 256>& byte_to_char() {
  static const std::array<char32_t, 256> table = [] {
    std::array<char32_t, 256> t{};
    char32_t next = 256;
    for (int b = 0; b < 256; ++b) {
      const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE;
      t[b] = printable ? static_cast<char32_t>(b) : next++;
    }
    return t;
  }();
  return table;
}

int char_to_byte(char32_t cp) {
  if (cp < 256) {
    const bool printable = (cp >= '!' && cp <= '~') || (cp >= 0xA1 && cp <= 0xAC) || cp >= 0xAE;
    return printable ? static_cast<int>(cp) : -1;
  }
  if (cp >= 256 + 68) return -1;  // 68 bytes are not printable as themselves
  const auto& table = byte_to_char();
  const auto it = std::find(table.begin(), table.end(), cp);
  return it == table.end() ? -1 : static_cast<int>(it - table.begin());
}

std::string visible(std::string_view bytes) {
  std::string out;
  for (std::size_t i = 0; i < bytes.size();) {
    char32_t cp = 0;
    const std::size_t length = utf8_sequence(bytes, i, cp);
    if (length == 0 || (cp < 0x20 && cp != '\n' && cp != '\t') || cp == 0x7F) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "<0x%02X>", static_cast<unsigned char>(bytes[i]));
      out += hex;
      ++i;
      continue;
    }
    if (cp == ' ') {
      out += "\u00B7";
    } else if (cp == '\n') {
      out += "\u21B5";
    } else if (cp == '\t') {
      out += "\u21E5";
    } else {
      out.append(bytes.substr(i, length));
    }
    i += length;
  }
  return out;
}

}  // namespace attnlab::unicode
