// Model families as rows of one table, as llama.cpp names each architecture's tensors per role:
// which config.json names a row opens, where its config keeps each size, what each weight is
// called, and how its block computes (the behaviour flags). One loader (load_pretrained) and one
// forward (run_pretrained) read the row; nothing else asks which family a model is. Adding a
// family is a row here, plus a flag only for behaviour no row has yet.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/tensor/vector_gemm.hpp"

namespace attnlab {

enum class NormKind {
  LayerNorm,            // (x - mean) / sqrt(var + eps) * w + b   (GPT-2, BERT)
  RmsNorm,              // x / sqrt(mean(x^2) + eps) * w          (Llama, Phi-3)
  RmsNormOnePlusWeight  // x / sqrt(mean(x^2) + eps) * (1 + w)    (Gemma)
};

enum class Activation {
  GeluTanh,  // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))): gelu_new, gelu_pytorch_tanh
  GeluErf,   // 0.5 x (1 + erf(x / sqrt 2)): gelu
  Silu       // x sigmoid(x): silu, swish
};

enum class MlpKind {
  Plain,  // act(x W_up) W_down                    (GPT-2, BERT)
  Gated   // (act(x W_gate) * (x W_up)) W_down     (SwiGLU: Llama, Phi-3; GeGLU: Gemma)
};

enum class Positions {
  Learned,        // a learned table added to the token embeddings (GPT-2, BERT)
  RopeRotateHalf  // q and k turned per position, dims i and i + d_head/2 paired (rope_theta)
};

// config.json's key for each size; "" when the family's config has none (then the default).
struct ConfigKeys {
  std::string d_model, n_heads, n_layers, vocab, d_ff;
  int64_t d_ff_per_width = 0;  // d_ff's key absent or null: this many times d_model; 0: required
  std::string n_kv_heads;      // absent: as many K/V heads as heads
  std::string head_dim;        // absent: head_dim_default, or d_model / n_heads when that is 0
  int64_t head_dim_default = 0;
  std::vector<std::string> max_positions;  // the first one present
  int64_t max_positions_default = 0;
  std::string norm_eps;
  double norm_eps_default = 1e-5;
  std::string activation;                // its value must be one of `activations`
  std::vector<std::string> activations;  // the first is the default
  std::string type_vocab;                // BERT's token types
  int64_t type_vocab_default = 2;
  std::string tied;  // tie_word_embeddings
  bool tied_default = true;
  std::string attention_bias;  // true: biases on q, k, v and o (Llama's attention_bias)
  std::string mlp_bias;        // true: biases on the MLP's projections (Llama's mlp_bias)
};

// Each weight's name by its role; "" when the family has no such weight. Names below `layer`
// are relative to it ("{L}" is the layer's number); projections and norms get ".weight" (and
// ".bias") appended. The base model's names may sit under one of `prefixes` (tried in order:
// the first under which `token_embedding` exists); the head's names never do.
struct TensorNames {
  std::vector<std::string> prefixes;
  std::string token_embedding, position_embedding, type_embedding, embedding_norm;
  std::string layer;
  std::string attn_norm;  // pre-norm: before attention; post-norm (BERT): after its residual
  std::string qkv;        // fused: q | k | v along the output axis, else q, k and v
  std::string q, k, v, o;
  std::string mlp_norm;  // pre-norm: before the MLP; post-norm: after its residual
  std::string gate_up;   // fused: gate | up along the output axis, else gate and up
  std::string gate, up, down;
  std::string final_norm;
  std::string head;        // the output head's weight, when untied (else the token embedding)
  std::string head_probe;  // the head exists only when this tensor does ("": always)
  std::string head_bias, head_transform, head_transform_norm;  // BERT's MLM head
};

// The rest of a block as the CLI prints it (formulas in the family's own names).
struct BlockWords {
  std::string residual, mlp_in, mlp_hidden, block_out;
};

struct Architecture {
  std::string name;                      // the family's name for people: "GPT-2"
  std::vector<std::string> model_types;  // config.json "model_type" values it opens
  std::vector<std::string> classes;      // "architectures" entries, when model_type is absent
  ConfigKeys keys;
  TensorNames tensors;
  // How the block computes.
  NormKind norm = NormKind::LayerNorm;  // every norm of the model (LayerNorm's have a bias)
  bool post_norm = false;               // each residual sum normed after (BERT), else pre-norm
  Positions positions = Positions::Learned;
  bool scale_embeddings = false;  // x * sqrt(d_model), rounded to the weights' dtype (Gemma)
  MlpKind mlp = MlpKind::Plain;
  WeightLayout layout = WeightLayout::OutIn;  // every projection's: nn.Linear, or GPT-2's Conv1D
  bool qkv_bias = false, o_bias = false, mlp_bias = false;
  bool causal = true;
  std::string attention_input;  // the input stage's words ("{L}": the layer)
  BlockWords block;

  bool fused_qkv() const { return !tensors.qkv.empty(); }
  bool fused_gate_up() const { return !tensors.gate_up.empty(); }
};

// Every row, in the order the families are listed to people.
const std::vector<Architecture>& architectures();

// The row that opens `model_type` or, when model_type is "", one of `classes` (config.json's
// "architectures"); null when none does.
const Architecture* architecture_for(const std::string& model_type,
                                     const std::vector<std::string>& classes);

// "gpt2, llama, ... or gemma": every model_type the table opens.
std::string known_model_types();

// The activation a config's name means (gelu_new -> GeluTanh, ...); false for a name no row
// accepts.
bool activation_named(const std::string& name, Activation& out);

// `text` with every "{L}" replaced by the layer's number.
std::string with_layer(const std::string& text, int64_t layer);

}  // namespace attnlab
