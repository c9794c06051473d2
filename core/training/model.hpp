// The attention-only transformer of issue 12: forward pass with everything the backward pass needs
// kept, the loss, and the backward pass written by hand, stage by stage. Templated on the scalar:
// float trains, double checks the gradients against finite differences.
//
//   x0 = E[tokens] (+ P)                                (B*T, D)
//   per layer l:  z = z + MHA_l(z)                      the core's multi-head attention, with
//                                                       RoPE on q, k or ALiBi on the scores
//                 [z = z + relu(z W1 + b1) W2 + b2]     with --mlp, hidden 4D
//   logits_j = z U_j + c_j                              (B*T, V_j)
//   loss = sum_j mean over targeted positions of cross-entropy(logits_j, target_j)
#pragma once

#include <cstdint>
#include <vector>

#include "core/training/parameters.hpp"
#include "core/training/position_layers.hpp"

namespace attnlab::training {

// One batch of a task: tokens (B, T) and one target row (B, T) per output, -1 = no target.
struct Batch {
  int64_t batch = 0, seq_len = 0;
  std::vector<int64_t> tokens;                // (B, T) row-major
  std::vector<std::vector<int64_t>> targets;  // per output: (B, T) row-major
};

// What the forward pass keeps of one layer (rows are b*T + t).
template <typename S>
struct LayerCache {
  Matrix<S> z_in;        // (B*T, D) the layer's input
  Matrix<S> qkv;         // (B*T, 3*h*d_k): Q | K | V, heads side by side (RoPE: Q, K turned)
  Matrix<S> weights;     // (B*h*T, T): rows (b*h + head)*T + query, softmax over keys
  Matrix<S> concat;      // (B*T, h*d_k) every head's context, as the core's concat
  Matrix<S> attention;   // (B*T, D) MHA(z_in) = concat W_o + b_o, before the residual
  Matrix<S> z_mid;       // (B*T, D) z_in + attention
  Matrix<S> mlp_hidden;  // (B*T, 4D) relu(z_mid W1 + b1), with --mlp
};

template <typename S>
struct ForwardCache {
  std::vector<LayerCache<S>> layers;
  Matrix<S> z_out;               // (B*T, D) the last layer's output
  std::vector<Matrix<S>> probs;  // per output: (B*T, V_j) softmax of the logits

  // Buffers reused from step to step (no allocation once the sizes are known).
  struct Scratch {
    Matrix<S> mlp_out;               // (B*T, D)
    Matrix<S> dz, dlogits, dconcat;  // (B*T, D), (B*T, V_j), (B*T, h*d_k)
    Matrix<S> w_qkv, dw_qkv;         // (D, 3*h*d_k) [W_q | W_k | W_v] and its gradient
    Matrix<S> dqkv;                  // (B*T, 3*h*d_k)
    Matrix<S> dhidden;               // (B*T, 4D)
    RopeAngles<S> rope;              // (T, d_k/2) cos and sin, with --pos rope
    Matrix<S> alibi;                 // (h*T, T) ALiBi's bias, with --pos alibi
  } scratch;
};

struct LossReport {
  double loss = 0;                  // summed over outputs
  std::vector<double> output_loss;  // mean cross-entropy of each output
  std::vector<double> accuracy;     // per output: argmax == target over targeted positions
};

// Forward pass and loss; fills `cache` for backward() and for the pattern scores.
template <typename S>
LossReport forward_loss(const ModelShape& shape, const Parameters<S>& params, const Batch& batch,
                        ForwardCache<S>& cache);

// Gradient of the loss of the last forward_loss() on `batch` with respect to every parameter;
// `grads` must be shaped like `params` (zero_parameters) and is overwritten. Uses the cache's
// scratch buffers.
template <typename S>
void backward(const ModelShape& shape, const Parameters<S>& params, const Batch& batch,
              ForwardCache<S>& cache, Parameters<S>& grads);

}  // namespace attnlab::training
