// FlashAttention's tiled forward pass as a kernel: the same output as forward() (core/model/
// forward.hpp) without ever holding a (T, T_k) matrix, so it runs where the ordinary trace is
// refused by the memory cap. Parallel over (sequence, head, query block); causal, padding and
// window masks skip the tiles they hide entirely. Every position encoding: RoPE turns q and k
// before the tiles, ALiBi's bias is added inside each tile (the per-head kernel's score step,
// from the head's slope as FlashAttention-2 does, or from a given map).
#pragma once

#include <vector>

#include "core/flash/tile_plan.hpp"
#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/model/run_control.hpp"

namespace attnlab {

struct FlashResult {
  Tensor out;              // (B, T, d_out), as forward() returns
  FlashCounters counters;  // what the run computed, skipped and held
  // The row statistics a FlashAttention forward keeps (its backward pass needs them), each
  // (B, h, T): m, the largest visible score of the row (-inf: none), and l, sum_j exp(s_j - m).
  std::vector<Scalar> row_max, row_sum;
};

// Why `config` cannot run tiled ("" when it can): a setting validate() refuses (the trace's memory
// cap aside), unusable tile sizes, what only the traced run computes (mistakes, dropout, latent
// attention, shape-only), or more memory than the cap for Q, K, V, the output and the tiles.
std::string flash_unavailable(const Config& config, TileSizes tiles);

// Bytes the tiled run allocates: X, the parameters, Q, K, V, the concat and the output (the
// plan's sizes: tiled_bytes_needed), the row statistics and each worker's tiles (float32); the cap
// is checked against this. Linear in T: ALiBi's bias is computed inside each tile, never held.
int64_t flash_bytes_needed(const Config& config, TileSizes tiles);

// `inputs` complete (see flash_inputs), except ALiBi's bias: its (h, T, T_k) map is added when the
// inputs hold one (any additive bias), else -m_h |t - s| is computed in each tile. Throws UserError
// with flash_unavailable()'s reason, Cancelled when `control` asks.
FlashResult flash_forward(const Config& config, const Inputs& inputs, TileSizes tiles,
                          const RunControl& control = {});

// The config's inputs completed from its sentence (as the trace's are), without running a trace;
// ALiBi's bias map only when `given` holds one (else each tile computes it from the slopes).
Inputs flash_inputs(const Config& config, const Inputs& given = {});

// The threads the tiled run uses.
int64_t flash_workers();

}  // namespace attnlab
