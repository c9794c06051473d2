#include "core/pretrained/model_session.hpp"

#include <sstream>

#include "core/model/errors.hpp"
#include "core/pretrained/pretrained_forward.hpp"

namespace attnlab {

ModelSession open_model_session(const std::string& folder) {
  ModelSession s;
  s.model = load_pretrained(folder);
  try {
    s.tokenizer = HfTokenizer::open(folder, s.model.spec.model_type);
  } catch (const UserError& e) {
    s.tokenizer_error = e.what();
  }
  return s;
}

std::string piece_of(const ModelSession& s, int64_t id) {
  const std::string piece = s.tokenizer ? s.tokenizer->piece(id) : "";
  return piece.empty() ? "#" + std::to_string(id) : piece;
}

ModelTokens tokens_of_sentence(const ModelSession& s, const std::string& sentence) {
  if (!s.tokenizer) throw UserError(s.tokenizer_error + " (or give the token ids{{(tokens)}})");
  const TokenizedText text = s.tokenizer->encode(sentence);
  ModelTokens t{text.ids, text.pieces};
  check_token_ids(s.model, t.ids);
  return t;
}

ModelTokens tokens_of_ids(const ModelSession& s, const std::vector<int64_t>& ids) {
  check_token_ids(s.model, ids);
  ModelTokens t{ids, {}};
  for (int64_t id : ids) t.pieces.push_back(piece_of(s, id));
  return t;
}

std::vector<int64_t> parse_token_ids(const std::string& text) {
  std::vector<int64_t> ids;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const size_t a = item.find_first_not_of(" \t"), b = item.find_last_not_of(" \t");
    const std::string id = a == std::string::npos ? "" : item.substr(a, b - a + 1);
    size_t used = 0;
    int64_t value = -1;
    try {
      value = std::stoll(id, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (id.empty() || used != id.size() || value < 0)
      throw UserError("{{tokens}}: \"" + id +
                      "\" is not a token id: give whole numbers separated by commas, e.g. "
                      "{{tokens 464,3797,3332}}");
    ids.push_back(value);
  }
  if (ids.empty()) throw UserError("{{tokens}} is empty: give ids separated by commas");
  return ids;
}

}  // namespace attnlab
