#include "core/teaching/crafted_heads.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "core/model/tokenizer.hpp"

namespace attnlab {

namespace {

constexpr const char* kSentence = "the cat sat on the mat because the cat was tired";
constexpr int64_t kHeads = 4;
// Query and key entries of this size give matching pairs a scaled score of
// kStrength^2 / sqrt(d_k) ~ 10: a peaked softmax, as in a trained head.
constexpr Scalar kStrength = 6.0f;

std::string lower(std::string word) {
  for (char& ch : word) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return word;
}

}  // namespace

Preset crafted_heads_preset() {
  const std::vector<std::string> tokens = tokenize(kSentence);
  const auto T = static_cast<int64_t>(tokens.size());
  std::map<std::string, int64_t> word_ids;
  for (const std::string& t : tokens) word_ids.emplace(lower(t), int64_t(word_ids.size()));
  const auto V = static_cast<int64_t>(word_ids.size());
  const int64_t d_in = T + V + 1;    // [position | word | 1]
  const int64_t d = std::max(T, V);  // per-head width: room for a one-hot of either
  const int64_t width = kHeads * d;
  const int64_t constant = T + V;  // the index of the always-1 feature
  auto word_feature = [&](int64_t w) { return T + w; };

  Preset p;
  p.name = "crafted";
  p.title = "Crafted heads: previous token, first token, same word, uniform";
  p.description =
      "Hand-built weights on X = [one-hot position | one-hot word | 1]. Head 0 (previous token): "
      "W_q sends position i to direction i, W_k sends position j to direction j+1, so query i "
      "matches key i-1. Head 1 (first token): every query is the constant direction 0, only key 0 "
      "has it. Head 2 (same word): W_q = W_k send each word to its own direction. Head 3 "
      "(uniform): W_q = 0, so every score is 0. V carries the position, W_o is the identity.";
  Config& c = p.config;
  c.sentence = kSentence;
  c.seq_len = T;
  c.d_in = d_in;
  c.d_model = width;
  c.n_heads = kHeads;

  Inputs& in = p.inputs;
  in.x = Tensor::zeros("x", {1, T, d_in});
  for (int64_t t = 0; t < T; ++t) {
    in.x.at({0, t, t}) = 1.0f;
    in.x.at({0, t, word_feature(word_ids.at(lower(tokens[size_t(t)])))}) = 1.0f;
    in.x.at({0, t, constant}) = 1.0f;
  }
  in.w_q = Tensor::zeros("w_q", {d_in, width});
  in.w_k = Tensor::zeros("w_k", {d_in, width});
  in.w_v = Tensor::zeros("w_v", {d_in, width});
  in.w_o = Tensor::zeros("w_o", {width, width});
  // Head 0, previous token: q_i = e_i, k_j = e_{j+1} (and k_0 also e_0, so token 0 sees itself).
  for (int64_t i = 0; i < T; ++i) {
    in.w_q.at({i, 0 * d + i}) = kStrength;
    if (i + 1 < d) in.w_k.at({i, 0 * d + i + 1}) = kStrength;
  }
  in.w_k.at({0, 0 * d + 0}) = kStrength;
  // Head 1, first token: q = e_0 for everyone, k = e_0 for position 0 only.
  in.w_q.at({constant, 1 * d + 0}) = kStrength;
  in.w_k.at({0, 1 * d + 0}) = kStrength;
  // Head 2, same word: q = k = e_word.
  for (int64_t w = 0; w < V; ++w) {
    in.w_q.at({word_feature(w), 2 * d + w}) = kStrength;
    in.w_k.at({word_feature(w), 2 * d + w}) = kStrength;
  }
  // Head 3, uniform: W_q and W_k stay 0.
  // Every head's values carry the position one-hot; W_o is the identity (out = concat).
  for (int64_t hd = 0; hd < kHeads; ++hd)
    for (int64_t i = 0; i < T; ++i) in.w_v.at({i, hd * d + i}) = 1.0f;
  for (int64_t i = 0; i < width; ++i) in.w_o.at({i, i}) = 1.0f;
  return p;
}

}  // namespace attnlab
