#include "core/checkpoints/architectures.hpp"

namespace attnlab {

namespace {

// [SECTION] the rows

// GPT-2 (modeling_gpt2.py): learned positions, pre-LayerNorm, every projection a Conv1D (in, out)
// with a bias, c_attn = q | k | v, gelu_new, the head tied to wte.
Architecture gpt2() {
  Architecture a;
  a.name = "GPT-2";
  a.model_types = {"gpt2"};
  a.classes = {"GPT2LMHeadModel", "GPT2Model"};
  ConfigKeys& k = a.keys;
  k.d_model = "n_embd", k.n_heads = "n_head", k.n_layers = "n_layer", k.vocab = "vocab_size";
  k.d_ff = "n_inner", k.d_ff_per_width = 4;  // null in the published configs: 4 * n_embd
  k.max_positions = {"n_positions", "n_ctx"}, k.max_positions_default = 1024;
  k.norm_eps = "layer_norm_epsilon", k.norm_eps_default = 1e-5;
  k.activation = "activation_function", k.activations = {"gelu_new", "gelu", "gelu_pytorch_tanh"};
  k.tied = "tie_word_embeddings", k.tied_default = true;
  TensorNames& t = a.tensors;
  t.prefixes = {"", "transformer."};
  t.token_embedding = "wte.weight", t.position_embedding = "wpe.weight";
  t.layer = "h.{L}.";
  t.attn_norm = "ln_1", t.qkv = "attn.c_attn", t.o = "attn.c_proj";
  t.mlp_norm = "ln_2", t.up = "mlp.c_fc", t.down = "mlp.c_proj";
  t.final_norm = "ln_f", t.head = "lm_head.weight";
  a.norm = NormKind::LayerNorm;
  a.positions = Positions::Learned;
  a.mlp = MlpKind::Plain;
  a.layout = WeightLayout::InOut;
  a.qkv_bias = a.o_bias = a.mlp_bias = true;
  a.attention_input = "X = ln_1(h): layer {L}'s residual stream h, LayerNorm-ed (GPT-2's pre-norm)";
  a.block = {"h + out", "ln_2(residual)  LayerNorm", "gelu_new(mlp_in @ c_fc + b)",
             "residual + mlp_hidden @ c_proj + b"};
  return a;
}

// Llama and Mistral (modeling_llama.py, modeling_mistral.py): RMSNorm, RoPE rotate-half, grouped
// K/V heads, SwiGLU, nn.Linear (out, in) without biases, an untied head by default.
Architecture llama() {
  Architecture a;
  a.name = "Llama family";
  a.model_types = {"llama", "mistral"};
  a.classes = {"LlamaForCausalLM", "MistralForCausalLM"};
  ConfigKeys& k = a.keys;
  k.d_model = "hidden_size", k.n_heads = "num_attention_heads", k.n_layers = "num_hidden_layers";
  k.vocab = "vocab_size", k.d_ff = "intermediate_size";
  k.n_kv_heads = "num_key_value_heads", k.head_dim = "head_dim";
  k.max_positions = {"max_position_embeddings"}, k.max_positions_default = 2048;
  k.norm_eps = "rms_norm_eps", k.norm_eps_default = 1e-6;
  k.activation = "hidden_act", k.activations = {"silu", "swish"};
  k.tied = "tie_word_embeddings", k.tied_default = false;  // transformers' default
  k.attention_bias = "attention_bias", k.mlp_bias = "mlp_bias";
  TensorNames& t = a.tensors;
  t.prefixes = {""};
  t.token_embedding = "model.embed_tokens.weight";
  t.layer = "model.layers.{L}.";
  t.attn_norm = "input_layernorm";
  t.q = "self_attn.q_proj", t.k = "self_attn.k_proj", t.v = "self_attn.v_proj";
  t.o = "self_attn.o_proj";
  t.mlp_norm = "post_attention_layernorm";
  t.gate = "mlp.gate_proj", t.up = "mlp.up_proj", t.down = "mlp.down_proj";
  t.final_norm = "model.norm", t.head = "lm_head.weight";
  a.norm = NormKind::RmsNorm;
  a.positions = Positions::RopeRotateHalf;
  a.mlp = MlpKind::Gated;
  a.layout = WeightLayout::OutIn;
  a.attention_input =
      "X = input_layernorm(h): layer {L}'s residual stream h, RMSNorm-ed (pre-norm)";
  a.block = {"h + out", "post_attention_layernorm(residual)  RMSNorm",
             "silu(mlp_in @ W_gate) * (mlp_in @ W_up)  SwiGLU", "residual + mlp_hidden @ W_down"};
  return a;
}

// Qwen2 (modeling_qwen2.py): Llama's block with biases on q, k and v.
Architecture qwen2() {
  Architecture a = llama();
  a.name = "Qwen2";
  a.model_types = {"qwen2"};
  a.classes = {"Qwen2ForCausalLM"};
  a.keys.attention_bias = a.keys.mlp_bias = "";
  a.qkv_bias = true;
  return a;
}

// Phi-3 (modeling_phi3.py): Llama's block with q, k, v in one nn.Linear qkv_proj (out = (h +
// 2 n_kv) d_head) and gate, up in one gate_up_proj (gate then up); head_dim = d_model / heads.
Architecture phi3() {
  Architecture a = llama();
  a.name = "Phi-3";
  a.model_types = {"phi3"};
  a.classes = {"Phi3ForCausalLM"};
  a.keys.head_dim = "";
  a.keys.max_positions_default = 4096, a.keys.norm_eps_default = 1e-5;
  a.keys.attention_bias = a.keys.mlp_bias = "";
  a.tensors.q = a.tensors.k = a.tensors.v = "";
  a.tensors.qkv = "self_attn.qkv_proj";
  a.tensors.gate = a.tensors.up = "";
  a.tensors.gate_up = "mlp.gate_up_proj";
  a.block.mlp_hidden = "silu(gate) * up, gate | up = mlp_in @ W_gate_up  SwiGLU";
  return a;
}

// Gemma (modeling_gemma.py): RMSNorm times (1 + w), the embeddings scaled by sqrt(d_model) in the
// weights' dtype, GeGLU with the tanh GELU (hidden_activation; transformers uses
// gelu_pytorch_tanh when it is absent), head_dim from the config, few K/V heads, a tied head.
Architecture gemma() {
  Architecture a = llama();
  a.name = "Gemma";
  a.model_types = {"gemma"};
  a.classes = {"GemmaForCausalLM"};
  a.keys.head_dim_default = 256;  // GemmaConfig's
  a.keys.max_positions_default = 8192;
  a.keys.activation = "hidden_activation";
  a.keys.activations = {"gelu_pytorch_tanh", "gelu_new", "gelu"};
  a.keys.tied_default = true;
  a.keys.mlp_bias = "";
  a.norm = NormKind::RmsNormOnePlusWeight;
  a.scale_embeddings = true;
  a.attention_input =
      "X = input_layernorm(h): layer {L}'s residual stream h, RMSNorm-ed times (1 + w) (pre-norm)";
  a.block = {"h + out", "post_attention_layernorm(residual)  RMSNorm (1 + w)",
             "gelu_tanh(mlp_in @ W_gate) * (mlp_in @ W_up)  GeGLU",
             "residual + mlp_hidden @ W_down"};
  return a;
}

// BERT (modeling_bert.py): learned positions and token types, an embedding LayerNorm, post-norm,
// nn.Linear with biases, GELU (erf), bidirectional; the MLM head when the checkpoint has it.
Architecture bert() {
  Architecture a;
  a.name = "BERT";
  a.model_types = {"bert"};
  a.classes = {"BertForMaskedLM", "BertForPreTraining", "BertModel"};
  ConfigKeys& k = a.keys;
  k.d_model = "hidden_size", k.n_heads = "num_attention_heads", k.n_layers = "num_hidden_layers";
  k.vocab = "vocab_size", k.d_ff = "intermediate_size";
  k.max_positions = {"max_position_embeddings"}, k.max_positions_default = 512;
  k.norm_eps = "layer_norm_eps", k.norm_eps_default = 1e-12;
  k.activation = "hidden_act", k.activations = {"gelu", "gelu_new", "gelu_pytorch_tanh"};
  k.type_vocab = "type_vocab_size";
  k.tied = "tie_word_embeddings", k.tied_default = true;
  TensorNames& t = a.tensors;
  t.prefixes = {"bert.", ""};
  t.token_embedding = "embeddings.word_embeddings.weight";
  t.position_embedding = "embeddings.position_embeddings.weight";
  t.type_embedding = "embeddings.token_type_embeddings.weight";
  t.embedding_norm = "embeddings.LayerNorm";
  t.layer = "encoder.layer.{L}.";
  t.q = "attention.self.query", t.k = "attention.self.key", t.v = "attention.self.value";
  t.o = "attention.output.dense", t.attn_norm = "attention.output.LayerNorm";
  t.up = "intermediate.dense", t.down = "output.dense", t.mlp_norm = "output.LayerNorm";
  t.head = "cls.predictions.decoder.weight", t.head_probe = "cls.predictions.bias";
  t.head_bias = "cls.predictions.bias";
  t.head_transform = "cls.predictions.transform.dense";
  t.head_transform_norm = "cls.predictions.transform.LayerNorm";
  a.norm = NormKind::LayerNorm;
  a.post_norm = true;
  a.positions = Positions::Learned;
  a.mlp = MlpKind::Plain;
  a.layout = WeightLayout::OutIn;
  a.qkv_bias = a.o_bias = a.mlp_bias = true;
  a.causal = false;
  a.attention_input = "X = h: layer {L}'s input hidden states (BERT normalises after attention)";
  a.block = {"LayerNorm(h + out)  attention.output.LayerNorm",
             "residual  (BERT normalises after, not before)",
             "gelu(mlp_in @ W_i + b_i)  intermediate.dense",
             "LayerNorm(residual + mlp_hidden @ W_o + b_o)  output.*"};
  return a;
}

}  // namespace

const std::vector<Architecture>& architectures() {
  static const std::vector<Architecture> rows = {gpt2(), llama(), qwen2(), bert(), phi3(), gemma()};
  return rows;
}

const Architecture* architecture_for(const std::string& model_type,
                                     const std::vector<std::string>& classes) {
  for (const Architecture& a : architectures()) {
    for (const std::string& type : a.model_types)
      if (type == model_type) return &a;
    if (model_type.empty())
      for (const std::string& name : classes)
        for (const std::string& known : a.classes)
          if (name == known) return &a;
  }
  return nullptr;
}

std::string known_model_types() {
  std::vector<std::string> all;
  for (const Architecture& a : architectures())
    all.insert(all.end(), a.model_types.begin(), a.model_types.end());
  std::string list;
  for (size_t i = 0; i < all.size(); ++i)
    list += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + all[i];
  return list;
}

bool activation_named(const std::string& name, Activation& out) {
  if (name == "gelu_new" || name == "gelu_pytorch_tanh") {
    out = Activation::GeluTanh;
  } else if (name == "gelu") {
    out = Activation::GeluErf;
  } else if (name == "silu" || name == "swish") {
    out = Activation::Silu;
  } else {
    return false;
  }
  return true;
}

std::string with_layer(const std::string& text, int64_t layer) {
  std::string out = text;
  for (size_t at = out.find("{L}"); at != std::string::npos; at = out.find("{L}", at))
    out.replace(at, 3, std::to_string(layer));
  return out;
}

}  // namespace attnlab
