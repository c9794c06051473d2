#include "core/tokenizers/bpe_tokenizer.hpp"

#include <algorithm>

#include "core/tokenizers/unicode.hpp"

namespace attnlab {
namespace {

using Words = std::vector<std::string>;

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

Words split_each(const Words& words, pre_tokenizers::Pieces (*split)(std::u32string_view, int),
                 int arg) {
  Words out;
  for (const std::string& word : words) {
    for (const std::u32string& piece : split(unicode::decode_utf8(word), arg)) {
      out.push_back(unicode::encode_utf8(piece));
    }
  }
  return out;
}

pre_tokenizers::Pieces gpt2(std::u32string_view text, int) {
  return pre_tokenizers::split_gpt2(text);
}
pre_tokenizers::Pieces digits(std::u32string_view text, int individual) {
  return pre_tokenizers::split_digits(text, individual != 0);
}

std::string to_byte_chars(const std::string& word) {
  std::string out;
  for (unsigned char b : word) unicode::append_utf8(out, unicode::byte_to_char()[b]);
  return out;
}

// A vocabulary's piece as a person sees it (hf_tokenizer.hpp: TokenizedText::pieces).
std::string visible_piece(const std::string& raw, bool byte_level) {
  if (byte_level) {
    std::string bytes;
    for (char32_t cp : unicode::decode_utf8(raw)) {
      const int b = unicode::char_to_byte(cp);
      if (b < 0) return unicode::visible(raw);  // not byte-level text: an added token
      bytes.push_back(static_cast<char>(b));
    }
    return unicode::visible(bytes);
  }
  std::string text = raw;
  replace_all(text, "\u2581", " ");
  return unicode::visible(text);
}

}  // namespace

BpeTokenizer::BpeTokenizer(BpeModel model, BpePipeline pipeline, SpecialTokenIds special)
    : model_(std::move(model)), pipeline_(std::move(pipeline)) {
  special_ = special;
  int64_t size = 0;
  for (const auto& [text, id] : model_.vocab()) size = std::max(size, id + 1);
  for (const auto& token : pipeline_.added_tokens) size = std::max(size, token.id + 1);
  pieces_.resize(static_cast<std::size_t>(size));
  for (const auto& [text, id] : model_.vocab()) {
    pieces_[static_cast<std::size_t>(id)] = visible_piece(text, pipeline_.byte_level_pieces);
  }
  for (const auto& token : pipeline_.added_tokens) {
    pieces_[static_cast<std::size_t>(token.id)] = unicode::visible(token.content);
  }
  // The longest added token first where two start at one place.
  std::stable_sort(
      pipeline_.added_tokens.begin(), pipeline_.added_tokens.end(),
      [](const auto& a, const auto& b) { return a.content.size() > b.content.size(); });
}

std::string BpeTokenizer::piece(int64_t id) const {
  return id >= 0 && id < vocab_size() ? pieces_[static_cast<std::size_t>(id)] : std::string();
}

void BpeTokenizer::encode_segment(const std::string& text, bool first,
                                  std::vector<int64_t>& ids) const {
  std::string normalized = text;
  for (const auto& normalizer : pipeline_.normalizers) {
    if (const auto* prepend = std::get_if<BpePipeline::Prepend>(&normalizer)) {
      if (!normalized.empty()) normalized = prepend->text + normalized;
    } else if (const auto* replace = std::get_if<BpePipeline::Replace>(&normalizer)) {
      replace_all(normalized, replace->from, replace->to);
    } else {
      std::u32string lower;
      for (char32_t cp : unicode::decode_utf8(normalized)) unicode::append_lower(lower, cp);
      normalized = unicode::encode_utf8(lower);
    }
  }
  if (normalized.empty()) return;
  Words words{normalized};
  for (const auto& pre : pipeline_.pre_tokenizers) {
    if (const auto* byte_level = std::get_if<BpePipeline::ByteLevel>(&pre)) {
      if (byte_level->add_prefix_space && !words.empty() && words.front().front() != ' ') {
        words.front() = " " + words.front();
      }
      if (byte_level->use_regex) words = split_each(words, gpt2, 0);
      for (std::string& word : words) word = to_byte_chars(word);
    } else if (const auto* split = std::get_if<BpePipeline::Split>(&pre)) {
      words = split->pattern.gpt2
                  ? split_each(words, gpt2, 0)
                  : split_each(words, pre_tokenizers::split_llama3, split->pattern.max_digits);
    } else if (const auto* digit = std::get_if<BpePipeline::Digits>(&pre)) {
      words = split_each(words, digits, digit->individual ? 1 : 0);
    } else if (const auto* meta = std::get_if<BpePipeline::Metaspace>(&pre)) {
      Words out;
      for (std::string word : words) {
        replace_all(word, " ", meta->replacement);
        const bool prepend = meta->prepend_always || (meta->prepend_first && first);
        if (prepend && word.rfind(meta->replacement, 0) != 0) word = meta->replacement + word;
        first = false;
        if (!meta->split) {
          out.push_back(word);
          continue;
        }
        std::size_t start = 0;
        for (std::size_t at = word.find(meta->replacement, 1); at != std::string::npos;
             at = word.find(meta->replacement, at + 1)) {
          out.push_back(word.substr(start, at - start));
          start = at;
        }
        out.push_back(word.substr(start));
      }
      words = std::move(out);
    }
  }
  for (const std::string& word : words) model_.encode_word(word, ids);
}

TokenizedText BpeTokenizer::encode(const std::string& text, bool add_special) const {
  TokenizedText out;
  if (add_special) out.ids = pipeline_.before;
  // Added tokens are cut out of the text first (the leftmost, then the longest); the rest is
  // encoded segment by segment.
  std::size_t start = 0;
  bool first = true;
  while (start <= text.size()) {
    std::size_t best = std::string::npos;
    const BpePipeline::AddedToken* token = nullptr;
    for (const auto& added : pipeline_.added_tokens) {
      const std::size_t at =
          added.content.empty() ? std::string::npos : text.find(added.content, start);
      if (at < best) best = at, token = &added;
    }
    encode_segment(text.substr(start, best == std::string::npos ? std::string::npos : best - start),
                   first, out.ids);
    first = false;
    if (token == nullptr) break;
    out.ids.push_back(token->id);
    start = best + token->content.size();
  }
  if (add_special) out.ids.insert(out.ids.end(), pipeline_.after.begin(), pipeline_.after.end());
  out.pieces.reserve(out.ids.size());
  for (int64_t id : out.ids) out.pieces.push_back(piece(id));
  return out;
}

}  // namespace attnlab
