#include "app/common/config_flags.hpp"

#include <CLI/CLI.hpp>
#include <charconv>

#include "core/model/errors.hpp"
#include "core/teaching/mistakes.hpp"

namespace attnlab {

namespace {

int64_t parse_count(const std::string& text, const std::string& what) {
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < 0) {
    throw UserError("--mask: " + what + " \"" + text + "\" is not a whole number >= 0");
  }
  return value;
}

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (true) {
    const size_t at = text.find(sep, start);
    parts.push_back(text.substr(start, at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

// One --mask value into `mask` ("none" clears it).
void add_mask(const std::string& text, MaskSpec& mask) {
  const std::vector<std::string> parts = split(text, ':');
  const std::string& kind = parts[0];
  if (kind == "none" && parts.size() == 1) {
    mask = MaskSpec{};
  } else if (kind == "causal" && parts.size() == 1) {
    mask.causal = true;
  } else if (kind == "padding" && parts.size() == 2) {
    mask.padding_lengths.clear();
    for (const std::string& length : split(parts[1], ','))
      mask.padding_lengths.push_back(parse_count(length, "padding length"));
  } else if (kind == "window" && (parts.size() == 2 || parts.size() == 3)) {
    mask.window = parse_count(parts[1], "window width");
    if (mask.window < 1)
      throw UserError("--mask window:" + parts[1] + ": the window must be at least 1");
    mask.global_tokens = parts.size() == 3 ? parse_count(parts[2], "global token count") : 0;
  } else {
    throw UserError("--mask \"" + text +
                    "\" is not a mask: use none, causal, padding:L1,L2,... or window:W[:G]");
  }
}

// --mla D_C[:D_ROPE] into the config's latent and rotary widths.
void apply_mla(const std::string& text, Config& c) {
  const std::vector<std::string> parts = split(text, ':');
  auto width = [&](const std::string& part, const char* what) {
    int64_t value = 0;
    const char* end = part.data() + part.size();
    auto [ptr, ec] = std::from_chars(part.data(), end, value);
    if (ec != std::errc() || ptr != end || value < 0) {
      throw UserError("--mla " + text + ": " + what + " \"" + part +
                      "\" is not a whole number; use D_C or D_C:D_ROPE, e.g. --mla 16:4");
    }
    return value;
  };
  if (parts.size() > 2) throw UserError("--mla " + text + ": use D_C or D_C:D_ROPE, e.g. 16:4");
  c.kv_latent = width(parts[0], "d_c");
  c.rope_dim = parts.size() == 2 ? width(parts[1], "d_rope") : 0;
  if (c.kv_latent < 1) throw UserError("--mla " + text + ": d_c must be at least 1");
}

template <typename T>
void override_with(const std::optional<T>& flag, T& field) {
  if (flag) field = *flag;
}

}  // namespace

void add_config_flags(CLI::App& app, ConfigFlags& f) {
  app.add_option("--sentence", f.sentence, "Input text; tokens are words and punctuation");
  app.add_option("--seq-len", f.seq_len, "T: number of tokens (the sentence is cut or repeated)");
  app.add_option("--batch", f.batch, "B: number of sequences");
  app.add_option("--d-in", f.d_in, "Embedding width (default: d_model)");
  app.add_option("--d-model", f.d_model, "Model width; the output width with W_o");
  app.add_option("--heads", f.heads, "n_heads");
  app.add_option("--d-k", f.d_k, "Per-head query/key width (default: d_model / n_heads)");
  app.add_option("--d-v", f.d_v, "Per-head value width (default: d_k)");
  app.add_option("--mask", f.masks,
                 "none | causal | padding:L1,L2,... | window:W[:G]; repeat to combine");
  app.add_flag("--bias", f.bias, "Biases on the projections (random unless given)");
  app.add_flag("--no-bias", f.no_bias, "No biases on the projections");
  app.add_flag("--no-output-proj", f.no_output_proj, "No W_o: the output is the concat (seed 003)");
  app.add_option("--dropout", f.dropout, "Dropout probability on the attention weights");
  app.add_option("--seed", f.seed, "Seed of the weight initialisation");
  app.add_option("--dropout-seed", f.dropout_seed, "Seed of the dropout mask");
  app.add_flag("--shape-only", f.shape_only, "Shapes, strides and counters only (no values)");
  app.add_option("--memory-cap-mb", f.memory_cap_mb, "Refuse to compute traces larger than this");
  app.add_option("--mistake", f.mistake, "Inject a classic bug (attnlab-cli --list-mistakes)");
  app.add_option("--ablate", f.ablate, "Switch head H off (its context zeroed); repeat for more");
  app.add_option("--kv-heads", f.kv_heads,
                 "K/V heads: 1 = multi-query, a divisor of n_heads = grouped-query (default: "
                 "n_heads)");
  app.add_option("--decode", f.decode,
                 "Decode the last N tokens one at a time with a KV cache (turns on causal)");
  app.add_option("--mla", f.mla,
                 "Multi-head latent attention: K and V from a d_c-wide latent, plus a d_rope-wide "
                 "shared rotary key (D_C or D_C:D_ROPE)");
  app.add_option("--q-latent", f.q_latent, "MLA: queries through their own d_c'-wide latent");
  app.add_option("--sentence-kv", f.sentence_kv,
                 "Cross-attention: keys and values from this sentence (T_k tokens)");
  app.add_option("--d-in-kv", f.d_in_kv,
                 "Cross-attention: the key/value side's embedding width (default: d_in)");
}

void apply_config_flags(const ConfigFlags& f, Config& c, Inputs& preset_inputs) {
  if (f.sentence) {
    c.sentence = *f.sentence;
    if (!f.seq_len) c.seq_len = 0;  // T follows the new sentence
    preset_inputs.x = Tensor();     // the preset's X belonged to its own tokens
  }
  override_with(f.seq_len, c.seq_len);
  override_with(f.batch, c.batch);
  override_with(f.d_in, c.d_in);
  override_with(f.d_model, c.d_model);
  override_with(f.heads, c.n_heads);
  override_with(f.d_k, c.d_k);
  override_with(f.d_v, c.d_v);
  if (f.sentence_kv) {
    // A preset's (or the last session's) causal or window mask compares positions within one
    // sequence, which cross-attention's keys are not: dropped; a --mask given is still checked.
    c.mask.causal = false;
    c.mask.window = c.mask.global_tokens = 0;
  }
  for (const std::string& mask : f.masks) add_mask(mask, c.mask);
  if (f.bias) c.bias = true;
  if (f.no_bias) c.bias = false;
  if (f.no_output_proj) c.output_proj = false;
  override_with(f.dropout, c.dropout);
  override_with(f.seed, c.seed);
  override_with(f.dropout_seed, c.dropout_seed);
  if (f.shape_only) c.shape_only = true;
  if (f.memory_cap_mb) {
    if (!(*f.memory_cap_mb > 0 && *f.memory_cap_mb < 1e9))
      throw UserError("--memory-cap-mb must be a positive number of MiB");
    c.memory_cap_bytes = static_cast<int64_t>(*f.memory_cap_mb * 1024 * 1024);
  }
  if (f.seed) {
    // A new seed means new weights: drop the preset's explicit ones.
    Inputs& in = preset_inputs;
    in.w_q = in.w_k = in.w_v = in.w_o = Tensor();
    in.b_q = in.b_k = in.b_v = in.b_o = Tensor();
  }
  if (!f.mistake.empty() && !parse_mistake(f.mistake, c.mistake)) {
    throw UserError("--mistake " + f.mistake + ": unknown; choose one of " + mistake_names());
  }
  override_with(f.kv_heads, c.n_kv_heads);
  if (f.mla) apply_mla(*f.mla, c);
  override_with(f.q_latent, c.q_latent);
  if (f.sentence_kv) {
    c.sentence_kv = *f.sentence_kv;
    c.kv_len = 0;  // T_k follows the key/value sentence
    preset_inputs.x_kv = Tensor();
  }
  override_with(f.d_in_kv, c.d_in_kv);
  if (f.decode) {
    c.decode_steps = *f.decode;
    if (c.decode_steps > 0) c.mask.causal = true;
  }
  for (int64_t head : f.ablate) {
    if (head < 0 || head >= c.n_heads) {
      throw UserError("--ablate " + std::to_string(head) + ": heads are numbered 0.." +
                      std::to_string(c.n_heads - 1));
    }
    c.ablated_heads.resize(size_t(c.n_heads), false);
    c.ablated_heads[size_t(head)] = true;
  }
}

}  // namespace attnlab
