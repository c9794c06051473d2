#include "core/training/parameters.hpp"

#include <cmath>
#include <cstring>

#include "core/kernels/rng.hpp"

namespace attnlab::training {

ParameterLayout parameter_layout(const ModelShape& s) {
  ParameterLayout p;
  auto add = [&](const std::string& name, Shape shape) {
    p.names.push_back(name);
    p.shapes.push_back(std::move(shape));
    return int(p.names.size()) - 1;
  };
  const int64_t D = s.d_model, H = s.qkv_width(), V = s.vocab, T = s.seq_len;
  p.tok_emb = add("tok_emb", {V, D});
  if (s.pos == PositionEncoding::Learned) p.pos_emb = add("pos_emb", {T, D});
  for (int64_t l = 0; l < s.layers; ++l) {
    const std::string at = "layer" + std::to_string(l) + ".";
    LayerSlots slots;
    slots.w_q = add(at + "w_q", {D, H});
    slots.w_k = add(at + "w_k", {D, H});
    slots.w_v = add(at + "w_v", {D, H});
    slots.w_o = add(at + "w_o", {H, D});
    if (s.bias) {
      slots.b_q = add(at + "b_q", {H});
      slots.b_k = add(at + "b_k", {H});
      slots.b_v = add(at + "b_v", {H});
      slots.b_o = add(at + "b_o", {D});
    }
    if (s.mlp) {
      slots.mlp_w1 = add(at + "mlp_w1", {D, s.hidden()});
      slots.mlp_b1 = add(at + "mlp_b1", {s.hidden()});
      slots.mlp_w2 = add(at + "mlp_w2", {s.hidden(), D});
      slots.mlp_b2 = add(at + "mlp_b2", {D});
    }
    p.layers.push_back(slots);
  }
  for (size_t j = 0; j < s.output_vocab.size(); ++j) {
    p.unembed.push_back(add("unembed" + std::to_string(j), {D, s.output_vocab[j]}));
    p.unembed_bias.push_back(add("unembed" + std::to_string(j) + "_bias", {s.output_vocab[j]}));
  }
  return p;
}

template <typename S>
int64_t Parameters<S>::count() const {
  int64_t n = 0;
  for (const auto& m : values) n += m.size();
  return n;
}

template <typename S>
Parameters<S> zero_parameters(const ModelShape& shape) {
  Parameters<S> p{parameter_layout(shape), {}};
  for (const Shape& s : p.layout.shapes) {
    const int64_t rows = s.size() == 1 ? 1 : s[0];
    const int64_t cols = s.size() == 1 ? s[0] : s[1];
    p.values.push_back(Matrix<S>::Zero(rows, cols));
  }
  return p;
}

Parameters<float> initial_parameters(const ModelShape& shape, uint64_t seed) {
  Parameters<float> p = zero_parameters<float>(shape);
  Rng rng(seed);
  const ParameterLayout& at = p.layout;
  // fan_in of each parameter: a weight's rows; a bias takes its weight's.
  std::vector<int64_t> fan_in(p.values.size());
  for (size_t i = 0; i < p.values.size(); ++i) fan_in[i] = p.values[i].rows();
  for (size_t i = 1; i < p.values.size(); ++i)
    if (at.shapes[i].size() == 1) fan_in[i] = fan_in[i - 1];  // mlp_b1, mlp_b2, unembed bias
  for (const LayerSlots& l : at.layers) {
    if (l.b_q < 0) continue;
    for (int b : {l.b_q, l.b_k, l.b_v}) fan_in[size_t(b)] = shape.d_model;
    fan_in[size_t(l.b_o)] = shape.qkv_width();
  }
  for (size_t i = 0; i < p.values.size(); ++i) {
    Matrix<float>& m = p.values[i];
    const int slot = int(i);
    if (slot == at.tok_emb || slot == at.pos_emb) {
      for (int64_t e = 0; e < m.size(); ++e) m.data()[e] = float(rng.normal());
      continue;
    }
    const double bound = 1.0 / std::sqrt(double(fan_in[i]));
    for (int64_t e = 0; e < m.size(); ++e) m.data()[e] = float((2.0 * rng.uniform() - 1.0) * bound);
  }
  return p;
}

Tensor to_tensor(const std::string& name, const Shape& shape, const Matrix<float>& value) {
  Tensor t = Tensor::empty(name, shape);
  std::memcpy(t.data(), value.data(), sizeof(float) * size_t(value.size()));
  return t;
}

template struct Parameters<float>;
template struct Parameters<double>;
template Parameters<float> zero_parameters<float>(const ModelShape&);
template Parameters<double> zero_parameters<double>(const ModelShape&);

}  // namespace attnlab::training
