#include "core/checkpoints/model_config.hpp"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/model/errors.hpp"

namespace attnlab {

namespace {

using nlohmann::json;

// Sizes above this are refused: no published model comes near (Llama 4's 10M positions), and the
// product of any two sizes (a weight's elements, heads * head_dim) stays far inside int64.
constexpr int64_t kMaxSize = int64_t{1} << 30;

// A string from the file, quoted for a one-line message: control characters escaped, invalid
// UTF-8 replaced, at most 60 characters.
std::string brief(const std::string& text) {
  std::string q = json(text).dump(-1, ' ', false, json::error_handler_t::replace);
  if (q.size() > 60) q = q.substr(0, 56) + "...\"";
  return q;
}

class ConfigReader {
 public:
  ConfigReader(const json& config, std::string label) : config_(config), label_(std::move(label)) {}

  [[noreturn]] void refuse(const std::string& what) const { throw UserError(label_ + ": " + what); }
  bool has(const char* key) const { return config_.contains(key) && !config_[key].is_null(); }
  // A positive whole number under `key`.
  int64_t size(const char* key) const {
    if (!has(key)) refuse(std::string("has no \"") + key + "\": is this a model's config.json?");
    const json& value = config_[key];
    if (!value.is_number_integer() || value.get<int64_t>() <= 0)
      refuse(std::string("\"") + key + "\" must be a positive whole number");
    if (value.get<int64_t>() > kMaxSize)
      refuse(std::string("\"") + key + "\" is " + std::to_string(value.get<int64_t>()) +
             ", larger than any model's (at most " + std::to_string(kMaxSize) + ")");
    return value.get<int64_t>();
  }
  int64_t size_or(const char* key, int64_t fallback) const {
    return has(key) ? size(key) : fallback;
  }
  double number_or(const char* key, double fallback) const {
    if (!has(key)) return fallback;
    if (!config_[key].is_number() || config_[key].get<double>() <= 0)
      refuse(std::string("\"") + key + "\" must be a positive number");
    return config_[key].get<double>();
  }
  std::string text_or(const char* key, const std::string& fallback) const {
    if (!has(key)) return fallback;
    if (!config_[key].is_string()) refuse(std::string("\"") + key + "\" must be a string");
    return config_[key].get<std::string>();
  }
  bool flag_or(const char* key, bool fallback) const {
    if (!has(key)) return fallback;
    if (!config_[key].is_boolean()) refuse(std::string("\"") + key + "\" must be true or false");
    return config_[key].get<bool>();
  }
  // The activation under `key`, one of `known` (the first is the default).
  std::string activation(const char* key, std::initializer_list<const char*> known) const {
    const std::string name = text_or(key, *known.begin());
    std::string list;
    for (const char* k : known) {
      if (name == k) return name;
      list += std::string(list.empty() ? "" : ", ") + k;
    }
    refuse(std::string("\"") + key + "\" " + brief(name) + " is not supported (" + list + " are)");
  }
  const json& at(const char* key) const { return config_[key]; }
  const std::string& label() const { return label_; }

 private:
  const json& config_;
  std::string label_;
};

void read_gpt2(const ConfigReader& c, ModelSpec& m) {
  m.family = ModelFamily::Gpt2;
  m.d_model = c.size("n_embd");
  m.n_heads = c.size("n_head");
  m.n_layers = c.size("n_layer");
  m.vocab = c.size("vocab_size");
  m.max_positions = c.size_or("n_positions", c.size_or("n_ctx", 1024));
  m.d_ff = c.size_or("n_inner", 4 * m.d_model);  // null in the published configs: 4 * n_embd
  m.norm_eps = c.number_or("layer_norm_epsilon", 1e-5);
  m.activation = c.activation("activation_function", {"gelu_new", "gelu", "gelu_pytorch_tanh"});
  m.qkv_bias = true;
  m.tied_embeddings = c.flag_or("tie_word_embeddings", true);
}

// The sizes Llama-family and BERT configs both name as transformers' own classes do.
void read_hidden_sizes(const ConfigReader& c, ModelSpec& m) {
  m.d_model = c.size("hidden_size");
  m.n_heads = c.size("num_attention_heads");
  m.n_layers = c.size("num_hidden_layers");
  m.vocab = c.size("vocab_size");
  m.d_ff = c.size("intermediate_size");
}

void read_llama(const ConfigReader& c, ModelSpec& m) {
  m.family = ModelFamily::Llama;
  read_hidden_sizes(c, m);
  m.n_kv_heads = c.size_or("num_key_value_heads", m.n_heads);
  m.d_head = c.size_or("head_dim", 0);
  m.max_positions = c.size_or("max_position_embeddings", 2048);
  m.norm_eps = c.number_or("rms_norm_eps", 1e-6);
  m.activation = c.activation("hidden_act", {"silu", "swish"});
  m.rope_theta = c.number_or("rope_theta", 10000);
  m.tied_embeddings = c.flag_or("tie_word_embeddings", false);  // transformers' default
  m.qkv_bias = m.model_type == "qwen2" || c.flag_or("attention_bias", false);
  if (c.has("rope_scaling")) {
    const json& s = c.at("rope_scaling");
    if (!s.is_object()) c.refuse("\"rope_scaling\" must be an object or null");
    const ConfigReader scaling(s, c.label() + " rope_scaling");
    m.rope_scaling.type = scaling.text_or("rope_type", scaling.text_or("type", ""));
    if (m.rope_scaling.type != "llama3" && m.rope_scaling.type != "linear" &&
        m.rope_scaling.type != "default")
      c.refuse("rope_scaling type " + brief(m.rope_scaling.type) +
               " is not supported (llama3 and linear are)");
    if (m.rope_scaling.type == "default") m.rope_scaling.type.clear();
    m.rope_scaling.factor = scaling.number_or("factor", 1);
    m.rope_scaling.low_freq_factor = scaling.number_or("low_freq_factor", 1);
    m.rope_scaling.high_freq_factor = scaling.number_or("high_freq_factor", 4);
    m.rope_scaling.original_max_positions =
        scaling.size_or("original_max_position_embeddings", m.max_positions);
    if (m.rope_scaling.type == "llama3" &&
        !(m.rope_scaling.high_freq_factor > m.rope_scaling.low_freq_factor))
      c.refuse("rope_scaling's high_freq_factor must be larger than its low_freq_factor");
  }
}

void read_bert(const ConfigReader& c, ModelSpec& m) {
  m.family = ModelFamily::Bert;
  read_hidden_sizes(c, m);
  m.max_positions = c.size_or("max_position_embeddings", 512);
  m.type_vocab = c.size_or("type_vocab_size", 2);
  m.norm_eps = c.number_or("layer_norm_eps", 1e-12);
  m.activation = c.activation("hidden_act", {"gelu", "gelu_new", "gelu_pytorch_tanh"});
  m.qkv_bias = true;
  m.tied_embeddings = true;
  m.causal = false;
}

}  // namespace

const char* family_name(ModelFamily family) {
  switch (family) {
    case ModelFamily::Gpt2:
      return "GPT-2";
    case ModelFamily::Llama:
      return "Llama family";
    case ModelFamily::Bert:
      return "BERT";
  }
  return "";
}

ModelSpec parse_model_config(const std::string& text, const std::string& label) {
  const json config = json::parse(text, nullptr, false);
  if (config.is_discarded() || !config.is_object())
    throw UserError(label + ": is not JSON (a model folder's config.json is a JSON object)");
  const ConfigReader c(config, label);
  ModelSpec m;
  m.model_type = c.text_or("model_type", "");
  if (m.model_type == "gpt2") {
    read_gpt2(c, m);
  } else if (m.model_type == "llama" || m.model_type == "mistral" || m.model_type == "qwen2") {
    read_llama(c, m);
  } else if (m.model_type == "bert") {
    read_bert(c, m);
  } else {
    c.refuse("model_type " + brief(m.model_type) +
             " is not one this app opens: choose a gpt2, llama, mistral, qwen2 or bert model");
  }
  if (m.n_kv_heads == 0) m.n_kv_heads = m.n_heads;
  if (m.d_head == 0) {
    if (m.d_model % m.n_heads != 0)
      c.refuse("the width " + std::to_string(m.d_model) + " is not divisible by " +
               std::to_string(m.n_heads) + " heads");
    m.d_head = m.d_model / m.n_heads;
  }
  if (m.n_heads % m.n_kv_heads != 0)
    c.refuse(std::to_string(m.n_kv_heads) + " K/V heads do not divide " +
             std::to_string(m.n_heads) + " query heads");
  return m;
}

ModelSpec read_model_config(const std::string& folder) {
  const std::filesystem::path path = std::filesystem::path(folder) / "config.json";
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw UserError(folder +
                    ": has no config.json (a Hugging Face model's) nor model.json (a model "
                    "attnlab-cli train saved): give the folder of a downloaded or trained model");
  std::stringstream text;
  text << in.rdbuf();
  return parse_model_config(text.str(), path.string());
}

}  // namespace attnlab
