// The trace is the product: every intermediate tensor of the forward pass, in order, with its
// layout, the formula and PyTorch line that produced it, and its cost. The GUI animates it, the
// CLI prints it, the tests check it, the export writes it.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/config.hpp"
#include "core/tensor/tensor.hpp"
#include "core/trace/op.hpp"

namespace attnlab {

// The six stages of the lectures, plus the input they start from.
enum class Stage { Input, Project, Split, Transpose, Attend, Concat, OutputProject };
constexpr int kStageCount = 7;
// "input", "project", "split", "transpose", "attend", "concat", "output-project"
const char* stage_name(Stage stage);
// Parses a stage_name (or its index 0..6); false when unknown.
bool parse_stage(const std::string& text, Stage& stage);

// The steps within a stage: attend's six (and the mistakes' extra ones, ablation), concat's
// three, and the transpose stage's variants (expand, MLA's join, RoPE's rotation). None for a stage
// of one step.
enum class Substep {
  None,
  Scores,         // S = Q K^T
  Scale,          // / sqrt(d_k)
  Mask,           // masked keys to -inf (or, with mask-after-softmax, weights to 0)
  Softmax,        // over the keys
  Dropout,        // on the weights (or, with dropout-on-output, on the context)
  AttendValues,   // A V
  Ablate,         // switched-off heads' context set to 0
  TransposeBack,  // concat: (B, h, T, d_v) -> (B, T, h, d_v), a view
  Contiguous,     // concat: the one copy
  View,           // concat: (B, T, h*d_v)
  Expand,         // transpose: grouped K/V heads (or MLA's rotary key) repeated by a stride of 0
  JoinRope,       // transpose: MLA's rotary part joined to each head's query and key
  Rotate,         // transpose: Llama's RoPE turns each head's q and k by the token's position
  Bias,           // attend: ALiBi's per-head bias -m_h |t - s| added to the scaled scores
};
constexpr int kSubstepCount = 15;
// Stable names, for `--stage attend:softmax` and trace.json: "", "QK^T", "scale", "mask",
// "softmax", "dropout", "@V", "ablate", "transpose", "contiguous", "view", "expand", "rope",
// "rotate", "alibi".
const char* substep_name(Substep substep);
bool parse_substep(const std::string& text, Substep& substep);

// What an axis of a recorded tensor means: the label "(B, h, T, d_k)" is rendered from these.
enum class AxisKind {
  Batch,    // B: one sequence each
  Token,    // T: the queries' positions
  Head,     // h
  Key,      // the axis softmax runs over: keys (T), or heads (h) when the transpose was forgotten
  Feature,  // d_in, d_k, d_v, d_model, or h*d_k: heads side by side
  Group,    // g: the query heads one K/V head serves (grouped-query attention's expand)
};

// "batch", "token", "head", "key", "feature", "group" (trace.json)
const char* axis_kind_name(AxisKind kind);

struct Axis {
  AxisKind kind;
  std::string symbol;  // the seeds' notation: "B", "T", "h", "d_k", "h*d_v", "d_model"
  int64_t size = 0;
  int64_t heads = 1;  // a feature axis holding this many heads side by side ("h*d_k"): h
};
using Axes = std::vector<Axis>;

// "(B, T, h*d_k)"
std::string axes_label(const Axes& axes);
// Index of the first axis of this kind, or -1.
int find_axis(const Axes& axes, AxisKind kind);

// The passes a plan runs: the forward pass the stages teach, and beside it (with values) KV-cache
// decoding's prefill and one-token steps, and MLA's absorbed form.
enum class Pass {
  Forward,   // the six stages: Trace::records
  Prefill,   // decoding: the prompt's keys and values cached once
  Decode,    // decoding: one token at a time over the cache
  Absorbed,  // MLA: W_UK and W_UV absorbed, scores straight against the latent
};
// "forward", "prefill", "decode", "absorbed" (trace.json)
const char* pass_name(Pass pass);

struct TensorRecord {
  std::string name;   // export name, e.g. "q_split" (file q_split.npy): the file format only
  Op op = Op::Input;  // what it holds, with `which`: how code finds it (Trace::find(Op, which))
  char which = 0;     // 'q', 'k', 'v' (or 'r', MLA's rotary query) for per-projection steps
  Pass pass = Pass::Forward;
  int64_t position = -1;  // Pass::Decode: the token decoded (t); else -1
  Stage stage;
  Substep substep = Substep::None;
  Axes axes;                        // what each axis of `tensor` means
  std::vector<std::string> inputs;  // the records (or parameters) it was computed from
  Tensor tensor;              // shape, strides, offset, storage and (unless shape-only) values
  bool is_view = false;       // reads storage an earlier record allocated: no copy was made
  std::string storage_owner;  // name of the record that allocated its storage
  std::string formula;        // "Q = X W_q"
  std::string pytorch;        // "q = x @ W_q"
  double flops = 0;           // floating-point operations to produce it
  int64_t bytes = 0;          // bytes of new storage it allocated (0 for views)

  std::string axes_text() const { return axes_label(axes); }
};

struct Counters {
  int64_t qkv_weights = 0;  // d_in * h * (2 d_k + d_v); the variants' own (n_kv heads, latents)
  int64_t qkv_biases = 0;   // h * (2 d_k + d_v) when biases are on
  int64_t out_weights = 0;  // h * d_v * d_model with the output projection
  int64_t out_bias = 0;     // d_model with biases and the output projection
  int64_t parameters() const { return qkv_weights + qkv_biases + out_weights + out_bias; }
  double flops = 0;                // whole forward pass
  int64_t bytes = 0;               // every tensor the trace holds
  int64_t attention_elements = 0;  // B * h * T * T_k: one attention map per head and sequence
  // What makes K and V (W_k, W_v and their biases over n_kv heads; MLA: W_dkv, W_uk, W_uv, W_kr)
  int64_t kv_parameters = 0;
  // Numbers a KV cache holds per token per layer: n_kv * (d_k + d_v), 2 n_kv d_k when d_v = d_k
  // (MLA: d_c + d_rope). Bytes: times the cache's bytes per number (4 here, 2 in fp16).
  int64_t kv_cache_numbers = 0;
};

struct Diagnostics {
  double max_row_sum_error = 0;  // max |sum_j w[b,h,i,j] - 1| over rows with a visible key
  int64_t masked_entries = 0;    // entries the masks hide, over (B, h, T, T)
  int64_t masked_nonzero = 0;    // of those, weights not exactly 0 (must be 0)
  double max_masked_weight = 0;  // the largest of them (a mistake can leak weight)
  std::vector<std::array<int64_t, 2>> empty_rows;  // (b, i): queries with no visible key
  int64_t nonfinite_values = 0;                    // NaN/Inf outside the masked scores' -inf
  std::string first_nonfinite;                     // the first tensor holding one
  // Per head: mean of -sum_j p log2 p over the queries (b, i) that see at least one key; a query
  // with no visible key has all-zero weights and is left out (it has no distribution).
  std::vector<double> head_entropy_bits;
  // What a head that spreads evenly would reach: log2(number of visible keys), averaged over the
  // same queries. log2 T without a mask; under a causal mask query i sees i + 1 keys.
  double uniform_entropy_bits = 0;
  std::vector<std::string> notices;  // plain-language remarks, e.g. a truncated sentence
};

// A run that stopped with the error a framework would raise (the view-without-contiguous mistake).
struct Failure {
  bool failed = false;
  Stage stage = Stage::Input;
  std::string message;
};

// KV-cache decoding (core/variants/kv_cache_decode.hpp): the prompt's first P tokens are processed
// once (prefill), then tokens P..T-1 one at a time, each attending over the cache. Its records
// are the plan's, in Trace::side_records (Pass::Prefill, Pass::Decode); this is what they cost.
struct DecodeStep {
  int64_t position = 0;        // t: this step's token, which sees t + 1 cached keys
  double flops = 0;            // this step: one token's projections, score row, output
  double recompute_flops = 0;  // without a cache: a full causal pass over t + 1 tokens
  int64_t cache_bytes = 0;     // the K and V cache after this step (float32)
};

struct DecodeTrace {
  int64_t prompt_tokens = 0;      // P
  double prefill_flops = 0;       // the prompt's pass (K, V of P tokens, and their outputs)
  std::vector<DecodeStep> steps;  // one per decoded token, in order
};

// Multi-head latent attention's absorbed form (core/variants/latent_attention.hpp): its record,
// out_absorbed, is in Trace::side_records (Pass::Absorbed); this is how far it is from `out`.
struct AbsorbedPath {
  double max_abs_difference = 0;  // max |out_absorbed - out|
};

struct Trace {
  Config config;
  std::vector<std::string> tokens;       // T of them
  std::vector<std::string> tokens_kv;    // cross-attention: the key/value side's T_k; else empty
  std::vector<TensorRecord> parameters;  // w_q, w_k, w_v, [w_o], [b_q, b_k, b_v, b_o]
  std::vector<TensorRecord> records;     // the forward pass, in order
  // The plan's other passes, in plan order: prefill_k_cache, ..., decode{i}_*, out_absorbed.
  std::vector<TensorRecord> side_records;
  Counters counters;
  Diagnostics diagnostics;
  bool shape_only = false;
  Failure failure;        // records stop at the failing stage
  DecodeTrace decode;     // config.decode_steps > 0: the same sequence decoded with a KV cache
  AbsorbedPath absorbed;  // MLA: the same output with W_UK and W_UV absorbed

  // A record (of any pass) or parameter of that name; or null. For names read from the trace
  // itself (a record's inputs, its storage owner) and the export's files: code that wants a
  // particular record asks for it by what it holds, below.
  const TensorRecord* find(const std::string& name) const;
  // The forward pass's record of step `op` (of projection `which`: 'q', 'k', 'v', 'r'; 0 for a
  // step that is not per projection); or null when this run has none. Unique: the plan makes at
  // most one forward record per (op, which).
  const TensorRecord* find(Op op, char which = 0) const;
  // A record beside the forward pass: of `pass`, at decoded position `position` (Pass::Decode;
  // else -1), of step `op` and projection `which`; or null.
  const TensorRecord* find(Pass pass, Op op, char which = 0, int64_t position = -1) const;
  // The attention weights the values are averaged with (before dropout): the mask-after-softmax
  // zeroing's when it runs, else the softmax's. Null before the attend stage is reached.
  const TensorRecord* weights() const;
  // The side records of a pass (of one decoded position, for Pass::Decode), in order.
  std::vector<const TensorRecord*> pass_records(Pass pass, int64_t position = -1) const;
  std::vector<const TensorRecord*> stage_records(Stage stage) const;
  double stage_flops(Stage stage) const;
  int64_t stage_bytes(Stage stage) const;
};

}  // namespace attnlab
