#include "core/model/inputs.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <vector>

#include "core/kernels/parallel.hpp"
#include "core/kernels/rng.hpp"
#include "core/model/errors.hpp"

namespace attnlab {

namespace {

// The deterministic N(0, 1) part of a token's embedding, seeded by its lower-cased text.
std::vector<Scalar> token_vector(const std::string& token, int64_t width) {
  std::string lower = token;
  for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  Rng rng(fnv1a64(lower));
  std::vector<Scalar> vec(static_cast<size_t>(width));
  for (Scalar& v : vec) v = static_cast<Scalar>(rng.normal());
  return vec;
}

}  // namespace

Tensor embed_tokens(const std::vector<std::string>& tokens, int64_t batch, int64_t width,
                    const Tensor& pos) {
  const auto T = static_cast<int64_t>(tokens.size());
  Tensor x = Tensor::empty("x", {batch, T, width});  // every row written below
  Scalar* out = x.data();
  std::map<std::string, std::vector<Scalar>> seen;  // repeated tokens share one draw
  for (int64_t t = 0; t < T; ++t) {
    const std::string& token = tokens[static_cast<size_t>(t)];
    auto it = seen.find(token);
    if (it == seen.end()) it = seen.emplace(token, token_vector(token, width)).first;
    std::vector<Scalar> vec = it->second;  // (width)
    if (pos.storage())
      for (int64_t i = 0; i < width; ++i) vec[size_t(i)] += pos.data()[t * width + i];
    for (int64_t b = 0; b < batch; ++b)
      std::copy(vec.begin(), vec.end(), out + (b * T + t) * width);
  }
  return x;
}

namespace {

// U(-bound, bound) as PyTorch's nn.Linear initialises (bound = 1/sqrt(fan_in)); each element
// drawn from its own counter, so the fill can be split over cores and stays reproducible.
Tensor random_tensor(const std::string& name, Shape shape, uint64_t seed, double bound) {
  Tensor t = Tensor::empty(name, std::move(shape));  // every element drawn below
  const uint64_t stream = fnv1a64(name) ^ (seed * 0x9e3779b97f4a7c15ULL);
  Scalar* values = t.data();
  parallel_for(t.numel(), 20.0 * double(t.numel()), [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i)
      values[i] = static_cast<Scalar>(bound * (2.0 * uniform_at(stream, i) - 1.0));
  });
  return t;
}

}  // namespace

Tensor position_table(PositionEncoding encoding, int64_t T, int64_t width, uint64_t seed,
                      const std::string& name) {
  if (encoding == PositionEncoding::Learned) return random_tensor(name, {T, width}, seed, 1.0);
  if (encoding != PositionEncoding::Sinusoidal) return Tensor();
  const std::vector<double> table = sinusoidal_table(T, width);  // (T, width)
  Tensor pe = Tensor::empty(name, {T, width});
  for (size_t i = 0; i < table.size(); ++i) pe.data()[i] = static_cast<Scalar>(table[i]);
  return pe;
}

Tensor alibi_bias_tensor(int64_t heads, int64_t T, int64_t Tk) {
  const std::vector<double> slopes = alibi_slopes(heads);
  Tensor bias = Tensor::empty("alibi_bias", {heads, T, Tk});  // (h, T, T_k)
  Scalar* out = bias.data();
  for (int64_t hd = 0; hd < heads; ++hd)
    for (int64_t t = 0; t < T; ++t)
      for (int64_t s = 0; s < Tk; ++s)
        *out++ = static_cast<Scalar>(alibi_bias(slopes[size_t(hd)], t, s));
  return bias;
}

namespace {

// Uses the given tensor (after checking its shape) or generates one.
void complete(Tensor& slot, const std::string& name, const Shape& shape, uint64_t seed,
              double bound) {
  if (!slot.storage()) {
    slot = random_tensor(name, shape, seed, bound);
    return;
  }
  if (slot.shape() != shape) {
    throw UserError(name + " has shape " + shape_to_string(slot.shape()) +
                    " but this configuration needs " + shape_to_string(shape) +
                    ": check d_in, d_model, n_heads, d_k and d_v against the file");
  }
  if (!slot.is_contiguous()) slot = slot.contiguous(name);
  slot.storage()->name = name;
}

}  // namespace

namespace {

// Every parameter this config has, with its shape and its nn.Linear initialisation bound
// U(-1/sqrt(fan_in), 1/sqrt(fan_in)); W_o and b_o only with the output projection, biases only
// when they are on.
struct ParameterSpec {
  const char* name;
  Tensor Inputs::*slot;
  Shape shape;
  double bound;
};

std::vector<ParameterSpec> parameter_specs(const Config& c) {
  const int64_t d_in = c.input_dim(), h = c.n_heads, dk = c.head_dim_k(), dv = c.head_dim_v();
  const int64_t hk = c.kv_heads();
  // What Q and K/V are projected from: X, or a latent (MLA), or X_kv (cross-attention).
  const int64_t q_in = c.q_latent > 0 ? c.q_latent : d_in;
  const int64_t kv_in = c.latent() ? c.kv_latent : c.kv_input_dim();
  const auto bound = [](int64_t fan_in) { return 1.0 / std::sqrt(double(fan_in)); };
  std::vector<ParameterSpec> specs = {{"w_q", &Inputs::w_q, {q_in, h * dk}, bound(q_in)},
                                      {"w_k", &Inputs::w_k, {kv_in, hk * dk}, bound(kv_in)},
                                      {"w_v", &Inputs::w_v, {kv_in, hk * dv}, bound(kv_in)}};
  if (c.output_proj) specs.push_back({"w_o", &Inputs::w_o, {h * dv, c.d_model}, bound(h * dv)});
  if (c.bias) {
    specs.push_back({"b_q", &Inputs::b_q, {h * dk}, bound(q_in)});
    specs.push_back({"b_k", &Inputs::b_k, {hk * dk}, bound(kv_in)});
    specs.push_back({"b_v", &Inputs::b_v, {hk * dv}, bound(kv_in)});
    if (c.output_proj) specs.push_back({"b_o", &Inputs::b_o, {c.d_model}, bound(h * dv)});
  }
  if (c.latent()) {
    specs.push_back({"w_dkv", &Inputs::w_dkv, {d_in, c.kv_latent}, bound(d_in)});
    if (c.q_latent > 0) specs.push_back({"w_dq", &Inputs::w_dq, {d_in, c.q_latent}, bound(d_in)});
    if (c.rope_dim > 0) {
      specs.push_back({"w_qr", &Inputs::w_qr, {q_in, h * c.rope_dim}, bound(q_in)});
      specs.push_back({"w_kr", &Inputs::w_kr, {d_in, c.rope_dim}, bound(d_in)});
    }
  }
  return specs;
}

}  // namespace

namespace {

// The given embeddings (after checking their shape), or the tokens' toy embeddings plus `pos`.
Tensor complete_embeddings(const Tensor& given, const std::string& name,
                           const std::vector<std::string>& tokens, const Shape& shape,
                           const char* axes, const Tensor& pos) {
  Tensor x = given.storage() ? given : embed_tokens(tokens, shape[0], shape[2], pos);
  if (x.shape() != shape) {
    throw UserError(name + " has shape " + shape_to_string(x.shape()) +
                    " but the configuration needs " + shape_to_string(shape) + " " + axes);
  }
  if (!x.is_contiguous()) x = x.contiguous(name);
  x.storage()->name = name;
  return x;
}

// Llama's RoPE: the given inverse frequencies (d_k/2, after checking their shape and values),
// or theta^(-2i/d_k) for i = 0 .. d_k/2 - 1 as transformers' default rope_init_fn computes them.
Tensor complete_inverse_frequencies(const Tensor& given, const Config& c) {
  const int64_t half = c.head_dim_k() / 2;
  if (!given.storage()) {
    const std::vector<double> frequencies = rope_inverse_frequencies(2 * half, c.rope_base());
    Tensor inv_freq = Tensor::empty("rope_inv_freq", {half});
    std::copy(frequencies.begin(), frequencies.end(), inv_freq.data());
    return inv_freq;
  }
  if (given.shape() != Shape{half}) {
    throw UserError("rope_inv_freq has shape " + shape_to_string(given.shape()) +
                    " but this configuration needs " + shape_to_string({half}) +
                    " (d_k/2 inverse frequencies, d_k = " + std::to_string(c.head_dim_k()) +
                    "): check d_k against the model");
  }
  Tensor inv_freq = given.contiguous("rope_inv_freq");
  for (Scalar f : inv_freq.to_vector())
    if (!std::isfinite(f))
      throw UserError("rope_inv_freq holds a non-finite number: every frequency must be finite");
  return inv_freq;
}

Shape inverse_frequencies_shape(const Config& c) {
  return {c.head_dim_k() / 2};
}

// The additive table for the toy x (T, d_in): the given one (after checking its shape), or the
// encoding's own. Undefined when x was given or the encoding adds nothing.
Tensor complete_position(const Tensor& given_x, const Tensor& given, const Config& c) {
  if (given_x.storage() || !is_additive(c.pos)) return Tensor();
  const Shape shape{c.tokens(), c.input_dim()};
  if (!given.storage()) return position_table(c.pos, shape[0], shape[1], c.seed, "pos");
  if (given.shape() != shape) {
    throw UserError("pos has shape " + shape_to_string(given.shape()) +
                    " but this configuration needs " + shape_to_string(shape) +
                    " (T, d_in): check seq_len and d_in against the file");
  }
  return given.contiguous("pos");
}

// ALiBi's (h, T, T_k) bias: the given one (after checking its shape), or -m_h |t - s|.
Tensor complete_alibi(const Tensor& given, const Config& c) {
  const Shape shape{c.n_heads, c.tokens(), c.key_tokens()};
  if (!given.storage()) return alibi_bias_tensor(shape[0], shape[1], shape[2]);
  if (given.shape() != shape) {
    throw UserError("alibi_bias has shape " + shape_to_string(given.shape()) +
                    " but this configuration needs " + shape_to_string(shape) +
                    " (h, T, T): check n_heads and seq_len against the file");
  }
  return given.contiguous("alibi_bias");
}

}  // namespace

Inputs complete_inputs(const Config& c, const std::vector<std::string>& tokens, Inputs given,
                       const std::vector<std::string>& tokens_kv) {
  const int64_t B = c.batch;
  Inputs in;
  in.pos = complete_position(given.x, given.pos, c);
  in.x = complete_embeddings(given.x, "x", tokens, {B, c.tokens(), c.input_dim()}, "(B, T, d_in)",
                             in.pos);
  if (c.cross()) {  // the key/value sentence has positions of its own: a table of its size
    const Tensor pos_kv = position_table(c.pos, c.key_tokens(), c.kv_input_dim(), c.seed, "pos_kv");
    in.x_kv =
        complete_embeddings(given.x_kv, "x_kv", tokens_kv, {B, c.key_tokens(), c.kv_input_dim()},
                            "(B, T_k, d_in_kv)", pos_kv);
  }
  for (const ParameterSpec& p : parameter_specs(c)) {
    in.*p.slot = given.*p.slot;  // parameters this config does not have stay undefined
    complete(in.*p.slot, p.name, p.shape, c.seed, p.bound);
  }
  if (c.rotary()) in.rope_inv_freq = complete_inverse_frequencies(given.rope_inv_freq, c);
  if (c.alibi()) in.alibi_bias = complete_alibi(given.alibi_bias, c);
  in.labels = given.labels;
  return in;
}

std::vector<Shape> parameter_shapes(const Config& c) {
  std::vector<Shape> shapes;
  for (const ParameterSpec& p : parameter_specs(c)) shapes.push_back(p.shape);
  if (c.rotary()) shapes.push_back(inverse_frequencies_shape(c));
  if (is_additive(c.pos)) shapes.push_back({c.tokens(), c.input_dim()});
  if (c.alibi()) shapes.push_back({c.n_heads, c.tokens(), c.key_tokens()});
  return shapes;
}

Inputs shape_only_inputs(const Config& c) {
  Inputs in;
  in.x = Tensor::empty("x", {c.batch, c.tokens(), c.input_dim()}, false);
  if (c.cross())
    in.x_kv = Tensor::empty("x_kv", {c.batch, c.key_tokens(), c.kv_input_dim()}, false);
  for (const ParameterSpec& p : parameter_specs(c))
    in.*p.slot = Tensor::empty(p.name, p.shape, false);
  if (c.rotary())
    in.rope_inv_freq = Tensor::empty("rope_inv_freq", inverse_frequencies_shape(c), false);
  if (is_additive(c.pos)) in.pos = Tensor::empty("pos", {c.tokens(), c.input_dim()}, false);
  if (c.alibi())
    in.alibi_bias = Tensor::empty("alibi_bias", {c.n_heads, c.tokens(), c.key_tokens()}, false);
  return in;
}

}  // namespace attnlab
