#include "core/model/config_fields.hpp"

#include "core/model/masks.hpp"
#include "core/model/overloaded.hpp"
#include "core/teaching/mistakes.hpp"

namespace attnlab {

namespace {

// Limits that keep every size product far from int64 overflow; real models are well inside.
constexpr int64_t kMaxWidth = 1 << 20;
constexpr int64_t kMaxHeads = 4096;
constexpr int64_t kMaxSeqLen = 1 << 20;
constexpr int64_t kMaxBatch = 1 << 16;
constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kMaxRopeTheta = 1e12;  // real models use 1e4 to 1e7

// A whole-number field: its range, and what 0 means when it is allowed.
ConfigField count(const char* name, const char* label, int64_t Config::*member, const char* flag,
                  const char* help, const char* meaning, int64_t low, int64_t high,
                  const char* zero = nullptr) {
  ConfigField f{name, label, member, flag, help};
  f.meaning = meaning;
  f.low = low;
  f.high = high;
  f.zero = zero;
  return f;
}

// A real-valued field with a range of its own (validate() checks it), and what 0 means.
ConfigField real(const char* name, const char* label, double Config::*member, const char* flag,
                 const char* help, const char* meaning, double low, double high,
                 const char* zero = nullptr) {
  ConfigField f{name, label, member, flag, help};
  f.meaning = meaning;
  f.real_low = low;
  f.real_high = high;
  f.zero = zero;
  return f;
}

// An MLA or decoding field: answers the lesson's issues too.
ConfigField in_group(ConfigField f, const char* group, const char* issue = nullptr) {
  f.group = group;
  f.issue = issue;
  return f;
}

ConfigField memory_cap() {
  ConfigField f{"memory_cap_bytes", "memory cap", &Config::memory_cap_bytes, "--memory-cap-mb",
                "Refuse to compute traces larger than this (MiB)"};
  f.low = 1;  // checked by a rule of its own: validate()'s "memory_cap"
  f.flag_unit = kMiB;
  f.issue = "memory_cap";
  return f;
}

ConfigField switch_field(const char* name, const char* label, bool Config::*member,
                         const char* flag, const char* help, const char* help_off) {
  ConfigField f{name, label, member, flag, help};
  f.help_off = help_off;
  return f;
}

std::vector<ConfigField> make_table() {
  return {
      {"sentence", "sentence", &Config::sentence, "--sentence",
       "Input text; tokens are words and punctuation"},
      count("seq_len", "T", &Config::seq_len, "--seq-len",
            "T: number of tokens (the sentence is cut or repeated)", "the sequence length T", 1,
            kMaxSeqLen, "sentence length"),
      count("batch", "B", &Config::batch, "--batch", "B: number of sequences",
            "the batch size B (number of sequences)", 1, kMaxBatch),
      count("d_in", "d_in", &Config::d_in, "--d-in", "Embedding width (default: d_model)",
            "the embedding width d_in", 1, kMaxWidth, "d_model"),
      count("d_model", "d_model", &Config::d_model, "--d-model",
            "Model width; the output width with W_o", "the model width d_model", 1, kMaxWidth),
      count("n_heads", "n_heads", &Config::n_heads, "--heads", "n_heads", "the number of heads", 1,
            kMaxHeads),
      count("d_k", "d_k", &Config::d_k, "--d-k",
            "Per-head query/key width (default: d_model / n_heads)", "the per-head width d_k", 1,
            kMaxWidth, "d_model / n_heads"),
      count("d_v", "d_v", &Config::d_v, "--d-v", "Per-head value width (default: d_k)",
            "the per-head width d_v", 1, kMaxWidth, "d_k"),
      {"mask", "mask", &Config::mask, "--mask",
       "none | causal | padding:L1,L2,... | window:W[:G]; repeat to combine"},
      switch_field("bias", "biases", &Config::bias, "--bias",
                   "Biases on the projections (random unless given)",
                   "No biases on the projections"),
      switch_field("fused_qkv", "fused QKV", &Config::fused_qkv, "--fused-qkv",
                   "One projection W_qkv = [W_q | W_k | W_v] (GPT-2's c_attn): q, k, v are its "
                   "column blocks, views",
                   "Separate W_q, W_k, W_v projections (the default)"),
      switch_field("output_proj", "output projection", &Config::output_proj, "--output-proj",
                   "W_o on the concat (the default)",
                   "No W_o: the output is the concat (seed 003)"),
      {"dropout", "dropout", &Config::dropout, "--dropout",
       "Dropout probability on the attention weights"},
      {"dropout_seed", "dropout seed", &Config::dropout_seed, "--dropout-seed",
       "Seed of the dropout mask"},
      {"seed", "seed", &Config::seed, "--seed", "Seed of the weight initialisation"},
      switch_field("shape_only", "shape-only", &Config::shape_only, "--shape-only",
                   "Shapes, strides and counters only (no values)",
                   "Compute the values (of a shape-only preset)"),
      memory_cap(),
      {"mistake", "mistake", &Config::mistake, "--mistake",
       "Inject a classic bug (attnlab-cli --list-mistakes)"},
      {"ablated_heads", "heads off", &Config::ablated_heads, "--ablate",
       "Switch head H off (its context zeroed); repeat for more"},
      // [SECTION] the next lessons' variants (core/variants/)
      count("n_kv_heads", "K/V heads", &Config::n_kv_heads, "--kv-heads",
            "K/V heads: 1 = multi-query, a divisor of n_heads = grouped-query (default: n_heads)",
            "the number of K/V heads", 1, kMaxHeads, "n_heads"),
      {"sentence_kv", "K/V sentence", &Config::sentence_kv, "--sentence-kv",
       "Cross-attention: keys and values from this sentence (T_k tokens)"},
      count("kv_len", "T_k", &Config::kv_len, "--kv-len",
            "Cross-attention: T_k, the key/value tokens (the key/value sentence is cut or "
            "repeated)",
            "the key/value length T_k", 1, kMaxSeqLen, "K/V sentence length"),
      count("d_in_kv", "d_in_kv", &Config::d_in_kv, "--d-in-kv",
            "Cross-attention: the key/value side's embedding width (default: d_in)",
            "the key/value embedding width", 1, kMaxWidth, "d_in"),
      in_group(count("decode_steps", "decode", &Config::decode_steps, "--decode",
                     "Decode the last N tokens one at a time with a KV cache (turns on causal)",
                     "the number of decoded tokens", 1, kMaxSeqLen, "off"),
               "decode", "decode"),
      in_group(count("kv_latent", "d_c", &Config::kv_latent, "--kv-latent",
                     "MLA: d_c, the latent K and V are made from (--mla sets it too)",
                     "MLA's latent width d_c", 1, kMaxWidth, "off"),
               "mla"),
      in_group(count("rope_dim", "d_rope", &Config::rope_dim, "--rope-dim",
                     "MLA: d_rope, the rotary key shared by every head (--mla sets it too)",
                     "MLA's rotary width d_rope", 1, kMaxWidth, "off"),
               "mla"),
      in_group(count("q_latent", "d_c'", &Config::q_latent, "--q-latent",
                     "MLA: queries through their own d_c'-wide latent",
                     "MLA's query latent width d_c'", 1, kMaxWidth, "off"),
               "mla"),
      real("rope_theta", "RoPE theta", &Config::rope_theta, "--rope-theta",
           "Rotary positions (Llama's rotate-half RoPE) on q and k with this base; 0 = off",
           "the RoPE base theta", 1, kMaxRopeTheta, "off"),
      {"pos", "positions", &Config::pos, "--pos",
       "Word order: none | sinusoidal (added to x; the default) | learned (a seeded random table "
       "added to x, as before training) | rope (q and k turned; base --rope-theta, 10000 when 0) "
       "| alibi (a per-head bias on the scores)"},
  };
}

std::string heads_off_text(const std::vector<bool>& off) {
  std::string text;
  for (size_t h = 0; h < off.size(); ++h)
    if (off[h]) text += (text.empty() ? "" : ",") + std::to_string(h);
  return text.empty() ? "none" : text;
}

}  // namespace

const std::vector<ConfigField>& config_fields() {
  static const std::vector<ConfigField> table = make_table();
  return table;
}

const ConfigField* find_config_field(const std::string& name) {
  for (const ConfigField& f : config_fields())
    if (name == f.name) return &f;
  return nullptr;
}

std::string field_text(const ConfigField& field, const Config& c) {
  return std::visit(
      Overloaded{
          [&](int64_t Config::*m) {
            const int64_t value = c.*m;
            if (value == 0 && field.zero) return std::string(field.zero);
            if (field.flag_unit > 0) return format_bytes(double(value));
            return std::to_string(value);
          },
          [&](uint64_t Config::*m) { return std::to_string(c.*m); },
          [&](bool Config::*m) { return std::string(c.*m ? "on" : "off"); },
          [&](double Config::*m) {
            if (c.*m == 0 && field.zero) return std::string(field.zero);
            return format_number(c.*m);
          },
          [&](std::string Config::*m) { return "\"" + c.*m + "\""; },
          [&](MaskSpec Config::*m) { return describe(c.*m); },
          [&](Mistake Config::*m) {
            return std::string(c.*m == Mistake::None ? "none" : mistake_info(c.*m).name);
          },
          [&](std::vector<bool> Config::*m) { return heads_off_text(c.*m); },
          [&](PositionEncoding Config::*m) { return std::string(position_encoding_name(c.*m)); },
      },
      field.member);
}

void copy_field(const ConfigField& field, Config& config, const Config& from) {
  std::visit([&](auto member) { config.*member = from.*member; }, field.member);
}

}  // namespace attnlab
