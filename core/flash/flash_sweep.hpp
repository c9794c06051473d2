// The tiled algorithm recorded step by step for the lesson: one head of one sequence, every
// (query block, key block) in the order the kernel visits them, with each row's m and l before and
// after, the rescale factor exp(m_old - m_new) and the query block's output as it stands.
// Only for small T (kMaxSweepTokens); a longer run reports its counters alone.
#pragma once

#include <vector>

#include "core/flash/tile_plan.hpp"
#include "core/model/config.hpp"
#include "core/model/inputs.hpp"
#include "core/tensor/tensor.hpp"

namespace attnlab {

constexpr int64_t kMaxSweepTokens = 256;

// One key block visited by one query block.
struct SweepStep {
  int64_t query_block = 0, key_block = 0;
  int64_t row0 = 0, rows = 0;  // the query rows [row0, row0 + rows)
  int64_t col0 = 0, cols = 0;  // the keys [col0, col0 + cols)
  TileKind kind = TileKind::Full;
  std::vector<float> m_before, l_before, m_after, l_after;  // (rows); m = -inf: no key seen yet
  std::vector<float> rescale;  // (rows): exp(m_before - m_after), 0 when m_before was -inf
  // (rows, cols) the tile's scaled scores plus its bias (ALiBi), -inf where a mask hides the
  // key; empty when skipped.
  std::vector<float> scores;
  // (rows, d_v) the query block's output as it stands after this tile: acc / l (0 where l = 0).
  std::vector<float> partial_out;
};

struct FlashSweep {
  int64_t batch_index = 0, head = 0;
  int64_t T = 0, Tk = 0, d_v = 0;
  TileSizes tiles;
  std::vector<SweepStep> steps;
  // (T, d_v) this head's context rows once the sweep is done (the tiled result).
  std::vector<float> context;
};

// Sweeps head `head` of sequence `batch_index` of `config` (inputs complete) through every tile.
// Throws UserError when flash_unavailable() refuses the config, T or T_k is above
// kMaxSweepTokens, or the head or sequence does not exist.
FlashSweep record_sweep(const Config& config, const Inputs& inputs, TileSizes tiles,
                        int64_t batch_index, int64_t head);

// Every row's m (or l) after each step, (steps, T): rows not reached yet hold the initial -inf
// (0 for l). What attnlab-cli --flash exports as flash_m and flash_l.
Tensor sweep_row_max(const FlashSweep& sweep);
Tensor sweep_row_sum(const FlashSweep& sweep);

}  // namespace attnlab
