// The command-line flags that set a Config, shared by attnlab-cli and attnlab: the same names,
// help, checks and messages in both front ends.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/model/config.hpp"
#include "core/model/inputs.hpp"

namespace CLI {
class App;
}

namespace attnlab {

// What the command line gave for the Config, before it is applied over a preset.
struct ConfigFlags {
  std::optional<std::string> sentence;
  std::optional<int64_t> seq_len, batch, d_in, d_model, heads, d_k, d_v;
  std::vector<std::string> masks;  // each --mask, in order: a key is visible if every one allows it
  bool bias = false, no_bias = false;
  bool no_output_proj = false;
  std::optional<double> dropout;
  std::optional<uint64_t> seed, dropout_seed;
  bool shape_only = false;
  std::optional<double> memory_cap_mb;
  std::string mistake;
  std::vector<int64_t> ablate;  // heads switched off
  // The next lessons' variants.
  std::optional<int64_t> kv_heads, decode, q_latent, d_in_kv;
  std::optional<std::string> mla;          // "D_C" or "D_C:D_ROPE"
  std::optional<std::string> sentence_kv;  // cross-attention's key/value sentence
};

// Adds --sentence, --seq-len, --batch, --d-in, --d-model, --heads, --d-k, --d-v, --mask, --bias,
// --no-bias, --no-output-proj, --dropout, --seed, --dropout-seed, --shape-only, --memory-cap-mb,
// --mistake, --ablate and the variants' --kv-heads, --decode, --mla, --q-latent, --sentence-kv and
// --d-in-kv to `app`, writing into `flags`.
void add_config_flags(CLI::App& app, ConfigFlags& flags);

// Sets what the flags give over `config` (a preset's, or the last session's). A new sentence drops
// the preset's X and a new seed its weights and biases, from `preset_inputs`. Throws UserError for
// a bad --mask, --memory-cap-mb, --mistake, --ablate or --mla (the message starts with the flag).
// --decode turns the causal mask on: decoding one token at a time sees only the past.
// --sentence-kv turns off the causal and window masks a preset may have (before --mask applies).
void apply_config_flags(const ConfigFlags& flags, Config& config, Inputs& preset_inputs);

}  // namespace attnlab
