// A real pretrained model from a Hugging Face folder (any family of the architecture table,
// core/checkpoints/architectures.hpp), its weights named by their role in the block rather than
// by each family's tensor names. The forward pass (pretrained_forward.hpp) and the traced layer
// (layer_trace.hpp) read it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/checkpoints/model_config.hpp"
#include "core/tensor/tensor.hpp"

namespace attnlab {

// A linear layer as the checkpoint stores it: nn.Linear keeps (out, in), GPT-2's Conv1D (in, out).
// y = x W (+ b) in the row-vector convention either way.
struct Dense {
  Tensor w;            // (out, in) when out_in, else (in, out)
  Tensor b;            // (out), or undefined
  bool out_in = true;  // nn.Linear's layout
  int64_t in() const { return w.size(out_in ? 1 : 0); }
  int64_t out() const { return w.size(out_in ? 0 : 1); }
};

// LayerNorm (weight and bias) or RMSNorm (weight only; Gemma's scales by 1 + weight).
struct Norm {
  Tensor weight, bias;
  double eps = 1e-5;
  NormKind kind = NormKind::LayerNorm;
};

struct Block {
  Norm attn_norm;  // GPT-2's ln_1, Llama's input_layernorm; BERT (post-norm):
                   // attention.output.LayerNorm
  Norm mlp_norm;   // GPT-2's ln_2, Llama's post_attention_layernorm; BERT: output.LayerNorm
  Dense qkv;       // fused (GPT-2's c_attn, Phi-3's qkv_proj): q | k | v along the output axis,
                   // (h + 2 n_kv) d_head wide
  Dense q, k, v;   // separate (Llama, Gemma, BERT)
  Dense o;         // c_proj, o_proj, attention.output.dense
  Dense gate_up;   // fused (Phi-3's gate_up_proj): gate | up along the output axis, 2 d_ff wide
  Dense up, gate, down;  // MLP: up (c_fc, up_proj, intermediate.dense); gate: gated MLPs only
};

struct PretrainedModel {
  std::string folder;
  ModelSpec spec;
  Tensor token_embedding;     // (vocab, d)
  Tensor position_embedding;  // (max_positions, d): GPT-2 and BERT
  Tensor type_embedding;      // (type_vocab, d): BERT
  Norm embedding_norm;        // BERT's embeddings.LayerNorm
  float embedding_scale = 1;  // Gemma: sqrt(d) rounded to the embedding's dtype
  std::vector<Block> blocks;
  Norm final_norm;      // GPT-2's ln_f, Llama's model.norm
  Tensor head;          // (vocab, d): the output head (the token embedding when tied)
  Tensor head_bias;     // (vocab): BERT's cls.predictions.bias
  Dense mlm_transform;  // BERT's MLM head: dense -> GELU -> LayerNorm, then the head
  Norm mlm_norm;
  std::vector<float> rope_inv_freq;  // (d_head / 2): RoPE families, after rope_scaling

  bool has_head() const { return head.has_values(); }
};

// Reads config.json and every tensor the model's forward pass uses, checking each shape against
// the config. Throws UserError with one line naming the folder and the tensor: a missing tensor,
// a shape that disagrees with config.json, a dtype that is not a float, NaN weights.
// `progress(done, total)` is called after each tensor, when given.
PretrainedModel load_pretrained(const std::string& folder,
                                const std::function<void(int64_t, int64_t)>& progress = {});

// True unless `folder` holds a model saved by `attnlab-cli train` (its model.json): a Hugging Face
// folder, or anything else, whose errors then name config.json and the weights' files.
bool is_pretrained_folder(const std::string& folder);

// RoPE's inverse frequencies (d_head / 2): theta^(-2i/d_head), adjusted by
// rope_scaling as transformers does (Llama 3's bands, or linear).
std::vector<float> rope_frequencies(const ModelSpec& spec);

}  // namespace attnlab
