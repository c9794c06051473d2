// An opened model folder as the front ends use it: the weights, the tokenizer from the folder's
// own files (when it has them), and the tokens of a sentence or of given ids with their pieces.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/pretrained/pretrained_model.hpp"
#include "core/tokenizers/hf_tokenizer.hpp"

namespace attnlab {

struct ModelSession {
  PretrainedModel model;
  std::unique_ptr<HfTokenizer> tokenizer;  // null when the folder's tokenizer cannot be read
  std::string tokenizer_error;             // why not (one line), else ""
};

struct ModelTokens {
  std::vector<int64_t> ids;
  std::vector<std::string> pieces;  // as the model sees them ("·the"); "#id" without a tokenizer
};

// Loads the weights (throws UserError as load_pretrained does) and the tokenizer (its error kept).
ModelSession open_model_session(const std::string& folder);

// The sentence's tokens; throws UserError when the folder has no usable tokenizer (its reason,
// and that --tokens gives ids directly).
ModelTokens tokens_of_sentence(const ModelSession& session, const std::string& sentence);

// Given ids (checked against the model) with their pieces.
ModelTokens tokens_of_ids(const ModelSession& session, const std::vector<int64_t>& ids);

// "15496,995, 11" -> ids; throws UserError naming the bad entry.
std::vector<int64_t> parse_token_ids(const std::string& text);

// A piece as shown in tables: the tokenizer's, or "#id".
std::string piece_of(const ModelSession& session, int64_t id);

}  // namespace attnlab
