// The attention-only transformer's sizes and its named parameters, in the order they are saved.
// One list serves the weights, their gradients and the optimiser's moments.
#pragma once

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "core/position/position_encoding.hpp"
#include "core/tensor/tensor.hpp"

namespace attnlab::training {

// Sizes of the model (issue 12): tokens (B, T) of a vocabulary V, L layers of z = z + MHA(z)
// [+ MLP], one or more output heads of vocabularies V_j, positions as `pos` says (issue 23).
struct ModelShape {
  int64_t layers = 1;    // L (1 or 2)
  int64_t heads = 2;     // h
  int64_t d_model = 32;  // D
  int64_t d_k = 0;       // per-head width of Q, K and V; 0 = D / h
  int64_t seq_len = 12;  // T
  int64_t vocab = 16;    // V
  bool mlp = false;      // z = z + relu(z W1 + b1) W2 + b2 after each attention block
  bool bias = true;      // b_q, b_k, b_v, b_o
  bool causal = true;    // query i sees keys j <= i; false = bidirectional
  // How positions enter (core/training/position_layers.hpp); only `learned` has a table, pos_emb
  // (T, D), and so only it cannot read sequences longer than T.
  PositionEncoding pos = PositionEncoding::Learned;
  std::vector<int64_t> output_vocab{16};  // V_j of each output head

  int64_t head_dim() const { return d_k > 0 ? d_k : d_model / heads; }
  int64_t qkv_width() const { return heads * head_dim(); }  // h*d_k (= h*d_v)
  int64_t hidden() const { return 4 * d_model; }            // the MLP's width
};

// Row-major, as the .npy files and the core's tensors are.
template <typename S>
using Matrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Where each parameter sits in the list (-1: this model does not have it).
struct LayerSlots {
  int w_q = -1, w_k = -1, w_v = -1, w_o = -1;
  int b_q = -1, b_k = -1, b_v = -1, b_o = -1;
  int mlp_w1 = -1, mlp_b1 = -1, mlp_w2 = -1, mlp_b2 = -1;
};

struct ParameterLayout {
  std::vector<std::string> names;  // "tok_emb", "layer0.w_q", "unembed0_bias", ...
  std::vector<Shape> shapes;       // as saved: biases are 1-D
  int tok_emb = -1, pos_emb = -1;  // pos_emb: -1 unless the encoding is learned
  std::vector<LayerSlots> layers;
  std::vector<int> unembed, unembed_bias;  // one per output
};

ParameterLayout parameter_layout(const ModelShape& shape);

// Every parameter as a matrix: a 1-D bias (n) is a (1, n) row.
template <typename S>
struct Parameters {
  ParameterLayout layout;
  std::vector<Matrix<S>> values;

  Matrix<S>& operator[](int slot) { return values[size_t(slot)]; }
  const Matrix<S>& operator[](int slot) const { return values[size_t(slot)]; }
  int64_t count() const;  // number of scalars
};

// All zeros, shaped for `shape` (gradients, Adam's moments).
template <typename S>
Parameters<S> zero_parameters(const ModelShape& shape);

// PyTorch's defaults: embeddings N(0, 1) as nn.Embedding, every weight and bias
// U(-1/sqrt(fan_in), 1/sqrt(fan_in)) as nn.Linear. The same seed gives the same values.
Parameters<float> initial_parameters(const ModelShape& shape, uint64_t seed);

template <typename To, typename From>
Parameters<To> cast_parameters(const Parameters<From>& from) {
  Parameters<To> to{from.layout, {}};
  for (const auto& m : from.values) to.values.push_back(m.template cast<To>());
  return to;
}

// A parameter as a float32 tensor of its saved shape (for .npy).
Tensor to_tensor(const std::string& name, const Shape& shape, const Matrix<float>& value);

}  // namespace attnlab::training
