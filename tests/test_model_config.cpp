// config.json as the published checkpoints ship it (the fields these files carry, verbatim),
// read into one set of names; and configs that cannot be opened, refused by the key at fault.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/checkpoints/model_config.hpp"
#include "core/model/errors.hpp"

namespace attnlab {
namespace {

// gpt2 (GPT-2 small), as published.
const char* kGpt2 = R"({
  "activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"],
  "attn_pdrop": 0.1, "bos_token_id": 50256, "embd_pdrop": 0.1, "eos_token_id": 50256,
  "initializer_range": 0.02, "layer_norm_epsilon": 1e-05, "model_type": "gpt2",
  "n_ctx": 1024, "n_embd": 768, "n_head": 12, "n_inner": null, "n_layer": 12,
  "n_positions": 1024, "resid_pdrop": 0.1, "vocab_size": 50257})";

// TinyLlama-1.1B-Chat-v1.0: grouped K/V heads (32 query heads, 4 K/V heads).
const char* kTinyLlama = R"({
  "architectures": ["LlamaForCausalLM"], "bos_token_id": 1, "eos_token_id": 2,
  "hidden_act": "silu", "hidden_size": 2048, "initializer_range": 0.02,
  "intermediate_size": 5632, "max_position_embeddings": 2048, "model_type": "llama",
  "num_attention_heads": 32, "num_hidden_layers": 22, "num_key_value_heads": 4,
  "pretraining_tp": 1, "rms_norm_eps": 1e-05, "rope_scaling": null, "rope_theta": 10000.0,
  "tie_word_embeddings": false, "torch_dtype": "bfloat16", "vocab_size": 32000})";

// Llama-3.2-1B: Llama 3's RoPE scaling, an explicit head_dim, tied embeddings.
const char* kLlama32 = R"({
  "architectures": ["LlamaForCausalLM"], "attention_bias": false, "head_dim": 64,
  "hidden_act": "silu", "hidden_size": 2048, "intermediate_size": 8192,
  "max_position_embeddings": 131072, "model_type": "llama", "num_attention_heads": 32,
  "num_hidden_layers": 16, "num_key_value_heads": 8, "rms_norm_eps": 1e-05,
  "rope_scaling": {"factor": 32.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                   "original_max_position_embeddings": 8192, "rope_type": "llama3"},
  "rope_theta": 500000.0, "tie_word_embeddings": true, "vocab_size": 128256})";

// Qwen2.5-0.5B: q/k/v biases, 14 heads over 2 K/V heads.
const char* kQwen = R"({
  "architectures": ["Qwen2ForCausalLM"], "hidden_act": "silu", "hidden_size": 896,
  "intermediate_size": 4864, "max_position_embeddings": 32768, "max_window_layers": 24,
  "model_type": "qwen2", "num_attention_heads": 14, "num_hidden_layers": 24,
  "num_key_value_heads": 2, "rms_norm_eps": 1e-06, "rope_theta": 1000000.0,
  "sliding_window": 32768, "tie_word_embeddings": true, "use_sliding_window": false,
  "vocab_size": 151936})";

// bert-base-uncased.
const char* kBert = R"({
  "architectures": ["BertForMaskedLM"], "attention_probs_dropout_prob": 0.1,
  "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "hidden_size": 768,
  "initializer_range": 0.02, "intermediate_size": 3072, "layer_norm_eps": 1e-12,
  "max_position_embeddings": 512, "model_type": "bert", "num_attention_heads": 12,
  "num_hidden_layers": 12, "pad_token_id": 0, "type_vocab_size": 2, "vocab_size": 30522})";

// Phi-3-mini-4k-instruct: 32 heads of 96, fused projections, an untied head.
const char* kPhi3 = R"({
  "architectures": ["Phi3ForCausalLM"], "attention_dropout": 0.0, "bos_token_id": 1,
  "embd_pdrop": 0.0, "eos_token_id": 32000, "hidden_act": "silu", "hidden_size": 3072,
  "initializer_range": 0.02, "intermediate_size": 8192, "max_position_embeddings": 4096,
  "model_type": "phi3", "num_attention_heads": 32, "num_hidden_layers": 32,
  "num_key_value_heads": 32, "original_max_position_embeddings": 4096, "pad_token_id": 32000,
  "resid_pdrop": 0.0, "rms_norm_eps": 1e-05, "rope_scaling": null, "rope_theta": 10000.0,
  "sliding_window": 2047, "tie_word_embeddings": false, "torch_dtype": "bfloat16",
  "vocab_size": 32064})";

// gemma-2b: one K/V head, head_dim 256 (8 heads of 256 on a 2048 width), no
// tie_word_embeddings key, hidden_act "gelu" beside hidden_activation.
const char* kGemma = R"({
  "architectures": ["GemmaForCausalLM"], "attention_bias": false, "attention_dropout": 0.0,
  "bos_token_id": 2, "eos_token_id": 1, "head_dim": 256, "hidden_act": "gelu",
  "hidden_activation": "gelu_pytorch_tanh", "hidden_size": 2048, "initializer_range": 0.02,
  "intermediate_size": 16384, "max_position_embeddings": 8192, "model_type": "gemma",
  "num_attention_heads": 8, "num_hidden_layers": 18, "num_key_value_heads": 1,
  "pad_token_id": 0, "rms_norm_eps": 1e-06, "rope_scaling": null, "rope_theta": 10000.0,
  "torch_dtype": "bfloat16", "vocab_size": 256000})";

TEST(ModelConfig, Gpt2SmallHasTwelveHeadsOf64AndA3072WideMlp) {
  const ModelSpec m = parse_model_config(kGpt2, "gpt2/config.json");
  EXPECT_EQ(m.arch->name, "GPT-2");
  EXPECT_EQ(m.d_model, 768);
  EXPECT_EQ(m.n_heads, 12);
  EXPECT_EQ(m.n_kv_heads, 12);
  EXPECT_EQ(m.d_head, 64);
  EXPECT_EQ(m.d_ff, 3072) << "n_inner null means 4 * n_embd";
  EXPECT_EQ(m.n_layers, 12);
  EXPECT_EQ(m.vocab, 50257);
  EXPECT_EQ(m.max_positions, 1024);
  EXPECT_EQ(m.activation, "gelu_new");
  EXPECT_TRUE(m.qkv_bias);
  EXPECT_TRUE(m.tied_embeddings);
  EXPECT_TRUE(m.causal);
}

TEST(ModelConfig, LlamaFamilyReadsGroupedHeadsRopeAndTies) {
  const ModelSpec tiny = parse_model_config(kTinyLlama, "TinyLlama/config.json");
  EXPECT_EQ(tiny.arch->name, "Llama family");
  EXPECT_EQ(tiny.n_heads / tiny.n_kv_heads, 8);
  EXPECT_EQ(tiny.d_head, 64);
  EXPECT_EQ(tiny.d_ff, 5632);
  EXPECT_EQ(tiny.rope_theta, 10000.0);
  EXPECT_EQ(tiny.rope_scaling.type, "");
  EXPECT_FALSE(tiny.tied_embeddings);
  EXPECT_FALSE(tiny.qkv_bias);
  EXPECT_EQ(tiny.norm_eps, 1e-5);

  const ModelSpec l3 = parse_model_config(kLlama32, "Llama-3.2-1B/config.json");
  EXPECT_EQ(l3.n_kv_heads, 8);
  EXPECT_EQ(l3.rope_theta, 500000.0);
  EXPECT_EQ(l3.rope_scaling.type, "llama3");
  EXPECT_EQ(l3.rope_scaling.factor, 32.0);
  EXPECT_EQ(l3.rope_scaling.original_max_positions, 8192);
  EXPECT_TRUE(l3.tied_embeddings);

  const ModelSpec qwen = parse_model_config(kQwen, "Qwen2.5-0.5B/config.json");
  EXPECT_EQ(qwen.model_type, "qwen2");
  EXPECT_EQ(qwen.d_head, 64);  // 896 / 14
  EXPECT_EQ(qwen.n_kv_heads, 2);
  EXPECT_TRUE(qwen.qkv_bias);
  EXPECT_TRUE(qwen.tied_embeddings);
  EXPECT_EQ(qwen.norm_eps, 1e-6);
}

TEST(ModelConfig, BertIsBidirectionalWithTokenTypes) {
  const ModelSpec m = parse_model_config(kBert, "bert-base-uncased/config.json");
  EXPECT_EQ(m.arch->name, "BERT");
  EXPECT_FALSE(m.causal);
  EXPECT_EQ(m.type_vocab, 2);
  EXPECT_EQ(m.norm_eps, 1e-12);
  EXPECT_EQ(m.activation, "gelu");
  EXPECT_EQ(m.d_head, 64);
  EXPECT_EQ(m.max_positions, 512);
}

TEST(ModelConfig, Phi3AndGemmaAreRowsOfTheTable) {
  const ModelSpec phi = parse_model_config(kPhi3, "Phi-3-mini-4k-instruct/config.json");
  EXPECT_EQ(phi.arch->name, "Phi-3");
  EXPECT_TRUE(phi.arch->fused_qkv());
  EXPECT_TRUE(phi.arch->fused_gate_up());
  EXPECT_EQ(phi.d_head, 96);
  EXPECT_EQ(phi.n_kv_heads, 32);
  EXPECT_EQ(phi.d_ff, 8192);
  EXPECT_EQ(phi.act, Activation::Silu);
  EXPECT_FALSE(phi.tied_embeddings);
  EXPECT_FALSE(phi.qkv_bias || phi.o_bias || phi.mlp_bias);
  EXPECT_EQ(phi.norm_eps, 1e-5);

  const ModelSpec gemma = parse_model_config(kGemma, "gemma-2b/config.json");
  EXPECT_EQ(gemma.arch->name, "Gemma");
  EXPECT_EQ(gemma.arch->norm, NormKind::RmsNormOnePlusWeight);
  EXPECT_TRUE(gemma.arch->scale_embeddings);
  EXPECT_EQ(gemma.d_head, 256);
  EXPECT_EQ(gemma.n_kv_heads, 1);
  EXPECT_EQ(gemma.act, Activation::GeluTanh) << "hidden_activation is the one GemmaMLP reads";
  EXPECT_TRUE(gemma.tied_embeddings);
  EXPECT_EQ(gemma.max_positions, 8192);
  // Without hidden_activation, transformers' GemmaMLP uses gelu_pytorch_tanh (not hidden_act).
  std::string no_activation = kGemma;
  no_activation.replace(no_activation.find(R"("hidden_activation": "gelu_pytorch_tanh",)"),
                        std::string(R"("hidden_activation": "gelu_pytorch_tanh",)").size(), "");
  EXPECT_EQ(parse_model_config(no_activation, "c").act, Activation::GeluTanh);
  // A config without model_type is known by its class.
  const ModelSpec by_class = parse_model_config(
      R"({"architectures": ["GemmaForCausalLM"], "hidden_size": 32, "num_attention_heads": 4,
          "num_hidden_layers": 1, "vocab_size": 9, "intermediate_size": 8})",
      "c");
  EXPECT_EQ(by_class.model_type, "gemma");
  EXPECT_EQ(by_class.d_head, 256) << "GemmaConfig's default head_dim";
}

// The table's rows: each model_type opens one row only, each row names what its flags need.
TEST(ModelConfig, EveryRowIsComplete) {
  std::vector<std::string> seen;
  for (const Architecture& a : architectures()) {
    for (const std::string& type : a.model_types) {
      EXPECT_EQ(std::count(seen.begin(), seen.end(), type), 0) << type;
      seen.push_back(type);
      EXPECT_EQ(architecture_for(type, {}), &a) << type;
    }
    const TensorNames& n = a.tensors;
    EXPECT_FALSE(n.token_embedding.empty() || n.layer.empty() || n.o.empty() || n.down.empty())
        << a.name;
    EXPECT_NE(a.fused_qkv(), !n.q.empty() && !n.k.empty() && !n.v.empty()) << a.name;
    EXPECT_EQ(a.positions == Positions::Learned, !n.position_embedding.empty()) << a.name;
    EXPECT_EQ(a.mlp == MlpKind::Gated, a.fused_gate_up() || !n.gate.empty()) << a.name;
    EXPECT_NE(a.fused_gate_up(), !n.up.empty()) << a.name;
    for (const std::string& name : a.keys.activations) {
      Activation act;
      EXPECT_TRUE(activation_named(name, act)) << a.name << " " << name;
    }
  }
  EXPECT_EQ(known_model_types(), "gpt2, llama, mistral, qwen2, bert, phi3 or gemma");
}

TEST(ModelConfig, ConfigsThatCannotOpenNameTheKeyAtFault) {
  const auto refusal = [](const std::string& text) -> std::string {
    try {
      parse_model_config(text, "m/config.json");
    } catch (const UserError& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(refusal("not json").find("m/config.json: is not JSON"), std::string::npos);
  EXPECT_NE(refusal(R"({"model_type": "t5"})").find("\"t5\" is not one this app opens"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"model_type": "gpt2", "n_head": 12})").find("has no \"n_embd\""),
            std::string::npos);
  EXPECT_NE(refusal(R"({"model_type": "gpt2", "n_embd": -1, "n_head": 12})")
                .find("\"n_embd\" must be a positive whole number"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"model_type": "bert", "hidden_size": 10, "num_attention_heads": 4,
                        "num_hidden_layers": 1, "vocab_size": 5, "intermediate_size": 8})")
                .find("not divisible by 4 heads"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 8,
                        "num_key_value_heads": 3, "num_hidden_layers": 1, "vocab_size": 5,
                        "intermediate_size": 8})")
                .find("3 K/V heads do not divide 8"),
            std::string::npos);
  EXPECT_NE(refusal(R"({"model_type": "llama", "hidden_size": 64, "num_attention_heads": 8,
                        "num_hidden_layers": 1, "vocab_size": 5, "intermediate_size": 8,
                        "rope_scaling": {"rope_type": "yarn", "factor": 4}})")
                .find("\"yarn\" is not supported"),
            std::string::npos);
}

// Hostile configs: sizes no model has (whose products would overflow int64 further on), values of
// the wrong type, activations the forward pass does not compute, and strings that would break
// the message's one line; each refused in one line naming the key.
TEST(ModelConfig, HostileConfigsAreRefusedInOneLineByTheirKey) {
  const std::string llama = R"({"model_type": "llama", "hidden_size": 32,
      "num_attention_heads": 4, "num_hidden_layers": 2, "vocab_size": 150,
      "intermediate_size": 64, )";
  const std::string gpt2 =
      R"({"model_type": "gpt2", "n_embd": 32, "n_head": 4, "n_layer": 2, "vocab_size": 120, )";
  struct Case {
    std::string text, expected;
  } cases[] = {
      {gpt2 + R"("n_positions": 1000000000000})", "\"n_positions\" is 1000000000000, larger"},
      {gpt2 + R"("n_inner": 4611686018427387904})", "\"n_inner\" is 4611686018427387904"},
      // 4 * (2^62 + 8) wraps to 32 in int64, the width of the real weights
      {llama + R"("head_dim": 4611686018427387912, "num_key_value_heads": 4})",
       "\"head_dim\" is 4611686018427387912, larger than any model's"},
      {gpt2 + R"("activation_function": "relu"})",
       "\"activation_function\" \"relu\" is not supported (gelu_new, gelu, gelu_pytorch_tanh"},
      {llama + R"("hidden_act": "gelu"})", "\"hidden_act\" \"gelu\" is not supported (silu"},
      {gpt2 + R"("activation_function": 7})", "\"activation_function\" must be a string"},
      {gpt2 + R"("tie_word_embeddings": "false"})",
       "\"tie_word_embeddings\" must be true or false"},
      {R"({"model_type": 7})", "\"model_type\" must be a string"},
      {R"({"model_type": "t5\nsecond line"})", "model_type \"t5\\nsecond line\" is not one"},
      {R"({"model_type": ")" + std::string(5000, 'x') + R"("})", "...\" is not one this app"},
      {llama + R"("rope_scaling": {"rope_type": "llama3", "factor": 8, "low_freq_factor": 4,
                                   "high_freq_factor": 4}})",
       "high_freq_factor must be larger than its low_freq_factor"},
      {std::string(kPhi3).replace(std::string(kPhi3).find(R"("rope_scaling": null)"), 20,
                                  R"("rope_scaling": {"type": "longrope"})"),
       "rope_scaling type \"longrope\" is not supported"},
      {llama + R"("partial_rotary_factor": 0.75})", "\"partial_rotary_factor\" other than 1"},
      {std::string(kGemma).replace(std::string(kGemma).find(R"("hidden_activation": "gelu_p)"), 22,
                                   R"("hidden_activation": "relu", "x": "gelu_p)"),
       "\"hidden_activation\" \"relu\" is not supported"},
  };
  for (const Case& c : cases) {
    std::string message;
    try {
      parse_model_config(c.text, "m/config.json");
    } catch (const UserError& e) {
      message = e.what();
    }
    EXPECT_NE(message.find(c.expected), std::string::npos)
        << "want '" << c.expected << "', got '" << message << "'";
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_LT(message.size(), 300u) << message;
  }
  // The activations the forward computes are accepted.
  EXPECT_EQ(parse_model_config(gpt2 + R"("activation_function": "gelu"})", "c").activation, "gelu");
  EXPECT_EQ(parse_model_config(llama + R"("hidden_act": "swish"})", "c").activation, "swish");
}

}  // namespace
}  // namespace attnlab
