// The inputs of a run: the embeddings X and the parameters. Anything not given is generated
// reproducibly from the config (toy embeddings from the tokens, seeded weights).
#pragma once

#include <string>
#include <vector>

#include "core/model/config.hpp"
#include "core/tensor/tensor.hpp"

namespace attnlab {

// Shapes use the seeds' row-vector convention, Q = X @ W_q:
//   x (B, T, d_in); w_q, w_k (d_in, h*d_k); w_v (d_in, h*d_v); w_o (h*d_v, d_model)
//   b_q, b_k (h*d_k); b_v (h*d_v); b_o (d_model)
// The variants (core/variants/) change the K/V side: n_kv heads instead of h (w_k: (d_in,
// n_kv*d_k)); with cross-attention K and V read x_kv (B, T_k, d_in_kv); with MLA they read the
// latent c_kv = x @ w_dkv (d_in, d_c), so w_k, w_v are (d_c, h*d) (W_uk, W_uv), queries may come
// from c_q = x @ w_dq (d_in, d_c') (w_q: (d_c', h*d_k)), and the rotary parts use
// w_qr ((d_c' or d_in), h*d_rope) and w_kr (d_in, d_rope).
// With Llama's RoPE (config.rope_theta > 0) rope_inv_freq (d_k/2) holds the inverse frequencies
// the pairs turn at: theta^(-2i/d_k) unless given (a model with rope_scaling brings its own).
// Word order (config.pos): pos (T, d_in) is the table added to the toy embeddings (sinusoidal, or
// learned: seeded U(-1, 1), as a table is before training); kept only when x is made from the
// tokens (a given x is used as it is). alibi_bias (h, T, T) is -m_h |t - s| (ALiBi).
// An undefined tensor (default-constructed) means "generate it".
// What a given X is, for the words beside it (a real model's layer): not tensors.
struct InputLabels {
  std::vector<std::string> tokens;  // the tokens' labels ("·John"), used when there are T of them
  std::string words;                // the input stage's words ("X = ln_1(h): ..."), or ""
};

struct Inputs {
  Tensor x;
  Tensor x_kv;
  Tensor w_q, w_k, w_v, w_o;
  Tensor b_q, b_k, b_v, b_o;
  Tensor w_dkv, w_dq, w_qr, w_kr;
  Tensor rope_inv_freq;
  Tensor pos, alibi_bias;
  InputLabels labels;
};

// Every tensor of Inputs with its name (as in presets and the export), for code that walks them
// all: a tensor added above is added here.
struct InputTensor {
  const char* name;
  Tensor Inputs::*member;
};
inline constexpr InputTensor kInputTensors[] = {{"x", &Inputs::x},
                                                {"x_kv", &Inputs::x_kv},
                                                {"w_q", &Inputs::w_q},
                                                {"w_k", &Inputs::w_k},
                                                {"w_v", &Inputs::w_v},
                                                {"w_o", &Inputs::w_o},
                                                {"b_q", &Inputs::b_q},
                                                {"b_k", &Inputs::b_k},
                                                {"b_v", &Inputs::b_v},
                                                {"b_o", &Inputs::b_o},
                                                {"w_dkv", &Inputs::w_dkv},
                                                {"w_dq", &Inputs::w_dq},
                                                {"w_qr", &Inputs::w_qr},
                                                {"w_kr", &Inputs::w_kr},
                                                {"rope_inv_freq", &Inputs::rope_inv_freq},
                                                {"pos", &Inputs::pos},
                                                {"alibi_bias", &Inputs::alibi_bias}};
static_assert(sizeof(kInputTensors) / sizeof(kInputTensors[0]) * sizeof(Tensor) +
                      sizeof(InputLabels) ==
                  sizeof(Inputs),
              "kInputTensors must list every tensor of Inputs");

// (B, T, d_in) toy embeddings: each token is a deterministic N(0,1) vector seeded by the
// lower-cased token's hash, plus row t of `pos` (T, width) when it is defined (the position
// encoding: sinusoidal_table of "Attention Is All You Need" by default).
// Every sequence of the batch is `tokens` (identical rows; masks can differ).
Tensor embed_tokens(const std::vector<std::string>& tokens, int64_t batch, int64_t width,
                    const Tensor& pos);

// The additive position table (T, width) of an encoding: sinusoidal_table, or for learned a
// seeded U(-1, 1) table (random, as before training); undefined for the others.
Tensor position_table(PositionEncoding encoding, int64_t T, int64_t width, uint64_t seed,
                      const std::string& name);

// ALiBi's bias (h, T, T_k): bias[hd, t, s] = alibi_bias(slope_hd, t, s).
Tensor alibi_bias_tensor(int64_t heads, int64_t T, int64_t Tk);

// Fills every undefined tensor of `given` (x from `tokens`, weights from config.seed) and checks
// the shapes of the ones given; throws UserError naming the tensor and the expected shape.
// Weights and biases are U(-1/sqrt(fan_in), 1/sqrt(fan_in)), as PyTorch's nn.Linear.
// `tokens_kv` are the key/value sentence's tokens (cross-attention: x_kv is embedded from them;
// empty without cross-attention). For a trace's own inputs use trace_inputs (core/trace/mha.hpp),
// which passes both from the trace.
Inputs complete_inputs(const Config& config, const std::vector<std::string>& tokens, Inputs given,
                       const std::vector<std::string>& tokens_kv);

// The same shapes with no values allocated, for shape-only mode.
Inputs shape_only_inputs(const Config& config);
// The shapes of the parameters this config has (W_q, W_k, W_v, [W_o], [biases]).
std::vector<Shape> parameter_shapes(const Config& config);

}  // namespace attnlab
