// The whole forward pass of a pretrained model on one sequence of token ids (batch 1), keeping
// what the lessons show of every layer: the block's input, what its attention reads, each head's
// weights and the attention's output; and the logits when the model has an output head.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <vector>

#include "core/model/run_control.hpp"
#include "core/pretrained/pretrained_model.hpp"

namespace attnlab {

struct LayerRecord {
  Tensor hidden_in;   // (1, T, d): the residual stream entering the block
  Tensor attn_input;  // (1, T, d): what attention reads (the normed input; BERT: hidden_in)
  Tensor weights;     // (1, h, T, T): each head's softmax weights
  Tensor attn_out;    // (1, T, d): after the output projection, before the residual
  // The rest of the block (the lesson after attention: residual, norm, feed-forward):
  Tensor residual;    // (1, T, d): hidden_in + attn_out (BERT: LayerNorm of it)
  Tensor mlp_input;   // (1, T, d): the second norm of it (BERT: residual itself)
  Tensor mlp_hidden;  // (1, T, d_ff): act(mlp_in W_up); gated: act(mlp_in W_gate) * mlp_in W_up
  Tensor block_out;   // (1, T, d): residual + mlp_hidden W_down (BERT: LayerNorm of it)
};

struct PretrainedRun {
  std::vector<int64_t> ids;
  std::vector<LayerRecord> layers;
  Tensor logits;  // (1, T, vocab); undefined for a BERT without its MLM head
};

// A head switched off: its context is zeroed before the output projection.
struct HeadSwitch {
  int64_t layer = 0, head = 0;
  bool operator==(const HeadSwitch&) const = default;
};

// Throws UserError for no tokens, an id outside the vocabulary, or more tokens than the model's
// learned positions (GPT-2, BERT) hold.
// `logits` false skips the output head (the head finder's induction run needs only the weights).
// `control` is checked and told the progress after each layer (the app runs it as a job).
PretrainedRun run_pretrained(const PretrainedModel& model, const std::vector<int64_t>& ids,
                             const std::vector<HeadSwitch>& off = {}, bool logits = true,
                             const RunControl& control = {});

// One layer's KV cache: the rotated keys and the values of every position so far (t, n_kv*dh).
struct LayerCache {
  Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> k, v;
};

// Decoding with a KV cache, for causal models with an output head: each token fed is computed
// once, its keys and values kept; the next token's logits come from its row alone. Throws
// UserError for BERT or a model without an output head.
class Generator {
 public:
  explicit Generator(const PretrainedModel& model, std::vector<HeadSwitch> off = {});
  // Feeds tokens (the prompt, then each chosen token); returns the logits (vocab) after the last.
  // Throws UserError for an id outside the vocabulary or past the learned positions.
  std::vector<float> feed(const std::vector<int64_t>& ids);
  int64_t position() const { return int64_t(fed_.size()); }
  int64_t cache_bytes() const;  // float32, every layer's K and V

 private:
  const PretrainedModel& model_;
  std::vector<HeadSwitch> off_;
  std::vector<LayerCache> caches_;
  std::vector<int64_t> fed_;
};

// One token decoded greedily: where it goes, which, its probability, and the cache it was
// predicted from (every position before it, every layer's K and V).
struct GeneratedToken {
  int64_t position = 0, id = 0;
  double probability = 0;
  int64_t cache_bytes = 0;
};

// Up to `n` more tokens after `prompt`, the likeliest each time, with a Generator (the prompt
// once, then one token at a time); stops early at a model's last learned position. Throws as
// Generator does; `control` is checked and told the progress after each token.
std::vector<GeneratedToken> generate_greedy(const PretrainedModel& model,
                                            const std::vector<int64_t>& prompt, int64_t n,
                                            const std::vector<HeadSwitch>& off = {},
                                            const RunControl& control = {});

// Checks ids against the model (the same errors run_pretrained throws).
void check_token_ids(const PretrainedModel& model, const std::vector<int64_t>& ids);

// Row `t` of the logits as probabilities at `temperature` (> 0).
std::vector<double> next_token_probabilities(const PretrainedRun& run, int64_t t,
                                             double temperature = 1.0);

// Mean next-token cross-entropy over positions 0..T-2 (nats); NaN without logits.
double next_token_loss(const PretrainedRun& run);

}  // namespace attnlab
