// BERT's tokenizer from vocab.txt (one piece a line; the line number, from 0, is the id): the
// BasicTokenizer (clean the text, split CJK characters off, split at white space, lower-case and
// strip accents per tokenizer_config.json's "do_lower_case" and "strip_accents", split off
// punctuation), then WordPiece (the longest piece first, "##" inside a word, [UNK] for a word with
// a character no piece has or with more than 100 characters), then [CLS] ... [SEP].
#include <unordered_map>

#include "core/model/errors.hpp"
#include "core/tokenizers/tokenizer_files.hpp"
#include "core/tokenizers/unicode.hpp"

namespace attnlab::tokenizer_files {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxWordChars = 100;

bool is_cjk(char32_t cp) {
  return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) ||
         (cp >= 0x20000 && cp <= 0x2A6DF) || (cp >= 0x2A700 && cp <= 0x2B73F) ||
         (cp >= 0x2B740 && cp <= 0x2B81F) || (cp >= 0x2B820 && cp <= 0x2CEAF) ||
         (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);
}
bool is_bert_space(char32_t cp) {
  return cp == ' ' || cp == '\t' || cp == '\n' || cp == '\r' || unicode::is_space_separator(cp);
}
bool is_bert_control(char32_t cp) {
  return cp != '\t' && cp != '\n' && cp != '\r' && unicode::is_other(cp);
}
bool is_bert_punctuation(char32_t cp) {
  return (cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) ||
         (cp >= 123 && cp <= 126) || unicode::is_punctuation(cp);
}

class WordPieceTokenizer : public HfTokenizer {
 public:
  WordPieceTokenizer(std::vector<std::string> pieces, bool lower, bool strip_accents,
                     bool split_cjk, SpecialTokenIds special, std::vector<std::string> specials)
      : pieces_(std::move(pieces)),
        lower_(lower),
        strip_accents_(strip_accents),
        split_cjk_(split_cjk),
        specials_(std::move(specials)) {
    special_ = special;
    ids_.reserve(pieces_.size());
    for (std::size_t id = 0; id < pieces_.size(); ++id) {
      ids_.emplace(pieces_[id], static_cast<int64_t>(id));  // the first of duplicates wins
    }
  }

  TokenizedText encode(const std::string& text, bool add_special) const override {
    TokenizedText out;
    if (add_special && special_.cls) out.ids.push_back(*special_.cls);
    // Special tokens written in the text ("[MASK]") are cut out first, as they are.
    for (std::size_t start = 0; start <= text.size();) {
      std::size_t best = std::string::npos;
      const std::string* token = nullptr;
      for (const std::string& s : specials_) {
        const std::size_t at = text.find(s, start);
        if (at < best || (at == best && at != std::string::npos && s.size() > token->size())) {
          best = at, token = &s;
        }
      }
      encode_segment(text.substr(start, best == std::string::npos ? best : best - start), out.ids);
      if (token == nullptr) break;
      out.ids.push_back(ids_.at(*token));
      start = best + token->size();
    }
    if (add_special && special_.sep) out.ids.push_back(*special_.sep);
    for (int64_t id : out.ids) out.pieces.push_back(piece(id));
    return out;
  }

  std::string piece(int64_t id) const override {
    return id >= 0 && id < vocab_size() ? unicode::visible(pieces_[static_cast<std::size_t>(id)])
                                        : std::string();
  }
  int64_t vocab_size() const override { return static_cast<int64_t>(pieces_.size()); }
  std::string description() const override {
    return std::string("BERT WordPiece from vocab.txt") + (lower_ ? ", lower-cased" : "");
  }

 private:
  void encode_segment(const std::string& text, std::vector<int64_t>& ids) const {
    // Clean the text and put spaces around CJK characters and punctuation: then every word is a
    // run of characters that are not spaces.
    std::u32string words;
    for (char32_t cp : unicode::decode_utf8(text)) {
      if (cp == 0 || cp == 0xFFFD || is_bert_control(cp)) continue;
      if (is_bert_space(cp)) {
        words.push_back(' ');
        continue;
      }
      std::u32string folded;
      if (lower_) {
        unicode::append_lower(folded, cp);
      } else {
        folded.push_back(cp);
      }
      if (strip_accents_) {
        std::u32string stripped;
        for (char32_t c : folded) unicode::append_without_marks(stripped, c);
        folded = std::move(stripped);
      }
      for (char32_t c : folded) {
        if ((split_cjk_ && is_cjk(c)) || is_bert_punctuation(c)) {
          words += U' ';
          words += c;
          words += U' ';
        } else {
          words.push_back(c);
        }
      }
    }
    for (std::size_t i = 0; i < words.size();) {
      if (words[i] == ' ') {
        ++i;
        continue;
      }
      std::size_t end = i;
      while (end < words.size() && words[end] != ' ') ++end;
      encode_word(words.substr(i, end - i), ids);
      i = end;
    }
  }

  void encode_word(const std::u32string& word, std::vector<int64_t>& ids) const {
    const int64_t unk = special_.unk.value_or(0);
    if (word.size() > kMaxWordChars) {
      ids.push_back(unk);
      return;
    }
    std::vector<int64_t> found;
    for (std::size_t start = 0; start < word.size();) {
      std::size_t end = word.size();
      int64_t id = -1;
      for (; end > start; --end) {
        std::string candidate = start > 0 ? "##" : "";
        candidate += unicode::encode_utf8(word.substr(start, end - start));
        if (const auto it = ids_.find(candidate); it != ids_.end()) {
          id = it->second;
          break;
        }
      }
      if (id < 0) {
        ids.push_back(unk);
        return;
      }
      found.push_back(id);
      start = end;
    }
    ids.insert(ids.end(), found.begin(), found.end());
  }

  std::vector<std::string> pieces_;
  std::unordered_map<std::string, int64_t> ids_;
  bool lower_, strip_accents_, split_cjk_;
  std::vector<std::string> specials_;
};

}  // namespace

std::unique_ptr<HfTokenizer> open_wordpiece(const fs::path& folder) {
  const fs::path path = folder / "vocab.txt";
  const std::string text = read(path);
  std::vector<std::string> pieces;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    pieces.push_back(std::move(line));
    start = end + 1;
  }
  const nlohmann::json config = read_config(folder);
  const auto flag = [&](const char* key) -> std::optional<bool> {
    const auto it = config.find(key);
    if (it == config.end() || it->is_null()) return std::nullopt;
    if (!it->is_boolean()) {
      throw UserError((folder / "tokenizer_config.json").string() + ": \"" + key +
                      "\" is not true or false: correct it or delete the key");
    }
    return it->get<bool>();
  };
  const bool lower = flag("do_lower_case").value_or(true);
  const bool strip_accents = flag("strip_accents").value_or(lower);
  const bool split_cjk = flag("tokenize_chinese_chars").value_or(true);

  SpecialTokenIds special;
  std::vector<std::string> specials;
  const auto id_of = [&](const char* key, const char* fallback) -> std::optional<int64_t> {
    const std::string token = config_token(config, key).value_or(fallback);
    for (std::size_t id = 0; id < pieces.size(); ++id) {
      if (pieces[id] == token) {
        specials.push_back(token);
        return static_cast<int64_t>(id);
      }
    }
    return std::nullopt;
  };
  special.unk = id_of("unk_token", "[UNK]");
  special.cls = id_of("cls_token", "[CLS]");
  special.sep = id_of("sep_token", "[SEP]");
  special.pad = id_of("pad_token", "[PAD]");
  special.mask = id_of("mask_token", "[MASK]");
  if (!special.unk || !special.cls || !special.sep) {
    throw UserError(path.string() + ": has no [UNK], [CLS] or [SEP] line (or the tokens " +
                    "tokenizer_config.json names): it is not a BERT vocabulary; download it again");
  }
  return std::make_unique<WordPieceTokenizer>(std::move(pieces), lower, strip_accents, split_cjk,
                                              special, std::move(specials));
}

}  // namespace attnlab::tokenizer_files
