// attnlab-cli --model DIR on a Hugging Face folder: the model opened, the sentence's tokens, the
// whole forward pass, and what the CLI prints of it beside the chosen layer's trace.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "core/pretrained/head_finder.hpp"
#include "core/pretrained/model_session.hpp"
#include "core/pretrained/pretrained_forward.hpp"

namespace attnlab::cli {

struct RealModel {
  ModelSession session;
  ModelTokens tokens;
  PretrainedRun forward;
  int64_t layer = 0;
  std::vector<HeadSwitch> off;  // heads switched off (--ablate, in `layer`)
};

// The sentence when none is given: the IOI sentence for decoders, a masked one for BERT.
std::string default_sentence(const ModelSpec& spec);

// "gpt2 · 12 layers · 12 heads (64 wide) · d_model 768 · vocab 50257" and the tokens with ids.
void print_model_header(std::ostream& out, const RealModel& model);
// The rest of the layer's block after attention (residual, norm, MLP, residual), each step's
// formula and shape, and where it goes next.
void print_block_rest(std::ostream& out, const RealModel& model);
// The k most likely next tokens after the last position (decoders), or at each [MASK] (BERT).
void print_next_tokens(std::ostream& out, const RealModel& model, int64_t k, double temperature);
// `n` more tokens, the likeliest each time, decoded with a KV cache: each with its probability,
// and the cache's size as it grows. Throws UserError for BERT.
void print_generation(std::ostream& out, const RealModel& model, int64_t n);
// The head finder's table, sorted by `column` (previous, first, same, entropy, induction).
void print_heads_report(std::ostream& out, const std::vector<FoundHead>& heads,
                        const std::string& column);

}  // namespace attnlab::cli
