#include "core/tokenizers/pre_tokenizers.hpp"

#include "core/tokenizers/unicode.hpp"

namespace attnlab::pre_tokenizers {
namespace {

using unicode::is_letter;
using unicode::is_number;
using unicode::is_white_space;

bool is_newline(char32_t cp) {
  return cp == '\r' || cp == '\n';
}
bool is_symbol(char32_t cp) {
  return !is_white_space(cp) && !is_letter(cp) && !is_number(cp);
}

char32_t ascii_lower(char32_t cp) {
  return cp >= 'A' && cp <= 'Z' ? cp + ('a' - 'A') : cp;
}

// The length of 's|'t|'re|'ve|'m|'ll|'d at i (case-insensitive for ASCII letters or not), or 0.
std::size_t contraction(std::u32string_view t, std::size_t i, bool ignore_case) {
  if (t[i] != '\'' || i + 1 >= t.size()) return 0;
  const auto at = [&](std::size_t k) {
    return k < t.size() ? (ignore_case ? ascii_lower(t[k]) : t[k]) : char32_t{0};
  };
  const char32_t a = at(i + 1), b = at(i + 2);
  if ((a == 'r' && b == 'e') || (a == 'v' && b == 'e') || (a == 'l' && b == 'l')) return 3;
  if (a == 's' || a == 't' || a == 'm' || a == 'd') return 2;
  return 0;
}

template <class Pred>
std::size_t run_end(std::u32string_view t, std::size_t i, Pred pred) {
  while (i < t.size() && pred(t[i])) ++i;
  return i;
}

// \s+(?!\S)|\s+ at a white-space character i: the run, less its last character when a
// non-space follows it and the run is longer than one.
std::size_t trailing_space_end(std::u32string_view t, std::size_t i) {
  const std::size_t end = run_end(t, i, is_white_space);
  return end < t.size() && end - i >= 2 ? end - 1 : end;
}

Pieces cut(std::u32string_view text, std::size_t (*match)(std::u32string_view, std::size_t, int),
           int arg) {
  Pieces pieces;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t end = match(text, i, arg);
    pieces.emplace_back(text.substr(i, end - i));
    i = end;
  }
  return pieces;
}

std::size_t gpt2_match(std::u32string_view t, std::size_t i, int) {
  if (const std::size_t n = contraction(t, i, false)) return i + n;
  const std::size_t j = t[i] == ' ' ? i + 1 : i;
  if (j < t.size()) {
    if (is_letter(t[j])) return run_end(t, j, is_letter);
    if (is_number(t[j])) return run_end(t, j, is_number);
    if (is_symbol(t[j])) return run_end(t, j, is_symbol);
  }
  return trailing_space_end(t, i);  // t[i] is white space here
}

std::size_t llama3_match(std::u32string_view t, std::size_t i, int max_digits) {
  if (const std::size_t n = contraction(t, i, true)) return i + n;
  if (is_letter(t[i])) return run_end(t, i, is_letter);
  if (!is_newline(t[i]) && !is_number(t[i]) && i + 1 < t.size() && is_letter(t[i + 1])) {
    return run_end(t, i + 1, is_letter);
  }
  if (is_number(t[i])) {
    std::size_t end = i;
    while (end < t.size() && end - i < static_cast<std::size_t>(max_digits) && is_number(t[end])) {
      ++end;
    }
    return end;
  }
  const std::size_t j = t[i] == ' ' ? i + 1 : i;
  if (j < t.size() && is_symbol(t[j])) return run_end(t, run_end(t, j, is_symbol), is_newline);
  // t[i] is white space: \s*[\r\n]+ ends after the run's last new line, if it has one.
  const std::size_t end = run_end(t, i, is_white_space);
  for (std::size_t k = end; k > i; --k) {
    if (is_newline(t[k - 1])) return k;
  }
  return trailing_space_end(t, i);
}

}  // namespace

Pieces split_gpt2(std::u32string_view text) {
  return cut(text, gpt2_match, 0);
}

Pieces split_llama3(std::u32string_view text, int max_digits) {
  return cut(text, llama3_match, max_digits);
}

Pieces split_digits(std::u32string_view text, bool individual) {
  Pieces pieces;
  for (std::size_t i = 0; i < text.size();) {
    std::size_t end = i + 1;
    if (is_number(text[i])) {
      if (!individual) end = run_end(text, i, is_number);
    } else {
      end = run_end(text, i, [](char32_t cp) { return !is_number(cp); });
    }
    pieces.emplace_back(text.substr(i, end - i));
    i = end;
  }
  return pieces;
}

std::optional<KnownPattern> known_pattern(std::string_view regex) {
  static constexpr std::string_view kGpt2 =
      R"('s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+)";
  static constexpr std::string_view kLlama3 =
      R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
  static constexpr std::string_view kQwen2 =
      R"((?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+)";
  if (regex == kGpt2) return KnownPattern{true, 0};
  if (regex == kLlama3) return KnownPattern{false, 3};
  if (regex == kQwen2) return KnownPattern{false, 1};
  return std::nullopt;
}

}  // namespace attnlab::pre_tokenizers
