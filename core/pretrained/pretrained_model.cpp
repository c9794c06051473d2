#include "core/pretrained/pretrained_model.hpp"

#include <cmath>
#include <filesystem>
#include <numbers>

#include "core/checkpoints/checkpoint_weights.hpp"
#include "core/model/errors.hpp"
#include "core/position/position_encoding.hpp"

namespace attnlab {

namespace {

// Reads a model's tensors in two passes: the loader asks for each one (its name, the shape
// config.json implies, where it goes), each checked against the headers as it is asked for; then
// reads them all, with progress over their count.
class TensorLoader {
 public:
  TensorLoader(const std::string& folder, const ModelSpec& spec)
      : folder_(folder), weights_(folder), spec_(spec) {}

  bool has(const std::string& name) const { return weights_.has(name); }
  const std::string& dtype(const std::string& name) const { return weights_.entry(name).dtype; }

  // Throws UserError naming the folder and the tensor when the checkpoint lacks it.
  void require(const std::string& name) const {
    if (!weights_.has(name))
      throw UserError(folder_ + ": the weights have no tensor \"" + name + "\" (config.json says " +
                      std::to_string(spec_.n_layers) + " layers of a " + spec_.model_type +
                      " model): the download is incomplete, or config.json is another model's");
  }
  // Asks for tensor `name` into `into`. Throws UserError naming the folder and the tensor when
  // the checkpoint lacks it or its shape disagrees with config.json's sizes.
  void want(Tensor& into, const std::string& name, const Shape& shape) {
    require(name);
    const Shape& stored = weights_.entry(name).shape;
    if (stored != shape)
      throw UserError(folder_ + ": tensor \"" + name + "\" is " + shape_to_string(stored) +
                      " but config.json's sizes make it " + shape_to_string(shape) +
                      ": config.json and the weights are from different models");
    wanted_.push_back({&into, name});
  }
  // A projection `in` -> `out` stored in the row's layout (nn.Linear (out, in), Conv1D (in, out)).
  void dense(Dense& d, const std::string& name, int64_t in, int64_t out, bool bias) {
    d.out_in = spec_.arch->layout == WeightLayout::OutIn;
    want(d.w, name + ".weight", d.out_in ? Shape{out, in} : Shape{in, out});
    if (bias) want(d.b, name + ".bias", {out});
  }
  // The row's norm; LayerNorm's has a bias.
  void norm(Norm& n, const std::string& name) {
    n.kind = spec_.arch->norm;
    n.eps = spec_.norm_eps;
    want(n.weight, name + ".weight", {spec_.d_model});
    if (n.kind == NormKind::LayerNorm) want(n.bias, name + ".bias", {spec_.d_model});
  }

  // Every tensor asked for (throws UserError as SafetensorsFile::load does: NaN, a bad dtype).
  void read(const std::function<void(int64_t, int64_t)>& progress) {
    weights_.read_all();  // F32 shards in one read each, their weights used in place
    for (size_t i = 0; i < wanted_.size(); ++i) {
      const Wanted& w = wanted_[i];
      *w.into = weights_.load(w.name);
      if (progress) progress(int64_t(i) + 1, int64_t(wanted_.size()));
    }
  }

 private:
  struct Wanted {
    Tensor* into;
    std::string name;
  };
  std::string folder_;
  CheckpointWeights weights_;
  const ModelSpec& spec_;
  std::vector<Wanted> wanted_;
};

// The first of `prefixes` under which the checkpoint has `probe` ("transformer.", "bert.", "");
// the last when none has it (a missing tensor is then named under it).
std::string prefix_of(const TensorLoader& t, const std::vector<std::string>& prefixes,
                      const std::string& probe) {
  for (const std::string& p : prefixes)
    if (t.has(p + probe)) return p;
  return prefixes.back();
}

// `value` rounded to nearest-even in the float format of a safetensors dtype (F16 keeps 11
// significant bits, BF16 8, F32 24): what torch.tensor(value, dtype=weights' dtype) holds.
float rounded_to_dtype(double value, const std::string& dtype) {
  const int bits = dtype == "F16" ? 11 : dtype == "BF16" ? 8 : 24;
  int exponent = 0;
  const double fraction = std::frexp(value, &exponent);  // value = fraction 2^exponent
  return float(std::ldexp(std::nearbyint(std::ldexp(fraction, bits)), exponent - bits));
}

// Asks `t` for every tensor of model `m` that its row names, at the shapes its spec implies.
// Returns whether the model has an output head.
bool want_model(TensorLoader& t, PretrainedModel& m) {
  const ModelSpec& s = m.spec;
  const Architecture& a = *s.arch;
  const TensorNames& n = a.tensors;
  const int64_t d = s.d_model, q_width = s.n_heads * s.d_head, kv_width = s.n_kv_heads * s.d_head;
  const std::string p = prefix_of(t, n.prefixes, n.token_embedding);
  t.want(m.token_embedding, p + n.token_embedding, {s.vocab, d});
  if (!n.position_embedding.empty())
    t.want(m.position_embedding, p + n.position_embedding, {s.max_positions, d});
  if (!n.type_embedding.empty()) t.want(m.type_embedding, p + n.type_embedding, {s.type_vocab, d});
  if (!n.embedding_norm.empty()) t.norm(m.embedding_norm, p + n.embedding_norm);
  if (a.scale_embeddings)
    m.embedding_scale = rounded_to_dtype(std::sqrt(double(d)), t.dtype(p + n.token_embedding));
  // Every layer is in the file before any is made (config.json may claim 10^9 of them).
  for (int64_t l = 0; l < s.n_layers; ++l)
    t.require(p + with_layer(n.layer, l) + n.attn_norm + ".weight");
  m.blocks.resize(size_t(s.n_layers));  // their addresses stay put while the loader fills them
  for (int64_t l = 0; l < s.n_layers; ++l) {
    const std::string h = p + with_layer(n.layer, l);
    Block& b = m.blocks[size_t(l)];
    t.norm(b.attn_norm, h + n.attn_norm);
    if (a.fused_qkv()) {
      t.dense(b.qkv, h + n.qkv, d, q_width + 2 * kv_width, s.qkv_bias);
    } else {
      t.dense(b.q, h + n.q, d, q_width, s.qkv_bias);
      t.dense(b.k, h + n.k, d, kv_width, s.qkv_bias);
      t.dense(b.v, h + n.v, d, kv_width, s.qkv_bias);
    }
    t.dense(b.o, h + n.o, q_width, d, s.o_bias);
    t.norm(b.mlp_norm, h + n.mlp_norm);
    if (a.fused_gate_up()) {
      t.dense(b.gate_up, h + n.gate_up, d, 2 * s.d_ff, s.mlp_bias);
    } else {
      if (a.mlp == MlpKind::Gated) t.dense(b.gate, h + n.gate, d, s.d_ff, s.mlp_bias);
      t.dense(b.up, h + n.up, d, s.d_ff, s.mlp_bias);
    }
    t.dense(b.down, h + n.down, s.d_ff, d, s.mlp_bias);
  }
  if (!n.final_norm.empty()) t.norm(m.final_norm, p + n.final_norm);
  // The output head, when the family always has one or the checkpoint has its probe (BERT's MLM
  // head: BertForMaskedLM, BertForPreTraining).
  if (!n.head_probe.empty() && !t.has(n.head_probe)) return false;
  if (!n.head_transform.empty()) {
    t.dense(m.mlm_transform, n.head_transform, d, d, true);
    t.norm(m.mlm_norm, n.head_transform_norm);
  }
  if (!n.head_bias.empty()) t.want(m.head_bias, n.head_bias, {s.vocab});
  if (!s.tied_embeddings) t.want(m.head, n.head, {s.vocab, d});
  return true;
}

}  // namespace

std::vector<float> rope_frequencies(const ModelSpec& s) {
  const int64_t half = s.d_head / 2;
  const RopeScaling& r = s.rope_scaling;
  std::vector<float> out(static_cast<size_t>(half));
  const std::vector<double> base = rope_inverse_frequencies(s.d_head, s.rope_theta);  // (d_head/2)
  for (int64_t i = 0; i < half; ++i) {
    double f = base[size_t(i)];
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
  TensorLoader loader(folder, m.spec);
  const bool head = want_model(loader, m);
  loader.read(progress);
  // A tied head is the token embedding (as transformers' tie_weights makes it).
  if (head && m.spec.tied_embeddings) m.head = m.token_embedding;
  if (m.spec.arch->positions == Positions::RopeRotateHalf)
    m.rope_inv_freq = rope_frequencies(m.spec);
  return m;
}

}  // namespace attnlab
