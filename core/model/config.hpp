// Everything that defines one multi-head attention run, and its validation.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/limits/machine_memory.hpp"
#include "core/model/setting_words.hpp"
#include "core/position/position_encoding.hpp"

namespace attnlab {

// Masks combine: a key is visible to a query only if every enabled mask allows it.
struct MaskSpec {
  bool causal = false;                   // query i sees keys j <= i
  std::vector<int64_t> padding_lengths;  // per sequence (or one for all): keys j >= L hidden
  int64_t window = 0;                    // 0 = off; else query i sees keys with |i - j| <= window
  int64_t global_tokens = 0;  // with a window: the first G tokens see and are seen by all

  bool any() const { return causal || !padding_lengths.empty() || window > 0; }
  bool operator==(const MaskSpec&) const = default;
};

// The classic implementation mistakes the simulator can inject (core/teaching/mistakes.hpp
// describes them).
enum class Mistake {
  None,
  ForgetTranspose,     // heads not moved to a batch axis: scores (B, T, h, h)
  ConcatNoTranspose,   // context viewed back without transposing: tokens scrambled
  ViewNoContiguous,    // .view() of the transposed context: the framework's error
  ScaleDModel,         // scores / sqrt(d_model) instead of sqrt(d_k)
  NoScale,             // scores not scaled
  SoftmaxWrongAxis,    // softmax over the queries (dim=-2)
  MaskAfterSoftmax,    // masked weights zeroed after the softmax
  MaskZero,            // masked scores set to 0 instead of -inf
  DropoutOnOutput,     // dropout on the context instead of the weights
  SharedQkProjection,  // K computed with W_q
};

struct Config {
  std::string sentence;  // tokens of the input; empty = the built-in sample text
  int64_t seq_len = 0;   // T; 0 = as many tokens as the sentence has
  int64_t batch = 1;     // B
  int64_t d_in = 0;      // embedding width; 0 = d_model
  int64_t d_model = 4;   // model width; output width when the output projection is on
  int64_t n_heads = 2;   // h
  int64_t d_k = 0;       // per-head query/key width; 0 = d_model / n_heads
  int64_t d_v = 0;       // per-head value width; 0 = d_k
  MaskSpec mask;
  bool bias = false;          // biases on the Q, K, V (and output) projections
  bool output_proj = true;    // W_o: (h*d_v, d_model); off = output is the concat (seed 003)
  double dropout = 0.0;       // on the attention weights, inverted scaling as in PyTorch
  uint64_t dropout_seed = 0;  // its own seed, so changing weights does not change the drop mask
  uint64_t seed = 0;          // weight initialisation
  bool shape_only = false;    // shapes, strides and counters only: no values allocated
  int64_t memory_cap_bytes = default_memory_cap_bytes();  // computing above this is refused
  Mistake mistake = Mistake::None;  // inject one classic bug (mistakes simulator)
  std::vector<bool> ablated_heads;  // heads whose context is zeroed before concat
  // [SECTION] the next lessons' variants (core/variants/)
  int64_t n_kv_heads = 0;    // K/V heads: 0 = n_heads (MHA), 1 = MQA, a divisor between = GQA
  std::string sentence_kv;   // cross-attention: the key/value side's text (T_k tokens)
  int64_t kv_len = 0;        // cross-attention: T_k; 0 = as many tokens as sentence_kv has
  int64_t d_in_kv = 0;       // cross-attention: the key/value side's embedding width; 0 = d_in
  int64_t decode_steps = 0;  // KV-cache decoding: the last N tokens decoded one at a time
  int64_t kv_latent = 0;     // MLA: d_c, the latent K and V are made from; 0 = off
  int64_t rope_dim = 0;      // MLA: d_rope, the decoupled rotary key shared by every head
  int64_t q_latent = 0;      // MLA: d_c', the queries' own latent; 0 = queries straight from X
  // RoPE as Llama has it (rotate-half pairing) on q and k after the transpose, with this base
  // theta (10000, Llama 3: 500000); 0 = off. Not MLA's interleaved rotary part (rope_dim).
  double rope_theta = 0;
  // One projection W_qkv = [W_q | W_k | W_v] (d_in, h*d_k + n_kv*(d_k + d_v)), as GPT-2's c_attn
  // and the lecture's fused class: q, k and v are its column blocks, views of one GEMM's output.
  bool fused_qkv = false;
  // [SECTION] word order (core/position/): how the tokens' positions enter. sinusoidal and learned
  // are added to the toy embeddings x at the input stage (not to an x that was given), rope turns
  // q and k after the transpose (Llama's rotation, at base rope_theta or 10000 when that is 0),
  // alibi adds a per-head bias -m_h |t - s| to the scaled scores before the mask.
  PositionEncoding pos = PositionEncoding::Sinusoidal;

  // Resolved sizes (defaults filled in).
  int64_t input_dim() const { return d_in > 0 ? d_in : d_model; }
  int64_t head_dim_k() const { return d_k > 0 ? d_k : (n_heads > 0 ? d_model / n_heads : 0); }
  int64_t head_dim_v() const { return d_v > 0 ? d_v : head_dim_k(); }
  int64_t out_dim() const { return output_proj ? d_model : n_heads * head_dim_v(); }
  // T: seq_len if set, else the number of tokens in the sentence (or the sample text's).
  int64_t tokens() const;
  int64_t kv_heads() const { return n_kv_heads > 0 ? n_kv_heads : n_heads; }
  // Query heads per K/V head (g); 0 when n_kv_heads does not divide n_heads.
  int64_t group_size() const {
    return kv_heads() > 0 && n_heads % kv_heads() == 0 ? n_heads / kv_heads() : 0;
  }
  bool grouped() const { return kv_heads() < n_heads; }
  bool cross() const { return !sentence_kv.empty() || kv_len > 0; }
  bool latent() const { return kv_latent > 0; }
  // T_k: the keys' count: the key/value sentence's tokens with cross-attention, else T.
  int64_t key_tokens() const;
  int64_t kv_input_dim() const { return cross() && d_in_kv > 0 ? d_in_kv : input_dim(); }
  // Width of each head's query and key in the scores: d_k, plus d_rope with MLA's rotary part.
  int64_t score_dim() const { return head_dim_k() + (latent() ? rope_dim : 0); }
  // Llama's RoPE on q and k: rope_theta set (a real Llama layer, a preset), or --pos rope.
  bool rotary() const { return rope_theta > 0 || pos == PositionEncoding::Rope; }
  // RoPE's base: rope_theta, or Vaswani's 10000 when --pos rope leaves it 0.
  double rope_base() const { return rope_theta > 0 ? rope_theta : 10000.0; }
  // ALiBi's bias on the scores.
  bool alibi() const { return pos == PositionEncoding::Alibi; }

  bool operator==(const Config&) const = default;
};

// One violated rule: which setting, and a plain-language explanation with a fix, worded for the
// command line and for the controls (the rule names settings as {{field}}:
// core/model/setting_words.hpp).
struct ConfigIssue {
  ConfigIssue(std::string field, const std::string& explanation)
      : field(std::move(field)),
        message(worded(explanation, Wording::command_line)),
        in_controls(worded(explanation, Wording::controls)) {}
  std::string field;        // the setting's field: "d_model"
  std::string message;      // "d_model=10 is not divisible by n_heads=4 (...): choose ..."
  std::string in_controls;  // the same, naming the controls where it names flags
};

// Every violation at once (empty when the config can run as a trace: the traced run's memory
// rule, trace_bytes_needed, against config.memory_cap_bytes included).
std::vector<ConfigIssue> validate(const Config& config);
// The same without the trace's memory cap: what every path shares. A path that holds less than
// the trace checks its own rule from the plan's sizes (core/trace/plan_sizes.hpp): forward()'s
// working set, the tiled run's (linear in T).
std::vector<ConfigIssue> validate_settings(const Config& config);

// Why this config's values cannot be computed ("" when they can): an invalid setting, shape-only
// mode, or a trace above the memory cap (the same message validate() gives the trace).
std::string values_unavailable(const Config& config);

// Throws UserError("<what> needs computed values, and <why not>") when values_unavailable() says
// so: every measurement calls it before it allocates anything.
void require_values(const Config& config, const std::string& what);

// All issues joined into one line, for the CLI.
std::string describe(const std::vector<ConfigIssue>& issues);

// Element counts stay below 2^50 so that sizes, bytes and FLOPs are exact in int64 and double.
constexpr double kMaxCountableElements = 1125899906842624.0;

// Bytes of every tensor the trace would hold and of its parameters (float32), without
// allocating or running anything: the sum of the plan's step sizes (core/trace/plan_sizes.cpp).
// 0 when a size is not positive; INT64_MAX beyond what can be counted.
int64_t trace_bytes_needed(const Config& config);

// "1.5 MiB"
std::string format_bytes(double bytes);

// A number as printf's %g writes it: "0.25", "2.5", "1e-05".
std::string format_number(double value);

}  // namespace attnlab
