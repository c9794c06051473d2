#include "core/pretrained/pretrained_model.hpp"

#include <cmath>
#include <filesystem>
#include <numbers>

#include "core/checkpoints/checkpoint_weights.hpp"
#include "core/model/errors.hpp"

namespace attnlab {

namespace {

// Loads tensors by name, checking each one's shape against what config.json implies.
class TensorLoader {
 public:
  TensorLoader(const std::string& folder, const ModelSpec& spec,
               const std::function<void(int64_t, int64_t)>& progress, int64_t total)
      : folder_(folder), weights_(folder), spec_(spec), progress_(progress), total_(total) {
    weights_.read_all();  // every tensor is loaded: F32 shards in one read each, used in place
  }

  bool has(const std::string& name) const { return weights_.has(name); }

  Tensor load(const std::string& name, const Shape& expected) {
    if (!weights_.has(name))
      throw UserError(folder_ + ": the weights have no tensor \"" + name + "\" (config.json says " +
                      std::to_string(spec_.n_layers) + " layers of a " + spec_.model_type +
                      " model): the download is incomplete, or config.json is another model's");
    const Shape& shape = weights_.entry(name).shape;
    if (shape != expected)
      throw UserError(folder_ + ": tensor \"" + name + "\" is " + shape_to_string(shape) +
                      " but config.json's sizes make it " + shape_to_string(expected) +
                      ": config.json and the weights are from different models");
    Tensor t = weights_.load(name);
    if (progress_) progress_(++done_, total_);
    return t;
  }
  Tensor load_if(const std::string& name, const Shape& expected) {
    return has(name) ? load(name, expected) : Tensor();
  }
  Dense linear(const std::string& name, int64_t in, int64_t out, bool bias) {
    Dense d;
    d.w = load(name + ".weight", {out, in});
    if (bias) d.b = load(name + ".bias", {out});
    return d;
  }
  Dense conv1d(const std::string& name, int64_t in, int64_t out) {
    Dense d;
    d.out_in = false;
    d.w = load(name + ".weight", {in, out});
    d.b = load(name + ".bias", {out});
    return d;
  }
  Norm norm(const std::string& name, int64_t d, bool bias) {
    Norm n;
    n.weight = load(name + ".weight", {d});
    if (bias) n.bias = load(name + ".bias", {d});
    n.eps = spec_.norm_eps;
    return n;
  }

 private:
  std::string folder_;
  CheckpointWeights weights_;
  const ModelSpec& spec_;
  std::function<void(int64_t, int64_t)> progress_;
  int64_t total_, done_ = 0;
};

// The first of `prefixes` under which the checkpoint has `probe` ("transformer.", "bert.", "").
std::string prefix_of(const TensorLoader& t, const std::vector<std::string>& prefixes,
                      const std::string& probe) {
  for (const std::string& p : prefixes)
    if (t.has(p + probe)) return p;
  return prefixes.back();
}

void load_gpt2(TensorLoader& t, PretrainedModel& m) {
  const ModelSpec& s = m.spec;
  const int64_t d = s.d_model;
  const std::string p = prefix_of(t, {"", "transformer."}, "wte.weight");
  m.token_embedding = t.load(p + "wte.weight", {s.vocab, d});
  m.position_embedding = t.load(p + "wpe.weight", {s.max_positions, d});
  for (int64_t l = 0; l < s.n_layers; ++l) {
    const std::string h = p + "h." + std::to_string(l) + ".";
    Block b;
    b.attn_norm = t.norm(h + "ln_1", d, true);
    b.qkv = t.conv1d(h + "attn.c_attn", d, 3 * d);
    b.o = t.conv1d(h + "attn.c_proj", d, d);
    b.mlp_norm = t.norm(h + "ln_2", d, true);
    b.up = t.conv1d(h + "mlp.c_fc", d, s.d_ff);
    b.down = t.conv1d(h + "mlp.c_proj", s.d_ff, d);
    m.blocks.push_back(std::move(b));
  }
  m.final_norm = t.norm(p + "ln_f", d, true);
  m.head = s.tied_embeddings ? m.token_embedding : t.load("lm_head.weight", {s.vocab, d});
}

void load_llama(TensorLoader& t, PretrainedModel& m) {
  const ModelSpec& s = m.spec;
  const int64_t d = s.d_model, q_width = s.n_heads * s.d_head, kv_width = s.n_kv_heads * s.d_head;
  m.token_embedding = t.load("model.embed_tokens.weight", {s.vocab, d});
  for (int64_t l = 0; l < s.n_layers; ++l) {
    const std::string h = "model.layers." + std::to_string(l) + ".";
    Block b;
    b.attn_norm = t.norm(h + "input_layernorm", d, false);
    b.q = t.linear(h + "self_attn.q_proj", d, q_width, s.qkv_bias);
    b.k = t.linear(h + "self_attn.k_proj", d, kv_width, s.qkv_bias);
    b.v = t.linear(h + "self_attn.v_proj", d, kv_width, s.qkv_bias);
    b.o = t.linear(h + "self_attn.o_proj", q_width, d, false);
    b.mlp_norm = t.norm(h + "post_attention_layernorm", d, false);
    b.gate = t.linear(h + "mlp.gate_proj", d, s.d_ff, false);
    b.up = t.linear(h + "mlp.up_proj", d, s.d_ff, false);
    b.down = t.linear(h + "mlp.down_proj", s.d_ff, d, false);
    m.blocks.push_back(std::move(b));
  }
  m.final_norm = t.norm("model.norm", d, false);
  // A tied model may still carry lm_head.weight (the same values): either serves.
  m.head = t.has("lm_head.weight") ? t.load("lm_head.weight", {s.vocab, d})
           : s.tied_embeddings     ? m.token_embedding
                                   : t.load("lm_head.weight", {s.vocab, d});
  m.rope_inv_freq = rope_frequencies(s);
}

void load_bert(TensorLoader& t, PretrainedModel& m) {
  const ModelSpec& s = m.spec;
  const int64_t d = s.d_model;
  const std::string p = prefix_of(t, {"bert.", ""}, "embeddings.word_embeddings.weight");
  m.token_embedding = t.load(p + "embeddings.word_embeddings.weight", {s.vocab, d});
  m.position_embedding = t.load(p + "embeddings.position_embeddings.weight", {s.max_positions, d});
  m.type_embedding = t.load(p + "embeddings.token_type_embeddings.weight", {s.type_vocab, d});
  m.embedding_norm = t.norm(p + "embeddings.LayerNorm", d, true);
  for (int64_t l = 0; l < s.n_layers; ++l) {
    const std::string h = p + "encoder.layer." + std::to_string(l) + ".";
    Block b;
    b.q = t.linear(h + "attention.self.query", d, d, true);
    b.k = t.linear(h + "attention.self.key", d, d, true);
    b.v = t.linear(h + "attention.self.value", d, d, true);
    b.o = t.linear(h + "attention.output.dense", d, d, true);
    b.attn_norm = t.norm(h + "attention.output.LayerNorm", d, true);
    b.up = t.linear(h + "intermediate.dense", d, s.d_ff, true);
    b.down = t.linear(h + "output.dense", s.d_ff, d, true);
    b.mlp_norm = t.norm(h + "output.LayerNorm", d, true);
    m.blocks.push_back(std::move(b));
  }
  // The masked-language-model head, when the checkpoint has it (BertForMaskedLM,
  // BertForPreTraining).
  if (t.has("cls.predictions.bias")) {
    m.mlm_transform = t.linear("cls.predictions.transform.dense", d, d, true);
    m.mlm_norm = t.norm("cls.predictions.transform.LayerNorm", d, true);
    m.head_bias = t.load("cls.predictions.bias", {s.vocab});
    m.head = t.has("cls.predictions.decoder.weight")
                 ? t.load("cls.predictions.decoder.weight", {s.vocab, d})
                 : m.token_embedding;
  }
}

// Tensors a model of this spec loads (for progress).
int64_t tensor_count(const ModelSpec& s) {
  switch (s.family) {
    case ModelFamily::Gpt2:
      return 2 + 12 * s.n_layers + 2;
    case ModelFamily::Llama:
      return 1 + (9 + (s.qkv_bias ? 3 : 0)) * s.n_layers + 2;
    case ModelFamily::Bert:
      return 5 + 16 * s.n_layers + 6;
  }
  return 1;
}

}  // namespace

std::vector<float> rope_frequencies(const ModelSpec& s) {
  const int64_t half = s.d_head / 2;
  const RopeScaling& r = s.rope_scaling;
  std::vector<float> out(static_cast<size_t>(half));
  for (int64_t i = 0; i < half; ++i) {
    double f = std::pow(s.rope_theta, -2.0 * double(i) / double(s.d_head));
    if (r.type == "linear") {
      f /= r.factor;
    } else if (r.type == "llama3") {
      // transformers' _compute_llama3_parameters: long wavelengths divided by the factor, short
      // ones kept, the band between smoothly interpolated.
      const double old_len = double(r.original_max_positions);
      const double low_wavelen = old_len / r.low_freq_factor;
      const double high_wavelen = old_len / r.high_freq_factor;
      const double wavelen = 2 * std::numbers::pi / f;
      if (wavelen > low_wavelen) {
        f /= r.factor;
      } else if (wavelen >= high_wavelen) {
        const double smooth =
            (old_len / wavelen - r.low_freq_factor) / (r.high_freq_factor - r.low_freq_factor);
        f = (1 - smooth) * f / r.factor + smooth * f;
      }
    }
    out[size_t(i)] = float(f);
  }
  return out;
}

bool is_pretrained_folder(const std::string& folder) {
  std::error_code ignored;
  return !std::filesystem::exists(std::filesystem::path(folder) / "model.json", ignored);
}

PretrainedModel load_pretrained(const std::string& folder,
                                const std::function<void(int64_t, int64_t)>& progress) {
  PretrainedModel m;
  m.folder = folder;
  m.spec = read_model_config(folder);
  TensorLoader loader(folder, m.spec, progress, tensor_count(m.spec));
  switch (m.spec.family) {
    case ModelFamily::Gpt2:
      load_gpt2(loader, m);
      break;
    case ModelFamily::Llama:
      load_llama(loader, m);
      break;
    case ModelFamily::Bert:
      load_bert(loader, m);
      break;
  }
  return m;
}

}  // namespace attnlab
