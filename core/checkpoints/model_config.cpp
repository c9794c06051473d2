#include "core/checkpoints/model_config.hpp"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/limits/bounded_read.hpp"
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
  std::string activation(const char* key, const std::vector<std::string>& known) const {
    const std::string name = text_or(key, known.front());
    std::string list;
    for (const std::string& k : known) {
      if (name == k) return name;
      list += (list.empty() ? "" : ", ") + k;
    }
    refuse(std::string("\"") + key + "\" " + brief(name) + " is not supported (" + list + " are)");
  }
  const json& at(const char* key) const { return config_[key]; }
  const std::string& label() const { return label_; }

 private:
  const json& config_;
  std::string label_;
};

// RoPE's base and scaling: rope_theta, and rope_scaling as Llama 3 or linear (others refused).
void read_rope(const ConfigReader& c, ModelSpec& m) {
  m.rope_theta = c.number_or("rope_theta", 10000);
  if (c.has("partial_rotary_factor") &&
      !(c.at("partial_rotary_factor").is_number() && c.at("partial_rotary_factor") == 1.0))
    c.refuse("\"partial_rotary_factor\" other than 1 is not supported (RoPE turns the whole head)");
  if (!c.has("rope_scaling")) return;
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

// The sizes and choices of a model of row `a`, from the keys the row names.
void read_sizes(const ConfigReader& c, const Architecture& a, ModelSpec& m) {
  const ConfigKeys& k = a.keys;
  m.d_model = c.size(k.d_model.c_str());
  m.n_heads = c.size(k.n_heads.c_str());
  m.n_layers = c.size(k.n_layers.c_str());
  m.vocab = c.size(k.vocab.c_str());
  m.d_ff = k.d_ff_per_width > 0 ? c.size_or(k.d_ff.c_str(), k.d_ff_per_width * m.d_model)
                                : c.size(k.d_ff.c_str());
  if (!k.n_kv_heads.empty()) m.n_kv_heads = c.size_or(k.n_kv_heads.c_str(), m.n_heads);
  if (!k.head_dim.empty()) m.d_head = c.size_or(k.head_dim.c_str(), k.head_dim_default);
  m.max_positions = k.max_positions_default;
  for (auto key = k.max_positions.rbegin(); key != k.max_positions.rend(); ++key)
    m.max_positions = c.size_or(key->c_str(), m.max_positions);  // the first key present wins
  m.norm_eps = c.number_or(k.norm_eps.c_str(), k.norm_eps_default);
  m.activation = c.activation(k.activation.c_str(), k.activations);
  activation_named(m.activation, m.act);
  if (!k.type_vocab.empty()) m.type_vocab = c.size_or(k.type_vocab.c_str(), k.type_vocab_default);
  m.tied_embeddings = k.tied.empty() ? k.tied_default : c.flag_or(k.tied.c_str(), k.tied_default);
  const bool attention_bias =
      !k.attention_bias.empty() && c.flag_or(k.attention_bias.c_str(), false);
  m.qkv_bias = a.qkv_bias || attention_bias;
  m.o_bias = a.o_bias || attention_bias;
  m.mlp_bias = a.mlp_bias || (!k.mlp_bias.empty() && c.flag_or(k.mlp_bias.c_str(), false));
  m.causal = a.causal;
  if (a.positions == Positions::RopeRotateHalf) read_rope(c, m);
}

// config.json's "architectures" (class names), when it is a list of strings.
std::vector<std::string> classes_of(const json& config) {
  std::vector<std::string> classes;
  if (config.contains("architectures") && config["architectures"].is_array())
    for (const json& name : config["architectures"])
      if (name.is_string()) classes.push_back(name.get<std::string>());
  return classes;
}

}  // namespace

ModelSpec parse_model_config(const std::string& text, const std::string& label) {
  const json config = json::parse(text, nullptr, false);
  if (config.is_discarded() || !config.is_object())
    throw UserError(label + ": is not JSON (a model folder's config.json is a JSON object)");
  const ConfigReader c(config, label);
  ModelSpec m;
  m.model_type = c.text_or("model_type", "");
  m.arch = architecture_for(m.model_type, classes_of(config));
  if (!m.arch)
    c.refuse("model_type " + brief(m.model_type) + " is not one this app opens: choose a " +
             known_model_types() + " model");
  if (m.model_type.empty()) m.model_type = m.arch->model_types.front();
  read_sizes(c, *m.arch, m);
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
  std::error_code missing;
  if (!std::filesystem::exists(path, missing))
    throw UserError(folder +
                    ": has no config.json (a Hugging Face model's) nor model.json (a model "
                    "attnlab-cli train saved): give the folder of a downloaded or trained model");
  return parse_model_config(read_bounded(path.string(), limits::kModelJson), path.string());
}

}  // namespace attnlab
